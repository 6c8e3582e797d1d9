//! # odm: a typed ODM for MongoDB
//!
//! MongoDB teams keep their schema-design rules in review checklists: lowercase names, short keys, one type per
//! field, dates stored as dates, bounded arrays with size counters, `_id` left as an ObjectId. odm turns each rule
//! into a compile-time error on the exact field, and generates what a DBA reviews — the `$jsonSchema` validator
//! with its `validationLevel` and `validationAction` — from the Rust types.
//!
//! Every rule has a stable id, and every compile error ends with it: `… (rule `key-short`)`. The [`rules`] page
//! lists them all, each with what it checks, why, how to fix a breach, and the validator keywords that enforce it
//! at run time.
//!
//! ```
//! use odm::{Embedded, Model, bson::oid::ObjectId};
//! use serde::{Deserialize, Serialize};
//!
//! /// One line of an order.
//! #[derive(Embedded, Serialize, Deserialize)]
//! #[odm(closed)]
//! struct Line {
//!     #[serde(rename = "n")]
//!     name: String,
//!     #[serde(rename = "p")]
//!     price: f64,
//!     #[serde(rename = "q")]
//!     quantity: i32,
//! }
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(db = "shop", module = "order", collection = "order_header", closed)]
//! struct Order {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "it")]
//!     #[odm(max_items = 30, counter = "item_count")]
//!     items: Vec<Line>,
//!     #[serde(rename = "ic")]
//!     item_count: i32,
//! }
//!
//! let validator = Order::validator();
//! assert!(validator.contains_key("$jsonSchema"));
//! assert!(validator.contains_key("$expr")); // size(it) == ic, checked by the server
//! ```
//!
//! Most programs need only `use odm::prelude::*;` (the derives, [`Collection`], [`Filter`], [`Update`], [`SchemaSync`],
//! …: see [`prelude`]) beside their serde and driver imports; the rest is in its module.
//!
//! The [`guide`] takes one topic a page, from naming to operating, each with complete programs.
//!
//! ## How calls read
//!
//! Every operation is written the same way, in four steps:
//!
//! - **Start** from what it acts on. Work on one collection starts from its [`Collection`]:
//!   `orders.find(filter)`, `orders.aggregate(pipeline)`, `orders.bulk()`, `orders.watch()`,
//!   `orders.check_schema()`, `orders.migrate()`. Work that spans collections starts from its type with the client:
//!   [`SchemaSync::new(&client)`](SchemaSync::new), [`Transaction::new(&client)`](Transaction::new).
//! - **Configure** with chained methods that take the builder by value and return it (`.sort(…)`, `.limit(10)`,
//!   `.mode(SyncMode::Apply)`, `.batch_size(500)`). A choice is a named method or an enum, never a bare `bool`.
//! - **Execute** with `.await`: every builder is [`IntoFuture`](std::future::IntoFuture), sends its command and gives
//!   its result (`Result<T>`: all rows of a find or a pipeline, a report for a sync, a check or a migration).
//!   Another way to execute the same builder is a named method awaited the same way: `.explain().await`,
//!   `.plan().await` (a sync that changes nothing), `.all_valid().await` (rows read past those that do not decode).
//!   The one builder that runs code of yours takes it when it executes: `Transaction::new(&client).run(body).await`.
//! - **Stream** with `.stream().await` where the results are many or endless (a find, a pipeline, a change stream):
//!   a [`Stream`](futures_util::Stream) of `Result<T>`, one item per row or event.
//!
//! Counts are `u64` (`limit`, `skip`, batch sizes are `usize` where they size a buffer); typed paths are passed by
//! value (`f.amount()`), as each call builds its own.
//!
//! ```no_run
//! # use odm::prelude::*;
//! # #[derive(Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(db = "shop", collection = "order_header")]
//! # struct Order { #[serde(rename = "_id")] id: odm::bson::oid::ObjectId, #[serde(rename = "am")] amount: i64 }
//! # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
//! SchemaSync::new(&client).model::<Order>().mode(SyncMode::Apply).await?;
//! let orders = Collection::<Order>::new(&client.database("shop"));
//! let f = Order::fields();
//! let largest = orders.find(f.amount().gt(100)).sort(f.amount().desc()).limit(10).await?;
//! let report = orders.check_schema().batch_size(500).await?;
//! # let _ = (largest, report); Ok(()) }
//! ```
//!
//! ## Attributes
//!
//! On the type, `#[odm(...)]`: `collection = "module_table"` (models), `db = "name"`, `module = "m"` (requires
//! `m_<table>`, `base_m_<table>` or `log_m_<table>`), `max_key_len = N` (default 16), `closed`
//! (`additionalProperties: false` on this type and on every level it owns: embedded structs, enum variants, array
//! elements, map values, at any depth), `open` (a type that stays open even inside a closed document; free-form
//! `bson::Document` and `mixed` fields are always open), `validation_level = "strict" | "moderate" | "off"`,
//! `validation_action = "error" | "warn" | "errorAndLog"`, `crate = "path"`, and on models
//! `index(keys = "a, -b, c.d", unique, sparse, hidden, ttl = N, name = "idx_…", partial = "a exists, b > 0",
//! collation(locale = "fr", strength = 2), weights = "t:10", default_language = "english")` (key types
//! `a:text`, `a:hashed`, `a:2dsphere`, wildcard `$**`), `max_indexes = N` (default 3),
//! `query(eq = "a, b", sort = "-c", range = "d")` (access patterns served in ESR order) and
//! `capped(size = BYTES, max = DOCS)`, and `read_concern = "majority"`, `read_preference = "nearest"`,
//! `write_concern(w = "majority", j = true, timeout_ms = 5000)`, and `shard_key = "region, customer"` (top-level,
//! required fields, not arrays or counters, served by a declared index — `_id` alone counts, `_id:hashed` needs its
//! own; typed updates cannot change them; [`Model::SHARD_KEY`] gives the key document for `sh.shardCollection`),
//! `size_budget = "refuse" | "warn"` (a model whose worst-case document is over 16 MiB does not compile, or is
//! reported by sync: see [`size`]), `version = N, older(V1, …)` (a versioned model: see [`version`]), and
//! `bucket(key = "sensor, day", items = "readings")` (one document per key and period holding a counted array of
//! readings: see [`bucket`]) or `timeseries(time = "at", meta = "sensor", granularity = "minutes", expire_after =
//! N)` (a time-series collection: see [`timeseries`]).
//! See [`SchemaSync`] for bringing a database in line with the models.
//!
//! On a field: `max_items = N`, `min_items = N`, `unbounded`, `counter = "field"`, `nullable`, `mixed`,
//! `not_a_date`, `bson_type = "alias"`, `custom_id`, `not_id` (a model's field named `id` that is not its `_id`, on
//! purpose: see [rule `id-field`](crate::rules#id-field)), `max_len = N`, `min_len = N`, `keep_last` (with `max_items`:
//! pushes keep the last N elements instead of being refused past the bound), `overflow(model = "M", owner = "f")`
//! (with `keep_last`: model `M`'s collection keeps every element, see [`subset`]), `unique_items` (the array is a set:
//! `uniqueItems` in the validator, `add_to_set` instead of `push`, and with a counter `pull` of one value; see
//! [rule `array-unique`](crate::rules#array-unique)), and on one integer field of a model
//! `revision` (optimistic concurrency: guarded writes compare it and every typed write bumps it; see
//! [`Model::REVISION`]).
//!
//! ## Typed paths, filters and updates
//!
//! A model's `fields()` gives typed paths ([`path`]) for filters, sorts and projections ([`filter`]) and targeted
//! updates ([`update`], [`diff`]) run through [`Collection`]. Counters stay in step with their arrays in the same
//! update; `_id`, shard keys, counters and the revision have no setter. Two fields of one document compare with
//! `lt_field` and its siblings (`$expr`; see [`filter`]).
//!
//! serde's `rename`, `rename_all`, `rename_all_fields`, `skip`, `skip_serializing_if`, `default`, `tag` and
//! `content` are mirrored exactly; attributes odm cannot mirror (`flatten`, `untagged`, `into`, unknown converters)
//! are refused at compile time. `from`/`try_from` are accepted: they change only how a stored document is read, so a
//! proxy type can migrate older shapes on read.
//!
//! ## Versioned models
//!
//! `#[odm(version = N, older(V1, …))]` with a field `odm::Version<N>`: documents carry their version, and typed
//! reads migrate older ones through [`Upgrade`] steps ([`version`]). [`Collection::migrate`] stores them at the
//! current version in guarded batches, resumably, with progress and a throttle ([`migrate`]).
//!
//! ## Checking stored documents
//!
//! [`Collection::check_schema`] finds the stored documents the model's validator would refuse and explains each by
//! the part it breaks, with Rust paths, counts and sample `_id`s ([`check`]); [`Find::all_valid`] reads past
//! documents that do not decode and reports them.
//!
//! ## Layout
//!
//! Modules import one way, from the vocabulary up: [`BsonKind`], the field tables ([`meta`]), the path types and the
//! diff recorder name no stored type; [`schema`] defines [`BsonSchema`] over them; the walks that need the trait sit
//! above it ([`path`]'s navigation by element and entry, [`diff`]'s comparisons), and the std impls of the trait
//! above those; then [`filter`] (which also builds array-filtered paths), [`update`] (which owns the operators a diff
//! records, and [`Update::diff`]), and [`Collection`] last. [`error`] reads a validator's counter checks without the
//! schema, and shows a driver error through `server_reply`, a leaf (the server's code and message, not its reply's
//! bytes). The sync plan ([`sync::plan`]) sits below [`error`], which carries it in [`Error::Drift`], and [`sync`]
//! above both.
//!
//! Everything up to [`Collection`] is the driver-free core: it needs `bson` and `serde`, not the MongoDB driver, and
//! builds with `default-features = false, features = ["derive"]` (the derives, [`BsonSchema`], [`meta`],
//! validators, [`index`] specs, document-size budgets ([`size`]), computed fields ([`computed`]), [`path`], [`filter`], [`update`], [`diff`], building [`aggregate`] pipelines,
//! [`version`], [`shard`], [`explain`] parsing, [`encode`]/[`decode`], the sync [`Plan`], [`SyncMode`] and
//! [`SyncReport`], the connection checklist's warnings ([`connection`]), the migration options and report, [`error`]
//! without its driver variants). What talks to a server
//! needs the default feature `driver`, and the compiler keeps the core from importing it: [`Collection`] and its
//! builders, [`session`], [`transaction`](mod@transaction), [`watch`], [`check`], the bulk builder
//! ([`bulk::Bulk`]), running a pipeline ([`aggregate::On`]), [`SchemaSync`] (reading the database, executing a plan,
//! its lease), running a [`Migration`], the spans of what odm sends ([`observe`]), what is live ([`live`]), running
//! the connection checklist, `Error::Driver` and the conversion from the driver's error, the `to_driver`
//! conversions of a model's concerns, the `odm::mongodb` re-export, [`backup`] (dump and restore; feature `backup`,
//! on by default, which implies `driver` and brings `flate2`), and `odm::testing` (feature `testing`, which implies
//! `driver`). The operator's command line, `odm::cli`, is behind the feature `cli` (which implies `driver` and
//! `backup`).
#![deny(missing_docs)]
// docs.rs marks what needs the `driver` (or `testing`) feature.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Without `driver` the items that talk to a server do not exist, so the docs' links to them (`Collection`,
// `SchemaSync`, …) cannot resolve in that build: rustdoc leaves them unlinked (a link with its target spelled out
// goes nowhere). docs.rs builds with all features, where every link resolves, and CI denies a broken one there
// (`cargo doc --all-features` with `-D warnings`, which compiles every doc comment); only this lint is off, only here.
#![cfg_attr(not(feature = "driver"), allow(rustdoc::broken_intra_doc_links))]

