//! # odm: a typed ODM for MongoDB
//!
//! MongoDB teams keep their schema-design rules in review checklists: lowercase names, short keys, one type per
//! field, dates stored as dates, bounded arrays with size counters, `_id` left as an ObjectId. odm turns each rule
//! into a compile-time error on the exact field, and generates what a DBA reviews — the `$jsonSchema` validator
//! with its `validationLevel` and `validationAction`, named indexes, capped and TTL options — from the Rust types.
//!
//! ```
//! use odm::prelude::*;
//! use odm::bson::oid::ObjectId;
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
//! Write `items: Vec<Line>` without a bound, or `collection = "OrderHeader"`, and the build fails at that field,
//! saying what is wrong, how to fix it, and the rule's id: `… (rule `array-bound`)`.
//!
//! ## Where to start
//!
//! The [`guide`] takes one topic a page, from naming to operating, each with complete programs; the steps of a
//! program's life, and where each is explained:
//!
//! 1. **Declare a model**: `#[derive(Model)]` on a struct or a tagged enum, `#[derive(Embedded)]` on what it
//!    embeds, with the attributes in the tables below. Most programs need only `use odm::prelude::*;` (the derives,
//!    [`Collection`], [`Filter`], [`Update`], [`SchemaSync`], …: see [`prelude`]) beside their serde and driver
//!    imports; the rest is in its module. Guides: [naming](guide::naming), [keys and stored
//!    types](guide::keys_and_types), [patterns](guide::patterns).
//! 2. **Bring the database in line at startup**: [`SchemaSync`] creates or updates each model's collection, validator
//!    and indexes, or only reports what differs ([`SyncMode`]). Guide: [validators and
//!    sync](guide::validators_and_sync).
//! 3. **Read and write through typed paths**: [`Collection`] with filters ([`filter`]), targeted updates ([`update`])
//!    and pipelines ([`aggregate`]), every call a builder (below). Guide: [reading and writing
//!    consistently](guide::consistency).
//! 4. **Hand the operators a command line**: [`cli`] (feature `cli`) is one call in the application's own admin
//!    binary, with `plan`, `verify`, `apply`, `check`, `migrate`, `dump`, `restore` and `expire`. Guides: [the
//!    command line](guide::command_line), [operating](guide::operating).
//! 5. **Look a rule up**: the [`rules`] page says for each id what it checks, why, how to fix a breach, and the
//!    validator keywords that enforce it at run time.
//!
//! ## How calls read
//!
//! Every operation is written the same way, in four steps:
//!
//! - **Start** from what it acts on. Work on one collection starts from its [`Collection`]:
//!   `orders.insert_one(&order)`, `orders.update_one(filter, update)`, `orders.find(filter)`,
//!   `orders.aggregate(pipeline)`, `orders.bulk()`, `orders.watch()`, `orders.check_schema()`, `orders.migrate()`.
//!   Work that spans collections starts from its type with the client:
//!   [`SchemaSync::new(&client)`](SchemaSync::new), [`Transaction::new(&client)`](Transaction::new).
//! - **Configure** with chained methods that take the builder by value and return it (`.upsert()`, `.sort(…)`,
//!   `.limit(10)`, `.hint("idx_…")`, `.mode(SyncMode::Apply)`, `.batch_size(500)`). A choice is a named method or an
//!   enum, never a bare `bool`.
//! - **Execute** with `.await`: every builder is [`IntoFuture`](std::future::IntoFuture), sends its command and gives
//!   its result (`Result<T>`: odm's own result types, all rows of a find or a pipeline, a report for a sync, a check
//!   or a migration). Another way to execute the same builder is a named method awaited the same way:
//!   `.explain().await` (the server's plan, nothing written), `.plan().await` (a sync that changes nothing),
//!   `.all_valid().await` (rows read past those that do not decode). The one builder that runs code of yours takes it
//!   when it executes: `Transaction::new(&client).run(body).await`.
//! - **Stream** with `.stream().await` where the results are many or endless (a find, a pipeline, a change stream):
//!   a [`Stream`](futures_util::Stream) of `Result<T>`, one item per row or event.
//!
//! Counts are `u64` (`limit`, `skip`; batch sizes are `usize`, as they size a buffer); typed paths are passed by
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
//! On the type, `#[odm(…)]`:
//!
//! | attribute | what it declares | rules |
//! |---|---|---|
//! | `collection = "module_table"` | the collection (models); `{yyyymm}`, `{name}` name one per period or per name ([`template`]) | [`name-case`](crate::rules#name-case), [`name-collection`](crate::rules#name-collection), [`name-template`](crate::rules#name-template) |
//! | `db = "name"` | the database; without it, the caller's | [`name-case`](crate::rules#name-case), [`name-length`](crate::rules#name-length) |
//! | `existing_name` | the collection keeps the name it already has on the server, outside the naming rules (adopting a database that exists; see [`pull`]) | [`name-case`](crate::rules#name-case) |
//! | `module = "m"` | the collection is `m_<table>`, `base_m_<table>` or `log_m_<table>` | [`name-module`](crate::rules#name-module) |
//! | `max_key_len = N` | the longest stored key (default 16) | [`key-short`](crate::rules#key-short) |
//! | `closed` / `open` | `additionalProperties: false` on this type and every level it owns / a type that stays open inside a closed one | [`closed-open`](crate::rules#closed-open) |
//! | `validation_level = "…"`, `validation_action = "…"` | `strict`/`moderate`/`off`, `error`/`warn`/`errorAndLog` | [`model-validation`](crate::rules#model-validation) |
//! | `index(keys = "a, -b", unique, sparse, hidden, ttl = N, name = "idx_…", partial = "…", collation(…), weights = "…", default_language = "…")` | a named index (`a:text`, `a:hashed`, `a:2dsphere`, `$**`); see [`index`] | [`index-keys`](crate::rules#index-keys), [`index-name`](crate::rules#index-name), [`index-ttl`](crate::rules#index-ttl), [`index-partial`](crate::rules#index-partial) |
//! | `max_indexes = N` | how many indexes the model may declare (default 3) | [`index-ceiling`](crate::rules#index-ceiling) |
//! | `query(eq = "a, b", sort = "-c", range = "d")` | an access pattern, served by an index in Equality → Sort → Range order | [`query-esr`](crate::rules#query-esr), [`query-fields`](crate::rules#query-fields) |
//! | `capped(size = BYTES, max = DOCS)` | a capped collection | [`capped-size`](crate::rules#capped-size), [`capped-log`](crate::rules#capped-log) |
//! | `keep_periods = N` | with a `{yyyymm}` name: the periods kept ([`collection::drop_expired`]) | [`capped-log`](crate::rules#capped-log) |
//! | `read_concern = "…"`, `read_preference = "…"`, `write_concern(w = "majority", j = true, timeout_ms = N)` | the model's concerns, on every operation outside a transaction | [`concern-value`](crate::rules#concern-value), [`concern-journal`](crate::rules#concern-journal) |
//! | `shard_key = "region, customer"` | the shard key: required, scalar, indexed, never changed by a typed update ([`Model::SHARD_KEY`]) | [`shard-key-indexed`](crate::rules#shard-key-indexed), [`shard-key-immutable`](crate::rules#shard-key-immutable) |
//! | `size_budget = "refuse" \| "warn"` | a worst-case document over 16 MiB does not compile, or is reported by sync ([`size`]) | [`model-size`](crate::rules#model-size) |
//! | `version = N, older(V1, …)` | a versioned model ([`version`], [`migrate`]) | [`version-field`](crate::rules#version-field), [`version-step`](crate::rules#version-step) |
//! | `bucket(key = "sensor, day", items = "readings")` | one document per key and period holding a counted array ([`bucket`]) | [`bucket-shape`](crate::rules#bucket-shape) |
//! | `timeseries(time = "at", meta = "sensor", granularity = "…", expire_after = N)` | a time-series collection ([`timeseries`]) | [`timeseries-fields`](crate::rules#timeseries-fields) |
//! | `crate = "path"` | where odm is, when the dependency is renamed | |
//!
//! On a field, `#[odm(…)]`:
//!
//! | attribute | what it declares | rules |
//! |---|---|---|
//! | `max_items = N`, `min_items = N`, `unbounded` | an array's bounds (`unbounded`: on purpose) | [`array-bound`](crate::rules#array-bound) |
//! | `counter = "field"` | an integer field kept equal to the array's size, in the same update | [`counter-field`](crate::rules#counter-field), [`counter-in-step`](crate::rules#counter-in-step) |
//! | `keep_last` | with `max_items`: a push keeps the last N elements instead of being refused | [`array-keep-last`](crate::rules#array-keep-last) |
//! | `overflow(model = "M", owner = "f")` | with `keep_last`: `M`'s collection keeps every element ([`subset`]) | [`array-overflow`](crate::rules#array-overflow) |
//! | `unique_items` | the array is a set: `uniqueItems`, `add_to_set`, `pull` of one value | [`array-unique`](crate::rules#array-unique) |
//! | `sum = "…"`, `min = "…"`, `max = "…"` | a computed field kept in step with its source array ([`computed`]) | [`computed-field`](crate::rules#computed-field), [`computed-in-step`](crate::rules#computed-in-step) |
//! | `max_len = N`, `min_len = N` | a string's length | [`string-length`](crate::rules#string-length) |
//! | `nullable` | `Option` stored as `null` rather than absent | [`type-option-absent`](crate::rules#type-option-absent) |
//! | `mixed` | a field of any BSON type, on purpose | [`type-one-bson-type`](crate::rules#type-one-bson-type) |
//! | `not_a_date` | an integer or string that is not a date in disguise | [`date-string`](crate::rules#date-string) |
//! | `bson_type = "alias"` | the stored type of a field whose converter odm cannot see | [`type-converter`](crate::rules#type-converter) |
//! | `custom_id` / `not_id` | an `_id` that is not an ObjectId, on purpose / a field named `id` that is not the `_id` | [`id-objectid`](crate::rules#id-objectid), [`id-field`](crate::rules#id-field) |
//! | `revision` | one integer field of a model: optimistic concurrency ([`Model::REVISION`]) | [`revision-field`](crate::rules#revision-field) |
//! | `copies(model = "M", by = "f")` | on an embedded struct: copied fields of `M`, kept in step ([`reference`](mod@reference)) | [`copy-source`](crate::rules#copy-source), [`copy-bounds`](crate::rules#copy-bounds) |
//!
//! serde's `rename`, `rename_all`, `rename_all_fields`, `skip`, `skip_serializing_if`, `default`, `tag` and
//! `content` are mirrored exactly; attributes odm cannot mirror (`flatten`, `untagged`, `into`, unknown converters)
//! are refused at compile time ([`serde-unsupported`](crate::rules#serde-unsupported)). `from`/`try_from` are
//! accepted: they change only how a stored document is read, so a proxy type can migrate older shapes on read.
//!
//! A view (`#[derive(View)]`, see [`view`]) reads some of a model's fields: `#[odm(of = "Order")]` on a struct whose
//! fields are named as the model names them; each is read under the model's key, its type checked against the
//! model's ([`view-field`](crate::rules#view-field), [`view-type`](crate::rules#view-type)), and
//! `find(…).view::<V>()` sends only its paths.
//!
//! ## The command line
//!
//! An application's admin binary is a few lines ([`cli::Admin`], feature `cli`), and gives its operators `plan`,
//! `verify`, `apply`, `export`, `check`, `migrate`, `list`, `dump`, `restore` and `expire` over its models, `audit`
//! and `pull` over what a database holds, with `--json` and exit codes fit for CI ([`cli::exit`]).
//!
//! ## Features
//!
//! `derive` (the derives), `driver` (everything that talks to a server: [`Collection`], [`session`],
//! [`Transaction`], [`SchemaSync`]'s execution, bulk writes, the schema check, migrations, change streams, the
//! `odm::mongodb` re-export) and `backup` ([`backup`]: dump and restore in mongodump's layout) are on by default;
//! `cli` adds the command line, `testing` the test-server harness. Without `driver`, odm is the driver-free core:
//! models, validators, index specs, typed paths, filters, updates, diffs and pipelines, for a crate of models shared
//! by programs that do not all talk to the database.
#![deny(missing_docs)]
// docs.rs marks what needs the `driver` (or `testing`) feature.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Without `driver` the items that talk to a server do not exist, nor without `cli` the command line, so the docs'
// links to them (`Collection`, `SchemaSync`, `cli::Admin`, …) cannot resolve in those builds: rustdoc leaves them
// unlinked (a link with its target spelled out goes nowhere). docs.rs builds with all features, where every link
// resolves, and CI denies a broken one there (`cargo doc --all-features` with `-D warnings`, which compiles every doc
// comment); only this lint is off, only here.
#![cfg_attr(not(all(feature = "driver", feature = "cli")), allow(rustdoc::broken_intra_doc_links))]

