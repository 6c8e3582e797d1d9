//! Typed aggregation: a pipeline builder over typed paths, whose stages that change the documents' shape move it to
//! a declared output type, and whose results decode as that type.
//!
//! [`Collection::aggregate`] starts a [`Pipeline`] over the model's documents. Every stage names fields through
//! typed paths of the *current* document type, so short keys are never bypassed: the model's `fields()` first,
//! then, after a stage that changes the shape (`project`, `group`, `unwind`, `lookup`, `count`, `facet`), the paths
//! of the declared output type, from [`fields`]. An output type is any struct deriving `Embedded` (or `Model`) with
//! its own short keys; a stage into it maps source paths to its fields by typed paths on both sides, and the
//! compiler checks that each value fits the output field's type (rule
//! [`path-stage-type`](crate::rules#path-stage-type)) against every type the server can return there: `$sum` of
//! integers into `i64` or `f64` (never `i32`: a total past 2^31 - 1 comes back as a `long`), `$avg` into `f64`
//! (`Option<f64>` of an optional field: `null` when a group has no number), `$min`/`$max` of `T` into `T`
//! (`Option<T>` of an optional field), `$push` of `T` into `Vec<T>`, a count into `i64`. Fields of the output type
//! that a `$project` or `$group` does not fill are refused before sending, unless serde may leave them out.
//!
//! ```
//! use odm::{aggregate, Embedded, Model, bson::{doc, oid::ObjectId}};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "order_header")]
//! struct Order {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "cu")]
//!     customer: String,
//!     #[serde(rename = "st")]
//!     status: String,
//!     #[serde(rename = "am")]
//!     amount: i64,
//! }
//!
//! /// What the pipeline returns: one row per customer.
//! #[derive(Embedded, Serialize, Deserialize)]
//! struct CustomerTotal {
//!     #[serde(rename = "_id")]
//!     customer: String,
//!     #[serde(rename = "t")]
//!     total: i64,
//!     #[serde(rename = "n")]
//!     orders: i64,
//! }
//!
//! let (f, out) = (Order::fields(), aggregate::fields::<CustomerTotal>());
//! let pipeline = aggregate::Pipeline::<Order>::new()
//!     .sort(f.amount().desc())
//!     .filter(f.status().eq("paid"))
//!     .group(|g| g.key(&out.customer(), &f.customer()).sum(&out.total(), &f.amount()).count(&out.orders()))
//!     .sort(out.total().desc())
//!     .limit(10);
//! assert_eq!(pipeline.stages().unwrap(), [
//!     // The `$match` runs first: the sort does not change the field it reads.
//!     doc! { "$match": { "st": "paid" } },
//!     doc! { "$sort": { "am": -1 } },
//!     doc! { "$group": { "_id": "$cu", "t": { "$sum": "$am" }, "n": { "$sum": 1 } } },
//!     doc! { "$sort": { "t": -1 } },
//!     doc! { "$limit": 10_i64 },
//! ]);
//! ```
//!
//! Run it with [`Pipeline::all`] (or `.await`, or [`Pipeline::stream`]) on a pipeline from
//! [`Collection::aggregate`]; results decode as the current type, and a document that does not names the output
//! type's field (`CustomerTotal.total`). [`Pipeline::explain`] shows the server's plan, [`Pipeline::out`] and
//! [`Pipeline::merge`] write the results into the collection of the current type (a [`Model`]), where its
//! validator checks them. Pipelines run in the collection's session, if it has one (transactions included).
//!
//! # Stage order
//!
//! `$match` and `$project` go as early as the pipeline allows; [`Pipeline::stages`] gives the order sent:
//!
//! - a `$match` moves before an earlier `$sort`, and before an earlier `$project`, `$set`, `$unset`, `$unwind` or
//!   `$lookup` that leaves every field it reads unchanged (a `$project` that keeps them as they are, a `$set` or
//!   `$unwind` of other fields, a `$lookup` into another field); never past `$group`, `$skip`, `$limit`, `$count`,
//!   `$facet`, nor a condition using `$expr`, `$where` or `$text`;
//! - a `$project` moves before an earlier `$sort` when it keeps every sort key unchanged.
//!
//! # Carrying whole documents
//!
//! [`Pipeline::lint`] flags, and running a pipeline logs as a `tracing` warning (target `odm::aggregate`), every
//! `$sort`, `$unwind` or `$lookup` that receives whole source documents — no `$project`, `$group`, `$count` or
//! `$facet` before it — in a pipeline that narrows them later (so not every field was needed), and every `$lookup`
//! that joins whole documents of the other model in such a pipeline. Project early: `.project(…)` into a type with
//! the fields the rest needs, before the stage; look up into a narrower element type (its keys are projected in the
//! join).
//!
//! [`Collection::aggregate`]: crate::Collection::aggregate
//! [`Model`]: crate::Model

use crate::collection::Collection;
use crate::error::{model_name, Error, Result};
use crate::explain::Explain;
use crate::filter::{overlaps, Filter, Sort};
use crate::meta::{name_paths, Marked};
use crate::model::Model;
use crate::path::{ArrayLike, AsPath, Path, Queryable, Root};
use crate::schema::BsonSchema;
use bson::{Bson, Document, RawDocumentBuf};
use futures_util::{StreamExt, TryStreamExt};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::any::TypeId;
use std::fmt;
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

/// A pipeline not bound to a collection: a `$facet` branch, or stages built to be read ([`Pipeline::stages`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Detached;

/// A pipeline bound to the collection it runs on ([`crate::Collection::aggregate`]).
pub struct On<'a, M: Model>(&'a Collection<M>);

impl<M: Model> fmt::Debug for On<'_, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "On({})", M::COLLECTION)
    }
}

/// An aggregation pipeline whose documents are of type `D` at this point, bound to a collection (`S` =
/// [`On`]) or not ([`Detached`]). See the [module docs](self).
#[must_use = "a pipeline does nothing until run"]
pub struct Pipeline<D, S = Detached> {
    source: S,
    stages: Vec<Document>,
    /// Whether each stage's document came through the builder intact (an index into `stages` gives it).
    error: Option<String>,
    /// The Rust name of the pipeline's first document type, for errors.
    origin: &'static str,
    _doc: PhantomData<fn() -> D>,
}

