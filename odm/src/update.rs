//! Targeted updates typed by the field they target, with array counters kept in step in the same update.
//!
//! ```
//! use odm::{Model, Update, bson::{doc, oid::ObjectId}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "shop_review")]
//! struct Review {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "s")]
//!     stars: i32,
//!     #[serde(rename = "vi")]
//!     #[odm(max_items = 1000, counter = "helpful_votes")]
//!     voter_ids: Vec<ObjectId>,
//!     #[serde(rename = "hv")]
//!     helpful_votes: i32,
//! }
//!
//! let f = Review::fields();
//! let voter = ObjectId::new();
//! let u = Update::new().set(f.stars(), 5).add_to_set(f.voter_ids(), voter).build().unwrap();
//! assert_eq!(u.update, doc! { "$set": { "s": 5 }, "$push": { "vi": voter }, "$inc": { "hv": 1 } });
//! // The vote counts only if this voter has not voted yet: the filter says so.
//! assert_eq!(u.guard, Some(doc! { "vi": { "$ne": voter } }));
//! ```

use crate::diff::{Change, Diff, DiffOp, DiffPath};
use crate::error::Error;
use crate::filter::{element_condition, overlaps, Element, Filter, Sort};
use crate::meta::{name_paths, Marked};
use crate::model::Model;
use crate::path::{
    check_dynamic_keys, Access, ArrayFilter, ArrayLike, ArrayWritable, AsPath, Counted, ElemNode, IdField, Plain,
    RawPath, Settable, ShardKeyField, Uncounted, Writable,
};
use crate::schema::BsonSchema;
use bson::{Bson, Document};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// The update operators odm writes, in the order `build` writes them.
#[derive(Copy, Clone, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub(crate) enum Operator {
    Set,
    Unset,
    Inc,
    Mul,
    Min,
    Max,
    CurrentDate,
    SetOnInsert,
    /// `$push`: the value is the element, or a `{$each, …}` spec.
    Push,
    AddToSet,
    Pull,
    Pop,
}

impl Operator {
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Operator::Set => "$set",
            Operator::Unset => "$unset",
            Operator::Inc => "$inc",
            Operator::Mul => "$mul",
            Operator::Min => "$min",
            Operator::Max => "$max",
            Operator::CurrentDate => "$currentDate",
            Operator::SetOnInsert => "$setOnInsert",
            Operator::Push => "$push",
            Operator::AddToSet => "$addToSet",
            Operator::Pull => "$pull",
            Operator::Pop => "$pop",
        }
    }
}

/// A targeted update of documents of model `R`. Build it with the typed methods, then run it with
/// [`crate::Collection::update_one`], [`crate::Collection::update_many`], [`crate::Collection::upsert_one`] or
/// [`crate::Collection::find_one_and_update`]. Problems (two operators on one path, a value that does not encode)
/// are kept and reported before anything is sent.
pub struct Update<R> {
    /// One document per operator (`$set` → `{path: value, …}`), filled as operators are added, in first-use order.
    groups: Vec<(Operator, Document)>,
    /// One bit per first path segment written (hashed): two paths can only conflict when their first segments are
    /// equal, so `build` compares paths only when a bit was hit twice.
    segments: u64,
    /// True when a segment bit was hit twice: paths may overlap.
    may_overlap: bool,
    /// Guards, array filters and the first problem, boxed: most updates have none, and every builder call moves the
    /// update.
    extra: Option<Box<Extra>>,
    _root: PhantomData<fn() -> R>,
}

/// The rarely present parts of an [`Update`].
#[derive(Clone, Debug)]
struct Extra {
    guard: Document,
    array_filters: Vec<ArrayFilter>,
    error: Option<String>,
    /// For updates of a variant's fields (polymorphic models): the discriminator and the variant's value, which the
    /// filter must hold too.
    variant: Option<(&'static str, &'static str)>,
}

impl<R> Clone for Update<R> {
    fn clone(&self) -> Self {
        Update {
            groups: self.groups.clone(),
            segments: self.segments,
            may_overlap: self.may_overlap,
            extra: self.extra.clone(),
            _root: PhantomData,
        }
    }
}

