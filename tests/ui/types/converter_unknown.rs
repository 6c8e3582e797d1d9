// `type-converter`: odm cannot see what an unknown converter writes; declare it with `bson_type`.
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
    price: f64,
}

fn main() {}
