// A public polymorphic model's paths are as public as the enum: its variants' fields have no visibility of their own,
// so code outside the defining module (another crate sharing the models) names them as it names a struct's `pub`
// fields. A child module stands in for the other crate: privacy is per module.
mod models {
    use odm::bson::oid::ObjectId;
    use odm::Model;
    use serde::{Deserialize, Serialize};

    /// What a visitor did.
    #[derive(Model, Serialize, Deserialize)]
    #[odm(collection = "web_event")]
    #[serde(tag = "k", rename_all = "snake_case")]
    pub enum Event {
        Click {
            #[serde(rename = "_id")]
            id: ObjectId,
            #[serde(rename = "u")]
            user: String,
        },
        Purchase {
            #[serde(rename = "_id")]
            id: ObjectId,
            #[serde(rename = "u")]
            user: String,
            #[serde(rename = "am")]
            amount: i64,
        },
    }
}

use odm::bson::doc;

fn main() {
    let f = models::Event::fields();
    let big = f.purchase().amount().gt(100).into_document().unwrap();
    assert_eq!(big, doc! { "k": "purchase", "am": { "$gt": 100_i64 } });
    let by = f.user().eq("ada").into_document().unwrap();
    assert_eq!(by, doc! { "u": "ada" });
}