impl<D, S: fmt::Debug> fmt::Debug for Pipeline<D, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipeline").field("source", &self.source).field("stages", &self.stages).finish()
    }
}

/// The Rust name of a document type.
fn type_name<D: BsonSchema>() -> &'static str {
    D::type_meta().map_or_else(std::any::type_name::<D>, |m| m.name)
}

/// The stored key of a path a stage reads or writes, or why it cannot be used.
fn key_of<R, W, A>(path: &Path<R, W, A>) -> std::result::Result<&str, String> {
    path.raw.check()?;
    if path.raw.positional {
        return Err(format!("{}: a pipeline stage cannot use a positional path", Marked(path.key())));
    }
    if path.key().is_empty() {
        return Err("a pipeline stage needs a field path, not the document root".to_owned());
    }
    Ok(path.key())
}

/// `"$key"`: a field reference.
fn reference(key: &str) -> Bson {
    let mut s = String::with_capacity(key.len() + 1);
    s.push('$');
    s.push_str(key);
    Bson::String(s)
}

fn stage(name: &str, body: impl Into<Bson>) -> Document {
    let mut d = Document::new();
    d.insert(name, body);
    d
}

impl<M: Shape> Pipeline<M, Detached> {
    /// An empty pipeline over `M` documents, not bound to a collection: read its stages with
    /// [`Pipeline::stages`], or use it as a `$facet` branch.
    pub fn new() -> Self {
        Pipeline {
            source: Detached,
            stages: Vec::with_capacity(8),
            error: None,
            origin: type_name::<M>(),
            _doc: PhantomData,
        }
    }
}

impl<M: Shape> Default for Pipeline<M, Detached> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Model> Collection<M> {
    /// An aggregation pipeline over this collection's documents (see [`crate::aggregate`]); it runs in the
    /// collection's session, if any.
    ///
    /// ```no_run
    /// # use odm::{aggregate, Collection, Embedded, Model, bson::oid::ObjectId};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "st")] status: String, #[serde(rename = "am")] amount: i64 }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Revenue {
    ///     #[serde(rename = "t")]
    ///     total: i64,
    /// }
    /// # async fn demo(orders: Collection<Order>) -> odm::error::Result<()> {
    /// let (f, out) = (Order::fields(), aggregate::fields::<Revenue>());
    /// let rows: Vec<Revenue> =
    ///     orders.aggregate().filter(f.status().eq("paid")).group(|g| g.sum(&out.total(), &f.amount())).await?;
    /// # Ok(()) }
    /// ```
    pub fn aggregate(&self) -> Pipeline<M, On<'_, M>> {
        Pipeline {
            source: On(self),
            stages: Vec::with_capacity(8),
            error: None,
            origin: type_name::<M>(),
            _doc: PhantomData,
        }
    }
}

impl<D: Shape, S> Pipeline<D, S> {
    fn push(mut self, stage: Document) -> Self {
        self.stages.push(stage);
        self
    }

    /// Records a problem (marked paths of `D`, named here), keeping the first.
    fn fail(&mut self, problem: String) {
        if self.error.is_none() {
            let at = self.stages.len() + 1;
            self.error = Some(format!("stage {at}: {}", name_paths(&problem, D::type_meta())));
        }
    }

    fn checked(mut self, built: std::result::Result<Document, String>) -> Self {
        match built {
            Ok(stage) => self.push(stage),
            Err(problem) => {
                self.fail(problem);
                self
            }
        }
    }

    /// The same stages, now over documents of type `O`.
    fn into_shape<O>(self) -> Pipeline<O, S> {
        Pipeline { source: self.source, stages: self.stages, error: self.error, origin: self.origin, _doc: PhantomData }
    }

    /// Keeps the documents matching `filter` (`$match`), built from paths of the current type.
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// let p = Pipeline::<Order>::new().filter(Order::fields().amount().gte(100));
    /// assert_eq!(p.stages().unwrap(), [doc! { "$match": { "am": { "$gte": 100_i64 } } }]);
    /// ```
    pub fn filter(self, filter: Filter<D>) -> Self {
        let built = filter.into_marked().map(|f| stage("$match", f));
        self.checked(built)
    }

    /// Orders the documents (`$sort`).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// let p = Pipeline::<Order>::new().sort(Order::fields().amount().desc());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$sort": { "am": -1 } }]);
    /// ```
    pub fn sort(self, sort: Sort<D>) -> Self {
        let built = sort.into_marked().and_then(|s| {
            if s.is_empty() {
                Err("`$sort` needs at least one key".to_owned())
            } else {
                Ok(stage("$sort", s))
            }
        });
        self.checked(built)
    }

    /// Skips the first `n` documents (`$skip`).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId }
    /// assert_eq!(Pipeline::<Order>::new().skip(20).stages().unwrap(), [doc! { "$skip": 20_i64 }]);
    /// ```
    pub fn skip(self, n: u64) -> Self {
        let built = i64::try_from(n).map(|n| stage("$skip", n)).map_err(|_| format!("`$skip` of {n} is too large"));
        self.checked(built)
    }

    /// Keeps the first `n` documents (`$limit`; `0` is refused: the server requires a positive limit).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId }
    /// assert_eq!(Pipeline::<Order>::new().limit(5).stages().unwrap(), [doc! { "$limit": 5_i64 }]);
    /// assert!(Pipeline::<Order>::new().limit(0).stages().is_err());
    /// ```
    pub fn limit(self, n: u64) -> Self {
        let built = match i64::try_from(n) {
            Ok(0) => Err("`$limit` must be positive".to_owned()),
            Ok(n) => Ok(stage("$limit", n)),
            Err(_) => Err(format!("`$limit` of {n} is too large")),
        };
        self.checked(built)
    }

    /// Sets a field of the current type to `value` (`$set`, the value as data: `{$literal: …}`, encoded as the
    /// field stores it).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "st")] status: String }
    /// let p = Pipeline::<Order>::new().set(&Order::fields().status(), "$archived");
    /// assert_eq!(p.stages().unwrap(), [doc! { "$set": { "st": { "$literal": "$archived" } } }]);
    /// ```
    pub fn set<P>(self, path: &P, value: impl Into<P::Value>) -> Self
    where
        P: AsPath<D>,
        P::Access: Queryable,
    {
        let path = path.as_path();
        let built = key_of(path).and_then(|key| {
            let v = path.encode(&value.into())?;
            Ok(stage("$set", bson::doc! { key: { "$literal": v } }))
        });
        self.checked(built)
    }