pub mod aggregate;
#[cfg(feature = "backup")]
#[cfg_attr(docsrs, doc(cfg(feature = "backup")))]
pub mod backup;
pub mod bucket;
pub mod bulk;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod check;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod cli;
pub mod codec;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod collection;
pub mod computed;
pub mod connection;
mod counters;
pub mod diff;
pub mod error;
pub mod explain;
mod failing_path;
pub mod filter;
pub mod guide;
mod impls;
pub mod index;
mod keys;
mod kind;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod live;
pub mod meta;
pub mod migrate;
pub mod model;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod observe;
pub mod path;
// Public only so that `sync` can publish it as `odm::sync::plan` (its documented path); it sits below `error`.
#[doc(hidden)]
pub mod plan;
pub mod prelude;
pub mod progress;
pub mod reference;
pub mod rules;
pub mod schema;
#[cfg(feature = "driver")]
mod server_reply;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod session;
mod set_element;
pub mod shard;
pub mod size;
pub mod subset;
pub mod sync;
pub mod template;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
mod text;
pub mod timeseries;
#[cfg(feature = "driver")]
mod to_driver;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod transaction;
pub mod update;
pub mod version;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod watch;

pub use aggregate::Pipeline;
pub use bson;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use collection::Collection;
pub use error::Error;
pub use filter::{Filter, Projection, Sort};
pub use model::{Model, VariantOf};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use mongodb;
#[cfg(feature = "derive")]
pub use odm_derive::{Embedded, Model};
pub use path::AsPath;
pub use schema::BsonSchema;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use session::Session;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use sync::SchemaSync;
pub use sync::SyncMode;
pub use text::Lowercase;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use transaction::Transaction;
pub use update::Update;
pub use version::{Upgrade, Version};

