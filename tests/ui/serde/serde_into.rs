// `into` (and `remote`) proxy types make serialization write a shape the derive cannot see.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
struct Raw {
    v: i64,
}

#[derive(Embedded, Serialize, Deserialize, Clone)]
#[serde(into = "Raw")]
struct Money {
    #[serde(rename = "c")]
    cents: i64,
}

impl From<Money> for Raw {
    fn from(m: Money) -> Self {
        Raw { v: m.cents }
    }
}

fn main() {}