    /// Sets a field of the current type to the value of another field of the same type (`$set: {to: "$from"}`).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64, #[serde(rename = "pa")] paid: i64 }
    /// let f = Order::fields();
    /// let p = Pipeline::<Order>::new().set_from(&f.paid(), &f.amount());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$set": { "pa": "$am" } }]);
    /// ```
    pub fn set_from<P, Q>(self, path: &P, from: &Q) -> Self
    where
        P: AsPath<D>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        let built = key_of(path.as_path())
            .and_then(|to| key_of(from.as_path()).map(|from| stage("$set", bson::doc! { to: reference(from) })));
        self.checked(built)
    }

    /// Reshapes every document into `O` (`$project`): each field of `O` from a path of the current type, of a type
    /// the field holds. Every field of `O` serde always writes must be given (`_id` may also come through from a
    /// current type that has one); a missing one is refused before sending, named. Fields kept under the same key
    /// are written `key: 1`, so later `$match` stages on them can move before the projection.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "cu")] customer: String, #[serde(rename = "am")] amount: i64 }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Slim {
    ///     #[serde(rename = "cu")]
    ///     customer: String,
    ///     #[serde(rename = "v")]
    ///     value: i64,
    /// }
    /// let (f, out) = (Order::fields(), aggregate::fields::<Slim>());
    /// let p = Pipeline::<Order>::new().project(|p| p.field(&out.customer(), &f.customer()).field(&out.value(), &f.amount()));
    /// assert_eq!(p.stages().unwrap(), [doc! { "$project": { "cu": 1, "v": "$am", "_id": 0 } }]);
    /// ```
    pub fn project<O: Shape>(mut self, build: impl FnOnce(Project<D, O>) -> Project<D, O>) -> Pipeline<O, S> {
        let p = build(Project { doc: Document::new(), error: None, _types: PhantomData });
        let built = p.error.map_or_else(
            || {
                let mut doc = p.doc;
                let source_has_id = D::type_meta().is_some_and(|m| m.implicit_id || m.field_by_key("_id").is_some());
                let out = O::type_meta();
                let out_has_id = out.is_some_and(|m| m.field_by_key("_id").is_some());
                if !doc.contains_key("_id") && (!out_has_id || !source_has_id) {
                    doc.insert("_id", 0);
                }
                missing::<O>(&doc, "$project", source_has_id).map(|()| stage("$project", doc))
            },
            Err,
        );
        self = self.checked(built);
        self.into_shape()
    }

    /// Groups the documents into `O` (`$group`): the group key into fields of `O` ([`Group::key`]; none: one group
    /// of every document), and typed accumulators into the others. A single key into `O`'s `_id` is the group's
    /// `_id`; keys into other fields are copied out of a compound `_id`, which is then dropped when `O` has no `_id`.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "cu")] customer: String, #[serde(rename = "am")] amount: i64 }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct PerCustomer {
    ///     #[serde(rename = "cu")]
    ///     customer: String,
    ///     #[serde(rename = "a")]
    ///     average: f64,
    ///     #[serde(rename = "all")]
    ///     #[odm(max_items = 100)]
    ///     amounts: Vec<i64>,
    /// }
    /// let (f, out) = (Order::fields(), aggregate::fields::<PerCustomer>());
    /// let p = Pipeline::<Order>::new()
    ///     .group(|g| g.key(&out.customer(), &f.customer()).avg(&out.average(), &f.amount()).push(&out.amounts(), &f.amount()));
    /// assert_eq!(p.stages().unwrap(), [
    ///     doc! { "$group": { "_id": { "cu": "$cu" }, "a": { "$avg": "$am" }, "all": { "$push": "$am" } } },
    ///     doc! { "$set": { "cu": "$_id.cu" } },
    ///     doc! { "$unset": "_id" },
    /// ]);
    /// ```
    pub fn group<O: Shape>(mut self, build: impl FnOnce(Group<D, O>) -> Group<D, O>) -> Pipeline<O, S> {
        // `_id` first: the accumulators go after it, into the stage's own body.
        let g = build(Group { keys: Vec::new(), accumulators: Vec::new(), error: None, _types: PhantomData });
        if let Some(e) = g.error {
            self.fail(e);
            return self.into_shape();
        }
        let out_has_id = O::type_meta().is_some_and(|m| m.field_by_key("_id").is_some());
        let (id, copy_out) = match g.keys.as_slice() {
            [] => (Bson::Null, false),
            [(out, src)] if out == "_id" => (src.clone(), false),
            keys => {
                if keys.iter().any(|(out, _)| out == "_id") {
                    self.fail("`_id` cannot be one key of several: give the group one key into `_id`".to_owned());
                    return self.into_shape();
                }
                (Bson::Document(keys.iter().map(|(out, src)| (out.clone(), src.clone())).collect()), true)
            }
        };
        let filled =
            |key: &str| (key == "_id" && (!out_has_id || !g.keys.is_empty())) || (key != "_id" && g.fills(key));
        if let Err(e) = missing_where::<O>(filled, "$group") {
            self.fail(e);
            return self.into_shape();
        }
        let mut body = Document::new();
        body.insert("_id", id);
        for (key, accumulator) in g.accumulators {
            body.insert(key, accumulator);
        }
        self = self.push(stage("$group", body));
        if copy_out {
            let set: Document =
                g.keys.iter().map(|(out, _)| (out.clone(), Bson::String(format!("$_id.{out}")))).collect();
            self = self.push(stage("$set", set));
        }
        if !out_has_id {
            self = self.push(stage("$unset", "_id"));
        }
        self.into_shape()
    }

    /// One document per element of the array at `array` (`$unwind`), each holding that element at `element`, a
    /// field of the declared type `O` (the current type with the element in place of the array). When `element`'s
    /// key differs from the array's, the element is moved there (`$set`, then `$unset` of the array).
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// # struct Line { #[serde(rename = "p")] price: i64 }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "it")] #[odm(max_items = 50)] items: Vec<Line> }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct OrderLine {
    ///     #[serde(rename = "_id")]
    ///     order: ObjectId,
    ///     #[serde(rename = "it")]
    ///     item: Line,
    /// }
    /// let p = Pipeline::<Order>::new().unwind(&Order::fields().items(), &aggregate::fields::<OrderLine>().item());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$unwind": "$it" }]);
    /// ```
    pub fn unwind<O, P, Q>(self, array: &P, element: &Q) -> Pipeline<O, S>
    where
        O: Shape,
        P: AsPath<D>,
        P::Access: Queryable,
        P::Value: ArrayLike,
        Q: AsPath<O>,
        Q::Access: Queryable,
        Q::Value: Holds<<P::Value as ArrayLike>::Item>,
    {
        let from = match key_of(array.as_path()) {
            Ok(k) => k.to_owned(),
            Err(e) => return self.checked(Err(e)).into_shape(),
        };
        let to = match key_of(element.as_path()) {
            Ok(k) => k.to_owned(),
            Err(e) => {
                let mut p = self.into_shape::<O>();
                p.fail(e);
                return p;
            }
        };
        let mut p = self.push(stage("$unwind", reference(&from)));
        if to != from {
            p = p.push(stage("$set", bson::doc! { to: reference(&from) })).push(stage("$unset", from));
        }
        p.into_shape()
    }

    /// Joins documents of model `F` whose `foreign` field equals this document's `local` field (`$lookup` from
    /// `F`'s collection, in the same database), into the array at `into`, a field of the declared type `O` (the
    /// current type plus that array). When the array's elements are not `F` itself but a narrower type, only its
    /// keys are read from `F` (a `$project` inside the join), which must all be `F`'s.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "crm_customer")]
    /// # struct Customer { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "n")] name: String, #[serde(rename = "e")] email: String }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "cu")] customer: ObjectId }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Name {
    ///     #[serde(rename = "n")]
    ///     name: String,
    /// }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct WithCustomer {
    ///     #[serde(rename = "cu")]
    ///     customer: ObjectId,
    ///     #[serde(rename = "c")]
    ///     #[odm(max_items = 1)]
    ///     customers: Vec<Name>,
    /// }
    /// let out = aggregate::fields::<WithCustomer>();
    /// let p = Pipeline::<Order>::new().lookup(&Order::fields().customer(), &Customer::fields().id(), &out.customers());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$lookup": {
    ///     "from": "crm_customer", "localField": "cu", "foreignField": "_id",
    ///     "pipeline": [{ "$project": { "n": 1, "_id": 0 } }], "as": "c",
    /// } }]);
    /// ```
    pub fn lookup<F, O, L, R, A, E>(self, local: &L, foreign: &R, into: &A) -> Pipeline<O, S>
    where
        F: Model,
        O: Shape,
        L: AsPath<D>,
        L::Access: Queryable,
        R: AsPath<F>,
        R::Access: Queryable,
        L::Value: Joins<R::Value>,
        A: AsPath<O, Value = Vec<E>>,
        A::Access: Queryable,
        E: Shape,
    {
        let built = (|| {
            let local = key_of(local.as_path())?;
            let foreign = key_of(foreign.as_path()).map_err(|e| name_paths(&e, F::type_meta()))?;
            let into = key_of(into.as_path()).map_err(|e| name_paths(&e, O::type_meta()))?;
            let mut body = bson::doc! { "from": F::COLLECTION, "localField": local, "foreignField": foreign };
            if TypeId::of::<E>() != TypeId::of::<F>() {
                body.insert("pipeline", [Bson::Document(stage("$project", narrowed::<F, E>()?))]);
            }
            body.insert("as", into);
            Ok(stage("$lookup", body))
        })();
        self.checked(built).into_shape()
    }

    /// Replaces the documents with one holding their number at `field` of the declared type `O` (`$count`; no
    /// document at all when none reach it).
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Count {
    ///     #[serde(rename = "n")]
    ///     n: i64,
    /// }
    /// let p = Pipeline::<Order>::new().count(&aggregate::fields::<Count>().n());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$count": "n" }]);
    /// ```
    pub fn count<O, P>(self, field: &P) -> Pipeline<O, S>
    where
        O: Shape,
        P: AsPath<O>,
        P::Access: Queryable,
        P::Value: CountField,
    {
        let built = key_of(field.as_path()).map_err(|e| name_paths(&e, O::type_meta())).and_then(|k| {
            if k.contains('.') || k == "_id" {
                Err(format!("`$count` writes a top-level field other than `_id`, not `{k}`"))
            } else {
                Ok(stage("$count", k))
            }
        });
        self.checked(built).into_shape()
    }

    /// Runs several branches over the same documents into one document of the declared type `O` (`$facet`): each
    /// branch is a [`Pipeline`] from the current type, whose results fill an array field of `O`.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Count {
    ///     #[serde(rename = "n")]
    ///     n: i64,
    /// }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Report {
    ///     #[serde(rename = "big")]
    ///     #[odm(max_items = 1)]
    ///     big: Vec<Count>,
    ///     #[serde(rename = "all")]
    ///     #[odm(max_items = 1)]
    ///     all: Vec<Count>,
    /// }
    /// let (f, out, count) = (Order::fields(), aggregate::fields::<Report>(), aggregate::fields::<Count>());
    /// let p = Pipeline::<Order>::new().facet(|b| {
    ///     b.branch(&out.big(), |p| p.filter(f.amount().gt(100)).count(&count.n()))
    ///         .branch(&out.all(), |p| p.count(&count.n()))
    /// });
    /// assert_eq!(p.stages().unwrap(), [doc! { "$facet": {
    ///     "big": [{ "$match": { "am": { "$gt": 100_i64 } } }, { "$count": "n" }],
    ///     "all": [{ "$count": "n" }],
    /// } }]);
    /// ```
    pub fn facet<O: Shape>(mut self, build: impl FnOnce(Facet<D, O>) -> Facet<D, O>) -> Pipeline<O, S> {
        let f = build(Facet { doc: Document::new(), error: None, _types: PhantomData });
        let built = f.error.map_or_else(|| missing::<O>(&f.doc, "$facet", false).map(|()| stage("$facet", f.doc)), Err);
        match built {
            Ok(s) => self = self.push(s),
            // Branch errors are named already.
            Err(e) if self.error.is_none() => self.error = Some(format!("stage {}: {e}", self.stages.len() + 1)),
            Err(_) => {}
        }
        self.into_shape()
    }

    /// The stages in the order they are sent (`$match` and `$project` moved as early as allowed: see the
    /// [module docs](self#stage-order)), or why the pipeline cannot be sent, with Rust paths of the type each stage
    /// reads.
    pub fn stages(&self) -> Result<Vec<Document>> {
        if let Some(e) = &self.error {
            return Err(Error::InvalidOperation { model: self.origin, reason: e.clone() });
        }
        let mut stages = self.stages.clone();
        reorder(&mut stages);
        Ok(stages)
    }

    /// [`Pipeline::stages`], consuming the pipeline (no copy of its stages).
    pub fn into_stages(self) -> Result<Vec<Document>> {
        if let Some(e) = self.error {
            return Err(Error::InvalidOperation { model: self.origin, reason: e });
        }
        let mut stages = self.stages;
        reorder(&mut stages);
        Ok(stages)
    }

    /// The stages that carry whole documents further than needed (see the
    /// [module docs](self#carrying-whole-documents)), one message each; empty when none do.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// # struct Total { #[serde(rename = "t")] total: i64 }
    /// let (f, out) = (Order::fields(), aggregate::fields::<Total>());
    /// let sorted_first = Pipeline::<Order>::new().sort(f.amount().desc()).limit(3).group(|g| g.sum(&out.total(), &f.amount()));
    /// assert_eq!(sorted_first.lint().len(), 1);
    /// ```
    pub fn lint(&self) -> Vec<String> {
        let stages = match self.stages() {
            Ok(s) => s,
            Err(_) => return Vec::new(),
        };
        lint(&stages, self.origin)
    }
}