impl<R> fmt::Debug for Update<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let extra = self.extra.as_deref();
        f.debug_struct("Update")
            .field("operators", &self.groups)
            .field("guard", &extra.map(|e| &e.guard))
            .field("error", &extra.and_then(|e| e.error.as_deref()).map(|e| name_paths(e, None)))
            .finish()
    }
}

impl<R> Default for Update<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// An update ready to send: the update document, the conditions it adds to the filter (guards that make a
/// counter's change known), and its `arrayFilters`.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltUpdate {
    /// The update document (`{$set: …, $push: …, $inc: …}`).
    pub update: Document,
    /// Conditions to add to the filter, if any.
    pub guard: Option<Document>,
    /// `arrayFilters` for filtered positional paths (`$[id]`).
    pub array_filters: Vec<Document>,
    /// For an update of a variant's fields (a polymorphic model): `{tag: value}`, added to the filter so that only
    /// documents of that variant are written (an upsert inserts one of that variant).
    pub variant: Option<Document>,
}

/// Types `$inc` and `$mul` apply to; the operand has the field's own type, so the stored BSON type is kept.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number: `$inc` and `$mul` need an integer, float or decimal field (rule \
               `update-operator-type`)",
    label = "not a numeric field"
)]
pub trait Numeric {
    /// The operand type.
    type Operand: BsonSchema + serde::Serialize;
}
macro_rules! numeric {
    ($($t:ty),*) => {$(impl Numeric for $t { type Operand = $t; })*};
}
numeric!(i8, i16, i32, u8, u16, i64, u32, f32, f64, bson::Decimal128);
impl<T: Numeric> Numeric for Option<T> {
    type Operand = T::Operand;
}

/// Fields that may be absent: only these can be `$unset` (a required field must stay, or the validator refuses).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a required field: only an `Option` field can be `$unset` (rule `update-operator-type`)",
    label = "required by the validator",
    note = "make the field `Option<...>` with `#[serde(skip_serializing_if = \"Option::is_none\")]` if it may be absent"
)]
pub trait Optional {}
impl<T> Optional for Option<T> {}

/// Fields `$currentDate` can write: dates and timestamps.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a date: `$currentDate` writes a BSON date or timestamp (rule `update-operator-type`)",
    label = "not a `bson::DateTime` or `bson::Timestamp` field"
)]
pub trait DateLike {
    /// `$currentDate`'s operand (`true` for a date, `{$type: "timestamp"}`).
    fn operand() -> Bson;
}
impl DateLike for bson::DateTime {
    fn operand() -> Bson {
        Bson::Boolean(true)
    }
}
impl DateLike for bson::Timestamp {
    fn operand() -> Bson {
        Bson::Document(bson::doc! { "$type": "timestamp" })
    }
}
impl<T: DateLike> DateLike for Option<T> {
    fn operand() -> Bson {
        T::operand()
    }
}

/// Paths `$setOnInsert` may write: plain fields, and `_id` and shard keys, which an upsert writes once.
#[diagnostic::on_unimplemented(
    message = "`$setOnInsert` cannot write this field (`{Self}`) (rule `update-protected`)",
    label = "a counter or counted array would be written without its partner, and the revision is odm's to write",
    note = "push to the counted array instead: the counter follows in the same update; the revision \
            (RevisionField) needs no `$setOnInsert`: an upsert that inserts starts it at 1"
)]
pub trait InsertSettable: Access {}
impl InsertSettable for Plain {}
impl InsertSettable for IdField {}
impl InsertSettable for ShardKeyField {}

/// `$push` modifiers without `$slice`.
pub enum Unsliced {}
/// `$push` modifiers with `$slice`.
pub enum Sliced {}

/// Which arrays take a `$slice`: only those without a counter (the number of elements cut is unknown).
#[diagnostic::on_unimplemented(
    message = "this `$push` is not offered on this array (`{Self}`) (rule `update-protected`)",
    label = "a counted array takes no `$slice`: the number of elements it cuts cannot be known, so the counter could \
             not be kept in step",
    note = "drop the `slice`, or declare `#[odm(max_items = N, keep_last)]` on an array without counter to keep only \
            the last N; arrays under `_id` (IdField) or a shard key (ShardKeyField) take no `$push` at all"
)]
pub trait AllowsSlice<S>: ArrayWritable {}
impl AllowsSlice<Unsliced> for Plain {}
impl AllowsSlice<Unsliced> for Counted {}
impl AllowsSlice<Sliced> for Plain {}
/// Never constructed. With a single impl for `Counted`, rustc would infer `S = Unsliced` from it before reading the
/// modifiers closure, so a `.slice(n)` on a counted array would be a bare type mismatch instead of this trait's
/// message; a second impl keeps `S` to be inferred from the closure.
#[doc(hidden)]
pub enum NoModifiers {}
#[diagnostic::do_not_recommend]
impl AllowsSlice<NoModifiers> for Counted {}

