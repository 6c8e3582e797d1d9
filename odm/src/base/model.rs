//! The `Model` trait and the settings it declares (validation level and action, concerns, read preference, capped,
//! shard key and scatter policy, version), the older shapes a versioned model reads (`older`) and the errors that name
//! a model (`model_name`, at the end). Their driver forms are `crate::driver::to_driver`. Users read the docs at
//! `odm::model` (src/model.rs).

// The older shapes a versioned model still reads, named by the model trait.
pub(crate) mod older;

use crate::base::error::{Error, Invalid};
use crate::base::index::{DeclaredIndex, IndexSpec};
use crate::base::meta::TypeMeta;
use crate::base::schema::{BsonSchema, CounterCheck};
use crate::base::template::NameTemplate;
use bson::{doc, Bson, Document};
use serde::{de::DeserializeOwned, Serialize};

/// `validationLevel`: which writes the server validates.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum ValidationLevel {
    /// Every insert and update (the server default).
    #[default]
    Strict,
    /// Inserts, and updates of documents that are already valid.
    Moderate,
    /// No validation.
    Off,
}

impl ValidationLevel {
    /// The server's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            ValidationLevel::Strict => "strict",
            ValidationLevel::Moderate => "moderate",
            ValidationLevel::Off => "off",
        }
    }
}

/// `validationAction`: what the server does with an invalid write.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum ValidationAction {
    /// Reject it (the server default).
    #[default]
    Error,
    /// Accept it and log a warning.
    Warn,
    /// Reject it and log (MongoDB 8.1+).
    ErrorAndLog,
}

impl ValidationAction {
    /// The server's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            ValidationAction::Error => "error",
            ValidationAction::Warn => "warn",
            ValidationAction::ErrorAndLog => "errorAndLog",
        }
    }
}

/// The `w` of a write concern: who acknowledges a write.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Acknowledgment {
    /// Acknowledged by this many nodes.
    Nodes(u32),
    /// `"majority"` or a custom tag set name.
    Tag(&'static str),
}

/// A read concern level: `#[odm(read_concern = "majority")]`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ReadConcernLevel {
    /// `local`: the node's most recent data, which a rollback may still undo.
    Local,
    /// `available`: like `local`, without waiting for a sharded cluster's metadata.
    Available,
    /// `majority`: data acknowledged by a majority, never rolled back.
    Majority,
    /// `linearizable`: majority data reflecting every write acknowledged before the read began.
    Linearizable,
    /// `snapshot`: a consistent snapshot (transactions and sessions).
    Snapshot,
}

impl ReadConcernLevel {
    /// The server's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            ReadConcernLevel::Local => "local",
            ReadConcernLevel::Available => "available",
            ReadConcernLevel::Majority => "majority",
            ReadConcernLevel::Linearizable => "linearizable",
            ReadConcernLevel::Snapshot => "snapshot",
        }
    }
}

/// A read preference mode: `#[odm(read_preference = "secondaryPreferred")]`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ReadPreferenceMode {
    /// `primary`: only the primary.
    Primary,
    /// `primaryPreferred`: the primary, a secondary when there is none.
    PrimaryPreferred,
    /// `secondary`: only secondaries.
    Secondary,
    /// `secondaryPreferred`: a secondary, the primary when there is none.
    SecondaryPreferred,
    /// `nearest`: the member with the lowest latency.
    Nearest,
}

impl ReadPreferenceMode {
    /// The server's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            ReadPreferenceMode::Primary => "primary",
            ReadPreferenceMode::PrimaryPreferred => "primaryPreferred",
            ReadPreferenceMode::Secondary => "secondary",
            ReadPreferenceMode::SecondaryPreferred => "secondaryPreferred",
            ReadPreferenceMode::Nearest => "nearest",
        }
    }
}

/// A write concern declared on a model: `#[odm(write_concern(w = "majority", j = true, timeout_ms = 5000))]`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct WriteConcernSpec {
    /// `w`.
    pub w: Option<Acknowledgment>,
    /// `j`.
    pub journal: Option<bool>,
    /// `wtimeout` in milliseconds.
    pub timeout_ms: Option<u64>,
}

