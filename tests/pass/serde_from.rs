// serde's `from` and `try_from` change only how a stored document is read (a migration on read): serialization
// still writes the type's own fields, so the validator is the type's own, and old shapes are read through the proxy.
use odm::bson::{doc, Bson};
use odm::{BsonSchema, Model};
use serde::{Deserialize, Serialize};

/// What the collection may hold: today's shape, or the one before it (price in units, no currency).
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredPrice {
    Now {
        #[serde(rename = "c")]
        cents: i64,
        #[serde(rename = "cur")]
        currency: String,
    },
    Before {
        #[serde(rename = "u")]
        units: i64,
    },
}

impl From<StoredPrice> for Price {
    fn from(p: StoredPrice) -> Self {
        match p {
            StoredPrice::Now { cents, currency } => Price { cents, currency },
            StoredPrice::Before { units } => Price { cents: units * 100, currency: "EUR".into() },
        }
    }
}

#[derive(odm::Embedded, Serialize, Deserialize, Debug, PartialEq)]
#[serde(from = "StoredPrice")]
struct Price {
    #[serde(rename = "c")]
    cents: i64,
    #[serde(rename = "cur")]
    currency: String,
}

#[derive(Deserialize)]
struct StoredSku {
    #[serde(rename = "_id")]
    id: String,
    #[serde(rename = "p")]
    price: Price,
}

impl TryFrom<StoredSku> for Sku {
    type Error = String;
    fn try_from(s: StoredSku) -> Result<Self, String> {
        if s.id.is_empty() {
            return Err("an empty sku".into());
        }
        Ok(Sku { id: s.id, price: s.price })
    }
}

#[derive(Model, Serialize, Deserialize, Debug, PartialEq)]
#[odm(collection = "test_sku")]
#[serde(try_from = "StoredSku")]
struct Sku {
    #[serde(rename = "_id")]
    #[odm(custom_id)]
    id: String,
    #[serde(rename = "p")]
    price: Price,
}

fn main() {
    // The validator is the types' own shape.
    let price = Price::bson_schema();
    let props = price.get_document("properties").unwrap();
    assert_eq!(props.keys().collect::<Vec<_>>(), ["c", "cur"]);
    assert_eq!(Sku::validator().get_document("$jsonSchema").unwrap().get_array("required").unwrap().len(), 2);

    // Today's documents round-trip; yesterday's are migrated on read; a bad one is refused by `try_from`.
    let sku = Sku { id: "A1".into(), price: Price { cents: 250, currency: "USD".into() } };
    let stored = odm::bson::serialize_to_document(&sku).unwrap();
    assert_eq!(stored, doc! { "_id": "A1", "p": { "c": 250_i64, "cur": "USD" } });
    assert_eq!(odm::bson::deserialize_from_document::<Sku>(stored).unwrap(), sku);
    let old = doc! { "_id": "B2", "p": { "u": 3_i64 } };
    let migrated: Sku = odm::bson::deserialize_from_document(old).unwrap();
    assert_eq!(migrated.price, Price { cents: 300, currency: "EUR".into() });
    assert!(odm::bson::deserialize_from_document::<Sku>(doc! { "_id": "", "p": { "u": 1_i64 } }).is_err());
    let _ = Bson::Null;
}