/// The types a [`Modifiers`] is about: root model, array type, access, slice state.
type ModifierTypes<R, W, A, S> = PhantomData<fn() -> (R, W, A, S)>;

/// `$push` modifiers: `$position`, `$sort`, `$slice` (see [`Update::push_with`]).
pub struct Modifiers<R, W, A, S = Unsliced> {
    position: Option<i32>,
    sort: Option<Result<Bson, String>>,
    slice: Option<i32>,
    _marker: ModifierTypes<R, W, A, S>,
}

impl<R, W: ArrayLike, A: Access, S> Modifiers<R, W, A, S> {
    /// Insert at `index` (negative counts from the end).
    pub fn position(mut self, index: i32) -> Self {
        self.position = Some(index);
        self
    }

    /// Sort the whole array ascending afterwards (scalar elements).
    pub fn sort_asc(mut self) -> Self {
        self.sort = Some(Ok(Bson::Int32(1)));
        self
    }

    /// Sort the whole array descending afterwards (scalar elements).
    pub fn sort_desc(mut self) -> Self {
        self.sort = Some(Ok(Bson::Int32(-1)));
        self
    }

    /// Sort the array by fields of its elements afterwards: `|e| e.price().desc()`.
    pub fn sort_by(mut self, order: impl FnOnce(ElemNode<R, W, A>) -> Sort<R>) -> Self {
        let root = crate::path::Path::<R, W::Item, A::Elem>::with_raw(RawPath::default());
        self.sort = Some(order(root.into()).into_marked().map(Bson::Document));
        self
    }

    /// Keep the first `n` (positive) or last `-n` (negative) elements afterwards. Not offered on counted arrays.
    pub fn slice(self, n: i32) -> Modifiers<R, W, A, Sliced> {
        Modifiers { position: self.position, sort: self.sort, slice: Some(n), _marker: PhantomData }
    }
}

impl<R> Update<R> {
    /// An empty update.
    pub fn new() -> Self {
        // Most updates use a few operators: one allocation up front, no growth on the first ones.
        Update { groups: Vec::with_capacity(4), segments: 0, may_overlap: false, extra: None, _root: PhantomData }
    }

    /// True when no operator has been added.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// True when building found a problem (reported by [`Update::build`]).
    pub(crate) fn has_error(&self) -> bool {
        self.extra.as_ref().is_some_and(|e| e.error.is_some())
    }

    fn extra(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(|| {
            Box::new(Extra { guard: Document::new(), array_filters: Vec::new(), error: None, variant: None })
        })
    }

    fn fail(&mut self, why: String) {
        self.extra().error.get_or_insert(why);
    }

    /// Records an operator on `raw`, checking the path first.
    fn add(&mut self, raw: &RawPath, op: Operator, value: Result<Bson, String>) {
        if let Err(e) = raw.check() {
            return self.fail(e);
        }
        if let Some((tag, value)) = raw.variant() {
            match self.extra().variant {
                Some((_, first)) if first != value => {
                    return self.fail(format!(
                        "the update writes {} of variant `{value}` and fields of variant `{first}`, but a document is \
                         one variant (its `{tag}`): update each variant's documents separately",
                        Marked(&raw.key)
                    ))
                }
                _ => self.extra().variant = Some((tag, value)),
            }
        }
        match value {
            Ok(value) => {
                for f in raw.array_filters() {
                    let known = &mut self.extra().array_filters;
                    match known.iter().find(|g| g.identifier == f.identifier) {
                        Some(g) if g.condition != f.condition => {
                            return self.fail(format!(
                                "array filter identifier `{}` is used with two different conditions",
                                f.identifier
                            ))
                        }
                        Some(_) => {}
                        None => known.push(f.clone()),
                    }
                }
                self.note_path(&raw.key);
                if self.group(op).insert(raw.key.clone().into_owned(), value).is_some() {
                    self.fail(conflict(&raw.key, op.name(), &raw.key, op.name()));
                }
            }
            Err(e) => self.fail(e),
        }
    }

