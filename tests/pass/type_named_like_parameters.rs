// A struct, and a field type, named like the type parameter of generated impls (`P`, the path a `…Fields` struct
// wraps) stay the user's types: the generated impls call theirs `__P`.
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

fn main() {
    let name = Holder::fields().p().name();
    let update = Update::<Holder>::new().set(name, "x".to_owned()).build().unwrap();
    assert_eq!(update.update, odm::bson::doc! { "$set": { "p.n": "x" } });
    let whole = Update::<Holder>::new().set(Holder::fields().p(), P { name: "y".to_owned() }).build().unwrap();
    assert_eq!(whole.update, odm::bson::doc! { "$set": { "p": { "n": "y" } } });
}
