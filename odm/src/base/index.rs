//! Index specifications: `IndexSpec` (what a model declares, or `listIndexes` lists), when two are the same index, and
//! what `collMod` changes in place (`InPlaceChange`). Comparing a model's indexes with the live ones is
//! `crate::driver::sync`. Users read the docs at `odm::index` (src/index.rs).

use bson::{doc, Bson, Document};
use std::fmt;

/// The prefix of every index name odm gives (`idx_<fields>`, rule [`index-name`](crate::rules#index-name)). A DBA
/// may use it too: odm owns only the indexes it recorded creating ([`crate::sync::plan::ownership`]).
pub const OWNED_PREFIX: &str = "idx_";

/// An index a model declares as data: a key pattern of top-level fields, ascending (`1`) or descending (`-1`), and
/// the options that need no document (unique, sparse, hidden, TTL). What the derive writes for such indexes into a
/// model's table ([`TypeMeta::indexes`](crate::meta::TypeMeta::indexes)), which
/// [`Model::indexes`](crate::Model::indexes) builds into [`IndexSpec`]s: a table entry costs the compiler less than
/// a function building them, in every model. An index with a collation, text weights or a partial filter, a nested,
/// hashed, text or wildcard key, or of a polymorphic model is built by a generated `indexes()` instead.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct DeclaredIndex {
    /// The declared name; `None` for the default (`idx_` and the stored keys).
    pub name: Option<&'static str>,
    /// The stored keys, `1` ascending, `-1` descending.
    pub keys: &'static [(&'static str, i32)],
    /// `unique`.
    pub unique: bool,
    /// `sparse`.
    pub sparse: bool,
    /// `hidden`.
    pub hidden: bool,
    /// `expireAfterSeconds` (a TTL index).
    pub expire_after_seconds: Option<i64>,
}

impl DeclaredIndex {
    /// An index on `keys`, named `name` (or by default), without options.
    pub const fn new(name: Option<&'static str>, keys: &'static [(&'static str, i32)]) -> Self {
        DeclaredIndex { name, keys, unique: false, sparse: false, hidden: false, expire_after_seconds: None }
    }

    /// Unique.
    pub const fn unique(mut self) -> Self {
        self.unique = true;
        self
    }

    /// Sparse.
    pub const fn sparse(mut self) -> Self {
        self.sparse = true;
        self
    }

    /// Hidden from the query planner.
    pub const fn hidden(mut self) -> Self {
        self.hidden = true;
        self
    }

    /// A TTL index: documents expire `seconds` after the indexed date.
    pub const fn expire_after(mut self, seconds: i64) -> Self {
        self.expire_after_seconds = Some(seconds);
        self
    }

    /// The index specification.
    pub fn spec(&self) -> IndexSpec {
        let mut spec = IndexSpec::named(self.name, key_pattern(self.keys));
        spec.unique = self.unique;
        spec.sparse = self.sparse;
        spec.hidden = self.hidden;
        spec.expire_after_seconds = self.expire_after_seconds;
        spec
    }
}

/// An index key pattern of ascending (`1`) and descending (`-1`) keys, in order: a declared index's, and the one
/// generated `indexes()` builds (`__private`'s `index_keys`).
pub(crate) fn key_pattern(keys: &[(&str, i32)]) -> Document {
    keys.iter().map(|&(k, v)| (k.to_owned(), Bson::Int32(v))).collect()
}

/// One index of a collection.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexSpec {
    /// The index name.
    pub name: String,
    /// The key pattern, in order: `{"mi": 1, "ca": -1}`, `{"loc": "2dsphere"}`, `{"t": "text"}`, `{"$**": 1}`.
    pub keys: Document,
    /// `unique: true`.
    pub unique: bool,
    /// `sparse: true`.
    pub sparse: bool,
    /// `hidden: true` (kept up to date but not used by the planner).
    pub hidden: bool,
    /// TTL: `expireAfterSeconds`.
    pub expire_after_seconds: Option<i64>,
    /// `partialFilterExpression`, in stored keys.
    pub partial_filter_expression: Option<Document>,
    /// `collation`, as declared (the server lists it expanded with defaults).
    pub collation: Option<Document>,
    /// Text index `weights`.
    pub weights: Option<Document>,
    /// Text index `default_language`.
    pub default_language: Option<String>,
    /// Wildcard index `wildcardProjection`.
    pub wildcard_projection: Option<Document>,
}

impl IndexSpec {
    /// An index with this name and key pattern, no options.
    pub fn new(name: impl Into<String>, keys: Document) -> Self {
        IndexSpec {
            name: name.into(),
            keys,
            unique: false,
            sparse: false,
            hidden: false,
            expire_after_seconds: None,
            partial_filter_expression: None,
            collation: None,
            weights: None,
            default_language: None,
            wildcard_projection: None,
        }
    }