    /// Records the first segment of a written path (see `segments`).
    fn note_path(&mut self, key: &str) {
        let first = key.split('.').next().unwrap_or_default();
        let hash = first.bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
        let bit = 1u64 << (hash % 64);
        self.may_overlap |= self.segments & bit != 0;
        self.segments |= bit;
    }

    /// The document of `op`, created on first use.
    fn group(&mut self, op: Operator) -> &mut Document {
        let at = match self.groups.iter().position(|(o, _)| *o == op) {
            Some(at) => at,
            None => {
                self.groups.push((op, Document::new()));
                self.groups.len() - 1
            }
        };
        &mut self.groups[at].1
    }

    /// The document of `op`, if the update uses it.
    fn existing(&mut self, op: Operator) -> Option<&mut Document> {
        self.groups.iter_mut().find(|(o, _)| *o == op).map(|(_, d)| d)
    }

    /// Records an operator on a stored path whose value is already encoded (a counter's, a diff's).
    fn add_raw(&mut self, op: Operator, key: Cow<'static, str>, value: Bson) {
        self.note_path(&key);
        let group = self.group(op);
        if group.contains_key(&*key) {
            return self.fail(conflict(&key, op.name(), &key, op.name()));
        }
        group.insert(key.into_owned(), value);
    }

    fn encode_item<T: BsonSchema + serde::Serialize>(raw: &RawPath, item: &T) -> Result<Bson, String> {
        crate::path::encode_schema(item, &raw.key)
    }

    fn counter_value(raw: &RawPath, len: usize) -> Bson {
        if raw.counter_long {
            Bson::Int64(len as i64)
        } else {
            Bson::Int32(len as i32)
        }
    }

    /// Adds a filter condition on `key` that makes the change to a counted array's length known.
    fn guard(&mut self, raw: &RawPath, what: &str, key: String, cond: Bson) {
        if raw.positional {
            return self.fail(format!(
                "`{what}` on the counted array {} needs a guard on the array itself, which a positional path cannot \
                 express; update the array through a non-positional path",
                Marked(&raw.key)
            ));
        }
        let guard = &mut self.extra().guard;
        match guard.get_mut(&key) {
            Some(Bson::Document(existing)) => {
                if let Bson::Document(c) = cond {
                    existing.extend(c);
                }
            }
            _ => {
                guard.insert(key, cond);
            }
        }
    }

    /// `$set`: writes `value` at `path`. Setting `None` on an optional field that is absent when `None` becomes
    /// `$unset`. Setting a whole counted array also sets its counter to the new length.
    pub fn set<P: AsPath<R>>(mut self, path: P, value: impl Into<P::Value>) -> Self
    where
        P::Access: Settable,
    {
        let path = path.as_path();
        let value = value.into();
        let encoded = path.encode(&value);
        let raw = &path.raw;
        match encoded {
            Ok(Bson::Null) if raw.none_is_absent => self.add(raw, Operator::Unset, Ok(Bson::String(String::new()))),
            Ok(Bson::Array(items)) if raw.counter.is_some() => {
                let n = items.len();
                self.add(raw, Operator::Set, Ok(Bson::Array(items)));
                let counter = raw.counter_key().expect("counted");
                self.add_raw(Operator::Set, counter, Self::counter_value(raw, n));
            }
            other => self.add(raw, Operator::Set, other),
        }
        self
    }

    /// `$unset`: removes an optional field.
    pub fn unset<P: AsPath<R>>(mut self, path: P) -> Self
    where
        P::Access: Writable,
        P::Value: Optional,
    {
        self.add(&path.as_path().raw, Operator::Unset, Ok(Bson::String(String::new())));
        self
    }

    /// `$inc`: adds `by` (of the field's own numeric type, so an `int` stays an `int`).
    pub fn inc<P: AsPath<R>>(mut self, path: P, by: impl Into<<P::Value as Numeric>::Operand>) -> Self
    where
        P::Access: Writable,
        P::Value: Numeric,
    {
        let raw = &path.as_path().raw;
        let v = Self::encode_item(raw, &by.into());
        self.add(raw, Operator::Inc, v);
        self
    }

