//! Filters, sorts and projections over typed paths.
//!
//! Every condition names a field through its [`Path`] (so short keys cannot be bypassed) and takes a value of the
//! field's own type, encoded the way the field is stored. A value is always data: a document value is compared
//! with `$eq`, so keys chosen at run time can never turn into operators.
//!
//! ```
//! use odm::{Model, Filter, bson::{doc, oid::ObjectId}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "shop_review")]
//! struct Review {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "s")]
//!     stars: i32,
//!     #[serde(rename = "t")]
//!     #[odm(max_items = 10)]
//!     tags: Vec<String>,
//! }
//!
//! let f = Review::fields();
//! let filter = f.stars().gte(4).and(f.tags().contains("fast"));
//! assert_eq!(filter.into_document().unwrap(), doc! { "s": { "$gte": 4 }, "t": "fast" });
//! ```

use crate::error::{Error, Result};
use crate::meta::{name_paths, Marked};
use crate::model::Model;
use crate::path::{Access, ArrayFilter, ArrayLike, ArrayNode, AsPath, ElemNode, Path, Queryable, RawPath};
use bson::{Bson, Document};
use std::fmt;
use std::marker::PhantomData;

/// A query filter over documents of model `R`.
pub struct Filter<R> {
    doc: Document,
    error: Option<String>,
    _root: PhantomData<fn() -> R>,
}

impl<R> Clone for Filter<R> {
    fn clone(&self) -> Self {
        Filter { doc: self.doc.clone(), error: self.error.clone(), _root: PhantomData }
    }
}

impl<R> fmt::Debug for Filter<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.error {
            Some(e) => write!(f, "Filter(error: {})", name_paths(e, None)),
            None => write!(f, "Filter({})", self.doc),
        }
    }
}

impl<R> Default for Filter<R> {
    fn default() -> Self {
        Self::everything()
    }
}

impl<R> Filter<R> {
    fn from_result(r: Result<Document, String>) -> Self {
        match r {
            Ok(doc) => Filter { doc, error: None, _root: PhantomData },
            Err(e) => Filter { doc: Document::new(), error: Some(e), _root: PhantomData },
        }
    }

    pub(crate) fn from_document(doc: Document) -> Self {
        Filter { doc, error: None, _root: PhantomData }
    }

    /// The filter that matches every document (`{}`).
    pub fn everything() -> Self {
        Filter { doc: Document::new(), error: None, _root: PhantomData }
    }

