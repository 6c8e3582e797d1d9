// Model settings: module conventions, database, validation level/action, key limits, `rename_all`, and
// `crate = "..."` for a re-exported odm.
use odm::bson::Bson;
use odm::{Model, model::ValidationAction, model::ValidationLevel};
use serde::{Deserialize, Serialize};

mod reexport {
    pub use odm as storage;
}

use reexport::storage as renamed_odm;

#[derive(Model, Serialize, Deserialize)]
#[odm(db = "shop", module = "order", collection = "order_x")]
struct Data {
    #[serde(rename = "n")]
    number: i64,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(module = "order", collection = "base_order_x", validation_level = "moderate", validation_action = "warn")]
struct Code {
    #[serde(rename = "c")]
    code: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(module = "order", collection = "log_order_x", validation_level = "off", validation_action = "errorAndLog")]
#[odm(capped(size = 1048576))]
struct Log {
    #[serde(rename = "m")]
    message: String,
}

/// `rename_all` on a struct is mirrored exactly; a raised key limit admits longer keys.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "user_profile", max_key_len = 24, closed)]
#[serde(rename_all = "camelCase")]
struct Profile {
    display_name: String,
    preferred_language_code: String,
}

#[derive(renamed_odm::Model, Serialize, Deserialize)]
#[odm(crate = "crate::reexport::storage", collection = "test_crate_path")]
struct Renamed {
    #[serde(rename = "v")]
    value: i32,
}

#[derive(renamed_odm::Embedded, Serialize, Deserialize)]
#[odm(crate = "renamed_odm")]
struct RenamedInner {
    #[serde(rename = "v")]
    value: i32,
}

fn main() {
    assert_eq!(<Data as Model>::COLLECTION, "order_x");
    assert_eq!(<Data as Model>::DATABASE, Some("shop"));
    assert_eq!(<Data as Model>::VALIDATION_LEVEL, ValidationLevel::Strict);
    assert_eq!(<Data as Model>::VALIDATION_ACTION, ValidationAction::Error);

    assert_eq!(<Code as Model>::DATABASE, None);
    assert_eq!(<Code as Model>::VALIDATION_LEVEL, ValidationLevel::Moderate);
    assert_eq!(<Code as Model>::VALIDATION_ACTION, ValidationAction::Warn);
    let cmd = odm::collection::create_command::<Code>();
    assert_eq!(cmd.get_str("create").unwrap(), "base_order_x");
    assert_eq!(cmd.get_str("validationLevel").unwrap(), "moderate");
    assert_eq!(cmd.get_str("validationAction").unwrap(), "warn");

    assert_eq!(<Log as Model>::VALIDATION_LEVEL, ValidationLevel::Off);
    assert_eq!(<Log as Model>::VALIDATION_ACTION, ValidationAction::ErrorAndLog);
    assert_eq!(<Log as Model>::CAPPED, Some(odm::model::Capped { size: 1048576, max: None }));
    assert_eq!(<Data as Model>::CAPPED, None);

    let schema = Profile::validator().get_document("$jsonSchema").unwrap().clone();
    let props = schema.get_document("properties").unwrap();
    assert_eq!(props.keys().collect::<Vec<_>>(), ["_id", "displayName", "preferredLanguageCode"]);
    assert_eq!(schema.get_bool("additionalProperties").unwrap(), false);
    assert_eq!(
        schema.get_array("required").unwrap(),
        &vec![Bson::from("displayName"), Bson::from("preferredLanguageCode")]
    );

    assert_eq!(<Renamed as Model>::COLLECTION, "test_crate_path");
    use renamed_odm::BsonSchema;
    assert_eq!(RenamedInner::bson_schema().get_str("bsonType").unwrap(), "object");
}
