// `type-declared`: `bson_type` takes one of the server's `bsonType` aliases.
use odm::Model;
use serde::{Deserialize, Serialize};

mod cents {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64((v * 100.0) as i64)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(i64::deserialize(d)? as f64 / 100.0)
    }
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_item")]
struct Item {
    #[serde(rename = "p", with = "cents")]
    #[odm(bson_type = "integer")]
    price: f64,
}

fn main() {}
