// `date-chrono`: chrono's own serde impl writes a string; dates are stored as BSON dates.
//
// The serde derives are left out on purpose: this test crate builds chrono without its `serde` feature, so they would
// add errors of their own. odm's rule reads the field type and fires either way.
use odm::Embedded;

#[derive(Embedded)]
struct Audit {
    created_at: chrono::DateTime<chrono::Utc>,
}

fn main() {}
