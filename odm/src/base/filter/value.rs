//! The [`Filter`] value and its combinators (`and`, `or`, `all_of`, `any_of`, `none_of`), merging conditions on one
//! field where one document holds both.

use crate::base::document::put;
use crate::base::error::{Clause, Error, Invalid, NamedPath, Result};
use crate::base::model::Model;
use crate::base::path::{Path, RawPath};
use bson::{Bson, Document};
use std::fmt;
use std::marker::PhantomData;

/// A query filter over documents of model `R`.
pub struct Filter<R> {
    conds: Conds,
    /// Boxed: filters are moved often, and most have no error.
    error: Option<Box<Invalid>>,
    _root: PhantomData<fn() -> R>,
}

/// The conditions as built. Most filters are one condition, or two joined by `and`: a lone condition waits as its
/// key and value, so that joining two builds one document instead of two merged into one (each a hasher state and
/// two allocations), and the document is made once, when the filter is used.
#[derive(Clone, Debug)]
enum Conds {
    /// No condition (`{}`).
    Empty,
    /// `{key: condition}`.
    One(String, Bson),
    /// Several conditions, as the document sent.
    Many(Document),
}

impl Conds {
    #[inline(always)]
    fn into_document(self) -> Document {
        match self {
            Conds::One(key, cond) => {
                let mut doc = Document::new();
                put(&mut doc, key, cond);
                doc
            }
            Conds::Many(doc) => doc,
            Conds::Empty => Document::new(),
        }
    }
}

impl<R> Clone for Filter<R> {
    fn clone(&self) -> Self {
        Filter { conds: self.conds.clone(), error: self.error.clone(), _root: PhantomData }
    }
}

impl<R> fmt::Debug for Filter<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.error {
            Some(e) => write!(f, "Filter(error: {e})"),
            None => write!(f, "Filter({})", self.to_document()),
        }
    }
}

impl<R> Default for Filter<R> {
    fn default() -> Self {
        Self::everything()
    }
}

impl<R> Filter<R> {
    pub(super) fn from_result(r: Result<Document, Invalid>) -> Self {
        match r {
            Ok(doc) => Self::from_document(doc),
            Err(e) => Filter { conds: Conds::Empty, error: Some(Box::new(e)), _root: PhantomData },
        }
    }

    pub(crate) fn from_document(doc: Document) -> Self {
        Filter { conds: Conds::Many(doc), error: None, _root: PhantomData }
    }

    /// The filter that matches every document (`{}`).
    pub fn everything() -> Self {
        Filter { conds: Conds::Empty, error: None, _root: PhantomData }
    }

    /// [`Filter::into_document`] with the paths of the cause not named yet, for the collection to name them.
    #[inline]
    pub(crate) fn into_marked(self) -> Result<Document, Invalid> {
        match self.error {
            Some(e) => Err(*e),
            None => Ok(self.conds.into_document()),
        }
    }

    /// A copy of the filter document as built so far (empty when building failed; see [`Filter::into_document`]).
    ///
    /// ```
    /// # use odm::{Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// let f = Order::fields();
    /// let range = f.amount().gte(10).and(f.amount().lt(20));
    /// assert_eq!(range.to_document(), doc! { "am": { "$gte": 10_i64, "$lt": 20_i64 } });
    /// ```
    pub fn to_document(&self) -> Document {
        self.conds.clone().into_document()
    }

    pub(super) fn merge_error(&mut self, other: &mut Option<Box<Invalid>>) {
        if self.error.is_none() {
            self.error = other.take();
        }
    }

    /// Both conditions. Disjoint fields stay one document (`{a: 1, b: 2}`), and so do equal conditions on one field
    /// (two fields of one variant share its discriminator) and different operators on one field: a half-open range
    /// `f.at().gte(a).and(f.at().lt(b))` is `{at: {$gte: a, $lt: b}}`, one condition the planner bounds one index
    /// scan with. Otherwise `$and`.
    pub fn and(mut self, mut other: Filter<R>) -> Self {
        self.merge_error(&mut other.error);
        self.conds = match (self.conds, other.conds) {
            (Conds::Empty, c) | (c, Conds::Empty) => c,
            // Two conditions on different fields, the usual case: one document of both.
            (Conds::One(k1, v1), Conds::One(k2, v2)) if k1 != k2 => {
                let mut doc = Document::new();
                put(&mut doc, k1, v1);
                put(&mut doc, k2, v2);
                Conds::Many(doc)
            }
            (mine, theirs) => and_documents(mine.into_document(), theirs.into_document()),
        };
        self
    }

    /// Either condition (`$or`).
    pub fn or(self, other: Filter<R>) -> Self {
        Self::any_of([self, other])
    }

    /// All of the conditions (`$and`); no conditions match everything.
    pub fn all_of(filters: impl IntoIterator<Item = Filter<R>>) -> Self {
        filters.into_iter().fold(Self::everything(), Filter::and)
    }

    /// Any of the conditions (`$or`). No conditions match nothing.
    pub fn any_of(filters: impl IntoIterator<Item = Filter<R>>) -> Self {
        Self::combine("$or", filters)
    }

