//! `unpinned`: the shard key fields a filter does not pin to one value, so that a single-document operation would
//! reach every shard. Collections check it before sending. Users read the docs at `odm::shard` (src/shard.rs).

use bson::{Bson, Document};

/// The stored shard key fields (of `keys`) that `filter` does not pin to one value; empty when it pins them all,
/// or pins `_id`. A field is pinned by `{k: v}`, `{k: {$eq: v}}` or `{k: {$in: [v]}}` at the top level or inside a
/// top-level `$and`; a range, `$in` of several values, `$or` or `$nor` does not pin it.
///
/// ```
/// use odm::bson::doc;
/// let key = [("rg", false), ("cu", false)];
/// assert!(odm::shard::unpinned(&doc! { "rg": "eu", "cu": 7, "t": { "$gt": 1 } }, &key).is_empty());
/// assert_eq!(odm::shard::unpinned(&doc! { "rg": "eu" }, &key), ["cu"]);
/// assert_eq!(odm::shard::unpinned(&doc! { "rg": { "$in": ["eu", "us"] }, "cu": 7 }, &key), ["rg"]);
/// assert!(odm::shard::unpinned(&doc! { "_id": 1 }, &key).is_empty());
/// ```
pub fn unpinned<'k>(filter: &Document, keys: &[(&'k str, bool)]) -> Vec<&'k str> {
    if pins(filter, "_id") {
        return Vec::new();
    }
    keys.iter().map(|&(k, _)| k).filter(|k| !pins(filter, k)).collect()
}

/// True when `filter` holds `key` to one value.
fn pins(filter: &Document, key: &str) -> bool {
    filter.iter().any(|(k, v)| match (k.as_str(), v) {
        ("$and", Bson::Array(clauses)) => clauses.iter().any(|c| c.as_document().is_some_and(|c| pins(c, key))),
        (k, v) => k == key && is_equality(v),
    })
}

/// True when a filter value matches exactly one value.
fn is_equality(v: &Bson) -> bool {
    match v {
        Bson::Document(d) if d.keys().next().is_some_and(|k| k.starts_with('$')) => {
            d.contains_key("$eq") || d.get_array("$in").is_ok_and(|values| values.len() == 1)
        }
        // A regular expression matches many strings.
        Bson::RegularExpression(_) => false,
        _ => true,
    }
}
