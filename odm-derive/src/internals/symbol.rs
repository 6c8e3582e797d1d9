//! Every attribute keyword the derive reads, spelt once (serde_derive's `symbol.rs`). Parsers match paths against
//! these constants, rules and generators quote them in messages, and the "expected one of" lists of unknown
//! attributes are built from them, so a keyword cannot be renamed in one place and missed in another.

use std::fmt::{self, Display};
use syn::{Ident, Path};

/// One attribute keyword.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Symbol(&'static str);

impl Symbol {
    /// The keyword as written, for APIs that take text (`is_ident`, name comparisons).
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

// The attributes themselves.
/// `#[odm(...)]`.
pub const ODM: Symbol = Symbol("odm");
/// `#[serde(...)]`, read so stored keys match what serde writes.
pub const SERDE: Symbol = Symbol("serde");
/// `#[serde_as(...)]` (serde_with), read for the converter it names.
pub const SERDE_AS: Symbol = Symbol("serde_as");
/// Doc comments, which become the validator's `description`.
pub const DOC: Symbol = Symbol("doc");

// `#[odm(...)]` on a container.
/// `collection = "..."`.
pub const COLLECTION: Symbol = Symbol("collection");
/// `db = "..."`.
pub const DB: Symbol = Symbol("db");
/// `database = "..."`, the long spelling of `db`.
pub const DATABASE: Symbol = Symbol("database");
/// `module = "..."`.
pub const MODULE: Symbol = Symbol("module");
/// `existing_name`: the collection keeps the name it already has on the server, outside the naming rules.
pub const EXISTING_NAME: Symbol = Symbol("existing_name");
/// `max_key_len = N`.
pub const MAX_KEY_LEN: Symbol = Symbol("max_key_len");
/// `closed`.
pub const CLOSED: Symbol = Symbol("closed");
/// `open`.
pub const OPEN: Symbol = Symbol("open");
/// `validation_level = "..."`.
pub const VALIDATION_LEVEL: Symbol = Symbol("validation_level");
/// `validation_action = "..."`.
pub const VALIDATION_ACTION: Symbol = Symbol("validation_action");
/// `read_concern = "..."`.
pub const READ_CONCERN: Symbol = Symbol("read_concern");
/// `write_concern(...)`.
pub const WRITE_CONCERN: Symbol = Symbol("write_concern");
/// `read_preference = "..."`.
pub const READ_PREFERENCE: Symbol = Symbol("read_preference");
/// `crate = "..."` (odm's and serde's).
pub const CRATE: Symbol = Symbol("crate");
/// `index(...)`.
pub const INDEX: Symbol = Symbol("index");
/// `query(...)`.
pub const QUERY: Symbol = Symbol("query");
/// `capped(...)`.
pub const CAPPED: Symbol = Symbol("capped");
/// `max_indexes = N`.
pub const MAX_INDEXES: Symbol = Symbol("max_indexes");
pub const KEEP_PERIODS: Symbol = Symbol("keep_periods");
pub const COPIES: Symbol = Symbol("copies");
pub const MODEL: Symbol = Symbol("model");
pub const BY: Symbol = Symbol("by");
/// `overflow(model = "…", owner = "…")` on an array: the subset pattern.
pub const OVERFLOW: Symbol = Symbol("overflow");
/// `owner = "…"` of `overflow(...)`.
pub const OWNER: Symbol = Symbol("owner");
/// `shard_key = "..."`.
pub const SHARD_KEY: Symbol = Symbol("shard_key");
/// `scatter = "refuse" | "warn" | "allow"`.
pub const SCATTER: Symbol = Symbol("scatter");
/// `size_budget = "refuse" | "warn"`: what a model whose worst-case document is over 16 MiB does.
pub const SIZE_BUDGET: Symbol = Symbol("size_budget");
/// `version = N`: the model's schema version.
pub const VERSION: Symbol = Symbol("version");
/// `of = "Model"` on a view: the struct whose fields it reads.
pub const OF: Symbol = Symbol("of");
/// `older(V1, V2)`: the older shapes a versioned model still reads, oldest first.
pub const OLDER: Symbol = Symbol("older");
/// `bucket(key = "...", items = "...")`: a bucket of readings.
pub const BUCKET: Symbol = Symbol("bucket");
/// `timeseries(time = "...", ...)`: a time-series collection.
pub const TIMESERIES: Symbol = Symbol("timeseries");

// `bucket(...)`.
/// `key = "..."`: the fields that tell buckets apart.
pub const KEY: Symbol = Symbol("key");
/// `items = "..."`: the counted array of readings.
pub const ITEMS: Symbol = Symbol("items");

// `timeseries(...)`.
/// `time = "..."`: the date field of each measurement.
pub const TIME: Symbol = Symbol("time");
/// `meta = "..."`: the field naming the series.
pub const META: Symbol = Symbol("meta");
/// `granularity = "seconds" | "minutes" | "hours"`.
pub const GRANULARITY: Symbol = Symbol("granularity");
/// `expire_after = N`: seconds after which measurements are removed.
pub const EXPIRE_AFTER: Symbol = Symbol("expire_after");

// `#[odm(...)]` on a field.
/// `max_items = N`.
pub const MAX_ITEMS: Symbol = Symbol("max_items");
/// `min_items = N`.
pub const MIN_ITEMS: Symbol = Symbol("min_items");
/// `unbounded`.
pub const UNBOUNDED: Symbol = Symbol("unbounded");
/// `counter = "..."`.
pub const COUNTER: Symbol = Symbol("counter");
/// `sum = "array.field"`: a computed field.
pub const SUM: Symbol = Symbol("sum");
/// `min = "array.field"`: a computed field.
pub const MIN: Symbol = Symbol("min");
/// `nullable`.
pub const NULLABLE: Symbol = Symbol("nullable");
/// `mixed`.
pub const MIXED: Symbol = Symbol("mixed");
/// `not_a_date`.
pub const NOT_A_DATE: Symbol = Symbol("not_a_date");
/// `bson_type = "..."`.
pub const BSON_TYPE: Symbol = Symbol("bson_type");
/// `custom_id`.
pub const CUSTOM_ID: Symbol = Symbol("custom_id");
/// `not_id`: a model's field named `id` that is not its `_id`, on purpose.
pub const NOT_ID: Symbol = Symbol("not_id");
/// `max_len = N`.
pub const MAX_LEN: Symbol = Symbol("max_len");
/// `min_len = N`.
pub const MIN_LEN: Symbol = Symbol("min_len");
/// `keep_last`.
pub const KEEP_LAST: Symbol = Symbol("keep_last");
/// `unique_items`: the array is a set.
pub const UNIQUE_ITEMS: Symbol = Symbol("unique_items");
/// `revision`.
pub const REVISION: Symbol = Symbol("revision");

// `index(...)`.
/// `keys = "..."`.
pub const KEYS: Symbol = Symbol("keys");
/// `name = "..."`.
pub const NAME: Symbol = Symbol("name");
/// `unique`.
pub const UNIQUE: Symbol = Symbol("unique");
/// `sparse`.
pub const SPARSE: Symbol = Symbol("sparse");
/// `hidden`.
pub const HIDDEN: Symbol = Symbol("hidden");
/// `ttl = N`.
pub const TTL: Symbol = Symbol("ttl");
/// `expire_after_seconds = N`, the server's spelling of `ttl`.
pub const EXPIRE_AFTER_SECONDS: Symbol = Symbol("expire_after_seconds");
/// `partial = "..."`.
pub const PARTIAL: Symbol = Symbol("partial");
/// `variant = "purchase"`: the variant of a polymorphic model an index is about.
pub const VARIANT: Symbol = Symbol("variant");
/// `weights = "..."`.
pub const WEIGHTS: Symbol = Symbol("weights");
/// `default_language = "..."`.
pub const DEFAULT_LANGUAGE: Symbol = Symbol("default_language");
/// `collation(...)`.
pub const COLLATION: Symbol = Symbol("collation");

// `collation(...)`: the server's names.
/// `locale = "..."`, the one field a collation needs.
pub const LOCALE: Symbol = Symbol("locale");
/// `caseLevel = bool`.
pub const CASE_LEVEL: Symbol = Symbol("caseLevel");
/// `caseFirst = "..."`.
pub const CASE_FIRST: Symbol = Symbol("caseFirst");
/// `strength = 1..=5`.
pub const STRENGTH: Symbol = Symbol("strength");
/// `numericOrdering = bool`.
pub const NUMERIC_ORDERING: Symbol = Symbol("numericOrdering");
/// `alternate = "..."`.
pub const ALTERNATE: Symbol = Symbol("alternate");
/// `maxVariable = "..."`.
pub const MAX_VARIABLE: Symbol = Symbol("maxVariable");
/// `backwards = bool`.
pub const BACKWARDS: Symbol = Symbol("backwards");
/// `normalization = bool`.
pub const NORMALIZATION: Symbol = Symbol("normalization");

// `capped(...)`.
/// `size = N`.
pub const SIZE: Symbol = Symbol("size");
/// `max = N` in `capped(...)`; on a field, `max = "array.field"`: a computed field.
pub const MAX: Symbol = Symbol("max");

// `query(...)`.
/// `eq = "..."`.
pub const EQ: Symbol = Symbol("eq");
/// `sort = "..."`.
pub const SORT: Symbol = Symbol("sort");
/// `range = "..."`.
pub const RANGE: Symbol = Symbol("range");

// `write_concern(...)`.
/// `w = N | "..."`.
pub const W: Symbol = Symbol("w");
/// `j = bool`.
pub const J: Symbol = Symbol("j");
/// `journal = bool`, the long spelling of `j`.
pub const JOURNAL: Symbol = Symbol("journal");
/// `timeout_ms = N`.
pub const TIMEOUT_MS: Symbol = Symbol("timeout_ms");
/// `wtimeout = N`, the driver's spelling of `timeout_ms`.
pub const WTIMEOUT: Symbol = Symbol("wtimeout");

// `#[serde(...)]`.
/// `rename = "..."` or `rename(serialize = "...")`.
pub const RENAME: Symbol = Symbol("rename");
/// `rename_all = "..."`.
pub const RENAME_ALL: Symbol = Symbol("rename_all");
/// `rename_all_fields = "..."`.
pub const RENAME_ALL_FIELDS: Symbol = Symbol("rename_all_fields");
/// `rename(serialize = "...")`.
pub const SERIALIZE: Symbol = Symbol("serialize");
/// `rename(deserialize = "...")`.
pub const DESERIALIZE: Symbol = Symbol("deserialize");
/// `tag = "..."`.
pub const TAG: Symbol = Symbol("tag");
/// `content = "..."`.
pub const CONTENT: Symbol = Symbol("content");
/// `transparent`.
pub const TRANSPARENT: Symbol = Symbol("transparent");
/// `untagged`.
pub const UNTAGGED: Symbol = Symbol("untagged");
/// `from = "..."`.
pub const FROM: Symbol = Symbol("from");
/// `into = "..."`.
pub const INTO: Symbol = Symbol("into");
/// `try_from = "..."`.
pub const TRY_FROM: Symbol = Symbol("try_from");
/// `remote = "..."`.
pub const REMOTE: Symbol = Symbol("remote");
/// `field_identifier`.
pub const FIELD_IDENTIFIER: Symbol = Symbol("field_identifier");
/// `variant_identifier`.
pub const VARIANT_IDENTIFIER: Symbol = Symbol("variant_identifier");
/// `deny_unknown_fields`.
pub const DENY_UNKNOWN_FIELDS: Symbol = Symbol("deny_unknown_fields");
/// `default`.
pub const DEFAULT: Symbol = Symbol("default");
/// `bound = "..."`.
pub const BOUND: Symbol = Symbol("bound");
/// `expecting = "..."`.
pub const EXPECTING: Symbol = Symbol("expecting");
/// `skip`.
pub const SKIP: Symbol = Symbol("skip");
/// `skip_serializing`.
pub const SKIP_SERIALIZING: Symbol = Symbol("skip_serializing");
/// `skip_serializing_if = "..."`.
pub const SKIP_SERIALIZING_IF: Symbol = Symbol("skip_serializing_if");
/// `skip_deserializing`.
pub const SKIP_DESERIALIZING: Symbol = Symbol("skip_deserializing");
/// `with = "..."`.
pub const WITH: Symbol = Symbol("with");
/// `serialize_with = "..."`.
pub const SERIALIZE_WITH: Symbol = Symbol("serialize_with");
/// `deserialize_with = "..."`.
pub const DESERIALIZE_WITH: Symbol = Symbol("deserialize_with");
/// `flatten`.
pub const FLATTEN: Symbol = Symbol("flatten");
/// `getter = "..."`.
pub const GETTER: Symbol = Symbol("getter");
/// `alias = "..."`.
pub const ALIAS: Symbol = Symbol("alias");
/// `borrow`.
pub const BORROW: Symbol = Symbol("borrow");
/// `other`.
pub const OTHER: Symbol = Symbol("other");

// `#[serde_as(...)]`.
/// `as = "..."` (written raw, `r#as`, once `serde_as` has rewritten the attribute).
pub const AS: Symbol = Symbol("as");
/// `serialize_as = "..."`.
pub const SERIALIZE_AS: Symbol = Symbol("serialize_as");

/// "`a`, `b`, `c`": a list of keywords as messages quote it.
pub fn quoted(list: &[Symbol]) -> String {
    list.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
}

/// The keywords as text, for "did you mean" hints.
pub fn names(list: &[Symbol]) -> impl Iterator<Item = &'static str> + '_ {
    list.iter().map(|s| s.0)
}

/// An attribute key as text: a path's lone identifier, or nothing for a longer path. A key is compared against many
/// keywords in turn; comparing the path itself renders its identifier once per comparison.
pub struct Name(String);

impl Name {
    pub fn of(path: &Path) -> Self {
        Name(path.get_ident().map(Ident::to_string).unwrap_or_default())
    }
}

impl PartialEq<Symbol> for Name {
    fn eq(&self, word: &Symbol) -> bool {
        !self.0.is_empty() && self.0 == word.0
    }
}

impl PartialEq<Symbol> for Ident {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

impl PartialEq<Symbol> for &Ident {
    fn eq(&self, word: &Symbol) -> bool {
        *self == word.0
    }
}

impl PartialEq<Symbol> for Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl PartialEq<Symbol> for &Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl PartialEq<Symbol> for str {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

impl PartialEq<Symbol> for &str {
    fn eq(&self, word: &Symbol) -> bool {
        *self == word.0
    }
}

impl PartialEq<Symbol> for String {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

impl Display for Symbol {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(self.0)
    }
}
