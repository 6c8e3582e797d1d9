//! The types a pipeline's documents can have, and the compile-time markers that check a stage's value fits the
//! output field it fills (rule `path-stage-type`); the binding of a pipeline not bound to a collection (`Detached`).

use crate::base::path::{Path, Root};
use crate::base::schema::paths::ArrayLike;
use crate::base::schema::BsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::marker::PhantomData;

/// A type a pipeline's documents can have: the model, or a declared output type (a struct deriving `Embedded` or
/// `Model`).
pub trait Shape: BsonSchema + Serialize + DeserializeOwned + Send + Unpin + 'static {}
impl<T: BsonSchema + Serialize + DeserializeOwned + Send + Unpin + 'static> Shape for T {}

/// Typed paths to the fields of `D` as a pipeline's documents (the stages after one that produced `D`).
///
/// ```
/// # use odm::{aggregate, Embedded};
/// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
/// # struct Total { #[serde(rename = "t")] total: i64 }
/// assert_eq!(aggregate::fields::<Total>().total().key(), "t");
/// ```
pub fn fields<D: BsonSchema + Serialize>() -> <D as BsonSchema>::Node<D, D, Root> {
    Path::<D, D, Root>::__root().into()
}

/// A field of the output type can hold a value of type `T`: the same type, or an `Option` of it.
pub trait Holds<T> {}
// Through a pair, so that a mismatch is reported by `FieldHolds`' message rather than as a failed unification of
// the two types.
impl<F, T> Holds<T> for F where (F, T): FieldHolds {}

/// `(F, T)`: an output field of type `F` can hold a value of type `T` (see [`Holds`]).
#[diagnostic::on_unimplemented(
    message = "the output field's type and the value's, `{Self}`, do not fit (rule `path-stage-type`)",
    label = "this output field cannot hold the value",
    note = "declare the output field with the value's type (or an `Option` of it)"
)]
pub trait FieldHolds {}
impl<T> FieldHolds for (T, T) {}
impl<T> FieldHolds for (Option<T>, T) {}
// Never a value's type: a second impl for any field type, so that the compiler reports a mismatch through
// `FieldHolds`' message instead of concluding that the two types must be equal.
impl<T> FieldHolds for (T, NoValue<T>) {}

/// A type no value has (see [`FieldHolds`]).
#[doc(hidden)]
pub struct NoValue<T>(std::convert::Infallible, PhantomData<T>);

/// `Self` can hold the `$sum` of values of type `S` (numbers; `null` and missing values are skipped).
///
/// The server sums integers as an `int` while the total fits, then as a `long`, then as a `double`; `long`s as a
/// `long`, then a `double`; doubles as a `double`; decimals as a `decimal`. So a sum of integers goes into `i64`
/// (or `f64`), never `i32`: one group's total past 2^31 - 1 would come back as a `long` and fail the read. A sum
/// of 64-bit integers also goes into `i64`: only a total past the range of the values' own type comes back as a
/// `double` (declare `f64` if it can get there).
#[diagnostic::on_unimplemented(
    message = "the `$sum` of `{S}` values does not fit the output field's type `{Self}` (rule `path-stage-type`)",
    label = "the output field's type",
    note = "the server sums integers as an `int` while the total fits, then as a `long`: hold a sum of integers in \
            `i64` (or `f64`); of doubles, in `f64`; of decimals, in `bson::Decimal128`"
)]
pub trait SumOf<S> {}
// Each source type also as an `Option` (`null` and missing values are skipped), spelt out rather than through a
// blanket impl over any output type: with that, an output type of no other impl (`i32`) sends the compiler into an
// endless `Option<Option<…>>` search instead of reporting the mismatch.
macro_rules! sums {
    ($($src:ty => $($out:ty),*;)*) => {$($(impl SumOf<$src> for $out {} impl SumOf<Option<$src>> for $out {})*)*};
}
sums! {
    i8 => i64, f64;
    i16 => i64, f64;
    i32 => i64, f64;
    u8 => i64, f64;
    u16 => i64, f64;
    u32 => i64, f64;
    i64 => i64, f64;
    f32 => f64;
    f64 => f64;
    bson::Decimal128 => bson::Decimal128;
}
// Two more impls for any field type, so that even a type of no impl above (`i32`) has two, and a mismatch is
// reported by the message above (see `FieldHolds`).
impl<T> SumOf<NoValue<T>> for T {}
impl<T> SumOf<NoValue<(T,)>> for T {}

