// Rules apply to array elements too: a `Vec` of chrono date-times stores strings.
//
// No serde derives: this test crate builds chrono without its `serde` feature (see chrono_without_helper.rs).
use odm::Embedded;

#[derive(Embedded)]
struct History {
    #[odm(max_items = 10)]
    changed: Vec<chrono::DateTime<chrono::Utc>>,
}

fn main() {}
