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
//! assert_eq!(u.guard, doc! { "vi": { "$ne": voter } });
//! ```

use crate::filter::{element_condition, overlaps, Element, Filter, Sort};
use crate::path::{
    Access, ArrayFilter, ArrayLike, ArrayWritable, AsPath, Counted, ElemNode, IdField, Plain, RawPath, Settable,
    ShardKeyField, Uncounted, Writable,
};
use crate::schema::BsonSchema;
use bson::{Bson, Document};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// The update operators odm writes.
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

#[derive(Clone, Debug)]
pub(crate) struct Op {
    pub(crate) op: Operator,
    pub(crate) key: Cow<'static, str>,
    pub(crate) value: Bson,
}

/// A targeted update of documents of model `R`. Build it with the typed methods, then run it with
/// [`crate::Collection::update_one`], [`crate::Collection::update_many`], [`crate::Collection::upsert_one`] or
/// [`crate::Collection::find_one_and_update`]. Problems (two operators on one path, a value that does not encode)
/// are kept and reported before anything is sent.
pub struct Update<R> {
    pub(crate) ops: Vec<Op>,
    guard: Document,
    array_filters: Vec<ArrayFilter>,
    error: Option<String>,
    _root: PhantomData<fn() -> R>,
}

impl<R> Clone for Update<R> {
    fn clone(&self) -> Self {
        Update {
            ops: self.ops.clone(),
            guard: self.guard.clone(),
            array_filters: self.array_filters.clone(),
            error: self.error.clone(),
            _root: PhantomData,
        }
    }
}

impl<R> fmt::Debug for Update<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Update")
            .field("ops", &self.ops)
            .field("guard", &self.guard)
            .field("error", &self.error)
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
    /// Conditions to add to the filter (empty when none).
    pub guard: Document,
    /// `arrayFilters` for filtered positional paths (`$[id]`).
    pub array_filters: Vec<Document>,
}

/// Types `$inc` and `$mul` apply to; the operand has the field's own type, so the stored BSON type is kept.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number: `$inc` and `$mul` need an integer, float or decimal field",
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
    message = "`{Self}` is a required field: only an `Option` field can be `$unset`",
    label = "required by the validator",
    note = "make the field `Option<...>` with `#[serde(skip_serializing_if = \"Option::is_none\")]` if it may be absent"
)]
pub trait Optional {}
impl<T> Optional for Option<T> {}

