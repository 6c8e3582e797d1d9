//! `closed` all the way down: a closed model makes the server refuse an unknown key at every level it owns —
//! embedded structs, enum variants (struct, unit and newtype), array elements, map values, options and boxes —
//! unless a type says `#[odm(open)]`. The same embedded types inside a model that is not closed stay open. Map
//! keys MongoDB cannot address (`a.b`, `$where`) are refused by the server too. Every hostile document is written
//! around odm with the raw driver.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Bson, Document};
use odm::{Collection, Embedded, Model};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Embedded, Serialize, Deserialize, Debug, Clone)]
struct Geo {
    #[serde(rename = "la")]
    lat: f64,
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone)]
struct Address {
    #[serde(rename = "c")]
    city: String,
    #[serde(rename = "g")]
    geo: Geo,
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone)]
struct Wire {
    #[serde(rename = "ib")]
    iban: String,
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone)]
#[serde(tag = "k")]
enum Payment {
    #[serde(rename = "card")]
    Card {
        #[serde(rename = "l4")]
        last4: String,
    },
    #[serde(rename = "cash")]
    Cash,
    #[serde(rename = "wire")]
    Wire(Wire),
}

/// Explicitly open: accepts keys it does not know, even inside a closed model.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone)]
#[odm(open)]
struct Annotations {
    #[serde(rename = "n")]
    note: String,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "closed_customer", closed)]
struct Customer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "a")]
    address: Address,
    #[serde(rename = "p")]
    #[odm(max_items = 5)]
    payments: Vec<Payment>,
    #[serde(rename = "s")]
    shipping: BTreeMap<String, Address>,
    #[serde(rename = "b", skip_serializing_if = "Option::is_none")]
    billing: Option<Box<Address>>,
    #[serde(rename = "x")]
    annotations: Annotations,
}

/// The same embedded types in a model that is not closed.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "open_customer")]
struct OpenCustomer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "a")]
    address: Address,
    #[serde(rename = "p")]
    #[odm(max_items = 5)]
    payments: Vec<Payment>,
}

fn address() -> Address {
    Address { city: "Hangzhou".into(), geo: Geo { lat: 30.25 } }
}

fn customer() -> Customer {
    Customer {
        id: ObjectId::new(),
        address: address(),
        payments: vec![
            Payment::Card { last4: "4242".into() },
            Payment::Cash,
            Payment::Wire(Wire { iban: "DE89".into() }),
        ],
        shipping: BTreeMap::from([("home".to_owned(), address())]),
        billing: Some(Box::new(address())),
        annotations: Annotations { note: "vip".into() },
    }
}

/// `doc` with `stray: 1` added in the sub-document at `path`.
fn with_stray(doc: &Document, path: &[&str]) -> Document {
    fn walk(b: &mut Bson, path: &[&str]) {
        match (b, path.split_first()) {
            (Bson::Document(d), None) => {
                d.insert("stray", 1);
            }
            (Bson::Document(d), Some((k, rest))) => walk(d.get_mut(*k).expect("key"), rest),
            (Bson::Array(a), Some((i, rest))) => walk(&mut a[i.parse::<usize>().expect("index")], rest),
            (other, _) => panic!("no document at {path:?}: {other}"),
        }
    }
    let mut b = Bson::Document(doc.clone());
    walk(&mut b, path);
    let Bson::Document(d) = b else { unreachable!() };
    d
}