    /// The default name of an index on `keys`: `idx_` and the stored key paths, dots as `_` (naming rule
    /// `idx_<fields>`, nested `a.b` as `idx_a_b`).
    ///
    /// ```
    /// use odm::{bson::doc, index::IndexSpec};
    /// assert_eq!(IndexSpec::default_name(&doc! { "mi": 1, "it.n": -1 }), "idx_mi_it_n");
    /// assert_eq!(IndexSpec::default_name(&doc! { "$**": 1 }), "idx_all");
    /// ```
    pub fn default_name(keys: &Document) -> String {
        let parts: Vec<String> = keys
            .keys()
            .map(|k| match k.as_str() {
                "$**" => "all".to_owned(),
                k => k.trim_end_matches(".$**").replace('.', "_"),
            })
            .collect();
        format!("{OWNED_PREFIX}{}", parts.join("_"))
    }

    /// An index on `keys` named `name`, or by [`IndexSpec::default_name`] when `None`; no options.
    ///
    /// ```
    /// use odm::{bson::doc, index::IndexSpec};
    /// assert_eq!(IndexSpec::named(None, doc! { "no": 1, "ca": -1 }).name, "idx_no_ca");
    /// assert_eq!(IndexSpec::named(Some("by_number"), doc! { "no": 1 }).name, "by_number");
    /// ```
    pub fn named(name: Option<&str>, keys: Document) -> Self {
        let name = name.map_or_else(|| Self::default_name(&keys), str::to_owned);
        Self::new(name, keys)
    }

    /// True when the index is named the way odm names indexes (`idx_…`). That does not make it odm's: ownership
    /// is recorded ([`crate::sync::plan::ownership`]); an index so named without a record is reported as not odm's.
    pub fn is_odm_named(&self) -> bool {
        self.name.starts_with(OWNED_PREFIX)
    }

    /// True for a text index (the server stores its keys as `_fts`/`_ftsx`).
    pub fn is_text(&self) -> bool {
        self.keys.values().any(|v| v.as_str() == Some("text")) || self.keys.contains_key("_fts")
    }

    /// The index document for `createIndexes`.
    pub fn to_document(&self) -> Document {
        let mut d = doc! { "key": self.keys.clone(), "name": &self.name };
        if self.unique {
            d.insert("unique", true);
        }
        if self.sparse {
            d.insert("sparse", true);
        }
        if self.hidden {
            d.insert("hidden", true);
        }
        if let Some(s) = self.expire_after_seconds {
            d.insert("expireAfterSeconds", s);
        }
        if let Some(p) = &self.partial_filter_expression {
            d.insert("partialFilterExpression", p.clone());
        }
        if let Some(c) = &self.collation {
            d.insert("collation", c.clone());
        }
        if let Some(w) = &self.weights {
            d.insert("weights", w.clone());
        }
        if let Some(l) = &self.default_language {
            d.insert("default_language", l.as_str());
        }
        if let Some(w) = &self.wildcard_projection {
            d.insert("wildcardProjection", w.clone());
        }
        d
    }

