// `from`/`into` proxy types hide the stored shape from the derive.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
struct Raw {
    v: i64,
}

#[derive(Embedded, Serialize, Deserialize, Clone)]
#[serde(from = "Raw", into = "Raw")]
struct Money {
    #[serde(rename = "c")]
    cents: i64,
}

impl From<Raw> for Money {
    fn from(r: Raw) -> Self {
        Money { cents: r.v }
    }
}

impl From<Money> for Raw {
    fn from(m: Money) -> Self {
        Raw { v: m.cents }
    }
}

fn main() {}
