// Converters with a declared `bson_type`, string lengths, skipped fields, `skip_serializing_if` on arrays, and doc
// comments as validator descriptions.
use odm::bson::{oid::ObjectId, Bson};
use odm::Model;
use serde::{Deserialize, Serialize};

mod cents {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64((v * 100.0).round() as i64)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(i64::deserialize(d)? as f64 / 100.0)
    }
}

/// A product in the catalogue.
#[serde_with::serde_as]
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    /// Display name, 1 to 80 characters.
    #[serde(rename = "n")]
    #[odm(min_len = 1, max_len = 80)]
    name: String,
    /// Price in cents (an unknown converter declares what it writes).
    #[serde(rename = "p", with = "cents")]
    #[odm(bson_type = "long")]
    price: f64,
    /// The supplier's id, kept as a hex string in Rust but stored as an ObjectId.
    #[serde(rename = "sup")]
    #[serde_as(as = "odm::bson::serde_helpers::object_id::FromHexString")]
    supplier: String,
    /// Never stored.
    #[serde(skip)]
    cache: Vec<u8>,
    #[serde(rename = "tg", skip_serializing_if = "Vec::is_empty", default)]
    #[odm(max_items = 8)]
    tags: Vec<String>,
}

fn main() {
    let v = Product::validator();
    let schema = v.get_document("$jsonSchema").unwrap();
    assert_eq!(schema.get_str("description").unwrap(), "A product in the catalogue.");
    let props = schema.get_document("properties").unwrap();
    let name = props.get_document("n").unwrap();
    assert_eq!(name.get_i64("minLength").unwrap(), 1);
    assert_eq!(name.get_i64("maxLength").unwrap(), 80);
    assert_eq!(name.get_str("description").unwrap(), "Display name, 1 to 80 characters.");
    assert_eq!(props.get_document("p").unwrap().get_str("bsonType").unwrap(), "long");
    assert_eq!(props.get_document("sup").unwrap().get_str("bsonType").unwrap(), "objectId");
    assert!(!props.contains_key("cache"));
    let required = schema.get_array("required").unwrap();
    assert!(!required.contains(&Bson::from("tg")), "tg may be absent");
    assert!(required.contains(&Bson::from("n")));

    let p = Product {
        id: ObjectId::new(),
        name: "Tea".into(),
        price: 3.5,
        supplier: ObjectId::new().to_hex(),
        cache: vec![1],
        tags: vec![],
    };
    let doc = odm::bson::serialize_to_document(&p).unwrap();
    assert_eq!(doc.get_i64("p").unwrap(), 350);
    assert!(matches!(doc.get("sup"), Some(Bson::ObjectId(_))));
    assert!(!doc.contains_key("tg") && !doc.contains_key("cache"));
}