#[tokio::test]
async fn a_closed_model_refuses_unknown_keys_at_every_level_it_owns() {
    let (db, typed) = support::setup::created::<Customer>("closed_down").await;
    let raw = db.collection::<Document>(Customer::COLLECTION);
    let valid = odm::bson::serialize_to_document(&customer()).expect("serialize");
    typed.insert_one(customer()).await.expect("a value odm writes is accepted");

    let refused: [(&[&str], &str); 9] = [
        (&[], "Customer.stray"),
        (&["a"], "Customer.address.stray"),
        (&["a", "g"], "Customer.address.geo.stray"),
        (&["p", "0"], "Customer.payments[0].stray"),
        (&["p", "1"], "Customer.payments[1].stray"),
        (&["p", "2"], "Customer.payments[2].stray"),
        (&["s", "home"], "Customer.shipping[\"home\"].stray"),
        (&["s", "home", "g"], "Customer.shipping[\"home\"].geo.stray"),
        (&["b", "g"], "Customer.billing.geo.stray"),
    ];
    for (path, rust) in refused {
        let mut hostile = with_stray(&valid, path);
        hostile.insert("_id", ObjectId::new());
        let err = odm::Error::from_write::<Customer>(raw.insert_one(&hostile).await.expect_err(&format!("{path:?}")));
        let odm::Error::Validation(v) = &err else { panic!("{path:?}: {err}") };
        assert!(
            v.failures.iter().any(|f| (f.rule.as_str(), f.rule_id()) == ("additionalProperties", "closed-open")
                && f.path.starts_with(rust)),
            "{path:?}: the error names {rust}: {err}"
        );
    }

    // `#[odm(open)]` keeps its level open inside the closed model.
    let mut open = with_stray(&valid, &["x"]);
    open.insert("_id", ObjectId::new());
    raw.insert_one(&open).await.expect("an open type accepts unknown keys");
    assert_eq!(typed.count(odm::Filter::everything()).await.expect("count"), 2);
}

#[tokio::test]
async fn map_keys_that_cannot_be_addressed_are_refused_by_the_server() {
    let (db, raw) = support::setup::created_raw::<Customer>("closed_map_keys").await;
    let valid = odm::bson::serialize_to_document(&customer()).expect("serialize");
    let addr = odm::bson::serialize_to_bson(&address()).expect("address");
    for (key, why) in [("a.b", "`.` separates path segments"), ("$where", "reserved for operators")] {
        let mut hostile = valid.clone();
        hostile.insert("_id", ObjectId::new());
        hostile.get_document_mut("s").expect("map").insert(key, addr.clone());
        let err = odm::Error::from_write::<Customer>(raw.insert_one(&hostile).await.expect_err(key));
        let text = err.to_string();
        assert_eq!(err.code(), Some(121), "{text}");
        assert!(text.contains(&format!("key `{key}`")) && text.contains(why), "{key}: {text}");
    }
    // The same keys in a collection without a validator are stored: the refusal above is the validator's.
    let plain = db.collection::<Document>("plain");
    plain.insert_one(doc! { "s": { "a.b": 1, "$where": 2 } }).await.expect("the server itself stores such keys");
    // Keys odm writes are accepted, whatever their characters.
    let mut odd = customer();
    odd.shipping = BTreeMap::from([(String::new(), address()), ("naïve key $ with spaces".into(), address())]);
    Collection::<Customer>::new(&db).insert_one(odd).await.expect("odd but valid keys");
}

#[tokio::test]
async fn the_same_types_inside_a_model_that_is_not_closed_stay_open() {
    let (_db, raw) = support::setup::created_raw::<OpenCustomer>("closed_not").await;
    let c = customer();
    let valid = odm::bson::serialize_to_document(&OpenCustomer { id: c.id, address: c.address, payments: c.payments })
        .expect("serialize");
    for path in [&[][..], &["a"], &["a", "g"], &["p", "0"], &["p", "2"]] {
        let mut doc = with_stray(&valid, path);
        doc.insert("_id", ObjectId::new());
        raw.insert_one(&doc).await.unwrap_or_else(|e| panic!("{path:?}: {e}"));
    }
}

#[test]
fn the_validator_closes_every_owned_level() {
    let schema = Customer::validator();
    let s = schema.get_document("$jsonSchema").expect("schema");
    let prop =
        |d: &Document, k: &str| d.get_document("properties").expect("properties").get_document(k).cloned().unwrap();
    let closed = |d: &Document| d.get_bool("additionalProperties").ok() == Some(false);
    assert!(closed(s));
    let address = prop(s, "a");
    assert!(closed(&address) && closed(&prop(&address, "g")));
    let payments = prop(s, "p").get_document("items").cloned().expect("items");
    assert!(payments.get_array("oneOf").expect("variants").iter().all(|v| closed(v.as_document().expect("variant"))));
    assert!(!closed(&prop(s, "x")), "open stays open");
    // Outside a closed model, the embedded types are open.
    let open = OpenCustomer::validator();
    let address = prop(open.get_document("$jsonSchema").expect("schema"), "a");
    assert!(!closed(&address) && !closed(&prop(&address, "g")));
}
