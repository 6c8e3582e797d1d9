//! Compile-time markers: which operators a field's type allows (`$inc` on numbers, `$currentDate` on dates, `$unset`
//! on optional fields, `$setOnInsert` on ids and shard keys) and which `$push` modifiers an array allows.

use crate::base::path::{Access, ArrayWritable, Counted, CountedSet, IdField, InArray, Plain, Set, ShardKeyField};
use crate::base::schema::BsonSchema;
use bson::Bson;

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
impl InsertSettable for Set {}
impl InsertSettable for IdField {}
impl InsertSettable for ShardKeyField {}
#[diagnostic::do_not_recommend]
impl<A: InsertSettable> InsertSettable for InArray<A> {}

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
// A set takes no `$push` at all ([`crate::path::Pushable`] says so); these impls keep that the one error reported.
impl AllowsSlice<Unsliced> for Set {}
impl AllowsSlice<Sliced> for Set {}
impl AllowsSlice<Unsliced> for CountedSet {}
#[diagnostic::do_not_recommend]
impl<S, A: AllowsSlice<S>> AllowsSlice<S> for InArray<A> {}
/// Never constructed. With a single impl for `Counted`, rustc would infer `S = Unsliced` from it before reading the
/// modifiers closure, so a `.slice(n)` on a counted array would be a bare type mismatch instead of this trait's
/// message; a second impl keeps `S` to be inferred from the closure.
#[doc(hidden)]
pub enum NoModifiers {}
#[diagnostic::do_not_recommend]
impl AllowsSlice<NoModifiers> for Counted {}
#[diagnostic::do_not_recommend]
impl AllowsSlice<NoModifiers> for CountedSet {}