    /// [`Filter::into_document`] with the paths in the reason still marked, for the collection to name them.
    pub(crate) fn into_marked(self) -> Result<Document, String> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.doc),
        }
    }

    /// The filter document as built so far (empty when building failed; see [`Filter::into_document`]).
    pub fn document(&self) -> &Document {
        &self.doc
    }

    fn merge_error(&mut self, other: &mut Option<String>) {
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
        if self.doc.is_empty() {
            self.doc = other.doc;
        } else if !other.doc.is_empty() {
            if other.doc.iter().any(|(k, v)| self.doc.get(k).is_some_and(|mine| !mergeable(mine, v))) {
                self.doc = bson::doc! { "$and": [Bson::Document(self.doc), Bson::Document(other.doc)] };
            } else {
                for (k, v) in other.doc {
                    match (self.doc.get_mut(&k), v) {
                        (Some(Bson::Document(mine)), Bson::Document(theirs)) => mine.extend(theirs),
                        (Some(_), _) => {}
                        (None, v) => {
                            self.doc.insert(k, v);
                        }
                    }
                }
            }
        }
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

    fn combine(op: &str, filters: impl IntoIterator<Item = Filter<R>>) -> Self {
        let mut error = None;
        let mut list = Vec::new();
        for f in filters {
            if error.is_none() {
                error = f.error;
            }
            list.push(Bson::Document(f.doc));
        }
        if let Some(e) = error {
            return Self::from_result(Err(e));
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
    fn on<W, A>(path: &Path<R, W, A>, cond: Result<Bson, String>) -> Self {
        let raw = &path.raw;
        let problem = match (raw.check(), cond) {
            (Err(e), _) => e,
            // A query reads `$`, `$[]` and `$[id]` as field names, so the condition would silently match nothing.
            (Ok(()), _) if raw.positional => {
                format!("{}: a filter cannot use a positional path (name the array with `any`)", Marked(&raw.key))
            }
            (Ok(()), Err(e)) => e,
            (Ok(()), Ok(c)) => {
                let mut doc = Document::new();
                if let Some((tag, value)) = raw.variant() {
                    // A variant's field: only documents of that variant.
                    doc.insert(tag, value);
                }
                doc.insert(String::from(&*raw.key), c);
                return Filter { doc, error: None, _root: PhantomData };
            }
        };
        Self::from_result(Err(problem))
    }
}

fn op(name: &str, value: Bson) -> Bson {
    let mut d = Document::new();
    d.insert(name, value);
    Bson::Document(d)
}

impl<R, W, A> Path<R, W, A> {
    #[inline]
    fn encode_into(&self, value: impl Into<W>) -> Result<Bson, String> {
        self.encode(&value.into())
    }

    fn encode_all(&self, values: impl IntoIterator<Item = impl Into<W>>) -> Result<Bson, String> {
        values.into_iter().map(|v| self.encode_into(v)).collect::<Result<Vec<_>, _>>().map(Bson::Array)
    }

    /// Equal to `value` (`{k: v}`; `{k: {$eq: v}}` for document values, so their keys stay data).
    pub fn eq(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| if matches!(v, Bson::Document(_)) { op("$eq", v) } else { v }))
    }

    /// Not equal to `value` (also matches documents without the field).
    pub fn ne(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$ne", v)))
    }

    /// Equal to one of `values` (`$in`).
    pub fn is_in(&self, values: impl IntoIterator<Item = impl Into<W>>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_all(values).map(|v| op("$in", v)))
    }

    /// Equal to none of `values` (`$nin`).
    pub fn not_in(&self, values: impl IntoIterator<Item = impl Into<W>>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_all(values).map(|v| op("$nin", v)))
    }

    /// Greater than `value` (`$gt`).
    pub fn gt(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$gt", v)))
    }

    /// Greater than or equal to `value` (`$gte`).
    pub fn gte(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$gte", v)))
    }

    /// Less than `value` (`$lt`).
    pub fn lt(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$lt", v)))
    }

    /// Less than or equal to `value` (`$lte`).
    pub fn lte(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$lte", v)))
    }

    /// Within `[low, high]` (`$gte` and `$lte` in one condition).
    pub fn between(&self, low: impl Into<W>, high: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        let cond = self
            .encode_into(low)
            .and_then(|l| self.encode_into(high).map(|h| Bson::Document(bson::doc! { "$gte": l, "$lte": h })));
        Filter::on(self, cond)
    }

    /// The field is present (`true`) or absent (`false`).
    pub fn exists(&self, present: bool) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, Ok(op("$exists", Bson::Boolean(present))))
    }

    /// Ascending sort on this path.
    pub fn asc(&self) -> Sort<R>
    where
        A: Queryable,
    {
        Sort::by(self, 1)
    }

    /// Descending sort on this path.
    pub fn desc(&self) -> Sort<R>
    where
        A: Queryable,
    {
        Sort::by(self, -1)
    }
}

impl<R, W: ArrayLike, A> ArrayNode<R, W, A> {
    fn encode_item(&self, value: impl Into<W::Item>) -> Result<Bson, String> {
        crate::path::encode_schema(&value.into(), self.key())
    }

    /// The array holds an element equal to `value`.
    pub fn contains(&self, value: impl Into<W::Item>) -> Filter<R>
    where
        A: Queryable,
    {
        // `{k: {$eq: doc}}` matches an array holding `doc`; scalars match bare.
        let cond = self.encode_item(value).map(|v| if matches!(v, Bson::Document(_)) { op("$eq", v) } else { v });
        Filter::on(self, cond)
    }

    /// The array holds all of `values` (`$all`).
    pub fn contains_all(&self, values: impl IntoIterator<Item = impl Into<W::Item>>) -> Filter<R>
    where
        A: Queryable,
    {
        let cond = values.into_iter().map(|v| self.encode_item(v)).collect::<Result<Vec<_>, _>>();
        Filter::on(self, cond.map(|v| op("$all", Bson::Array(v))))
    }