    /// Reads an entry of `listIndexes`.
    pub fn from_listed(d: &Document) -> Option<Self> {
        let name = d.get_str("name").ok()?.to_owned();
        let keys = d.get_document("key").ok()?.clone();
        let flag = |k: &str| d.get(k).is_some_and(truthy);
        Some(IndexSpec {
            name,
            keys,
            unique: flag("unique"),
            sparse: flag("sparse"),
            hidden: flag("hidden"),
            expire_after_seconds: d.get("expireAfterSeconds").and_then(as_i64),
            partial_filter_expression: d.get_document("partialFilterExpression").ok().cloned(),
            collation: d.get_document("collation").ok().cloned(),
            weights: d.get_document("weights").ok().cloned(),
            default_language: d.get_str("default_language").ok().map(str::to_owned),
            wildcard_projection: d.get_document("wildcardProjection").ok().cloned(),
        })
    }

    /// The key pattern as the server stores it: text fields become `_fts`/`_ftsx` (with their weights).
    fn stored_keys(&self) -> Document {
        if !self.is_text() || self.keys.contains_key("_fts") {
            return self.keys.clone();
        }
        let mut out = Document::new();
        let mut text_done = false;
        for (k, v) in &self.keys {
            if v.as_str() == Some("text") {
                if !text_done {
                    out.insert("_fts", "text");
                    out.insert("_ftsx", 1);
                    text_done = true;
                }
            } else {
                out.insert(k, v.clone());
            }
        }
        out
    }

    /// The text fields and weights of a text index (1 for fields without an explicit weight).
    fn text_weights(&self) -> Vec<(String, i64)> {
        let mut w: Vec<(String, i64)> = if self.keys.contains_key("_fts") {
            self.weights.iter().flat_map(|w| w.iter().map(|(k, v)| (k.clone(), as_i64(v).unwrap_or(1)))).collect()
        } else {
            self.keys
                .iter()
                .filter(|(_, v)| v.as_str() == Some("text"))
                .map(|(k, _)| {
                    let weight = self.weights.as_ref().and_then(|w| w.get(k)).and_then(as_i64).unwrap_or(1);
                    (k.clone(), weight)
                })
                .collect()
        };
        w.sort();
        w
    }

    /// Same index by the server's identity rules (ignoring name, TTL seconds and hidden).
    pub fn same_structure(&self, live: &IndexSpec) -> bool {
        same_keys(&self.stored_keys(), &live.stored_keys())
            && self.unique == live.unique
            && self.sparse == live.sparse
            && same_opt_doc(&self.partial_filter_expression, &live.partial_filter_expression)
            && same_collation(self.collation.as_ref(), live.collation.as_ref())
            && same_opt_doc(&self.wildcard_projection, &live.wildcard_projection)
            && (!self.is_text()
                || (self.text_weights() == live.text_weights()
                    && self.default_language.as_deref().unwrap_or("english")
                        == live.default_language.as_deref().unwrap_or("english")))
    }

    /// The options that differ but can change in place with `collMod` (TTL seconds, hidden).
    pub fn in_place_changes(&self, live: &IndexSpec) -> Vec<InPlaceChange> {
        let mut out = Vec::new();
        if self.expire_after_seconds != live.expire_after_seconds {
            if let Some(to) = self.expire_after_seconds {
                out.push(InPlaceChange::ExpireAfterSeconds { from: live.expire_after_seconds, to });
            }
        }
        if self.hidden != live.hidden {
            out.push(InPlaceChange::Hidden { from: live.hidden, to: self.hidden });
        }
        out
    }
}

impl fmt::Display for IndexSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut opts = self.to_document();
        opts.remove("name");
        let keys = opts.remove("key").unwrap_or(Bson::Null);
        write!(f, "{} {}", self.name, keys)?;
        if !opts.is_empty() {
            write!(f, " {opts}")?;
        }
        Ok(())
    }
}

/// An index option `collMod` can change without rebuilding.
#[derive(Clone, Debug, PartialEq)]
pub enum InPlaceChange {
    /// TTL seconds.
    ExpireAfterSeconds {
        /// Live value (`None`: not a TTL index yet).
        from: Option<i64>,
        /// Declared value.
        to: i64,
    },
    /// Hidden from the query planner.
    Hidden {
        /// Live value.
        from: bool,
        /// Declared value.
        to: bool,
    },
}