mod base;
#[cfg(feature = "driver")]
mod driver;

pub mod aggregate;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod audit;
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
pub mod diff;
pub mod error;
pub mod explain;
pub mod filter;
pub mod guide;
pub mod index;
pub mod introspect;
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
pub mod prelude;
pub mod progress;
pub mod pull;
pub mod reference;
pub mod rules;
pub mod schema;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod session;
pub mod shard;
pub mod size;
pub mod subset;
pub mod sync;
pub mod template;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
pub mod timeseries;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod transaction;
pub mod update;
pub mod version;
pub mod view;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub mod watch;

pub use aggregate::Pipeline;
pub use base::text::Lowercase;
pub use bson;
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use collection::Collection;
pub use error::Error;
pub use filter::{Filter, Projection, Sort};
/// The `indexmap` crate: `IndexMap<String, V>` is a map field that keeps its keys in the order they were read and
/// inserted, where `BTreeMap` sorts them and `HashMap` scatters them (the models [`pull`] writes use it, so a
/// document is written back as it was read).
pub use indexmap;
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
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use transaction::Transaction;
pub use update::Update;
pub use version::{Upgrade, Version};
pub use view::View;

/// Paths used by generated code. Not public API: may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::base::bucket::{Bucket, BucketFields};
    pub use crate::base::computed;
    pub use crate::base::diff::{Diff, DiffPath};
    pub use crate::base::timeseries::{Granularity, TimeSeries};
    /// Diff helpers of generated code.
    pub mod diff {
        pub use crate::base::schema::diffs::generated::{by_keys, converted_skippable, field, frozen, skippable};
    }
    pub use crate::base::index::IndexSpec;
    pub use crate::base::kind::BsonKind;
    pub use crate::base::meta::{field, FieldMeta, FieldType, TypeMeta};
    pub use crate::base::model::{
        revision_of, Acknowledgment, Capped, Model, QuerySpec, ReadConcernLevel, ReadPreferenceMode, Scatter, ShardKey,
        ValidationAction, ValidationLevel, VariantOf, VersionSpec, WriteConcernSpec,
    };
    pub use crate::base::path::types::{encode_converted, encode_value, EncoderInput};
    pub use crate::base::path::{Access, AsPath, Fields, Path};
    pub use crate::base::schema::paths::encode::encode_schema;
    pub use crate::base::schema::paths::FieldNode;
    /// Typed paths of generated code: the path types, and what of them needs `BsonSchema`.
    pub mod path {
        pub use crate::base::path::{shared, Encoder, Variant};
        pub use crate::base::schema::paths::ArrayLike;
    }
    pub use crate::base::reference::{copy_fits, id_fits, misfit, Copies, HoldsReferences};
    pub use crate::base::schema::{BsonSchema, CounterCheck};
    /// Size budgets of generated code: the vocabulary, and the budget of a field table.
    pub mod size {
        pub use crate::base::meta::tables::{adjacent, of_table, one_of, oversize, tagged};
        pub use crate::base::size::{Reason, Size};
    }
    pub use crate::base::subset::{fault, overflow_fits, owner_indexed, Subset};
    pub use crate::base::template::{NameTemplate, Placeholder};
    pub use crate::base::update::Update;
    pub use crate::base::version::{Upgrade, VersionNumber};
    /// Versioned reads of generated code: the older shapes a model lists, and the steps between them.
    pub mod version {
        pub use crate::base::model::older::{shape, OlderShape};
        pub use crate::base::version::{read, step};
    }
    pub use core::option::Option::{self, None, Some};
    /// Validator builders of generated code.
    pub mod build {
        pub use crate::base::schema::build::*;
    }
    pub use crate::base::error::Invalid;
    pub use bson::{self, doc, Bson, Document};
    pub use core::ops::Deref;
    pub use serde;
    pub use serde_with;
    pub use std::format;
    pub use std::string::String;
    pub use std::vec;
    pub use std::vec::Vec;
    /// The names a view's generated code uses (`#[derive(View)]`), apart from [`names`] so that the glob import
    /// every model's code makes does not grow with them.
    pub mod view_names {
        pub use crate::base::meta::TypeMeta as __OdmTable;
        pub use crate::base::schema::BsonSchema as __OdmSchema;
        pub use crate::base::view::{
            expecting as __odm_view_expecting, field as __odm_view_field, key as __odm_view_key,
            missing as __odm_view_missing, viewable as __odm_viewable, AsView as __OdmAsView, Boxed as __OdmViewBoxed,
            Each as __OdmViewEach, Keys as __OdmViewKeys, Opt as __OdmViewOpt, Reads as __OdmReads,
            Values as __OdmViewValues, View as __OdmView,
        };
        pub use bson::Document as __OdmDocument;
        pub use core::option::Option::{self as __OdmOption, None as __OdmNone, Some as __OdmSome};
    }
    /// The items generated code names most, each under one name that no user item is likely to carry: a glob
    /// import of these in the generated block spells a path as one token instead of three to seven, and every token
    /// a derive emits is paid for on each build.
    pub mod names {
        pub use crate::base::diff::{Diff as __OdmDiff, DiffPath as __OdmAt};
        pub use crate::base::index::{DeclaredIndex as __OdmDeclaredIndex, IndexSpec as __OdmIndex};
        pub use crate::base::kind::BsonKind as __OdmKind;
        pub use crate::base::meta::{field as __odm_meta, TypeMeta as __OdmTable};
        pub use crate::base::model::Model as __OdmModel;
        pub use crate::base::path::shared::{
            same_str as __odm_str_eq, stores_alike as __odm_stores_alike, Shared as __OdmShared,
            SharesField as __OdmSharesField,
        };
        pub use crate::base::path::{
            Access as __OdmAccess, ComputedField as __OdmComputedField, Counted as __OdmCounted,
            CountedSet as __OdmCountedSet, CounterField as __OdmCounterField, Fields as __OdmFields,
            IdField as __OdmIdField, IsPath as __OdmIsPath, Object as __OdmObject, Path as __OdmPath,
            Plain as __OdmPlain, RevisionField as __OdmRevisionField, Root as __OdmRoot, Set as __OdmSet,
            ShardKeyField as __OdmShardKeyField, Variant as __OdmVariant,
        };
        pub use crate::base::schema::build::field_of as __odm_field_of;
        pub use crate::base::schema::build::index_keys as __odm_index_keys;
        pub use crate::base::schema::build::{refuse as __odm_refuse, refuse_at as __odm_refuse_at};
        pub use crate::base::schema::diffs::generated::skippable as __odm_diff_skippable;
        pub use crate::base::schema::diffs::generated::{
            field as __odm_diff_field, fields as __odm_diff_fields, frozen as __odm_diff_frozen,
        };
        pub use crate::base::schema::paths::{
            generated::at as __odm_at, FieldNodeOf as __OdmNodeOf, FieldPathOf as __OdmPathOf,
            VariantNodeOf as __OdmVariantNodeOf, VariantPathOf as __OdmVariantPathOf,
        };
        pub use crate::base::schema::BsonSchema as __OdmSchema;
        pub use bson::Document as __OdmDocument;
        pub use core::ops::Deref as __OdmDeref;
        pub use core::option::Option::{self as __OdmOption, None as __OdmNone, Some as __OdmSome};
        pub use std::vec::Vec as __OdmVec;
    }
}