    /// `$mul`: multiplies by `by` (of the field's own numeric type).
    pub fn mul<P: AsPath<R>>(mut self, path: P, by: impl Into<<P::Value as Numeric>::Operand>) -> Self
    where
        P::Access: Writable,
        P::Value: Numeric,
    {
        let raw = &path.as_path().raw;
        let v = Self::encode_item(raw, &by.into());
        self.add(raw, Operator::Mul, v);
        self
    }

    /// `$min`: writes `value` if it is less than the stored one (or the field is missing).
    pub fn min<P: AsPath<R>>(mut self, path: P, value: impl Into<P::Value>) -> Self
    where
        P::Access: Writable,
    {
        let path = path.as_path();
        let v = path.encode(&value.into());
        self.add(&path.raw, Operator::Min, v);
        self
    }

    /// `$max`: writes `value` if it is greater than the stored one (or the field is missing).
    pub fn max<P: AsPath<R>>(mut self, path: P, value: impl Into<P::Value>) -> Self
    where
        P::Access: Writable,
    {
        let path = path.as_path();
        let v = path.encode(&value.into());
        self.add(&path.raw, Operator::Max, v);
        self
    }

    /// `$currentDate`: writes the server's current time into a date or timestamp field.
    pub fn current_date<P: AsPath<R>>(mut self, path: P) -> Self
    where
        P::Access: Writable,
        P::Value: DateLike,
    {
        self.add(&path.as_path().raw, Operator::CurrentDate, Ok(<P::Value as DateLike>::operand()));
        self
    }

    /// `$setOnInsert`: writes `value` only when an upsert inserts.
    pub fn set_on_insert<P: AsPath<R>>(mut self, path: P, value: impl Into<P::Value>) -> Self
    where
        P::Access: InsertSettable,
    {
        let path = path.as_path();
        let v = path.encode(&value.into());
        self.add(&path.raw, Operator::SetOnInsert, v);
        self
    }

