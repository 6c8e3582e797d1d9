//! What a live `$jsonSchema` says of a stored path (the bound of an array), and the names of BSON types: read by
//! the audit and by pull alike.

use bson::spec::ElementType;
use bson::{Bson, Document};

/// The `maxItems` the `$jsonSchema` gives the array at `path` (`a.b`, `a[].b`, `a{}.b`: `[]` an array's `items`, `{}`
/// a map's `patternProperties` or `additionalProperties`), in any branch of a `oneOf` or `anyOf`.
pub(crate) fn validator_max_items(schema: &Document, path: &str) -> Option<i64> {
    let mut nodes = vec![schema];
    for segment in path.split('.') {
        let key = segment.trim_end_matches(['[', ']', '{', '}']);
        let mut next: Vec<&Document> = branches(nodes)
            .into_iter()
            .filter_map(|node| node.get_document("properties").and_then(|p| p.get_document(key)).ok())
            .collect();
        for step in segment.as_bytes()[key.len()..].chunks(2) {
            next = branches(next)
                .into_iter()
                .flat_map(|node| match step {
                    b"[]" => node.get_document("items").ok().into_iter().collect::<Vec<_>>(),
                    _ => {
                        let patterns = node.get_document("patternProperties").ok();
                        let values = patterns.into_iter().flat_map(|p| p.values().filter_map(Bson::as_document));
                        values.chain(node.get_document("additionalProperties").ok()).collect()
                    }
                })
                .collect();
        }
        nodes = next;
    }
    branches(nodes).into_iter().find_map(|n| match n.get("maxItems")? {
        Bson::Int32(n) => Some(i64::from(*n)),
        Bson::Int64(n) => Some(*n),
        Bson::Double(n) => Some(*n as i64),
        _ => None,
    })
}

/// Each node and the branches of its `oneOf` / `anyOf`.
fn branches(nodes: Vec<&Document>) -> Vec<&Document> {
    let mut out = Vec::new();
    for node in nodes {
        out.push(node);
        for key in ["oneOf", "anyOf"] {
            if let Ok(list) = node.get_array(key) {
                out.extend(list.iter().filter_map(Bson::as_document));
            }
        }
    }
    out
}

/// The server's alias of a BSON type (`int`, `objectId`), as validators and messages name it.
pub(crate) fn type_alias(kind: ElementType) -> &'static str {
    match kind {
        ElementType::Double => "double",
        ElementType::String => "string",
        ElementType::EmbeddedDocument => "object",
        ElementType::Array => "array",
        ElementType::Binary => "binData",
        ElementType::Undefined => "undefined",
        ElementType::ObjectId => "objectId",
        ElementType::Boolean => "bool",
        ElementType::DateTime => "date",
        ElementType::Null => "null",
        ElementType::RegularExpression => "regex",
        ElementType::DbPointer => "dbPointer",
        ElementType::JavaScriptCode => "javascript",
        ElementType::Symbol => "symbol",
        ElementType::JavaScriptCodeWithScope => "javascriptWithScope",
        ElementType::Int32 => "int",
        ElementType::Timestamp => "timestamp",
        ElementType::Int64 => "long",
        ElementType::Decimal128 => "decimal",
        ElementType::MaxKey => "maxKey",
        ElementType::MinKey => "minKey",
    }
}

#[cfg(test)]
mod tests {
    use super::validator_max_items as max_items;
    use bson::doc;

    #[test]
    fn an_arrays_bound_is_found_through_objects_elements_maps_and_branches() {
        let schema = doc! {
            "bsonType": "object",
            "properties": {
                "tags": { "bsonType": "array", "maxItems": 10 },
                "lines": { "bsonType": "array", "items": { "bsonType": "object", "properties": {
                    "parts": { "bsonType": "array", "maxItems": 3_i64 },
                } } },
                "daily": { "bsonType": "object", "patternProperties": { "^[^$.]": {
                    "bsonType": "object", "properties": { "hits": { "bsonType": "array", "maxItems": 24 } },
                } } },
                "grid": { "bsonType": "array", "items": { "bsonType": "array", "maxItems": 8 } },
                "shape": { "oneOf": [
                    { "bsonType": "object", "properties": { "points": { "bsonType": "array", "maxItems": 5 } } },
                    { "bsonType": "null" },
                ] },
                "open": { "bsonType": "array" },
            },
        };
        assert_eq!(max_items(&schema, "tags"), Some(10));
        assert_eq!(max_items(&schema, "lines[].parts"), Some(3));
        assert_eq!(max_items(&schema, "daily{}.hits"), Some(24));
        assert_eq!(max_items(&schema, "grid[]"), Some(8));
        assert_eq!(max_items(&schema, "shape.points"), Some(5));
        assert_eq!(max_items(&schema, "open"), None);
        assert_eq!(max_items(&schema, "nowhere"), None);
    }
}