/// Capped collection limits: the oldest documents make room for new ones.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Capped {
    /// Maximum size in bytes (required by the server).
    pub size: u64,
    /// Maximum number of documents, if any.
    pub max: Option<u64>,
}

/// A declared shard key (the [`shard-key-*`](crate::rules#shard-key-indexed) rules): indexed, always present, never
/// changed once written. odm checks those rules at compile time and gives the fields no setter; sharding the
/// collection stays a DBA's step on `mongos`, with this key.
///
/// ```
/// use odm::{Model, model::ShardKey, bson::{doc, oid::ObjectId}};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Model, Serialize, Deserialize)]
/// #[odm(db = "shop", collection = "order_header", shard_key = "region, customer")]
/// #[odm(index(keys = "region, customer"))]
/// struct Order {
///     #[serde(rename = "_id")]
///     id: ObjectId,
///     #[serde(rename = "rg")]
///     region: String,
///     #[serde(rename = "cu")]
///     customer: ObjectId,
/// }
///
/// let key = Order::SHARD_KEY.unwrap();
/// assert_eq!(key.to_document(), doc! { "rg": 1, "cu": 1 });
/// // For review: sh.shardCollection("shop.order_header", { rg: 1, cu: 1 })
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ShardKey {
    /// The stored keys in order, each `true` when hashed.
    pub keys: &'static [(&'static str, bool)],
}

impl ShardKey {
    /// The key document `sh.shardCollection` takes: `{ rg: 1, cu: 1 }`, or `{ _id: "hashed" }`.
    pub fn to_document(&self) -> Document {
        self.keys
            .iter()
            .map(|&(key, hashed)| (key.to_owned(), if hashed { Bson::from("hashed") } else { Bson::Int32(1) }))
            .collect()
    }
}

/// What a single-document read or write on a sharded model does when its filter does not hold the whole shard key
/// (or `_id`) to one value, so the router would send it to every shard (rule
/// [`shard-scatter`](crate::rules#shard-scatter); see [`crate::shard`]). Set with `#[odm(scatter = "warn")]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scatter {
    /// Refused before sending, with [`Error::ScatterGather`](crate::Error::ScatterGather) naming the missing fields
    /// (the default).
    #[default]
    Refuse,
    /// Sent, with a `tracing` warning (target `odm::shard`).
    Warn,
    /// Sent silently.
    Allow,
}

/// A declared access pattern (`#[odm(query(eq = "merchant, status", sort = "-created_at", range = "amount"))]`), as
/// written: comma-separated Rust paths, `-` before a descending sort. The derive checks that an index serves it in
/// Equality → Sort → Range order; `odm::testing::access_patterns` asks the server whether it really does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuerySpec {
    /// The fields compared for equality.
    pub eq: &'static str,
    /// The sort.
    pub sort: &'static str,
    /// The fields bounded by a range.
    pub range: &'static str,
}

impl std::fmt::Display for QuerySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = [("eq", self.eq), ("sort", self.sort), ("range", self.range)]
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k} = \"{v}\""))
            .collect();
        write!(f, "query({})", parts.join(", "))
    }
}

/// Where a versioned model's documents keep their version, and the versions it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionSpec {
    /// The stored key of the version field.
    pub key: &'static str,
    /// The version this binary writes.
    pub current: u32,
    /// The oldest version it still reads (and the one a document without the key is taken to be).
    pub oldest: u32,
}

/// The value of a revision field as guarded writes compare it: `int` and `long` are the stored forms the rule
/// allows (`revision-field`). Used by generated code.
#[doc(hidden)]
pub fn revision_of<T: BsonSchema + Serialize>(value: &T) -> Option<i64> {
    match T::to_bson(value) {
        Ok(Bson::Int32(n)) => Some(i64::from(n)),
        Ok(Bson::Int64(n)) => Some(n),
        _ => None,
    }
}