    /// None of the conditions (`$nor`). No conditions match everything.
    pub fn none_of(filters: impl IntoIterator<Item = Filter<R>>) -> Self {
        Self::combine("$nor", filters)
    }

    pub(super) fn combine(op: &str, filters: impl IntoIterator<Item = Filter<R>>) -> Self {
        let mut error = None;
        let mut list = Vec::new();
        for f in filters {
            if error.is_none() {
                error = f.error;
            }
            list.push(Bson::Document(f.conds.into_document()));
        }
        if let Some(e) = error {
            return Self::from_result(Err(*e));
        }
        if list.is_empty() && op == "$nor" {
            return Self::everything();
        }
        if list.is_empty() {
            // `$or: []` is refused by the server; this matches nothing, as an empty disjunction should.
            return Self::from_result(Ok(bson::doc! { "_id": { "$exists": false, "$type": "null" } }));
        }
        let mut doc = Document::new();
        doc.insert(op, list);
        Self::from_result(Ok(doc))
    }

    /// The condition `cond` on a path (the path's defects become the filter's error).
    #[inline]
    pub(super) fn on<W, A>(path: &Path<R, W, A>, cond: Result<Bson, Invalid>) -> Self {
        let raw = &path.raw;
        match cond {
            // Most paths carry no defect, variant or positional segment: the condition is the whole filter.
            Ok(c) if raw.is_plain() => Self::single(&raw.key, c),
            cond => Self::on_path(raw, cond),
        }
    }

    /// The filter `{key: cond}`.
    #[inline(always)]
    pub(super) fn single(key: &str, cond: Bson) -> Self {
        Filter { conds: Conds::One(String::from(key), cond), error: None, _root: PhantomData }
    }

    /// [`Filter::on`] for a path with a defect, a variant or a positional segment, or a condition that failed.
    #[inline(never)]
    fn on_path(raw: &RawPath, cond: Result<Bson, Invalid>) -> Self {
        let problem = match (raw.check(), cond) {
            (Err(e), _) => e,
            // A query reads `$`, `$[]` and `$[id]` as field names, so the condition would silently match nothing.
            (Ok(()), _) if raw.positional => {
                Invalid::Positional { path: NamedPath::at(raw.key.as_ref()), clause: Clause::Filter }
            }
            (Ok(()), Err(e)) => e,
            (Ok(()), Ok(c)) => {
                let mut doc = Document::new();
                if let Some((tag, value)) = raw.variant() {
                    // A variant's field: only documents of that variant.
                    doc.insert(tag, value);
                }
                doc.insert(String::from(&*raw.key), c);
                return Self::from_document(doc);
            }
        };
        Self::from_result(Err(problem))
    }
}

/// `mine` and `theirs` in one document where every condition of `theirs` merges into `mine` (see
/// [`Filter::and`]), otherwise under `$and`.
fn and_documents(mut mine: Document, theirs: Document) -> Conds {
    if mine.is_empty() {
        return Conds::Many(theirs);
    }
    if theirs.is_empty() {
        return Conds::Many(mine);
    }
    if theirs.iter().any(|(k, v)| mine.get(k).is_some_and(|m| !mergeable(k, m, v))) {
        return Conds::Many(bson::doc! { "$and": [Bson::Document(mine), Bson::Document(theirs)] });
    }
    for (k, v) in theirs {
        match (mine.get_mut(&k), v) {
            (Some(Bson::Document(m)), Bson::Document(t)) => m.extend(t),
            (Some(_), _) => {}
            (None, v) => {
                mine.insert(k, v);
            }
        }
    }
    Conds::Many(mine)
}

impl<M: Model> Filter<M> {
    /// The filter document, or [`Error::InvalidOperation`] saying why it cannot be sent (a value that failed to
    /// encode, a bad map key), with Rust paths beside stored ones.
    #[inline(always)]
    pub fn into_document(self) -> Result<Document> {
        if let Some(e) = self.error {
            return Err(refused::<M>(*e));
        }
        Ok(self.conds.into_document())
    }
}

/// The error of a filter that cannot be sent (apart, so that [`Filter::into_document`] stays small enough to inline).
#[cold]
#[inline(never)]
fn refused<M: Model>(why: Invalid) -> Error {
    Error::invalid_operation::<M>(why)
}

/// Two conditions under one key that one document holds: the same, or operators on a field (`{$gte: …}`, `{$lt: …}`)
/// that do not overlap. Two different top-level operators (`$expr`, `$or`) never merge: `{$expr: {$lt: …, $gt: …}}`
/// is not an expression.
fn mergeable(key: &str, a: &Bson, b: &Bson) -> bool {
    fn operators(v: &Bson) -> Option<&Document> {
        match v {
            Bson::Document(d) if !d.is_empty() && d.keys().all(|k| k.starts_with('$')) => Some(d),
            _ => None,
        }
    }
    if a == b {
        return true;
    }
    if key.starts_with('$') {
        return false;
    }
    match (operators(a), operators(b)) {
        (Some(x), Some(y)) => !x.keys().any(|k| y.contains_key(k)),
        _ => false,
    }
}
