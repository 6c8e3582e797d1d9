// `poly-attr`, `poly-shared`: a field is shared only when every variant stores it alike, the struct a newtype
// variant wraps included; here `Signup` stores `at` as a string.
use odm::bson::DateTime;
use odm::{Embedded, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
struct Signup {
    #[serde(rename = "u")]
    user: String,
    #[serde(rename = "at")]
    at: String,
}

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "web_event", index(keys = "user, -at"))]
#[serde(tag = "t", rename_all = "snake_case")]
enum Event {
    Click {
        #[serde(rename = "u")]
        user: String,
        #[serde(rename = "at")]
        at: DateTime,
    },
    Signup(Signup),
}

fn main() {
    // Shared: no error.
    let _ = Event::fields().user();
    // Not shared: the path exists only as each variant's.
    let _ = Event::fields().at();
    let _ = Event::fields().click().at();
}
