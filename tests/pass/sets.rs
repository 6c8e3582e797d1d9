// Arrays declared sets (`unique_items`): `uniqueItems` in the validator wherever the field is (a model, an embedded
// struct, a variant of a tagged enum, through an alias or an `Option`), and the operations a set takes compile: sets
// take `add_to_set`, `pull`, `pop_*` and `set`; a counted set takes `pull` of one value, guarded, with its counter.
use odm::bson::{doc, Bson, Document};
use odm::{Embedded, Model, Update};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// An alias hides the array from the derive; a const assertion checks the real type.
type Ids = Vec<i64>;

#[derive(Embedded, Serialize, Deserialize)]
struct Team {
    #[serde(rename = "mi")]
    #[odm(max_items = 8, counter = "member_count", unique_items)]
    member_ids: Vec<i64>,
    #[serde(rename = "mc")]
    member_count: i32,
}

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "t")]
enum Audience {
    Everyone,
    Listed {
        #[serde(rename = "ids")]
        #[odm(max_items = 20, unique_items)]
        ids: Vec<i64>,
    },
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_set")]
struct Poll {
    #[serde(rename = "vi")]
    #[odm(max_items = 50, counter = "voter_count", unique_items)]
    voter_ids: Ids,
    #[serde(rename = "vc")]
    voter_count: i64,
    #[serde(rename = "tg", skip_serializing_if = "Option::is_none")]
    #[odm(max_items = 5, unique_items)]
    tags: Option<Vec<String>>,
    #[serde(rename = "lb")]
    #[odm(max_items = 5, unique_items)]
    labels: HashSet<String>,
    #[serde(rename = "tm")]
    team: Team,
    #[serde(rename = "au")]
    audience: Audience,
}

fn props(schema: &Document) -> &Document {
    schema.get_document("properties").unwrap()
}

fn main() {
    let v = Poll::validator();
    let top = props(v.get_document("$jsonSchema").unwrap());
    for key in ["vi", "tg", "lb"] {
        let field = top.get_document(key).unwrap();
        assert_eq!(field.get_bool("uniqueItems").unwrap(), true, "{key}: {field}");
        assert_eq!(field.get_i64("maxItems").unwrap(), if key == "vi" { 50 } else { 5 }, "{key}: {field}");
    }
    let team = props(top.get_document("tm").unwrap()).get_document("mi").unwrap();
    assert_eq!(team.get_bool("uniqueItems").unwrap(), true, "{team}");
    let branches = top.get_document("au").unwrap().get_array("oneOf").unwrap();
    let listed = branches.iter().filter_map(Bson::as_document).find(|b| props(b).contains_key("ids")).unwrap();
    assert_eq!(props(listed).get_document("ids").unwrap().get_bool("uniqueItems").unwrap(), true, "{listed}");
    // Not a set: no `uniqueItems`.
    assert!(!top.get_document("vc").unwrap().contains_key("uniqueItems"));

    let f = Poll::fields();
    // A counted set, nested in a document: `$pull` of the whole value and the counter down by one, guarded.
    let built = Update::<Poll>::new().pull(f.team().member_ids(), 7).build().unwrap();
    assert_eq!(built.update, doc! { "$pull": { "tm.mi": { "$eq": 7_i64 } }, "$inc": { "tm.mc": -1 } });
    assert_eq!(built.guard(), Some(&doc! { "tm.mi": { "$eq": 7_i64 } }));
    // A `long` counter is decremented by a `long`.
    let built = Update::<Poll>::new().pull(f.voter_ids(), 7).build().unwrap();
    assert_eq!(built.update, doc! { "$pull": { "vi": { "$eq": 7_i64 } }, "$inc": { "vc": -1_i64 } });
    // A set without counter: plain `$pull` and `$addToSet`, no guard.
    let built = Update::<Poll>::new().pull(f.labels(), "a").add_to_set(f.tags(), "b").build().unwrap();
    assert_eq!(built.update, doc! { "$pull": { "lb": "a" }, "$addToSet": { "tg": "b" } });
    assert_eq!(built.guard(), None);
    // The rest of a set's operations.
    let built = Update::<Poll>::new()
        .add_to_set(f.voter_ids(), 8)
        .pop_last(f.team().member_ids())
        .add_each_to_set(f.labels(), ["x", "y"])
        .pull_where(f.tags(), |t| t.eq("z".to_owned()))
        .build()
        .unwrap();
    assert_eq!(built.update.get_document("$inc").unwrap(), &doc! { "vc": 1_i64, "tm.mc": -1 });
    let _ = Update::<Poll>::new().set(f.voter_ids(), vec![1, 2]).set(f.labels(), HashSet::new());
}