fn truthy(b: &Bson) -> bool {
    match b {
        Bson::Boolean(v) => *v,
        Bson::Int32(v) => *v != 0,
        Bson::Int64(v) => *v != 0,
        Bson::Double(v) => *v != 0.0,
        _ => false,
    }
}

fn as_i64(b: &Bson) -> Option<i64> {
    match b {
        Bson::Int32(v) => Some(i64::from(*v)),
        Bson::Int64(v) => Some(*v),
        Bson::Double(v) if v.fract() == 0.0 => Some(*v as i64),
        _ => None,
    }
}

/// Ordered key patterns; numbers compare by value (`1` == `1.0` == `1i64`).
fn same_keys(a: &Document, b: &Document) -> bool {
    a.len() == b.len()
        && a.iter().zip(b.iter()).all(|((ka, va), (kb, vb))| {
            ka == kb
                && match (va, vb) {
                    (Bson::String(x), Bson::String(y)) => x == y,
                    (x, y) => same_number(x, y).unwrap_or(false),
                }
        })
}

/// Whether two numbers are the same value, exactly: integers compare as integers (an `i64` never goes through
/// `f64`, so `9007199254740993` differs from `9007199254740992`), and a double equals an integer only when it is
/// that integer. `None` when either side is not a number.
fn same_number(a: &Bson, b: &Bson) -> Option<bool> {
    let int = |v: &Bson| match v {
        Bson::Int32(n) => Some(i64::from(*n)),
        Bson::Int64(n) => Some(*n),
        _ => None,
    };
    // 2^63: the first double past `i64::MAX`, where `as i64` would saturate.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    let int_double = |i: i64, d: f64| d.fract() == 0.0 && (-TWO_63..TWO_63).contains(&d) && d as i64 == i;
    Some(match (a, b) {
        (Bson::Double(x), Bson::Double(y)) => x == y,
        (Bson::Double(d), i) | (i, Bson::Double(d)) => int_double(int(i)?, *d),
        (x, y) => int(x)? == int(y)?,
    })
}

/// Documents equal as values (numbers by exact value, field order ignored at every level).
pub(crate) fn same_value(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Document(x), Bson::Document(y)) => same_document(x, y),
        (Bson::Array(x), Bson::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_value(v, w)),
        (x, y) => same_number(x, y).unwrap_or_else(|| x == y),
    }
}

fn same_opt_doc(a: &Option<Document>, b: &Option<Document>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => same_document(x, y),
        _ => false,
    }
}

/// [`same_value`] for two documents, without wrapping (cloning) them as [`Bson`].
pub(crate) fn same_document(x: &Document, y: &Document) -> bool {
    x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
}