/// The builder of a `$project` into `O` from documents of type `D` ([`Pipeline::project`]).
pub struct Project<D, O> {
    doc: Document,
    error: Option<String>,
    _types: PhantomData<fn() -> (D, O)>,
}

impl<D: Shape, O: Shape> Project<D, O> {
    /// `O`'s field `out` takes the value at `from` (`out: "$from"`, or `out: 1` when the keys are equal).
    pub fn field<P, Q>(mut self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        let to = key_of(out.as_path()).map_err(|e| name_paths(&e, O::type_meta()));
        let from = key_of(from.as_path()).map_err(|e| name_paths(&e, D::type_meta()));
        match (to, from) {
            (Ok(to), Ok(from)) => {
                if let Some(clash) = self.doc.keys().find(|k| overlaps(k, to)) {
                    let e = format!("{} overlaps {} in the projection", Marked(to), Marked(clash));
                    self.error.get_or_insert(name_paths(&e, O::type_meta()));
                }
                let value = if to == from { Bson::Int32(1) } else { reference(from) };
                self.doc.insert(to, value);
            }
            (Err(e), _) | (_, Err(e)) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }
}

/// The builder of a `$group` into `O` from documents of type `D` ([`Pipeline::group`]).
pub struct Group<D, O> {
    /// `(output key, source reference)` of the group key's parts (`("cu", "$cu")`).
    keys: Vec<(String, Bson)>,
    /// `(output key, accumulator)`, in order; the stage's body puts `_id` before them.
    accumulators: Vec<(String, Bson)>,
    error: Option<String>,
    _types: PhantomData<fn() -> (D, O)>,
}

impl<D: Shape, O: Shape> Group<D, O> {
    /// True when a key or an accumulator already fills `key`.
    fn fills(&self, key: &str) -> bool {
        self.accumulators.iter().any(|(k, _)| k == key) || self.keys.iter().any(|(k, _)| k == key)
    }

