// Paths to the fields every variant shares, whichever variant form declares them: a struct variant's own fields,
// the fields of the struct a newtype variant wraps. They carry no discriminator.
use odm::bson::{doc, oid::ObjectId, DateTime};
use odm::{Embedded, Filter, Model};
use serde::{Deserialize, Serialize};

/// A sign-up, wrapped by a newtype variant: it stores `user` and `at` as `Click` does.
#[derive(Embedded, Serialize, Deserialize)]
struct Signup {
    #[serde(rename = "u")]
    user: String,
    #[serde(rename = "at")]
    at: DateTime,
    #[serde(rename = "src")]
    source: String,
    // Stored like `Click`'s `page`, but under another key: not shared.
    #[serde(rename = "pg")]
    page: String,
}

/// What a visitor did.
#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event", index(keys = "user, -at"))]
#[serde(tag = "t", rename_all = "snake_case")]
enum Event {
    Click {
        #[serde(rename = "u")]
        user: String,
        #[serde(rename = "at")]
        at: DateTime,
        #[serde(rename = "p")]
        page: String,
    },
    Signup(Signup),
}

fn main() {
    let f = Event::fields();
    // The shared path: the key alone, no discriminator.
    assert_eq!(f.user().key(), "u");
    let filter: Filter<Event> = f.user().eq("ada").and(f.at().gt(DateTime::from_millis(0)));
    assert_eq!(filter.into_document().unwrap(), doc! { "u": "ada", "at": { "$gt": DateTime::from_millis(0) } });
    // A variant's path adds its discriminator.
    let filter: Filter<Event> = f.signup().user().eq("ada");
    assert_eq!(filter.into_document().unwrap(), doc! { "t": "signup", "u": "ada" });
    let indexes = Event::indexes();
    assert_eq!(indexes[0].keys, doc! { "u": 1, "at": -1 });
    assert_eq!(indexes[0].partial_filter_expression, None);
    let _ = ObjectId::new();
}