    /// The array has exactly `len` elements (`$size`; it cannot use an index: prefer a counter for queries by size).
    pub fn len_is(&self, len: u32) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, Ok(op("$size", Bson::Int64(i64::from(len)))))
    }

    /// Some element satisfies `cond`, built from a path to the element (`$elemMatch`).
    pub fn any(&self, cond: impl FnOnce(ElemNode<R, W, A>) -> Filter<R>) -> Filter<R>
    where
        A: Queryable,
    {
        let inner = cond(self.element_root()).into_marked().and_then(|d| element_condition(d, self.key()));
        Filter::on(
            self,
            inner.map(|c| match c {
                Element::Itself(Bson::Document(ops)) => op("$elemMatch", Bson::Document(ops)),
                Element::Itself(v) => op("$elemMatch", op("$eq", v)),
                Element::Fields(d) => op("$elemMatch", Bson::Document(d)),
            }),
        )
    }

    // Defined beside the filters rather than with the other element paths: its condition is a filter, and paths
    // come before filters.
    /// The elements selected by an array filter (`$[identifier]`), whose condition `select` builds from a path to
    /// the element. The condition travels with the path into the update's `arrayFilters`.
    ///
    /// `identifier` must start with a lowercase ASCII letter and be alphanumeric; otherwise the update is refused
    /// before sending.
    pub fn filtered(
        &self,
        identifier: &'static str,
        select: impl FnOnce(ElemNode<R, W, A>) -> Filter<R>,
    ) -> ElemNode<R, W, A>
    where
        A: Access,
    {
        let segment = format!("$[{identifier}]");
        let mut raw = self.raw.descend(self.raw.join(&segment), true);
        let valid = identifier.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && identifier.chars().all(|c| c.is_ascii_alphanumeric());
        if !valid {
            let key = raw.key.clone();
            raw.set_defect(|| {
                format!(
                    "array filter identifier `{identifier}` in {}: it must start with a lowercase letter and be \
                     alphanumeric",
                    Marked(&key)
                )
            });
        }
        let root = RawPath::from_key(identifier);
        let filter = select(Path::<R, W::Item, A::Elem>::with_raw(root).into());
        match filter.into_marked() {
            Ok(condition) => raw.add_array_filter(ArrayFilter { identifier, condition }),
            Err(e) => raw.set_defect(|| e),
        }
        Path::<R, W::Item, A::Elem>::with_raw(raw).into()
    }
}

/// A condition built from a path to an array element (by `any` or `pull_where`).
pub(crate) enum Element {
    /// On the element itself: one operator document (`{$gte: 4, $lte: 6}`), or a value it equals.
    Itself(Bson),
    /// On fields of the element (`{p: {$gt: 100}}`).
    Fields(Document),
}

/// True when `d` holds a condition on the element itself (the empty key), at its top level or inside `$and`, `$or`
/// or `$nor`.
fn on_element(d: &Document) -> bool {
    d.iter().any(|(k, v)| match (k.as_str(), v) {
        ("", _) => true,
        ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
            clauses.iter().any(|c| matches!(c, Bson::Document(c) if on_element(c)))
        }
        _ => false,
    })
}

/// Splits `d` into its conjuncts: the entries of `$and` clauses are conditions of `d` itself (`and` writes two
/// conditions on one key as `$and`).
fn conjuncts(d: Document, out: &mut Vec<(String, Bson)>) {
    for (k, v) in d {
        match (k.as_str(), v) {
            ("$and", Bson::Array(clauses)) if clauses.iter().all(|c| matches!(c, Bson::Document(_))) => {
                for c in clauses {
                    if let Bson::Document(c) = c {
                        conjuncts(c, out);
                    }
                }
            }
            (_, v) => out.push((k, v)),
        }
    }
}