/// A collection's document type. Derive it:
///
/// ```
/// use odm::{Model, bson::oid::ObjectId};
/// use serde::{Deserialize, Serialize};
///
/// /// A customer order.
/// #[derive(Model, Serialize, Deserialize)]
/// #[odm(db = "shop", collection = "order_header", closed)]
/// struct Order {
///     #[serde(rename = "_id")]
///     id: ObjectId,
///     #[serde(rename = "no")]
///     number: String,
///     #[serde(rename = "tot")]
///     total: i64,
/// }
///
/// assert_eq!(<Order as odm::Model>::COLLECTION, "order_header");
/// let v = Order::validator();
/// let schema = v.get_document("$jsonSchema").unwrap();
/// assert_eq!(schema.get_bool("additionalProperties").ok(), Some(false));
/// ```
pub trait Model: BsonSchema + Serialize + DeserializeOwned + Send + Sync + Unpin + 'static {
    /// The collection name (checked at compile time: lowercase `[a-z0-9_]`, module conventions). Set by the
    /// derive; a struct model's is read from its table ([`TypeMeta::collection`](crate::meta::TypeMeta::collection)).
    const COLLECTION: &'static str = match Self::OBJECT {
        Some(TypeMeta { collection: Some(collection), .. }) => collection,
        _ => "",
    };
    /// The Rust type of the document's `_id`, in which writes report the ids they inserted (`Inserted::id`,
    /// `Updated::upserted_id` in `odm::collection`). The derive sets it to the type of the field serialized as
    /// `_id`; without such a field, to [`ObjectId`](bson::oid::ObjectId) (what the driver generates); for a
    /// polymorphic model whose variants do not name one type, to [`Bson`].
    type Id: DeserializeOwned + Send + Sync + Unpin + 'static;
    /// The database, when the model names one.
    const DATABASE: Option<&'static str> = None;
    /// For a collection named at run time (`#[odm(collection = "log_app_event_{yyyymm}")]`): the name template,
    /// whose instances [`crate::collection::Collection::instance`] opens; [`Model::COLLECTION`] is then the
    /// template as written. See [`crate::template`].
    const TEMPLATE: Option<NameTemplate> = None;
    /// `validationLevel` to create the collection with (rule [`model-validation`](crate::rules#model-validation)).
    const VALIDATION_LEVEL: ValidationLevel = ValidationLevel::Strict;
    /// `validationAction` to create the collection with.
    const VALIDATION_ACTION: ValidationAction = ValidationAction::Error;

    /// The read concern level (`local`, `available`, `majority`, `linearizable`, `snapshot`) for reads through
    /// [`crate::Collection`], when the model sets one (rule [`concern-value`](crate::rules#concern-value)).
    const READ_CONCERN: Option<ReadConcernLevel> = None;
    /// The read preference (`primary`, `primaryPreferred`, `secondary`, `secondaryPreferred`, `nearest`) when the
    /// model sets one.
    const READ_PREFERENCE: Option<ReadPreferenceMode> = None;
    /// The write concern when the model sets one: `w > 1` or `majority` where consistency matters.
    const WRITE_CONCERN: Option<WriteConcernSpec> = None;

    /// Capped collection settings (rule [`capped-size`](crate::rules#capped-size)), when the model declares them.
    const CAPPED: Option<Capped> = None;

    /// Time-series settings (rule [`timeseries-fields`](crate::rules#timeseries-fields)), when the model declares
    /// them: see [`crate::timeseries`].
    const TIMESERIES: Option<crate::base::timeseries::TimeSeries> = None;

    /// The shard key, when the model declares one (`#[odm(shard_key = "region, customer")]`).
    const SHARD_KEY: Option<ShardKey> = None;

    /// The declared access patterns (`#[odm(query(…))]`), in declaration order.
    const QUERIES: &'static [QuerySpec] = &[];

    /// What single-document operations whose filter would reach every shard do (only with a shard key).
    const SCATTER: Scatter = Scatter::Refuse;

    /// For a versioned model (`#[odm(version = N, older(…))]`): where documents keep their version, and which
    /// versions the model reads (see [`crate::version`]).
    const VERSION: Option<VersionSpec> = None;

    /// The older shapes a versioned model still reads (`older(…)`, oldest first), with what its validator needs of
    /// them while such documents remain (see [`crate::version::accepting_older`]). Generated.
    #[doc(hidden)]
    const OLDER: &'static [crate::base::model::older::OlderShape] = &[];

    /// Reads a document stored at an older `version`, migrating it step by step to the current type; `None` when
    /// the model does not read that version. Generated for versioned models.
    #[doc(hidden)]
    fn read_older(version: u32, raw: &bson::RawDocument) -> Option<Result<Self, bson::error::Error>>
    where
        Self: Sized,
    {
        let _ = (version, raw);
        None
    }

    /// The stored key of the model's revision, when one field says `#[odm(revision)]` (rule
    /// [`revision-field`](crate::rules#revision-field)): optimistic concurrency, so that a write based on a stale
    /// read fails instead of silently undoing someone else's change (a lost update).
    ///
    /// The rule, for every write through [`Collection`](crate::Collection):
    ///
    /// - [`Collection::update_changes`](crate::Collection::update_changes) and
    ///   [`Collection::replace_one`](crate::Collection::replace_one) are *guarded*: the write applies only if the
    ///   stored revision still equals the revision of the value it is based on (`old`, or the replacement), and it
    ///   adds one to the revision in the same atomic statement. When the revision moved on, nothing is written and
    ///   the call fails with [`Error::Conflict`](crate::Error::Conflict); when no document matches the filter at
    ///   all, with [`Error::NotFound`](crate::Error::NotFound).
    /// - Every other typed update (`update_one`, `update_many`, upserts, `find_one_and_update`) adds one to the
    ///   revision of each document it changes, unguarded: it is based on no read, but a guarded write based on a
    ///   read from before it must still see that the document changed. Guard it yourself with
    ///   `f.revision().eq(r)` in the filter. An upsert that inserts starts the revision at 1.
    /// - `insert_one` and `insert_many` store the value's revision as given (start new values at 0).
    /// - Typed updates have no setter for the revision, and [`Update::diff`](crate::Update::diff) never writes it.
    /// - After a guarded write, the stored revision is one more than your value's: reload the document, or add one
    ///   to your copy, before you base another guarded write on it.
    ///
    /// Writes made around odm (the raw driver, the shell) change nothing about the revision unless they say so.
    ///
    /// ```
    /// use odm::{Model, bson::oid::ObjectId};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Model, Serialize, Deserialize)]
    /// #[odm(collection = "shop_cart")]
    /// struct Cart {
    ///     #[serde(rename = "_id")]
    ///     id: ObjectId,
    ///     #[serde(rename = "rv")]
    ///     #[odm(revision)]
    ///     revision: i64,
    /// }
    ///
    /// assert_eq!(Cart::REVISION, Some("rv"));
    /// assert_eq!(Cart { id: ObjectId::new(), revision: 7 }.revision(), Some(7));
    /// ```
    const REVISION: Option<&'static str> = None;

    /// This value's revision (see [`Model::REVISION`]), which guarded writes compare with the stored one; `None`
    /// when the model has no revision. The derive reads the field directly.
    fn revision(&self) -> Option<i64> {
        None
    }

    /// The checks that keep counted arrays and their counters in step, at every nesting level, each with the pair
    /// it compares (its `$expr` is [`CounterCheck::expr`]). The default reads the model's field table.
    fn counters() -> Vec<CounterCheck> {
        let mut out = Vec::new();
        if let Some(meta) = Self::type_meta() {
            crate::base::schema::checks_under(meta, "$", 0, &mut out);
        }
        out
    }

    /// The most bytes one stored document of this model can take, from the bounds its types declare (`max_items`,
    /// `max_len`, fixed-size types, embedded types' own budgets), BSON's overhead and the stored keys included; or
    /// unbounded, naming the field without a bound (see [`crate::size`]). A model over 16 MiB does not compile
    /// unless it says `#[odm(size_budget = "warn")]` (rule [`model-size`](crate::rules#model-size)); sync reports
    /// every model's budget.
    fn size_budget() -> crate::base::size::Budget {
        Self::SIZE.settle()
    }

    /// The indexes the model declares (named, in stored keys). The default builds those its table holds
    /// ([`TypeMeta::indexes`](crate::meta::TypeMeta::indexes)); the derive writes `indexes()` itself for a model with
    /// an index that needs a document of options (a collation, text weights, a partial filter) or a key other than a
    /// top-level ascending or descending one, and for a polymorphic model.
    fn indexes() -> Vec<IndexSpec> {
        Self::type_meta().map_or_else(Vec::new, |meta| meta.indexes.iter().map(DeclaredIndex::spec).collect())
    }

    /// The collection validator: `{$jsonSchema: …}`, plus `$expr` when the model has a counted array, or `$and` of
    /// one `{$expr: …}` per counted array when it has several. Separate clauses, because the server's report of a
    /// refused write (code 121) says which clause failed but not which part of one expression: so the error names the
    /// counter out of step (see [`crate::error::ValidationError`]).
    ///
    /// A versioned model's validator names its version in the schema's `title` (`"version 3"`), so a sync can tell
    /// that a newer binary already synced the collection; while documents of older versions remain, sync installs
    /// [`crate::version::accepting_older`] instead.
    fn validator() -> Document {
        Self::validator_parts().into_validator()
    }

    /// The validator ([`Model::validator`]) with its parts: each required key, field type, group of bounds, closed
    /// level and counter, with its stored and Rust path and rule id (see [`crate::schema::parts`]). The schema
    /// checker explains stored documents by these parts. The default builds it from the model's schema and counter
    /// checks, both read from its field table.
    fn validator_parts() -> crate::base::validator::ValidatorParts {
        let schema = match Self::VERSION {
            Some(spec) => {
                let mut titled = doc! { "title": crate::base::model::older::title(spec.current) };
                titled.extend(Self::bson_schema());
                titled
            }
            None => Self::bson_schema(),
        };
        crate::base::validator::ValidatorParts::new(schema, Self::counters(), Self::type_meta())
    }
}

