// Views: each field read under the model's key, with the types a view may use (the model's, an `Option` of it, a
// view of an embedded struct, inside `Vec`, `Option`, `Box` and map values), their projections, and reads of what
// the model writes.
use odm::bson::{doc, oid::ObjectId, DateTime};
use odm::{Embedded, Model, View};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Embedded, Serialize, Deserialize, Clone)]
pub struct Line {
    #[serde(rename = "sk")]
    pub sku: String,
    #[serde(rename = "q")]
    pub quantity: i32,
    #[serde(rename = "pr")]
    pub price: i64,
}

#[derive(Embedded, Serialize, Deserialize, Clone)]
pub struct Customer {
    #[serde(rename = "nm")]
    pub name: String,
    #[serde(rename = "em")]
    pub email: String,
}

#[derive(Model, Serialize, Deserialize, Clone)]
#[odm(collection = "shop_order")]
pub struct Order {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "st")]
    pub status: String,
    #[serde(rename = "at")]
    pub placed: DateTime,
    #[serde(rename = "tot")]
    pub total: i64,
    #[serde(rename = "cu")]
    pub customer: Customer,
    #[serde(rename = "ln")]
    #[odm(max_items = 50)]
    pub lines: Vec<Line>,
    #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(rename = "gf", skip_serializing_if = "Option::is_none")]
    pub gift_for: Option<Customer>,
    #[serde(rename = "bx")]
    pub boxed: Box<Customer>,
    #[serde(rename = "by")]
    pub by_shop: BTreeMap<String, Line>,
}

#[derive(View, Debug, PartialEq)]
#[odm(of = "Customer")]
pub struct Name {
    pub name: String,
}

#[derive(View, Debug, PartialEq)]
#[odm(of = "Line")]
pub struct LineSku {
    pub sku: String,
    pub quantity: Option<i32>,
}

/// Every shape a view's field may take.
#[derive(View, Debug, PartialEq)]
#[odm(of = "Order")]
pub struct Summary {
    pub id: ObjectId,
    pub status: String,
    pub total: Option<i64>,
    pub customer: Name,
    pub lines: Vec<LineSku>,
    pub note: Option<String>,
    pub gift_for: Option<Name>,
    pub boxed: Box<Name>,
    pub by_shop: BTreeMap<String, LineSku>,
}

/// The model's own types.
#[derive(View)]
#[odm(of = "Order")]
pub struct Placed {
    pub placed: DateTime,
    pub customer: Customer,
}

mod elsewhere {
    /// A view in another module, naming the model by path.
    #[derive(odm::View)]
    #[odm(of = "super::Order")]
    pub struct Status {
        pub status: String,
    }
}

fn main() {
    assert_eq!(
        Summary::projection(),
        doc! {
            "_id": 1, "st": 1, "tot": 1, "cu.nm": 1, "ln.sk": 1, "ln.q": 1, "nt": 1, "gf.nm": 1, "bx.nm": 1, "by": 1,
        }
    );
    assert_eq!(Placed::projection(), doc! { "at": 1, "cu": 1 });
    assert_eq!(<elsewhere::Status as View>::projection(), doc! { "st": 1 });

    let line = Line { sku: "pen".into(), quantity: 2, price: 150 };
    let ada = Customer { name: "Ada".into(), email: "ada@example.com".into() };
    let order = Order {
        id: ObjectId::new(),
        status: "paid".into(),
        placed: DateTime::from_millis(1_700_000_000_000),
        total: 300,
        customer: ada.clone(),
        lines: vec![line.clone()],
        note: None,
        gift_for: None,
        boxed: Box::new(ada.clone()),
        by_shop: BTreeMap::from([("north".to_owned(), line)]),
    };
    // What the model writes, read whole through the view (keys it does not read are skipped).
    let stored = odm::bson::serialize_to_document(&order).unwrap();
    let summary: Summary = odm::bson::deserialize_from_document(stored.clone()).unwrap();
    let sku = || LineSku { sku: "pen".into(), quantity: Some(2) };
    assert_eq!(
        summary,
        Summary {
            id: order.id,
            status: "paid".into(),
            total: Some(300),
            customer: Name { name: "Ada".into() },
            lines: vec![sku()],
            note: None,
            gift_for: None,
            boxed: Box::new(Name { name: "Ada".into() }),
            by_shop: BTreeMap::from([("north".to_owned(), sku())]),
        }
    );
    let placed: Placed = odm::bson::deserialize_from_document(stored).unwrap();
    assert_eq!(placed.placed, order.placed);

    // A field the view needs that the document lacks is an error naming its stored key; an `Option` reads `None`.
    let err = odm::bson::deserialize_from_document::<Summary>(doc! { "_id": order.id, "st": "paid" }).unwrap_err();
    assert!(err.to_string().contains("missing field `cu`"), "{err}");
    let partial: LineSku = odm::bson::deserialize_from_document(doc! { "sk": "pen" }).unwrap();
    assert_eq!(partial, LineSku { sku: "pen".into(), quantity: None });
    // A value of another type fails as serde's own derive fails.
    assert!(odm::bson::deserialize_from_document::<LineSku>(doc! { "sk": 5 }).is_err());
}