/// Reads a condition built from a path to an element of the array at `at`. Conditions on the element itself come
/// back under the empty key; those joined by `and` merge into one operator document, since `$elemMatch` and `$pull`
/// apply operators to the element only at the top level (`{$and: [{"": …}]}` would look for a field named `""`, and
/// match nothing). `or` and `none_of` of them, or a mix with conditions on the element's fields, cannot be written.
pub(crate) fn element_condition(d: Document, at: &str) -> Result<Element, String> {
    if !on_element(&d) {
        return Ok(Element::Fields(d));
    }
    let mut parts = Vec::new();
    conjuncts(d, &mut parts);
    if parts.iter().any(|(k, _)| !k.is_empty()) {
        return Err(format!(
            "{}: a condition on the array element itself can only be combined with `and` of other such \
             conditions (for alternatives use `is_in`/`not_in`, or `any(a).or(any(b))`)",
            Marked(at)
        ));
    }
    if let [(_, v)] = parts.as_slice() {
        return Ok(Element::Itself(v.clone()));
    }
    let mut ops = Document::new();
    for (_, v) in parts {
        let entries = match v {
            Bson::Document(o) if !o.is_empty() && o.keys().all(|k| k.starts_with('$')) => o,
            value => bson::doc! { "$eq": value },
        };
        for (name, operand) in entries {
            if ops.contains_key(&name) {
                return Err(format!(
                    "{}: `{name}` is applied twice to the array element itself (use `between`, `is_in` or one \
                     bound)",
                    Marked(at)
                ));
            }
            ops.insert(name, operand);
        }
    }
    Ok(Element::Itself(Bson::Document(ops)))
}

/// A sort order over documents of model `R`: `f.stars().desc().then(f.id().asc())`.
pub struct Sort<R> {
    doc: Document,
    error: Option<String>,
    _root: PhantomData<fn() -> R>,
}

impl<R> Clone for Sort<R> {
    fn clone(&self) -> Self {
        Sort { doc: self.doc.clone(), error: self.error.clone(), _root: PhantomData }
    }
}

impl<R> fmt::Debug for Sort<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sort({})", self.doc)
    }
}

impl<R> Sort<R> {
    fn by<W, A>(path: &Path<R, W, A>, dir: i32) -> Self {
        let mut s = Sort { doc: Document::new(), error: None, _root: PhantomData };
        s.push(path, dir);
        s
    }

    fn push<W, A>(&mut self, path: &Path<R, W, A>, dir: i32) {
        if let Err(e) = path.raw.check() {
            self.error.get_or_insert(e);
        } else if path.raw.positional {
            self.error.get_or_insert(format!("{}: a sort cannot use a positional path", Marked(path.key())));
        } else if self.doc.contains_key(path.key()) {
            self.error.get_or_insert(format!("{} appears twice in the sort", Marked(path.key())));
        }
        self.doc.insert(path.key().to_owned(), dir);
    }

    /// Then by `next` (ties of this order).
    pub fn then(mut self, next: Sort<R>) -> Self {
        if let Some(e) = next.error {
            self.error.get_or_insert(e);
        }
        for (k, v) in next.doc {
            if self.doc.contains_key(&k) {
                self.error.get_or_insert(format!("{} appears twice in the sort", Marked(&k)));
            }
            self.doc.insert(k, v);
        }
        self
    }

    /// [`Sort::into_document`] with the paths in the reason still marked, for the collection to name them.
    pub(crate) fn into_marked(self) -> Result<Document, String> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.doc),
        }
    }
}

/// Which fields a read returns (project early: only what is read crosses the network). Either an inclusion or an
/// exclusion list.
///
/// ```
/// # use odm::{Model, Projection, bson::{doc, oid::ObjectId}};
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "shop_review")]
/// # struct Review { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "s")] stars: i32 }
/// let f = Review::fields();
/// let p = Projection::only().field(&f.stars()).without_id();
/// assert_eq!(p.into_document().unwrap(), doc! { "s": 1, "_id": 0 });
/// ```
pub struct Projection<R> {
    doc: Document,
    include: bool,
    error: Option<String>,
    _root: PhantomData<fn() -> R>,
}

impl<R> fmt::Debug for Projection<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Projection({})", self.doc)
    }
}

impl<R> Clone for Projection<R> {
    fn clone(&self) -> Self {
        Projection { doc: self.doc.clone(), include: self.include, error: self.error.clone(), _root: PhantomData }
    }
}

impl<R> Projection<R> {
    /// Return only the fields listed with [`Projection::field`] (and `_id` unless [`Projection::without_id`]).
    pub fn only() -> Self {
        Projection { doc: Document::new(), include: true, error: None, _root: PhantomData }
    }

    /// Return every field except those listed with [`Projection::field`].
    pub fn except() -> Self {
        Projection { doc: Document::new(), include: false, error: None, _root: PhantomData }
    }

