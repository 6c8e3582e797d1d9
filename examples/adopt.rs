//! Adopting a database that already exists: MongoDB's public sample theaters as another program stored them, the
//! audit against odm's rules, the model pulled from the data as version 2 beside the shape as found, and the way
//! from one to the other.
//!
//! Run it with `cargo run --example adopt`: it starts the embedded test server (or uses `MONGODB_URI`), stores the
//! 1,564 theaters of `tests/data/sample_mflix/theaters.json` with the plain driver (no odm type involved), audits
//! them (three findings: `null`s where odm leaves a key out, an array with no bound, no validator), pulls the model
//! (`examples/adopt/theaters.rs` is that pull's output, unedited: the example checks it is still what pull writes),
//! then syncs version 2's rollout validator, migrates every document, syncs again (the validator tightens to
//! version 2 alone), and audits again: nothing left.

// Kept as pull wrote it (rustfmt's default format), not reformatted by this repository's wider `rustfmt.toml`.
#[rustfmt::skip]
#[path = "adopt/theaters.rs"]
mod theaters;

use odm::audit::Audit;
use odm::bson::{Bson, Document};
use odm::introspect::Introspect;
use odm::prelude::*;
use odm::pull::ModelWriter;
use theaters::Theater;

/// The pulled module, as checked in.
const PULLED: &str = include_str!("adopt/theaters.rs");

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let test_db = odm::testing::database("sample_mflix").await;
    let db: &odm::mongodb::Database = &test_db;

    // The data as another program left it: canonical Extended JSON, one document per line, stored by the driver.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/sample_mflix/theaters.json");
    let documents: Vec<Document> = std::fs::read_to_string(file)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match Bson::try_from(serde_json::from_str::<serde_json::Value>(l)?)? {
            Bson::Document(d) => Ok(d),
            other => Err(format!("not a document: {other}").into()),
        })
        .collect::<Result<_, Box<dyn std::error::Error>>>()?;
    db.collection::<Document>("theaters").insert_many(documents).await?;

    let before = Audit::new(db).await?;
    print!("{before}");
    let rules: Vec<&str> = before.findings().map(|(_, f)| f.rule).collect();
    assert_eq!(rules, ["type-option-absent", "array-bound", "data-validator"]);

    // The model, pulled from the data: version 2 beside the shape as found, with the step between them. (`Pull`
    // does this for every collection of a database; here the survey is written under the database's usual name,
    // since the test server names each run's database apart.)
    let found = Introspect::new(db).collections(["theaters"]).await?;
    let pulled =
        ModelWriter::new("theaters", &found.collections[0].shape).database("sample_mflix").versioned(true).write()?;
    println!("pulled `{}` (version 2) and `{}V1` (as found), which opts out of:", pulled.model, pulled.model);
    for note in &pulled.notes {
        println!("  [{}] `{}`: {}", note.rule, note.path, note.message);
    }
    assert_eq!(pulled.source, PULLED, "examples/adopt/theaters.rs is what pull writes for this data");

    // Version 2 starts: the rollout validator takes both versions while documents move.
    let sync = || SchemaSync::new(test_db.client()).database(test_db.name()).model::<Theater>().mode(SyncMode::Apply);
    let _rollout = sync().await?;
    let report = Collection::<Theater>::new(db).migrate().await?;
    println!("{report}");
    assert_eq!((report.migrated, report.pending, report.failed.len()), (1564, 0, 0));
    sync().await?.require_in_sync()?; // version 2 alone from now on

    let after = Audit::new(db).await?;
    print!("{after}");
    assert!(after.is_clean());
    test_db.close().await;
    Ok(())
}
