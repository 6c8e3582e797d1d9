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
//!     .group(|g| g.key(out.customer(), f.customer()).sum(out.total(), f.amount()).count(out.orders()))
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
//! Run it with `.await` (every row) or [`Pipeline::stream`] on a pipeline from
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
//! ```
//! # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "order_header")]
//! # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64, #[serde(rename = "st")] status: String }
//! #[derive(Embedded, serde::Serialize, serde::Deserialize)]
//! struct Amount {
//!     #[serde(rename = "am")]
//!     amount: i64,
//! }
//! let (f, out) = (Order::fields(), aggregate::fields::<Amount>());
//! let sorted = || Pipeline::<Order>::new().sort(f.amount().desc());
//! let kept = sorted().project(|p| p.field(out.amount(), f.amount()));
//! assert_eq!(kept.stages().unwrap(), [doc! { "$project": { "am": 1, "_id": 0 } }, doc! { "$sort": { "am": -1 } }]);
//! let paid = sorted().filter(f.status().eq("paid")).project(|p| p.field(out.amount(), f.amount()));
//! assert_eq!(paid.stages().unwrap(), [
//!     doc! { "$match": { "st": "paid" } },
//!     doc! { "$project": { "am": 1, "_id": 0 } },
//!     doc! { "$sort": { "am": -1 } },
//! ]);
//! ```
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

pub use crate::base::aggregate::{
    fields, Averageable, AvgOf, CountField, Detached, ExtremeOf, Facet, FieldHolds, GathersInto, Group, Holds, ItemOf,
    Joins, NoValue, Pipeline, Project, Shape, SumOf,
};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::aggregate::{On, ViewedPipeline, WhenMatched};
