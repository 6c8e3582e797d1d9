// Arrays declare their bound (`max_items`, a fixed length) or say `unbounded`; maps have string keys; counters are
// integers kept in step with their array.
use odm::bson::Bson;
use odm::Model;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Aliases hide the shape from the derive; generated const assertions check the real types.
type Tags = Vec<String>;
type Count = i64;

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_array")]
struct Review {
    #[serde(rename = "tg")]
    #[odm(min_items = 1, max_items = 10)]
    tags: Vec<String>,
    #[serde(rename = "lg")]
    #[odm(unbounded)]
    log: Vec<i64>,
    #[serde(rename = "rgb")]
    color: [u8; 3],
    #[serde(rename = "set")]
    #[odm(max_items = 5)]
    labels: HashSet<String>,
    #[serde(rename = "hm")]
    by_lang: HashMap<String, String>,
    #[serde(rename = "bm")]
    scores: BTreeMap<String, f64>,
    #[serde(rename = "v")]
    #[odm(max_items = 100, counter = "helpful_votes")]
    voter_ids: Vec<i64>,
    #[serde(rename = "hv")]
    helpful_votes: i32,
    #[serde(rename = "w")]
    #[odm(max_items = 100, counter = "watch_count")]
    watchers: Vec<i64>,
    #[serde(rename = "wc")]
    watch_count: i64,
    #[serde(rename = "f")]
    #[odm(max_items = 100, counter = "flag_count")]
    flags: Vec<String>,
    #[serde(rename = "fc")]
    flag_count: u32,
    #[serde(rename = "bx", skip_serializing_if = "Option::is_none")]
    #[odm(max_items = 3)]
    maybe: Option<Vec<i32>>,
    #[serde(rename = "al")]
    #[odm(max_items = 4, counter = "aliased_count")]
    aliased: Tags,
    #[serde(rename = "alc")]
    aliased_count: Count,
}

fn main() {
    let v = Review::validator();
    let props = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();
    let tg = props.get_document("tg").unwrap();
    assert_eq!(tg.get_str("bsonType").unwrap(), "array");
    assert_eq!(tg.get_i64("maxItems").unwrap(), 10);
    assert_eq!(tg.get_i64("minItems").unwrap(), 1);
    assert_eq!(tg.get_document("items").unwrap().get_str("bsonType").unwrap(), "string");
    assert!(!props.get_document("lg").unwrap().contains_key("maxItems"));
    let rgb = props.get_document("rgb").unwrap();
    assert_eq!(rgb.get_i64("maxItems").unwrap(), 3);
    assert_eq!(rgb.get_i64("minItems").unwrap(), 3);
    assert_eq!(props.get_document("set").unwrap().get_i64("maxItems").unwrap(), 5);
    let hm = props.get_document("hm").unwrap();
    assert_eq!(hm.get_str("bsonType").unwrap(), "object");
    // Map values under the key pattern; other keys (`a.b`, `$where`) are refused.
    let values = |m: &odm::bson::Document| {
        assert_eq!(m.get_bool("additionalProperties").unwrap(), false);
        m.get_document("patternProperties").unwrap().get_document(odm::schema::MAP_KEY_PATTERN).unwrap().clone()
    };
    assert_eq!(values(hm).get_str("bsonType").unwrap(), "string");
    assert_eq!(values(props.get_document("bm").unwrap()).get_str("bsonType").unwrap(), "double");
    assert_eq!(props.get_document("hv").unwrap().get_str("bsonType").unwrap(), "int");
    assert_eq!(props.get_document("wc").unwrap().get_str("bsonType").unwrap(), "long");
    assert_eq!(props.get_document("fc").unwrap().get_str("bsonType").unwrap(), "long");
    assert_eq!(props.get_document("bx").unwrap().get_i64("maxItems").unwrap(), 3);

    let al = props.get_document("al").unwrap();
    assert_eq!(al.get_str("bsonType").unwrap(), "array");
    assert_eq!(al.get_i64("maxItems").unwrap(), 4);
    assert_eq!(props.get_document("alc").unwrap().get_str("bsonType").unwrap(), "long");

    // Four counted arrays: four `$expr` clauses, each comparing one array's size with its counter.
    let clauses = v.get_array("$and").unwrap();
    assert_eq!(clauses.len(), 4);
    let pairs = [("$v", "$hv"), ("$w", "$wc"), ("$f", "$fc"), ("$al", "$alc")];
    for (clause, (array, counter)) in clauses.iter().zip(pairs) {
        let Some(Bson::Document(expr)) = clause.as_document().and_then(|c| c.get("$expr")) else { panic!("{clause}") };
        let text = format!("{expr}");
        assert!(text.contains(&format!("\"{array}\"")) && text.contains(&format!("\"{counter}\"")), "{text}");
    }
    assert!(!v.contains_key("$expr"));
}
