// `closed` on a model closes the embedded types and enum variants it owns; `open` keeps one open.
use odm::{BsonSchema, Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Line {
    #[serde(rename = "n")]
    name: String,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(open)]
struct Extra {
    #[serde(rename = "n")]
    note: String,
}

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "k")]
enum Pay {
    #[serde(rename = "card")]
    Card {
        #[serde(rename = "l")]
        last4: String,
    },
    #[serde(rename = "cash")]
    Cash,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "order_header", closed)]
struct Order {
    #[serde(rename = "l")]
    line: Line,
    #[serde(rename = "p")]
    pay: Pay,
    #[serde(rename = "x")]
    extra: Extra,
}

fn main() {
    let v = Order::validator();
    let props = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();
    let closed = |k: &str| props.get_document(k).unwrap().get_bool("additionalProperties").ok() == Some(false);
    assert!(closed("l"));
    assert!(!closed("x"));
    let variants = props.get_document("p").unwrap().get_array("oneOf").unwrap();
    assert!(variants.iter().all(|v| v.as_document().unwrap().get_bool("additionalProperties").ok() == Some(false)));
    assert!(!Line::bson_schema().contains_key("additionalProperties"), "outside a closed document, open");
}
