// `counter-field`: counters are checked by the server for struct fields; inside enum variants they are refused.
use odm::Embedded;
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize)]
#[serde(tag = "k")]
enum Poll {
    Open {
        #[serde(rename = "v")]
        #[odm(max_items = 100, counter = "votes")]
        voter_ids: Vec<i64>,
        #[serde(rename = "vc")]
        votes: i32,
    },
    Closed,
}

fn main() {}