/// Paths used by generated code. Not public API: may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::bucket::{Bucket, BucketFields};
    pub use crate::computed;
    pub use crate::diff::{Diff, DiffPath};
    pub use crate::timeseries::{Granularity, TimeSeries};
    /// Diff helpers of generated code.
    pub mod diff {
        pub use crate::diff::generated::{by_keys, converted_skippable, field, frozen, skippable};
    }
    pub use crate::index::IndexSpec;
    pub use crate::kind::BsonKind;
    pub use crate::meta::{field, FieldMeta, FieldType, TypeMeta};
    pub use crate::model::{
        revision_of, Acknowledgment, Capped, Model, QuerySpec, ReadConcernLevel, ReadPreferenceMode, Scatter, ShardKey,
        ValidationAction, ValidationLevel, VariantOf, VersionSpec, WriteConcernSpec,
    };
    pub use crate::path::encode::encode_schema;
    pub use crate::path::types::{encode_converted, encode_value};
    pub use crate::path::{self as path, Access, AsPath, FieldNode, Fields, Path};
    pub use crate::reference::{copy_fits, id_fits, misfit, Copies, HoldsReferences};
    pub use crate::schema::{BsonSchema, CounterCheck};
    pub use crate::size;
    pub use crate::subset::{fault, overflow_fits, owner_indexed, Subset};
    pub use crate::template::{NameTemplate, Placeholder};
    pub use crate::update::Update;
    pub use crate::version::{self as version, Upgrade, VersionNumber};
    pub use core::option::Option::{self, None, Some};
    /// Validator builders of generated code.
    pub mod build {
        pub use crate::schema::build::*;
    }
    pub use crate::error::Invalid;
    pub use bson::{self, doc, Bson, Document};
    pub use core::ops::Deref;
    pub use serde;
    pub use serde_with;
    pub use std::format;
    pub use std::string::String;
    pub use std::vec;
    pub use std::vec::Vec;
    /// The items generated code names most, each under one name that no user item is likely to carry: a glob
    /// import of these in the generated block spells a path as one token instead of three to seven, and every token
    /// a derive emits is paid for on each build.
    pub mod names {
        pub use crate::diff::generated::skippable as __odm_diff_skippable;
        pub use crate::diff::generated::{
            field as __odm_diff_field, fields as __odm_diff_fields, frozen as __odm_diff_frozen,
        };
        pub use crate::diff::{Diff as __OdmDiff, DiffPath as __OdmAt};
        pub use crate::index::IndexSpec as __OdmIndex;
        pub use crate::kind::BsonKind as __OdmKind;
        pub use crate::meta::{field as __odm_meta, TypeMeta as __OdmTable};
        pub use crate::model::Model as __OdmModel;
        pub use crate::path::shared::{
            same_str as __odm_str_eq, stores_alike as __odm_stores_alike, Shared as __OdmShared,
            SharesField as __OdmSharesField,
        };
        pub use crate::path::{
            generated::at as __odm_at, Access as __OdmAccess, ComputedField as __OdmComputedField,
            Counted as __OdmCounted, CountedSet as __OdmCountedSet, CounterField as __OdmCounterField,
            FieldNodeOf as __OdmNodeOf, FieldPathOf as __OdmPathOf, Fields as __OdmFields, IdField as __OdmIdField,
            IsPath as __OdmIsPath, Object as __OdmObject, Path as __OdmPath, Plain as __OdmPlain,
            RevisionField as __OdmRevisionField, Root as __OdmRoot, Set as __OdmSet,
            ShardKeyField as __OdmShardKeyField, Variant as __OdmVariant, VariantNodeOf as __OdmVariantNodeOf,
            VariantPathOf as __OdmVariantPathOf,
        };
        pub use crate::schema::build::field_of as __odm_field_of;
        pub use crate::schema::build::index_keys as __odm_index_keys;
        pub use crate::schema::BsonSchema as __OdmSchema;
        pub use bson::Document as __OdmDocument;
        pub use core::ops::Deref as __OdmDeref;
        pub use core::option::Option::{self as __OdmOption, None as __OdmNone, Some as __OdmSome};
        pub use std::vec::Vec as __OdmVec;
    }
}