    /// `$push` of one element. On a counted array the counter grows by one in the same update; on a `keep_last`
    /// array the oldest elements beyond the bound are cut. Otherwise a push past the array's bound is refused by the
    /// validator: nothing is cut silently.
    pub fn push<P: AsPath<R>>(self, path: P, item: impl Into<<P::Value as ArrayLike>::Item>) -> Self
    where
        P::Access: ArrayWritable,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let item = Self::encode_item(raw, &item.into()).map(Items::One);
        self.push_impl(raw, item, None, None, None)
    }

    /// `$push` with `$each`: appends all `items`, counting them on a counted array.
    pub fn push_each<P: AsPath<R>>(
        self,
        path: P,
        items: impl IntoIterator<Item = impl Into<<P::Value as ArrayLike>::Item>>,
    ) -> Self
    where
        P::Access: ArrayWritable,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let items = items.into_iter().map(|i| Self::encode_item(raw, &i.into())).collect::<Result<Vec<_>, _>>();
        self.push_impl(raw, items.map(Items::Many), None, None, None)
    }

    /// `$push` with modifiers: `|m| m.position(0).sort_by(|e| e.at().desc()).slice(10)`. `$slice` is not offered on
    /// counted arrays.
    pub fn push_with<P: AsPath<R>, S>(
        self,
        path: P,
        items: impl IntoIterator<Item = impl Into<<P::Value as ArrayLike>::Item>>,
        modifiers: impl FnOnce(Modifiers<R, P::Value, P::Access>) -> Modifiers<R, P::Value, P::Access, S>,
    ) -> Self
    where
        P::Access: AllowsSlice<S>,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let items = items.into_iter().map(|i| Self::encode_item(raw, &i.into())).collect::<Result<Vec<_>, _>>();
        let m = modifiers(Modifiers { position: None, sort: None, slice: None, _marker: PhantomData });
        self.push_impl(raw, items.map(Items::Many), m.position, m.sort, m.slice)
    }

    fn push_impl(
        mut self,
        raw: &RawPath,
        items: Result<Items, String>,
        position: Option<i32>,
        sort: Option<Result<Bson, String>>,
        user_slice: Option<i32>,
    ) -> Self {
        let items = match items {
            Ok(items) => items,
            Err(e) => {
                self.fail(e);
                return self;
            }
        };
        let n = items.len();
        let slice = user_slice.or(raw.keep_last.map(|k| -(k as i32)));
        let plain = position.is_none() && sort.is_none() && slice.is_none();
        // Pushes to one path merge into one `$each`, so `push(a, x).push(a, y)` is one operator, as intended.
        let mergeable = position.is_none() && sort.is_none() && user_slice.is_none();
        if mergeable && raw.check().is_ok() {
            if let Some(existing) = self.existing(Operator::Push).and_then(|push| push.get_mut(&*raw.key)) {
                match existing {
                    // `{$each: [...]}`, alone or with the `$slice` of a `keep_last` array. Elements never have `$`
                    // keys, so a spec is told from a pushed document by its first key.
                    Bson::Document(spec) if spec.keys().next().is_some_and(|k| k == "$each") => {
                        let keep_last_only = spec.len() == 2 && spec.contains_key("$slice") && raw.keep_last.is_some();
                        if (plain && spec.len() == 1) || (!plain && keep_last_only) {
                            if let Ok(each) = spec.get_array_mut("$each") {
                                items.append_to(each);
                                self.bump_counter(raw, n as i32);
                                return self;
                            }
                        }
                    }
                    // One element pushed before: now a list.
                    element if plain => {
                        let mut each = vec![std::mem::take(element)];
                        items.append_to(&mut each);
                        *element = push_each_operand(each);
                        self.bump_counter(raw, n as i32);
                        return self;
                    }
                    _ => {}
                }
            }
        }
        if plain {
            let value = match items {
                Items::One(v) => v,
                Items::Many(list) => push_each_operand(list),
            };
            self.add(raw, Operator::Push, Ok(value));
            self.bump_counter(raw, n as i32);
            return self;
        }
        let mut spec = Document::new();
        spec.insert("$each", items.into_vec());
        if let Some(p) = position {
            spec.insert("$position", p);
        }
        match sort {
            Some(Ok(s)) => {
                spec.insert("$sort", s);
            }
            Some(Err(e)) => {
                self.fail(e);
                return self;
            }
            None => {}
        }
        if let Some(s) = slice {
            spec.insert("$slice", s);
        }
        self.add(raw, Operator::Push, Ok(Bson::Document(spec)));
        self.bump_counter(raw, n as i32);
        self
    }

    /// Adds `by` to the counter of a counted array (one `$inc` per counter, however many pushes). The operand has the
    /// counter's own type: on an upsert `$inc` creates the counter with its operand's type, and a `long` counter
    /// created as an `int` would be refused by the validator.
    fn bump_counter(&mut self, raw: &RawPath, by: i32) {
        if by == 0 {
            return;
        }
        let Some(counter) = raw.counter_key() else { return };
        match self.existing(Operator::Inc).and_then(|inc| inc.get_mut(&*counter)) {
            Some(Bson::Int32(k)) => *k += by,
            Some(Bson::Int64(k)) => *k += i64::from(by),
            _ if raw.counter_long => self.add_raw(Operator::Inc, counter, Bson::Int64(i64::from(by))),
            _ => self.add_raw(Operator::Inc, counter, Bson::Int32(by)),
        }
    }

    /// `$addToSet` of one element. On a counted array this becomes `$push` + `$inc` guarded by a filter condition that
    /// excludes documents already holding `item` (one helpful vote per voter): a second vote matches nothing.
    pub fn add_to_set<P: AsPath<R>>(mut self, path: P, item: impl Into<<P::Value as ArrayLike>::Item>) -> Self
    where
        P::Access: ArrayWritable,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let value = match Self::encode_item(raw, &item.into()) {
            Ok(v) => v,
            Err(e) => {
                self.fail(e);
                return self;
            }
        };
        if <P::Access as ArrayWritable>::COUNTED {
            // `$ne` on an array matches documents where no element equals the value (documents compare whole).
            let cond = bson::doc! { "$ne": value.clone() };
            self.guard(raw, "add_to_set", raw.key.clone().into_owned(), Bson::Document(cond));
            return self.push_impl(raw, Ok(Items::One(value)), None, None, None);
        } else {
            self.add(raw, Operator::AddToSet, Ok(value));
        }
        self
    }

    /// `$addToSet` with `$each`. Not offered on counted arrays: how many elements are new is unknown.
    pub fn add_each_to_set<P: AsPath<R>>(
        mut self,
        path: P,
        items: impl IntoIterator<Item = impl Into<<P::Value as ArrayLike>::Item>>,
    ) -> Self
    where
        P::Access: Uncounted,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let items = items.into_iter().map(|i| Self::encode_item(raw, &i.into())).collect::<Result<Vec<_>, _>>();
        self.add(raw, Operator::AddToSet, items.map(|i| Bson::Document(bson::doc! { "$each": i })));
        self
    }

    /// `$pull` of every element equal to `item`. Not offered on counted arrays.
    pub fn pull<P: AsPath<R>>(mut self, path: P, item: impl Into<<P::Value as ArrayLike>::Item>) -> Self
    where
        P::Access: Uncounted,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let v = Self::encode_item(raw, &item.into());
        self.add(raw, Operator::Pull, v);
        self
    }

    /// `$pull` of every element matching a condition built from a path to the element: `|e| e.price().lt(0)`.
    /// Not offered on counted arrays.
    pub fn pull_where<P: AsPath<R>>(
        mut self,
        path: P,
        cond: impl FnOnce(ElemNode<R, P::Value, P::Access>) -> Filter<R>,
    ) -> Self
    where
        P::Access: Uncounted,
        P::Value: ArrayLike,
    {
        let raw = &path.as_path().raw;
        let root = crate::path::Path::<R, <P::Value as ArrayLike>::Item, <P::Access as Access>::Elem>::with_raw(
            RawPath::default(),
        );
        let cond = cond(root.into()).into_marked().and_then(|d| element_condition(d, &raw.key)).map(|c| match c {
            // A condition on the element itself (`$pull: {tags: {$in: [...]}}`).
            Element::Itself(v) => v,
            Element::Fields(d) => Bson::Document(d),
        });
        self.add(raw, Operator::Pull, cond);
        self
    }

    /// `$pop: -1`: removes the first element. On a counted array the update only applies to documents whose array is
    /// not empty, and the counter drops by one.
    pub fn pop_first<P: AsPath<R>>(self, path: P) -> Self
    where
        P::Access: ArrayWritable,
        P::Value: ArrayLike,
    {
        self.pop(path, -1)
    }

    /// `$pop: 1`: removes the last element; counted arrays as in [`Update::pop_first`].
    pub fn pop_last<P: AsPath<R>>(self, path: P) -> Self
    where
        P::Access: ArrayWritable,
        P::Value: ArrayLike,
    {
        self.pop(path, 1)
    }

    fn pop<P: AsPath<R>>(mut self, path: P, end: i32) -> Self
    where
        P::Access: ArrayWritable,
    {
        let raw = &path.as_path().raw;
        self.add(raw, Operator::Pop, Ok(Bson::Int32(end)));
        if raw.counter.is_some() {
            // Only a non-empty array loses an element: guard so the counter drops only then.
            self.guard(raw, "pop", format!("{}.0", raw.key), Bson::Document(bson::doc! { "$exists": true }));
            self.bump_counter(raw, -1);
        }
        self
    }

    /// [`Update::build`] with the paths in the reason still marked, for the collection to name them.
    pub(crate) fn build_marked(self) -> Result<BuiltUpdate, String> {
        let (guard, array_filters, variant) = match self.extra.map(|e| *e) {
            Some(Extra { error: Some(e), .. }) => return Err(e),
            Some(Extra { guard, array_filters, variant, .. }) => (
                (!guard.is_empty()).then_some(guard),
                array_filters.into_iter().map(|f| f.condition).collect(),
                variant.map(|(tag, value)| bson::doc! { tag: value }),
            ),
            None => (None, Vec::new(), None),
        };
        let mut groups = self.groups;
        if groups.is_empty() {
            return Err("the update is empty: add at least one operator".to_owned());
        }
        if self.may_overlap {
            check_conflicts(&groups)?;
        }
        groups.sort_by_key(|(op, _)| *op);
        let mut update = Document::new();
        for (op, doc) in groups {
            update.insert(op.name(), doc);
        }
        Ok(BuiltUpdate { update, guard, array_filters, variant })
    }
}