    /// Adds a field to the list.
    pub fn field<P: AsPath<R>>(mut self, path: &P) -> Self
    where
        P::Access: Queryable,
    {
        let raw = &path.as_path().raw;
        if let Err(e) = raw.check() {
            self.error.get_or_insert(e);
        } else if raw.positional {
            self.error.get_or_insert(format!("{}: a projection cannot use a positional path", Marked(&raw.key)));
        } else if let Some(clash) = self.doc.keys().find(|k| overlaps(k, &raw.key)) {
            self.error.get_or_insert(format!("{} overlaps {} in the projection", Marked(&raw.key), Marked(clash)));
        }
        self.doc.insert(raw.key.clone().into_owned(), if self.include { 1 } else { 0 });
        self
    }

    /// Leaves `_id` out of the result (the server includes it by default).
    pub fn without_id(mut self) -> Self {
        self.doc.insert("_id", 0);
        self
    }

    /// [`Projection::into_document`] with the paths in the reason still marked, for the collection to name them.
    pub(crate) fn into_marked(self) -> Result<Document, String> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.doc),
        }
    }
}

impl<M: Model> Filter<M> {
    /// The filter document, or [`Error::InvalidOperation`] saying why it cannot be sent (a value that failed to
    /// encode, a bad map key), with Rust paths beside stored ones.
    pub fn into_document(self) -> Result<Document> {
        self.into_marked().map_err(|e| Error::invalid_operation::<M>(&e))
    }
}

impl<M: Model> Sort<M> {
    /// The sort document, or [`Error::InvalidOperation`] saying why it cannot be sent.
    pub fn into_document(self) -> Result<Document> {
        self.into_marked().map_err(|e| Error::invalid_operation::<M>(&e))
    }
}

impl<M: Model> Projection<M> {
    /// The projection document, or [`Error::InvalidOperation`] saying why it cannot be sent.
    pub fn into_document(self) -> Result<Document> {
        self.into_marked().map_err(|e| Error::invalid_operation::<M>(&e))
    }
}

/// True when two dotted paths are equal or one is a prefix of the other (segment-wise).
#[inline]
pub(crate) fn overlaps(a: &str, b: &str) -> bool {
    if a.as_bytes().first() != b.as_bytes().first() {
        return false;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    long.starts_with(short) && (long.len() == short.len() || long.as_bytes()[short.len()] == b'.')
}

impl<N> crate::path::Variant<N> {
    /// The documents of this variant only: `{tag: value}` on the discriminator.
    ///
    /// ```
    /// use odm::{Model, bson::doc};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Model, Serialize, Deserialize)]
    /// #[odm(collection = "web_event")]
    /// #[serde(tag = "t", rename_all = "snake_case")]
    /// enum Event {
    ///     Click { x: i32 },
    ///     Purchase { #[serde(rename = "amt")] amount: i64 },
    /// }
    ///
    /// let f = Event::fields();
    /// assert_eq!(f.purchase().only().into_document().unwrap(), doc! { "t": "purchase" });
    /// assert_eq!(f.purchase().amount().gt(10).into_document().unwrap(), doc! { "t": "purchase", "amt": { "$gt": 10_i64 } });
    /// ```
    pub fn only<R>(&self) -> Filter<R>
    where
        N: AsPath<R>,
    {
        match self.as_path().raw.variant() {
            Some((tag, value)) => Filter::from_document(bson::doc! { tag: value }),
            None => Filter::everything(),
        }
    }
}

/// Two conditions on one field that one document holds: the same, or operators (`{$gte: …}`, `{$lt: …}`) that do not
/// overlap.
fn mergeable(a: &Bson, b: &Bson) -> bool {
    let operators = |v: &Bson| match v {
        Bson::Document(d) if !d.is_empty() && d.keys().all(|k| k.starts_with('$')) => Some(d.clone()),
        _ => None,
    };
    if a == b {
        return true;
    }
    match (operators(a), operators(b)) {
        (Some(x), Some(y)) => !x.keys().any(|k| y.contains_key(k)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::overlaps;

    #[test]
    fn overlap_is_segment_wise() {
        assert!(overlaps("a", "a"));
        assert!(overlaps("a", "a.b"));
        assert!(overlaps("a.b.c", "a.b"));
        assert!(!overlaps("a", "ab"));
        assert!(!overlaps("a.b", "a.c"));
        assert!(!overlaps("it.$[].p", "it.$[x].p"));
    }
}
