// `use odm::*` brings nothing that shadows the std prelude: `Sync` is still the marker trait, `Result` still takes
// any error type.
use odm::*;

fn needs_thread_safe<T: Send + Sync>() {}

fn parse(s: &str) -> Result<u8, std::num::ParseIntError> {
    s.parse()
}

fn verify(client: &mongodb::Client) -> SchemaSync<'_> {
    SchemaSync::new(client).mode(SyncMode::Verify)
}

fn main() {
    needs_thread_safe::<Collection<Doc>>();
    assert_eq!(parse("7"), Ok(7));
    let _ = verify;
}

#[derive(Model, serde::Serialize, serde::Deserialize)]
#[odm(collection = "order_header")]
struct Doc {
    #[serde(rename = "n")]
    name: String,
}