/// The struct a newtype variant of a polymorphic model wraps (`Event::Referral(Referral)`), read on its own:
/// [`Collection::find_variant`](crate::Collection::find_variant) adds the discriminator to the filter and returns
/// the wrapped structs. Implemented by `#[derive(Model)]` on the enum for every newtype variant whose type no other
/// variant wraps.
///
/// ```
/// use odm::{Embedded, Model, VariantOf};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
/// struct Referral {
///     #[serde(rename = "by")]
///     by: String,
/// }
///
/// #[derive(Model, Serialize, Deserialize, Debug, PartialEq)]
/// #[odm(collection = "web_event")]
/// #[serde(tag = "t")]
/// enum Event {
///     Click { x: i32 },
///     #[serde(rename = "ref")]
///     Referral(Referral),
/// }
///
/// assert_eq!(<Referral as VariantOf<Event>>::TAG, ("t", "ref"));
/// let event = Referral { by: "grace".into() }.into_model();
/// assert_eq!(Referral::from_model(event), Some(Referral { by: "grace".into() }));
/// ```
pub trait VariantOf<M: Model>: Sized {
    /// The discriminator's stored key and this variant's value under it.
    const TAG: (&'static str, &'static str);

    /// The wrapped value, when `model` is this variant.
    fn from_model(model: M) -> Option<Self>;

    /// The model holding this value as its variant.
    fn into_model(self) -> M;
}

/// The name errors give model `M`: its Rust type name (the collection's for a model without field metadata).
pub(crate) fn model_name<M: Model>() -> &'static str {
    M::type_meta().map_or(M::COLLECTION, |m| m.name)
}

// The errors that concern a model, named as the model is: here rather than in `error`, which names no model so that
// every layer can name it.
impl Error {
    /// A filter, sort, projection or update for `M` refused before sending, its paths named as `M`'s Rust paths.
    pub(crate) fn invalid_operation<M: Model>(cause: Invalid) -> Self {
        Error::InvalidOperation { model: model_name::<M>(), cause: cause.named(M::type_meta()) }
    }

    /// A value of `M` (or a document built for it) that does not encode to BSON; nothing was sent.
    pub(crate) fn serialize<M: Model>(source: bson::error::Error) -> Self {
        Error::Serialize { model: model_name::<M>(), source: Box::new(source) }
    }
}
