// Nested documents, enums (unit, internally and adjacently tagged), newtypes and `transparent` structs.
use odm::bson::{doc, Bson};
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

/// An e-mail address, stored as a plain string.
#[derive(Embedded, Serialize, Deserialize)]
struct Email(String);

#[derive(Embedded, Serialize, Deserialize)]
#[serde(transparent)]
struct Cents {
    value: i64,
}

#[derive(Embedded, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Status {
    Pending,
    InTransit,
    #[serde(rename = "done")]
    Delivered,
    /// Read-side catch-all: serialization is unchanged.
    #[serde(other)]
    Unknown,
}

/// A user type that happens to be called `Value` (not `serde_json::Value`).
#[derive(Embedded, Serialize, Deserialize)]
struct Value {
    #[serde(rename = "a")]
    amount: i64,
}

#[derive(Embedded, Serialize, Deserialize)]
#[odm(closed)]
struct Line {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "p")]
    price: Cents,
    #[serde(rename = "st")]
    #[odm(max_items = 5, counter = "step_count")]
    steps: Vec<Status>,
    #[serde(rename = "sc")]
    step_count: i32,
}

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case", rename_all_fields = "camelCase")]
enum Payment {
    Cash,
    Voucher(Voucher),
    BankCard { card_number: String, holder_name: String },
}

#[derive(Embedded, Serialize, Deserialize)]
struct Voucher {
    #[serde(rename = "c")]
    code: String,
}

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
enum Event {
    Opened,
    Renamed(String),
    Moved { from: i32, to: i32 },
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "test_embedded")]
struct Order {
    /// A newtype over `String` takes string keywords (checked through its `BsonSchema::KIND`).
    #[serde(rename = "em")]
    #[odm(max_len = 254)]
    email: Email,
    #[serde(rename = "s")]
    status: Status,
    #[serde(rename = "l")]
    #[odm(max_items = 30)]
    lines: Vec<Line>,
    #[serde(rename = "pay")]
    payment: Payment,
    #[serde(rename = "ev")]
    #[odm(max_items = 10)]
    events: Vec<Event>,
    #[serde(rename = "tot")]
    total: Box<Cents>,
    #[serde(rename = "val")]
    value: Value,
}

fn main() {
    let v = Order::validator();
    let props = v.get_document("$jsonSchema").unwrap().get_document("properties").unwrap();

    // Newtype and transparent structs are stored as their field.
    assert_eq!(props.get_document("em").unwrap().get_str("bsonType").unwrap(), "string");
    assert_eq!(props.get_document("em").unwrap().get_i64("maxLength").unwrap(), 254);
    assert_eq!(props.get_document("tot").unwrap().get_str("bsonType").unwrap(), "long");

    // Unit enums become string enums, with serde's renaming mirrored.
    let status = props.get_document("s").unwrap();
    assert_eq!(status.get_str("bsonType").unwrap(), "string");
    assert_eq!(
        status.get_array("enum").unwrap(),
        &vec![Bson::from("PENDING"), Bson::from("IN_TRANSIT"), Bson::from("done"), Bson::from("UNKNOWN")]
    );

    // Nested documents keep their own schema (closed, with counters checked inside the array).
    let line = props.get_document("l").unwrap().get_document("items").unwrap();
    assert_eq!(line.get_bool("additionalProperties").unwrap(), false);
    assert_eq!(line.get_document("properties").unwrap().get_document("p").unwrap(), &doc! { "bsonType": "long" });
    let expr = format!("{}", v.get_document("$expr").unwrap());
    assert!(expr.contains("$$e0.st") && expr.contains("$$e0.sc"), "{expr}");

    // Internally tagged: the tag names a variant, `oneOf` tells them apart, `rename_all_fields` is mirrored.
    let pay = props.get_document("pay").unwrap();
    assert_eq!(
        pay.get_document("properties").unwrap().get_document("k").unwrap().get_array("enum").unwrap(),
        &vec![Bson::from("cash"), Bson::from("voucher"), Bson::from("bank_card")]
    );
    let variants = pay.get_array("oneOf").unwrap();
    assert_eq!(variants.len(), 3);
    let card = variants[2].as_document().unwrap().get_document("properties").unwrap();
    assert!(card.contains_key("cardNumber") && card.contains_key("holderName"), "{card}");
    let voucher = variants[1].as_document().unwrap().get_document("properties").unwrap();
    assert!(voucher.contains_key("k") && voucher.contains_key("c"), "{voucher}");

    // Adjacently tagged: `{t, c}`.
    let ev = props.get_document("ev").unwrap().get_document("items").unwrap();
    let renamed = ev.get_array("oneOf").unwrap()[1].as_document().unwrap();
    assert_eq!(
        renamed.get_document("properties").unwrap().get_document("c").unwrap().get_str("bsonType").unwrap(),
        "string"
    );

    // The validator matches what serde writes.
    let o = Order {
        email: Email("a@b.c".into()),
        status: Status::InTransit,
        lines: vec![],
        payment: Payment::BankCard { card_number: "4111".into(), holder_name: "A".into() },
        events: vec![Event::Moved { from: 1, to: 2 }],
        total: Box::new(Cents { value: 5 }),
        value: Value { amount: 7 },
    };
    let doc = odm::bson::serialize_to_document(&o).unwrap();
    assert_eq!(doc.get_str("em").unwrap(), "a@b.c");
    assert_eq!(doc.get_str("s").unwrap(), "IN_TRANSIT");
    assert_eq!(doc.get_document("pay").unwrap(), &doc! { "k": "bank_card", "cardNumber": "4111", "holderName": "A" });
    assert_eq!(doc.get_i64("tot").unwrap(), 5);
    assert_eq!(props.get_document("val").unwrap().get_str("bsonType").unwrap(), "object");
}