/// The server expands a collation with defaults; compare only what was declared. `{locale: "simple"}` is the
/// same as no collation.
fn same_collation(declared: Option<&Document>, live: Option<&Document>) -> bool {
    let simple = |c: Option<&Document>| c.is_none_or(|c| c.get_str("locale").ok() == Some("simple"));
    match (declared, live) {
        _ if simple(declared) && simple(live) => true,
        (Some(d), Some(l)) => d.iter().all(|(k, v)| l.get(k).is_some_and(|w| same_value(v, w))),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_numerically_and_order_matters() {
        let a = IndexSpec::new("idx_a_b", doc! { "a": 1, "b": -1 });
        let live = IndexSpec::from_listed(&doc! { "v": 2, "key": { "a": 1.0, "b": -1_i64 }, "name": "other" }).unwrap();
        assert!(a.same_structure(&live));
        let swapped = IndexSpec::new("x", doc! { "b": -1, "a": 1 });
        assert!(!a.same_structure(&swapped));
    }

    #[test]
    fn numbers_compare_exactly_without_going_through_f64() {
        let v = |b: Bson| Bson::Document(doc! { "a": { "$gt": b } });
        assert!(same_value(&v(Bson::Int64(9_007_199_254_740_993)), &v(Bson::Int64(9_007_199_254_740_993))));
        assert!(!same_value(&v(Bson::Int64(9_007_199_254_740_993)), &v(Bson::Int64(9_007_199_254_740_992))));
        assert!(!same_value(&v(Bson::Int64(9_007_199_254_740_993)), &v(Bson::Double(9_007_199_254_740_992.0))));
        assert!(!same_value(&v(Bson::Int64(i64::MAX)), &v(Bson::Double(9_223_372_036_854_775_808.0))));
        assert!(same_value(&v(Bson::Int64(10)), &v(Bson::Double(10.0))));
        assert!(same_value(&v(Bson::Int32(10)), &v(Bson::Int64(10))));
        assert!(!same_value(&v(Bson::Double(10.5)), &v(Bson::Int32(10))));
        assert!(!same_value(&v(Bson::Int32(1)), &v(Bson::String("1".into()))));
        assert!(!IndexSpec::new("i", doc! { "a": 9_007_199_254_740_993_i64 })
            .same_structure(&IndexSpec::new("i", doc! { "a": 9_007_199_254_740_992.0 })));
    }

    #[test]
    fn collation_expanded_by_the_server_still_matches() {
        let mut a = IndexSpec::new("idx_n", doc! { "n": 1 });
        a.collation = Some(doc! { "locale": "fr", "strength": 2 });
        let live = IndexSpec::from_listed(&doc! {
            "v": 2, "key": { "n": 1 }, "name": "idx_n",
            "collation": { "locale": "fr", "caseLevel": false, "caseFirst": "off", "strength": 2,
                           "numericOrdering": false, "alternate": "non-ignorable", "maxVariable": "punct",
                           "normalization": false, "backwards": false, "version": "57.1" },
        })
        .unwrap();
        assert!(a.same_structure(&live));
        let mut b = a.clone();
        b.collation = Some(doc! { "locale": "fr", "strength": 1 });
        assert!(!b.same_structure(&live));
    }

    #[test]
    fn text_indexes_compare_by_fields_and_weights() {
        let mut a = IndexSpec::new("idx_t_b", doc! { "t": "text", "b": "text" });
        a.weights = Some(doc! { "t": 10 });
        let live = IndexSpec::from_listed(&doc! {
            "v": 2, "key": { "_fts": "text", "_ftsx": 1 }, "name": "idx_t_b",
            "weights": { "b": 1, "t": 10 }, "default_language": "english", "language_override": "language",
            "textIndexVersion": 3,
        })
        .unwrap();
        assert!(a.same_structure(&live));
        a.weights = Some(doc! { "t": 5 });
        assert!(!a.same_structure(&live));
    }

    #[test]
    fn ttl_and_hidden_change_in_place() {
        let mut a = IndexSpec::new("idx_at", doc! { "at": 1 });
        a.expire_after_seconds = Some(60);
        a.hidden = true;
        let live =
            IndexSpec::from_listed(&doc! { "key": { "at": 1 }, "name": "idx_at", "expireAfterSeconds": 30 }).unwrap();
        assert!(a.same_structure(&live));
        assert_eq!(
            a.in_place_changes(&live),
            vec![
                InPlaceChange::ExpireAfterSeconds { from: Some(30), to: 60 },
                InPlaceChange::Hidden { from: false, to: true }
            ]
        );
    }

    #[test]
    fn identity_options() {
        let a = IndexSpec::new("idx_e", doc! { "e": 1 });
        let mut unique = a.clone();
        unique.unique = true;
        assert!(!a.same_structure(&unique));
        let mut partial = a.clone();
        partial.partial_filter_expression = Some(doc! { "e": { "$exists": true } });
        assert!(!a.same_structure(&partial));
        assert!(a.is_odm_named());
        assert!(!IndexSpec::new("email_1", doc! { "e": 1 }).is_odm_named());
    }
}
