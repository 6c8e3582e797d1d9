// A struct, and a field type, named like the type parameter of generated impls (`P`, the path a `…Fields` struct
// wraps) stay the user's types: the generated impls call theirs `__P`. So do types named like the path's own
// parameters (`R`, `W`, `A`) in a polymorphic model's variants.
use odm::bson::doc;
use odm::{Embedded, Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize, Clone)]
struct P {
    #[serde(rename = "n")]
    name: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_holder")]
struct Holder {
    #[serde(rename = "_id")]
    id: odm::bson::oid::ObjectId,
    #[serde(rename = "p")]
    p: P,
}

#[derive(Embedded, Serialize, Deserialize, Clone)]
struct A {
    #[serde(rename = "n")]
    name: String,
}

#[derive(Embedded, Serialize, Deserialize, Clone)]
struct R {
    #[serde(rename = "v")]
    v: i32,
}

#[derive(Embedded, Serialize, Deserialize, Clone)]
struct W {
    #[serde(rename = "w")]
    w: i32,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_thing")]
#[serde(tag = "k")]
enum Thing {
    #[serde(rename = "f")]
    First {
        #[serde(rename = "_id")]
        id: odm::bson::oid::ObjectId,
        #[serde(rename = "a")]
        a: A,
        #[serde(rename = "w")]
        w: W,
        #[serde(rename = "p")]
        p: P,
    },
    #[serde(rename = "s")]
    Second {
        #[serde(rename = "_id")]
        id: odm::bson::oid::ObjectId,
        #[serde(rename = "a")]
        a: A,
    },
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_wrapped")]
#[serde(tag = "k")]
enum Wrapped {
    #[serde(rename = "r")]
    Held(R),
    #[serde(rename = "n")]
    Nothing,
}

fn main() {
    let f = Thing::fields();
    assert_eq!(f.first().a().name().eq("x").into_document().unwrap(), doc! { "k": "f", "a.n": "x" });
    assert_eq!(f.first().w().w().eq(1).into_document().unwrap(), doc! { "k": "f", "w.w": 1 });
    assert_eq!(f.first().p().name().eq("y").into_document().unwrap(), doc! { "k": "f", "p.n": "y" });
    // A field every variant has alike: no discriminator.
    assert_eq!(f.a().name().eq("z").into_document().unwrap(), doc! { "a.n": "z" });
    let w = Wrapped::fields();
    assert_eq!(w.held().v().eq(2).into_document().unwrap(), doc! { "k": "r", "v": 2 });
    assert_eq!(w.nothing().only().into_document().unwrap(), doc! { "k": "n" });

    let name = Holder::fields().p().name();
    let update = Update::<Holder>::new().set(name, "x".to_owned()).build().unwrap();
    assert_eq!(update.update, odm::bson::doc! { "$set": { "p.n": "x" } });
    let whole = Update::<Holder>::new().set(Holder::fields().p(), P { name: "y".to_owned() }).build().unwrap();
    assert_eq!(whole.update, odm::bson::doc! { "$set": { "p": { "n": "y" } } });
}