/// Fields `$currentDate` can write: dates and timestamps.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a date: `$currentDate` writes a BSON date or timestamp",
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
    message = "`$setOnInsert` cannot write this field (`{Self}`)",
    label = "a counter or counted array would be written without its partner",
    note = "push to the counted array instead: the counter follows in the same update"
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
    message = "this `$push` is not offered on this array (`{Self}`)",
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
        self.sort = Some(order(root.into()).into_document().map(Bson::Document));
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
        Update { ops: Vec::new(), guard: Document::new(), array_filters: Vec::new(), error: None, _root: PhantomData }
    }

    /// True when no operator has been added.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// True when building found a problem (reported by [`Update::build`]).
    pub(crate) fn has_error(&self) -> bool {
        self.error.is_some()
    }

    fn fail(&mut self, why: String) {
        self.error.get_or_insert(why);
    }

    /// Records an operator on `raw`, checking the path first.
    fn add(&mut self, raw: &RawPath, op: Operator, value: Result<Bson, String>) {
        if let Err(e) = raw.check() {
            return self.fail(e);
        }
        match value {
            Ok(value) => {
                for f in &raw.array_filters {
                    match self.array_filters.iter().find(|g| g.identifier == f.identifier) {
                        Some(g) if g.condition != f.condition => {
                            return self.fail(format!(
                                "array filter identifier `{}` is used with two different conditions",
                                f.identifier
                            ))
                        }
                        Some(_) => {}
                        None => self.array_filters.push(f.clone()),
                    }
                }
                self.ops.push(Op { op, key: raw.key.clone(), value })
            }
            Err(e) => self.fail(e),
        }
    }

    pub(crate) fn add_raw(&mut self, op: Operator, key: Cow<'static, str>, value: Bson) {
        self.ops.push(Op { op, key, value });
    }

    pub(crate) fn add_error(&mut self, why: String) {
        self.fail(why);
    }

    fn encode_item<T: BsonSchema + serde::Serialize>(raw: &RawPath, item: &T) -> Result<Bson, String> {
        crate::path::encode_element(&raw.key, item)
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
                "`{what}` on the counted array `{}` needs a guard on the array itself, which a positional path cannot \
                 express; update the array through a non-positional path",
                raw.key
            ));
        }
        match self.guard.get_mut(&key) {
            Some(Bson::Document(existing)) => {
                if let Bson::Document(c) = cond {
                    existing.extend(c);
                }
            }
            _ => {
                self.guard.insert(key, cond);
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
                let counter = raw.counter.clone().expect("counted");
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
        self.push_each(path, [item.into()])
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
        self.push_impl(raw, items, None, None, None)
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
        self.push_impl(raw, items, m.position, m.sort, m.slice)
    }

    fn push_impl(
        mut self,
        raw: &RawPath,
        items: Result<Vec<Bson>, String>,
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
        if let Some(existing) = self.ops.iter_mut().find(|o| o.op == Operator::Push && o.key == raw.key) {
            match (mergeable, &mut existing.value) {
                // The plain form: the `$each` list itself (see `build`).
                (true, Bson::Array(each)) if plain => {
                    each.extend(items);
                    self.bump_counter(raw, n as i32);
                    return self;
                }
                (true, Bson::Document(d)) if d.len() == 2 && d.contains_key("$slice") && raw.keep_last.is_some() => {
                    if let Ok(each) = d.get_array_mut("$each") {
                        each.extend(items);
                        return self;
                    }
                }
                _ => {}
            }
        }
        if plain {
            self.add(raw, Operator::Push, Ok(Bson::Array(items)));
            self.bump_counter(raw, n as i32);
            return self;
        }
        let mut spec = bson::doc! { "$each": items };
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
        let Some(counter) = &raw.counter else { return };
        if by == 0 {
            return;
        }
        match self.ops.iter_mut().find(|o| o.op == Operator::Inc && &o.key == counter) {
            Some(Op { value: Bson::Int32(k), .. }) => *k += by,
            Some(Op { value: Bson::Int64(k), .. }) => *k += i64::from(by),
            _ if raw.counter_long => self.add_raw(Operator::Inc, counter.clone(), Bson::Int64(i64::from(by))),
            _ => self.add_raw(Operator::Inc, counter.clone(), Bson::Int32(by)),
        }
    }

    /// `$addToSet` of one element. On a counted array this becomes `$push` + `$inc` guarded by a filter condition that
    /// excludes documents already holding `item` (the seed's helpful-votes case): a second vote matches nothing.
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
            return self.push_impl(raw, Ok(vec![value]), None, None, None);
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
        let cond = cond(root.into()).into_document().and_then(|d| element_condition(d, &raw.key)).map(|c| match c {
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

    /// Checks the update (an error kept while building; two operators on one path or on a path and its prefix, which
    /// MongoDB refuses with code 40) and assembles the documents to send.
    pub fn build(self) -> Result<BuiltUpdate, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.ops.is_empty() {
            return Err("the update is empty: add at least one operator".to_owned());
        }
        for (i, a) in self.ops.iter().enumerate() {
            for b in &self.ops[i + 1..] {
                if overlaps(&a.key, &b.key) {
                    let what = if a.key == b.key {
                        format!("`{}` is updated twice ({} and {})", a.key, a.op.name(), b.op.name())
                    } else {
                        format!("`{}` ({}) and `{}` ({}) overlap", a.key, a.op.name(), b.key, b.op.name())
                    };
                    return Err(format!("{what}: MongoDB refuses conflicting paths in one update (code 40)"));
                }
            }
        }
        let mut ops = self.ops;
        // A push without modifiers holds its `$each` list: one element is written as a plain `$push` value (fewer
        // bytes, same effect), several as `{$each: [...]}`.
        for o in ops.iter_mut().filter(|o| o.op == Operator::Push) {
            if let Bson::Array(each) = &mut o.value {
                o.value = if each.len() == 1 {
                    each.pop().expect("one element")
                } else {
                    let mut spec = Document::new();
                    spec.insert("$each", std::mem::take(each));
                    Bson::Document(spec)
                };
            }
        }
        ops.sort_by_key(|o| o.op);
        let mut update = Document::new();
        let mut current: Option<(Operator, Document)> = None;
        for Op { op, key, value } in ops {
            match &mut current {
                Some((o, d)) if *o == op => {
                    d.insert(key.into_owned(), value);
                }
                _ => {
                    if let Some((o, d)) = current.take() {
                        update.insert(o.name(), d);
                    }
                    let mut d = Document::new();
                    d.insert(key.into_owned(), value);
                    current = Some((op, d));
                }
            }
        }
        if let Some((o, d)) = current {
            update.insert(o.name(), d);
        }
        Ok(BuiltUpdate {
            update,
            guard: self.guard,
            array_filters: self.array_filters.into_iter().map(|f| f.condition).collect(),
        })
    }
}

impl<R> Update<R> {
    /// True when the update carries guard conditions (which an upsert cannot honour).
    pub fn has_guard(&self) -> bool {
        !self.guard.is_empty()
    }
}