    fn accumulate<P: AsPath<O>>(mut self, out: &P, op: &str, value: std::result::Result<Bson, String>) -> Self {
        let to = key_of(out.as_path()).map_err(|e| name_paths(&e, O::type_meta())).and_then(|to| {
            if to.contains('.') || to == "_id" {
                Err(name_paths(
                    &format!("{}: an accumulator writes a top-level field other than `_id`", Marked(to)),
                    O::type_meta(),
                ))
            } else {
                Ok(to)
            }
        });
        match (to, value) {
            (Ok(to), Ok(value)) => {
                if to == "_id" || self.fills(to) {
                    self.error.get_or_insert(name_paths(&format!("{} is filled twice", Marked(to)), O::type_meta()));
                }
                self.accumulators.push((to.to_owned(), Bson::Document(stage(op, value))));
            }
            (Err(e), _) | (_, Err(e)) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// Groups by the value at `from`, kept in `O`'s field `out` (call again for a compound key).
    pub fn key<P, Q>(mut self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        let to = key_of(out.as_path()).map_err(|e| name_paths(&e, O::type_meta()));
        let from = key_of(from.as_path()).map_err(|e| name_paths(&e, D::type_meta()));
        match (to, from) {
            (Ok(to), Ok(_)) if to.contains('.') => {
                let e = format!("{}: a group key goes into a top-level field", Marked(to));
                self.error.get_or_insert(name_paths(&e, O::type_meta()));
            }
            (Ok(to), Ok(from)) => self.keys.push((to.to_owned(), reference(from))),
            (Err(e), _) | (_, Err(e)) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// `$sum` of the values at `from` (`null` and missing skipped; `0` for none).
    pub fn sum<P, Q>(self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: SumOf<Q::Value>,
    {
        self.accumulate(out, "$sum", source::<D, Q>(from))
    }

    /// `$avg` of the numbers at `from`: a double (a decimal of decimals). A group always has a document, so the
    /// average of a field serde always writes is a number; of an optional field it is `null` when no document of
    /// the group has one, so it goes into `Option<f64>` (declared `#[odm(nullable)]`) then. A non-`Option` field
    /// with `skip_serializing_if` may be missing too: declare its average an `Option` yourself.
    pub fn avg<P, Q>(self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        Q::Value: Averageable,
        P::Value: AvgOf<<Q::Value as Averageable>::Average>,
    {
        self.accumulate(out, "$avg", source::<D, Q>(from))
    }

    /// `$min` of the values at `from`, of their type (`null` when no document of the group has one: an optional
    /// source field goes into an `Option`).
    pub fn min<P, Q>(self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: ExtremeOf<Q::Value>,
    {
        self.accumulate(out, "$min", source::<D, Q>(from))
    }

    /// `$max` of the values at `from`, of their type (`null` when no document of the group has one: an optional
    /// source field goes into an `Option`).
    pub fn max<P, Q>(self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: ExtremeOf<Q::Value>,
    {
        self.accumulate(out, "$max", source::<D, Q>(from))
    }

    /// `$first`: the value at `from` of the group's first document (in the order of an earlier `$sort`).
    pub fn first<P, Q>(self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        self.accumulate(out, "$first", source::<D, Q>(from))
    }

    /// `$last`: the value at `from` of the group's last document.
    pub fn last<P, Q>(self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        self.accumulate(out, "$last", source::<D, Q>(from))
    }

    /// `$push`: every value at `from`, into an array of them.
    pub fn push<P, Q>(self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: GathersInto<Q::Value>,
    {
        self.accumulate(out, "$push", source::<D, Q>(from))
    }

    /// `$addToSet`: the distinct values at `from`, into an array (or set) of them.
    pub fn add_to_set<P, Q>(self, out: &P, from: &Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: GathersInto<Q::Value>,
    {
        self.accumulate(out, "$addToSet", source::<D, Q>(from))
    }

    /// The number of documents in the group (`{$sum: 1}`), into an `i64` field (see [`CountField`]).
    pub fn count<P>(self, out: &P) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        P::Value: CountField,
    {
        self.accumulate(out, "$sum", Ok(Bson::Int32(1)))
    }
}

/// The field reference of a source path, or why it cannot be used (named through `D`).
fn source<D: BsonSchema, Q: AsPath<D>>(from: &Q) -> std::result::Result<Bson, String> {
    key_of(from.as_path()).map(reference).map_err(|e| name_paths(&e, D::type_meta()))
}

/// The builder of a `$facet` into `O` from documents of type `D` ([`Pipeline::facet`]).
pub struct Facet<D, O> {
    doc: Document,
    error: Option<String>,
    _types: PhantomData<fn() -> (D, O)>,
}

impl<D: Shape, O: Shape> Facet<D, O> {
    /// A branch: the pipeline `build` makes from the current documents, whose results fill `O`'s array `out`.
    pub fn branch<P, T>(mut self, out: &P, build: impl FnOnce(Pipeline<D, Detached>) -> Pipeline<T, Detached>) -> Self
    where
        P: AsPath<O, Value = Vec<T>>,
        P::Access: Queryable,
        T: Shape,
    {
        let start = Pipeline::<D, Detached> {
            source: Detached,
            stages: Vec::new(),
            error: None,
            origin: type_name::<D>(),
            _doc: PhantomData,
        };
        let branch = build(start);
        let to = key_of(out.as_path()).map_err(|e| name_paths(&e, O::type_meta()));
        match (to, branch.error) {
            (Ok(to), None) => {
                let mut stages = branch.stages;
                reorder(&mut stages);
                self.doc.insert(to, stages.into_iter().map(Bson::Document).collect::<Vec<_>>());
            }
            (Ok(to), Some(e)) => {
                self.error.get_or_insert(format!("branch `{to}`: {e}"));
            }
            (Err(e), _) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }
}

/// Checks that `doc` (a `$project` or `$group` body, or `$facet` branches) fills every field of `O` that serde
/// always writes; names the first missing ones.
fn missing<O: BsonSchema>(doc: &Document, stage_name: &str, id_kept: bool) -> std::result::Result<(), String> {
    missing_where::<O>(|key| doc.contains_key(key) || (id_kept && key == "_id"), stage_name)
}

/// [`missing`], with `filled` saying which stored keys the stage fills.
fn missing_where<O: BsonSchema>(filled: impl Fn(&str) -> bool, stage_name: &str) -> std::result::Result<(), String> {
    let Some(meta) = O::type_meta() else { return Ok(()) };
    if meta.fields.iter().all(|f| f.optional || filled(f.key)) {
        return Ok(());
    }
    let absent: Vec<String> = meta
        .fields
        .iter()
        .filter(|f| !f.optional && !filled(f.key))
        .map(|f| format!("`{}.{}` (stored `{}`)", meta.name, f.name, f.key))
        .collect();
    if absent.is_empty() {
        return Ok(());
    }
    Err(format!(
        "`{stage_name}` into `{}` leaves {} unset: give every field a value (or let serde leave it out)",
        meta.name,
        absent.join(", ")
    ))
}

/// The `$project` of `E`'s keys inside a lookup of `F`, refusing keys `F` does not have.
fn narrowed<F: BsonSchema, E: BsonSchema>() -> std::result::Result<Document, String> {
    let (Some(f), Some(e)) = (F::type_meta(), E::type_meta()) else {
        return Err("a `$lookup` element type must be the model or a derived struct of its fields".to_owned());
    };
    let mut project = Document::new();
    for field in e.fields {
        if f.field_by_key(field.key).is_none() {
            return Err(format!(
                "`{}.{}` (stored `{}`) is not a field of `{}`: a lookup's element type takes its keys from the joined \
                 model",
                e.name, field.name, field.key, f.name
            ));
        }
        project.insert(field.key, 1);
    }
    if !project.contains_key("_id") {
        project.insert("_id", 0);
    }
    Ok(project)
}

/// The one operator of a stage document (`"$match"`).
fn name(stage: &Document) -> &str {
    stage.keys().next().map_or("", String::as_str)
}

/// The keys a `$match` condition reads, or `None` when it cannot move (`$expr`, `$where`, `$text`, …).
fn read_keys<'d>(cond: &'d Document, out: &mut Vec<&'d str>) -> bool {
    for (k, v) in cond {
        match (k.as_str(), v) {
            ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
                for c in clauses {
                    match c {
                        Bson::Document(c) if read_keys(c, out) => {}
                        _ => return false,
                    }
                }
            }
            (k, _) if k.starts_with('$') => return false,
            (k, _) => out.push(k),
        }
    }
    true
}

/// True when `before` leaves every field at `keys` as it was (so a `$match` reading them may run before it).
fn passes(before: &Document, keys: &[&str]) -> bool {
    let body = before.iter().next().map(|(_, v)| v);
    match (name(before), body) {
        ("$sort", _) => true,
        ("$set" | "$addFields", Some(Bson::Document(set))) => !set.keys().any(|s| keys.iter().any(|k| overlaps(s, k))),
        ("$unset", Some(Bson::String(u))) => !keys.iter().any(|k| overlaps(u, k)),
        ("$unset", Some(Bson::Array(us))) => {
            !us.iter().filter_map(Bson::as_str).any(|u| keys.iter().any(|k| overlaps(u, k)))
        }
        ("$unwind", Some(Bson::String(path))) => {
            let path = path.trim_start_matches('$');
            !keys.iter().any(|k| overlaps(path, k))
        }
        ("$lookup", Some(Bson::Document(l))) => {
            l.get_str("as").is_ok_and(|into| !keys.iter().any(|k| overlaps(into, k)))
        }
        ("$project", Some(Bson::Document(p))) => keys.iter().all(|k| kept(p, k)),
        _ => false,
    }
}

fn is_one(v: &Bson) -> Option<bool> {
    match v {
        Bson::Int32(1) | Bson::Int64(1) | Bson::Boolean(true) => Some(true),
        Bson::Int32(0) | Bson::Int64(0) | Bson::Boolean(false) => Some(false),
        Bson::Double(d) => Some(*d != 0.0),
        _ => None,
    }
}

/// True when the projection `p` keeps the field at `key` unchanged.
fn kept(p: &Document, key: &str) -> bool {
    let exclusion = p.iter().all(|(_, v)| is_one(v) == Some(false));
    if exclusion {
        return !p.keys().any(|pk| overlaps(pk, key));
    }
    let mut included = key == "_id" && !p.contains_key("_id");
    for (pk, v) in p {
        if !overlaps(pk, key) {
            continue;
        }
        match is_one(v) {
            Some(true) if pk.len() <= key.len() => included = true,
            _ => return false,
        }
    }
    included
}

/// Moves `$match` and `$project` stages as early as allowed (see the module docs).
fn reorder(stages: &mut [Document]) {
    for i in 1..stages.len() {
        match name(&stages[i]) {
            "$match" => {
                if !matches!(
                    name(&stages[i - 1]),
                    "$sort" | "$set" | "$addFields" | "$unset" | "$unwind" | "$lookup" | "$project"
                ) {
                    continue;
                }
                let mut keys = Vec::new();
                let movable = match stages[i].get("$match") {
                    Some(Bson::Document(cond)) => read_keys(cond, &mut keys),
                    _ => false,
                };
                if !movable {
                    continue;
                }
                let keys: Vec<String> = keys.into_iter().map(str::to_owned).collect();
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                let mut at = i;
                while at > 0 && passes(&stages[at - 1], &keys) {
                    stages.swap(at - 1, at);
                    at -= 1;
                }
            }
            "$project" => {
                let mut at = i;
                while at > 0 && name(&stages[at - 1]) == "$sort" {
                    let (Ok(sort), Ok(project)) =
                        (stages[at - 1].get_document("$sort"), stages[at].get_document("$project"))
                    else {
                        break;
                    };
                    if !sort.keys().all(|k| kept(project, k)) {
                        break;
                    }
                    stages.swap(at - 1, at);
                    at -= 1;
                }
            }
            _ => {}
        }
    }
}

/// The stages that narrow documents to the fields the rest needs.
fn narrows(stage: &Document) -> bool {
    matches!(name(stage), "$project" | "$group" | "$count" | "$facet" | "$replaceRoot" | "$replaceWith")
}

/// The carrying-whole-documents check (see the module docs).
fn lint(stages: &[Document], origin: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some(last_narrowing) = stages.iter().rposition(narrows) else { return out };
    for (i, s) in stages.iter().enumerate().take(last_narrowing) {
        if narrows(s) {
            break;
        }
        let op = name(s);
        let later = name(&stages[last_narrowing]);
        if matches!(op, "$sort" | "$unwind" | "$lookup") {
            out.push(format!(
                "stage {} (`{op}`) carries whole `{origin}` documents, though stage {} (`{later}`) keeps only some \
                 fields: project early (`.project(…)` the fields the rest needs, before it)",
                i + 1,
                last_narrowing + 1
            ));
        }
        if op == "$lookup" && s.get_document("$lookup").is_ok_and(|l| !l.contains_key("pipeline")) {
            let from = s.get_document("$lookup").ok().and_then(|l| l.get_str("from").ok()).unwrap_or("?");
            out.push(format!(
                "stage {} (`$lookup` from `{from}`) joins whole documents, though stage {} (`{later}`) keeps only \
                 some fields: look up into an element type with the fields needed",
                i + 1,
                last_narrowing + 1
            ));
        }
    }
    out
}

impl<'a, M: Model, D: Shape> Pipeline<D, On<'a, M>> {
    /// The stages to send, with the lint warnings logged (target `odm::aggregate`).
    fn prepared(&self) -> Result<Vec<Document>> {
        let stages = self.stages()?;
        for warning in lint(&stages, self.origin) {
            tracing::warn!(target: "odm::aggregate", collection = M::COLLECTION, "{warning}");
        }
        Ok(stages)
    }

    /// The results, read through the collection's session when it has one (locked until the stream is dropped).
    async fn rows(self) -> Result<futures_util::stream::BoxStream<'a, Result<RawDocumentBuf>>> {
        let stages = self.prepared()?;
        let coll = self.source.0;
        let aggregate = coll.raw().aggregate(stages).with_type::<RawDocumentBuf>();
        let map_err = |e| Error::from_driver(e, model_name::<M>(), M::type_meta());
        let Some(session) = coll.session() else {
            return Ok(aggregate.await.map_err(map_err)?.map_err(Error::from).boxed());
        };
        let mut guard = session.lock().await;
        let cursor = aggregate.session(&mut *guard).await.map_err(map_err)?;
        let rows = futures_util::stream::unfold((cursor, guard), |(mut cursor, mut guard)| async move {
            let next = cursor.next(&mut guard).await?;
            Some((next.map_err(Error::from), (cursor, guard)))
        });
        Ok(rows.boxed())
    }

    /// The results as a stream, each decoded as `D` (a decode error names `D`'s field).
    pub async fn stream(self) -> Result<impl futures_util::Stream<Item = Result<D>> + Send + 'a> {
        let rows = self.rows().await?;
        Ok(rows.and_then(|raw| async move { decode::<D>(&raw) }))
    }

    /// All results, decoded as `D` (a decode error names `D`'s field: `CustomerTotal.total`).
    pub async fn all(self) -> Result<Vec<D>> {
        let raws: Vec<RawDocumentBuf> = self.rows().await?.try_collect().await?;
        raws.iter().map(decode::<D>).collect()
    }

    /// What the server plans for this pipeline, with execution statistics (see [`crate::explain`]):
    /// [`Explain::pipeline`] lists the stages after the first.
    pub async fn explain(self) -> Result<Explain> {
        let stages = self.stages()?;
        let coll = self.source.0;
        coll.explain(bson::doc! { "aggregate": coll.raw().name(), "pipeline": stages, "cursor": {} }).await
    }

    async fn write(self, last: Document) -> Result<()> {
        let mut stages = self.prepared()?;
        stages.push(last);
        let coll = self.source.0;
        let map_err = |e| Error::from_driver(e, model_name_of::<D>(), D::type_meta());
        let aggregate = coll.raw().aggregate(stages);
        match coll.session() {
            Some(session) => {
                let mut guard = session.lock().await;
                let mut cursor = aggregate.session(&mut *guard).await.map_err(map_err)?;
                while cursor.next(&mut guard).await.transpose().map_err(map_err)?.is_some() {}
            }
            None => {
                let mut cursor = aggregate.await.map_err(map_err)?;
                while cursor.try_next().await.map_err(map_err)?.is_some() {}
            }
        }
        Ok(())
    }
}

impl<'a, M: Model, D: Model> Pipeline<D, On<'a, M>> {
    /// Replaces the documents of `D`'s collection with the results (`$out`), checked by its validator: a refused
    /// document fails the whole write with a [`crate::ValidationError`] naming `D`'s field, and the collection is
    /// left as it was. The collection must be in the pipeline's database.
    pub async fn out(self) -> Result<()> {
        self.write(stage("$out", D::COLLECTION)).await
    }

    /// Writes the results into `D`'s collection by `_id` (`$merge`): a result whose `_id` is not there is inserted,
    /// one whose `_id` is there replaces the stored document ([`WhenMatched::Replace`]) or is merged into it
    /// ([`WhenMatched::Merge`]: its fields set, the others kept). MongoDB checks the results with the collection's
    /// validator.
    pub async fn merge(self, when_matched: WhenMatched) -> Result<()> {
        let when = match when_matched {
            WhenMatched::Replace => "replace",
            WhenMatched::Merge => "merge",
        };
        let body = bson::doc! { "into": D::COLLECTION, "on": "_id", "whenMatched": when, "whenNotMatched": "insert" };
        self.write(stage("$merge", body)).await
    }

    /// [`merge`](Self::merge) with [`WhenMatched::Replace`] when `replace`, else [`WhenMatched::Merge`].
    #[deprecated(
        since = "0.1.0",
        note = "use `merge(WhenMatched::Replace)` or `merge(WhenMatched::Merge)`: a bare `bool` does not say which"
    )]
    pub async fn merge_into(self, replace: bool) -> Result<()> {
        self.merge(if replace { WhenMatched::Replace } else { WhenMatched::Merge }).await
    }
}

/// What [`Pipeline::merge`] does with a result whose `_id` is already stored (`$merge`'s `whenMatched`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenMatched {
    /// The result replaces the stored document.
    Replace,
    /// The result's fields are set on the stored document; its other fields are kept.
    Merge,
}

fn model_name_of<D: BsonSchema>() -> &'static str {
    type_name::<D>()
}

/// Decodes a result as `D`, naming `D`'s field on failure.
fn decode<D: Shape>(raw: &RawDocumentBuf) -> Result<D> {
    crate::collection::decode_as(type_name::<D>(), D::type_meta(), raw)
}

impl<'a, M: Model, D: Shape> std::future::IntoFuture for Pipeline<D, On<'a, M>> {
    type Output = Result<Vec<D>>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<D>>> + Send + 'a>>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.all())
    }
}

#[cfg(test)]
mod tests {
    use super::{kept, lint, reorder};
    use bson::doc;

    #[test]
    fn matches_move_before_stages_that_leave_their_fields_alone() {
        let mut stages = vec![
            doc! { "$sort": { "a": 1 } },
            doc! { "$set": { "x": 1 } },
            doc! { "$unwind": "$arr" },
            doc! { "$match": { "a": 1, "$or": [{ "b": 2 }, { "c.d": 3 }] } },
        ];
        reorder(&mut stages);
        assert_eq!(stages[0], doc! { "$match": { "a": 1, "$or": [{ "b": 2 }, { "c.d": 3 }] } });

        let mut blocked = vec![doc! { "$set": { "c": 1 } }, doc! { "$match": { "c.d": 1 } }];
        reorder(&mut blocked);
        assert_eq!(blocked[0], doc! { "$set": { "c": 1 } });

        let mut expr = vec![doc! { "$sort": { "a": 1 } }, doc! { "$match": { "$expr": { "$gt": ["$a", 1] } } }];
        reorder(&mut expr);
        assert_eq!(expr[0], doc! { "$sort": { "a": 1 } });

        let mut limited = vec![doc! { "$limit": 5 }, doc! { "$match": { "a": 1 } }];
        reorder(&mut limited);
        assert_eq!(limited[0], doc! { "$limit": 5 });
    }

    #[test]
    fn projections_keep_or_change_fields() {
        let p = doc! { "a": 1, "b": "$c", "_id": 0 };
        assert!(kept(&p, "a") && kept(&p, "a.x"));
        assert!(!kept(&p, "b") && !kept(&p, "_id") && !kept(&p, "z"));
        assert!(kept(&doc! { "a": 1 }, "_id"));
        assert!(kept(&doc! { "z": 0 }, "a") && !kept(&doc! { "z": 0 }, "z.y"));
        let mut stages = vec![doc! { "$sort": { "a": -1 } }, doc! { "$project": { "a": 1 } }];
        reorder(&mut stages);
        assert_eq!(stages[0], doc! { "$project": { "a": 1 } });
    }

    #[test]
    fn whole_documents_before_narrowing_are_flagged() {
        let flagged = lint(&[doc! { "$sort": { "a": 1 } }, doc! { "$group": { "_id": "$a" } }], "Order");
        assert_eq!(flagged.len(), 1, "{flagged:?}");
        assert!(flagged[0].contains("stage 1 (`$sort`) carries whole `Order` documents"), "{flagged:?}");
        assert!(lint(&[doc! { "$project": { "a": 1 } }, doc! { "$sort": { "a": 1 } }], "Order").is_empty());
        // Nothing narrows: the whole documents are the result.
        assert!(lint(&[doc! { "$sort": { "a": 1 } }], "Order").is_empty());
    }
}