/// A number `$avg` reads, with the type of its average: a `double` (`f64`) of integers and doubles, a `decimal` of
/// decimals, and for an optional source an `Option` of that (`null` when no document of a group has a number).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number (rule `path-stage-type`)",
    label = "`$avg` reads numbers",
    note = "average an integer, floating-point or `bson::Decimal128` field (or an `Option` of one)"
)]
pub trait Averageable {
    /// What `$avg` of values of this type returns.
    type Average;
}
macro_rules! numeric {
    ($($t:ty => $avg:ty),*) => {$(impl Averageable for $t { type Average = $avg; })*};
}
numeric!(
    i8 => f64, i16 => f64, i32 => f64, i64 => f64, u8 => f64, u16 => f64, u32 => f64, f32 => f64, f64 => f64,
    bson::Decimal128 => bson::Decimal128
);
// Required values give every group (never empty) a number; optional ones may give none, and `$avg` is then `null`.
impl<T: Averageable> Averageable for Option<T> {
    type Average = Option<T::Average>;
}

/// An output field of type `Self` can hold `$avg`'s result of type `T` (see [`Averageable::Average`]): `T`, or an
/// `Option` of it.
#[diagnostic::on_unimplemented(
    message = "`$avg` of these values is a `{T}`, which does not fit the output field's type `{Self}` (rule \
               `path-stage-type`)",
    label = "the output field's type",
    note = "`$avg` is a `double` (a `decimal` of decimals), and `null` when no document of a group has a number, \
            which happens only for an optional source field: hold it in `f64` (`bson::Decimal128` for decimals), \
            or in an `Option` of it for an optional source field"
)]
pub trait AvgOf<T> {}
impl<T> AvgOf<T> for T {}
impl<T> AvgOf<T> for Option<T> {}
// A second impl for any field type, so that a mismatch is reported by the message above (see `FieldHolds`).
impl<T> AvgOf<NoValue<T>> for T {}

/// An output field of type `Self` can hold `$min` or `$max` of values of type `S`: the values' own type (or an
/// `Option` of it). Of an optional source field, the result is `null` when no document of a group has a value, so
/// the output field is an `Option` then.
#[diagnostic::on_unimplemented(
    message = "`$min`/`$max` of `{S}` values does not fit the output field's type `{Self}` (rule `path-stage-type`)",
    label = "the output field's type",
    note = "`$min` and `$max` return a value of the source field's type, and `null` when no document of a group has \
            one, which happens only for an optional source field: declare the output field with the source field's \
            type (an `Option` when the source field is one)"
)]
pub trait ExtremeOf<S> {}
impl<T> ExtremeOf<T> for T {}
impl<T> ExtremeOf<T> for Option<T> {}
// A second impl for any field type, so that a mismatch is reported by the message above (see `FieldHolds`).
impl<T> ExtremeOf<NoValue<T>> for T {}

/// An output field of type `Self` can hold what `$push` or `$addToSet` gathers from values of type `S`: an array
/// (or set) of `S`. Missing values are left out, `null`s kept.
pub trait GathersInto<S> {}
// Through the element type, so that a mismatch is reported by `ItemOf`'s message.
impl<A: ArrayLike, S> GathersInto<S> for A where A::Item: ItemOf<S> {}

/// An array of `Self` can hold the values of type `S` that `$push` or `$addToSet` gathers (see [`GathersInto`]).
#[diagnostic::on_unimplemented(
    message = "`$push`/`$addToSet` of `{S}` values does not fit an array of `{Self}` (rule `path-stage-type`)",
    label = "the output field's type",
    note = "`$push` and `$addToSet` gather the source field's values into an array: declare the output field as a \
            `Vec` (or another array or set) of the source field's type"
)]
pub trait ItemOf<S> {}
impl<T> ItemOf<T> for T {}
// A second impl for any element type, so that a mismatch is reported by the message above (see `FieldHolds`).
impl<T> ItemOf<NoValue<T>> for T {}

/// An output field holding a count: `i64`.
///
/// The server counts as an `int` while the number fits, then as a `long`: a group of a large collection can hold
/// more than 2^31 - 1 documents, so `i32` would fail the read there.
#[diagnostic::on_unimplemented(
    message = "a count does not fit the output field's type `{Self}` (rule `path-stage-type`)",
    label = "declare it `i64`",
    note = "the server counts as an `int` while the number fits and as a `long` past 2^31 - 1 documents: only `i64` \
            holds both"
)]
pub trait CountField {}
impl CountField for i64 {}

/// A field of `F` can be compared with a value of type `T` by `$lookup`: the same type, an `Option` of it, or an
/// array of it (any element equal).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be joined with `{T}` (rule `path-stage-type`)",
    label = "the local field's type",
    note = "a `$lookup` compares the local and foreign fields for equality: give them one type"
)]
pub trait Joins<T> {}
impl<T> Joins<T> for T {}
// A second impl, so that a mismatch is reported by the message above rather than as two types that must be equal
// (see `FieldHolds`).
impl<T> Joins<NoValue<T>> for T {}
impl<T> Joins<T> for Option<T> {}
impl<T> Joins<T> for Vec<T> {}

/// A pipeline not bound to a collection: a `$facet` branch, or stages built to be read
/// ([`Pipeline::stages`](crate::aggregate::Pipeline::stages)).
#[derive(Clone, Copy, Debug, Default)]
pub struct Detached;
