//! Equality of set elements whatever their key order: what `add_to_set` and `pull` on a counted set guard with, what
//! the `$pull` matches, and what the schema checker compares stored elements by (rule
//! [`array-unique`](crate::rules#array-unique)).
//!
//! Two documents are the same element when they hold the same keys with the same values, in any order, the values of
//! embedded documents compared the same way: that is how odm reads them (a field is found by its key). The server
//! compares documents key by key in order (`$eq`, `$ne`, `$addToSet`, `uniqueItems`), so a set of documents written
//! by another client in another key order would hold one element twice for odm. The conditions here name every
//! field of the element's type by its stored key: a key the element stores is compared with its value, an optional
//! key it leaves out must be absent (`$exists: false`), and an embedded document is compared key by key below its
//! field's path. Only keys the model declares are named: an element of an open type holding keys the model does not
//! declare matches by its declared keys (a closed type's validator refuses such keys). Values of types without a
//! field table (scalars, arrays, maps, `bson::Document`) compare whole, as the server compares them. The schema
//! checker's side (the same equality, as an aggregation over stored sets) is in `crate::driver::check::sets`.

use crate::base::kind::BsonKind;
use crate::base::meta::{FieldMeta, TypeMeta};
use bson::{doc, Bson, Document};

/// One condition on an element: the stored path below the element, and the value it holds (`None`: the key is absent).
type Keyed = (String, Option<Bson>);

/// The conditions that make an element equal to `value` as a set of keys, when `value` is a document of a type with
/// a field table (`meta`); `None` for every other element, compared whole.
fn keyed(value: &Bson, meta: Option<&'static TypeMeta>) -> Option<Vec<Keyed>> {
    let (Bson::Document(d), Some(meta)) = (value, meta) else { return None };
    let mut out = Vec::new();
    walk(d, meta, "", &mut out);
    (!out.is_empty()).then_some(out)
}

/// The fields of `meta` (of the variant `d`'s tag names, for a polymorphic type) as conditions under `prefix`.
fn walk(d: &Document, meta: &'static TypeMeta, prefix: &str, out: &mut Vec<Keyed>) {
    let meta = variant_of(d, meta);
    let path = |key: &str| if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") };
    for (key, value) in d {
        let field = meta.fields.iter().find(|f| f.key == key);
        match (value, field.and_then(embedded)) {
            (Bson::Document(inner), Some(inner_meta)) => walk(inner, inner_meta, &path(key), out),
            _ => out.push((path(key), Some(value.clone()))),
        }
    }
    for f in meta.fields.iter().filter(|f| !d.contains_key(f.key)) {
        out.push((path(f.key), None));
    }
}

/// The table of the variant a polymorphic type's document `d` is, by its tag; `meta` itself otherwise.
fn variant_of(d: &Document, meta: &'static TypeMeta) -> &'static TypeMeta {
    meta.variants.iter().find(|v| v.tag.is_some_and(|(tag, value)| d.get_str(tag).ok() == Some(value))).unwrap_or(meta)
}

/// The field table of a field holding one embedded document (not an array of them, not a map).
pub(crate) fn embedded(field: &FieldMeta) -> Option<&'static TypeMeta> {
    (field.ty.kind == BsonKind::Object && field.fixed.is_none()).then(|| (field.ty.meta)()).flatten()
}

/// The condition a query puts on one element (inside `$elemMatch`, or as a `$pull` condition) for it to equal
/// `value` as a set of keys; `None` when `value` compares whole (see the module documentation).
pub(crate) fn element_query(value: &Bson, meta: Option<&'static TypeMeta>) -> Option<Document> {
    let conditions = keyed(value, meta)?;
    Some(
        conditions
            .into_iter()
            .map(|(path, v)| (path, v.unwrap_or_else(|| Bson::Document(doc! { "$exists": false }))))
            .collect(),
    )
}

/// The aggregation expression (over the element bound to `$$var`) true when the element equals `value` as a set of
/// keys, the same comparison [`element_query`] makes; `{$eq: [$$var, value]}` for a value compared whole.
pub(crate) fn element_expr(var: &str, value: &Bson, meta: Option<&'static TypeMeta>) -> Bson {
    let at = |path: &str| format!("$${var}.{path}");
    let Some(conditions) = keyed(value, meta) else {
        return Bson::Document(doc! { "$eq": [format!("$${var}"), { "$literal": value.clone() }] });
    };
    let all: Vec<Bson> = conditions
        .into_iter()
        .map(|(path, v)| match v {
            // A literal: a string value starting with `$` would otherwise name a field.
            Some(v) => Bson::Document(doc! { "$eq": [at(&path), { "$literal": v }] }),
            None => absent(&format!("$${var}"), &path),
        })
        .collect();
    Bson::Document(doc! { "$and": all })
}

/// True when the document at `root` (an aggregation path) has no key at `path` (dotted): the last key is not among
/// the keys of its parent. (`$type` would say `"missing"` on mongod, but not on every server that speaks its wire
/// protocol.)
fn absent(root: &str, path: &str) -> Bson {
    let (parent, key) = match path.rsplit_once('.') {
        Some((parent, key)) => (format!("{root}.{parent}"), key),
        None => (root.to_owned(), path),
    };
    let object = doc! { "$cond": [{ "$eq": [{ "$type": &parent }, "object"] }, &parent, {}] };
    let keys = doc! { "$map": { "input": { "$objectToArray": object }, "in": "$$this.k" } };
    Bson::Document(doc! { "$not": [{ "$in": [key, keys] }] })
}

/// The aggregation expression counting the elements of the array at `array` (an aggregation path, `"$st"`) equal to
/// `value` as a set of keys; a missing or non-array value counts none.
pub(crate) fn count_equal(array: &str, value: &Bson, meta: Option<&'static TypeMeta>) -> Bson {
    Bson::Document(doc! {
        "$size": {
            "$filter": {
                "input": { "$cond": [{ "$isArray": [array] }, array, []] },
                "as": "el",
                "cond": element_expr("el", value, meta),
            }
        }
    })
}