/// The operand of a `$push` of `each` without modifiers: one element alone (fewer bytes, same effect), several as
/// `{$each: [...]}`.
fn push_each_operand(mut each: Vec<Bson>) -> Bson {
    if each.len() == 1 {
        return each.pop().expect("one element");
    }
    let mut spec = Document::new();
    spec.insert("$each", each);
    Bson::Document(spec)
}

/// Why operators on `a` and `b` cannot go in one update (MongoDB answers code 40).
fn conflict(a: &str, a_op: &str, b: &str, b_op: &str) -> String {
    let what = if a == b {
        format!("{} is updated twice ({a_op} and {b_op})", Marked(a))
    } else {
        format!("{} ({a_op}) and {} ({b_op}) overlap", Marked(a), Marked(b))
    };
    format!("{what}: MongoDB refuses conflicting paths in one update (code 40)")
}

/// Refuses a path and its prefix, or one path under two operators. (One path twice under one operator was refused
/// as it was added.)
fn check_conflicts(groups: &[(Operator, Document)]) -> Result<(), String> {
    for (i, (a_op, a_doc)) in groups.iter().enumerate() {
        for (j, a) in a_doc.keys().enumerate() {
            for b in a_doc.keys().skip(j + 1) {
                if overlaps(a, b) {
                    return Err(conflict(a, a_op.name(), b, a_op.name()));
                }
            }
            for (b_op, b_doc) in &groups[i + 1..] {
                for b in b_doc.keys() {
                    if overlaps(a, b) {
                        return Err(conflict(a, a_op.name(), b, b_op.name()));
                    }
                }
            }
        }
    }
    Ok(())
}

