//! The id of every rule the derive enforces, each spelt once, here. Every error of the derive ends with the id of
//! the rule it reports, `… (rule `key-short`)`, and the `odm` crate's rules page (`odm::rules`, written in
//! `odm/src/rules.md`) has a heading per id saying what the rule checks, why, and how to fix a breach. A test below
//! keeps the two in step.

use std::fmt::Display;

/// One rule, named by its id on the rules page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule(&'static str);

impl Rule {
    /// `msg` with the rule's id at the end: "… (rule `key-short`)".
    pub fn message(self, msg: impl Display) -> String {
        format!("{msg} (rule `{}`)", self.0)
    }
}

macro_rules! rules {
    ($($name:ident = $id:literal;)*) => {
        $(pub const $name: Rule = Rule($id);)*

        /// Every rule, in the order of the rules page.
        #[cfg(test)]
        pub const ALL: &[Rule] = &[$($name),*];
    };
}

rules! {
    // Names of databases, collections and modules.
    NAME_CASE = "name-case";
    NAME_LENGTH = "name-length";
    NAME_SYSTEM = "name-system";
    NAME_MODULE = "name-module";
    NAME_COLLECTION = "name-collection";
    NAME_TEMPLATE = "name-template";
    // Extended references.
    COPY_SOURCE = "copy-source";
    COPY_BOUNDS = "copy-bounds";
    // Stored keys.
    KEY_DOLLAR = "key-dollar";
    KEY_DOT = "key-dot";
    KEY_NUL = "key-nul";
    KEY_EMPTY = "key-empty";
    KEY_SHORT = "key-short";
    KEY_UNIQUE = "key-unique";
    KEY_MAP = "key-map";
    // One BSON type per field.
    TYPE_ONE_BSON_TYPE = "type-one-bson-type";
    TYPE_FAITHFUL = "type-faithful";
    TYPE_OPTION_ABSENT = "type-option-absent";
    TYPE_CONVERTER = "type-converter";
    TYPE_DECLARED = "type-declared";
    // Dates.
    DATE_CHRONO = "date-chrono";
    DATE_STRING = "date-string";
    // Arrays and strings.
    ARRAY_BOUND = "array-bound";
    ARRAY_KEYWORD = "array-keyword";
    ARRAY_KEEP_LAST = "array-keep-last";
    ARRAY_OVERFLOW = "array-overflow";
    STRING_LENGTH = "string-length";
    // Counters.
    COUNTER_FIELD = "counter-field";
    COUNTER_INTEGER = "counter-integer";
    // Computed fields.
    COMPUTED_FIELD = "computed-field";
    COMPUTED_SOURCE = "computed-source";
    COMPUTED_TYPE = "computed-type";
    // `_id`.
    ID_OBJECTID = "id-objectid";
    ID_FIELD = "id-field";
    // Enums and closed documents.
    ENUM_TAGGED = "enum-tagged";
    ENUM_TUPLE_VARIANT = "enum-tuple-variant";
    ENUM_VARIANTS = "enum-variants";
    CLOSED_OPEN = "closed-open";
    // Polymorphic collections (`#[derive(Model)]` on an enum).
    POLY_TAGGED = "poly-tagged";
    POLY_VARIANT = "poly-variant";
    POLY_ID = "poly-id";
    POLY_ATTR = "poly-attr";
    // Paths written in attributes.
    PATH_FIELD = "path-field";
    // Indexes.
    INDEX_KEYS = "index-keys";
    INDEX_PARALLEL_ARRAYS = "index-parallel-arrays";
    INDEX_TTL = "index-ttl";
    INDEX_TEXT = "index-text";
    INDEX_HASHED = "index-hashed";
    INDEX_WILDCARD = "index-wildcard";
    INDEX_PARTIAL = "index-partial";
    INDEX_COLLATION = "index-collation";
    INDEX_NAME = "index-name";
    INDEX_DUPLICATE = "index-duplicate";
    INDEX_CEILING = "index-ceiling";
    // Access patterns.
    QUERY_ESR = "query-esr";
    QUERY_FIELDS = "query-fields";
    // Shard keys.
    SHARD_KEY_INDEXED = "shard-key-indexed";
    SHARD_KEY_REQUIRED = "shard-key-required";
    SHARD_KEY_SCALAR = "shard-key-scalar";
    SHARD_KEY_IMMUTABLE = "shard-key-immutable";
    SHARD_KEY_FIELDS = "shard-key-fields";
    SHARD_KEY_QUERY = "shard-key-query";
    SHARD_SCATTER = "shard-scatter";
    // Capped collections.
    CAPPED_SIZE = "capped-size";
    CAPPED_TTL = "capped-ttl";
    CAPPED_LOG = "capped-log";
    // The bucket pattern and time-series collections.
    BUCKET_SHAPE = "bucket-shape";
    TIMESERIES_FIELDS = "timeseries-fields";
    // Revisions (optimistic concurrency).
    REVISION_FIELD = "revision-field";
    // Consistency settings.
    CONCERN_VALUE = "concern-value";
    CONCERN_JOURNAL = "concern-journal";
    // The model as a whole.
    MODEL_SHAPE = "model-shape";
    MODEL_ONLY = "model-only";
    MODEL_VALIDATION = "model-validation";
    MODEL_SIZE = "model-size";
    VERSION_FIELD = "version-field";
    // Views (`#[derive(View)]`).
    VIEW_OF = "view-of";
    VIEW_FIELD = "view-field";
    VIEW_TYPE = "view-type";
    VIEW_SERDE = "view-serde";
    // serde attributes.
    SERDE_UNSUPPORTED = "serde-unsupported";
    SERDE_UNKNOWN = "serde-unknown";
    // odm attributes.
    ATTR_UNKNOWN = "attr-unknown";
    ATTR_SYNTAX = "attr-syntax";
    ATTR_DUPLICATE = "attr-duplicate";
}

#[cfg(test)]
mod tests {
    use super::ALL;

    // That every id has a heading on the runtime's rules page is checked by `tests/ui.rs`
    // (`rules_page_matches_the_errors`), which reads both files: the page is not part of this crate's package, so a
    // test here that read it would not build from the published crate.

    #[test]
    fn ids_are_unique_kebab_case() {
        for (i, rule) in ALL.iter().enumerate() {
            assert!(!ALL[..i].contains(rule), "rule `{}` is listed twice", rule.0);
            assert!(
                rule.0
                    .split('-')
                    .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())),
                "rule id `{}` is not kebab-case",
                rule.0
            );
        }
    }

    #[test]
    fn messages_end_with_the_id() {
        assert_eq!(super::KEY_SHORT.message("stored key `abc` is long"), "stored key `abc` is long (rule `key-short`)");
    }
}