impl<R: BsonSchema + serde::Serialize> Update<R> {
    /// The minimal targeted update turning `old` into `new`: changed paths only, appended elements as `$push`, and
    /// counters as `$inc` when they grew with their arrays. A change to `_id` or a shard key is refused.
    pub fn diff(old: &R, new: &R) -> Self {
        let mut out = Diff::default();
        R::diff(old, new, &mut DiffPath::default(), &mut out);
        let mut update = Update::new();
        // New values of maps and free-form fields carry run-time keys: refused here, as in typed updates.
        let dynamic = R::dynamic_keys(crate::schema::KEY_DEPTH);
        for Change { op, key, value } in out.ops {
            if dynamic {
                if let Err(e) = check_dynamic_keys(&value, &key) {
                    update.fail(e);
                }
            }
            let (op, value) = match (op, value) {
                (DiffOp::Set, v) => (Operator::Set, v),
                (DiffOp::Unset, v) => (Operator::Unset, v),
                (DiffOp::Inc, v) => (Operator::Inc, v),
                (DiffOp::PushEach, Bson::Array(each)) => (Operator::Push, push_each_operand(each)),
                (DiffOp::PushEach, v) => (Operator::Push, v),
            };
            update.add_raw(op, Cow::Owned(key), value);
        }
        if let Some(e) = out.error {
            update.fail(e);
        }
        update
    }
}

impl<M: Model> Update<M> {
    /// Checks the update (an error kept while building; two operators on one path or on a path and its prefix, which
    /// MongoDB refuses with code 40) and assembles the documents to send; a refusal is [`Error::InvalidOperation`]
    /// with Rust paths beside stored ones.
    pub fn build(self) -> crate::error::Result<BuiltUpdate> {
        self.build_marked().map_err(|e| Error::invalid_operation::<M>(&e))
    }
}

impl<R> Update<R> {
    /// True when the update carries guard conditions (which an upsert cannot honour).
    pub fn has_guard(&self) -> bool {
        self.extra.as_ref().is_some_and(|e| !e.guard.is_empty())
    }
}

/// Encoded elements of one `$push`: one element needs no list.
enum Items {
    One(Bson),
    Many(Vec<Bson>),
}

impl Items {
    fn len(&self) -> usize {
        match self {
            Items::One(_) => 1,
            Items::Many(list) => list.len(),
        }
    }

    fn append_to(self, list: &mut Vec<Bson>) {
        match self {
            Items::One(v) => list.push(v),
            Items::Many(mut more) => list.append(&mut more),
        }
    }

    fn into_vec(self) -> Vec<Bson> {
        match self {
            Items::One(v) => vec![v],
            Items::Many(list) => list,
        }
    }
}
