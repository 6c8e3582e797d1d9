//! `migrate`: each selected versioned model's batch migration ([`crate::migrate`]); a model that is not versioned
//! has nothing to migrate and is listed as such.

use super::args::MigrateArgs;
use super::exit::{INCOMPLETE, OK};
use super::failure::Failure;
use super::models::Entry;
use super::output::{self, Done};
use super::progress::Display;
use mongodb::Client;
use serde_json::{json, Map};

/// Migrates every selected versioned model; [`INCOMPLETE`] when documents are left at an older version.
pub(super) async fn migrate(
    client: &Client,
    entries: &[&Entry],
    db: Option<&str>,
    args: &MigrateArgs,
    display: Display,
) -> Result<Done, Failure> {
    let mut text = String::new();
    let mut reports = Vec::new();
    let mut skipped = Vec::new();
    let mut complete = true;
    for entry in entries {
        let Some(migrate) = entry.migrate else {
            text.push_str(&format!("{}: not versioned, nothing to migrate\n", entry.name));
            skipped.push(json!(entry.name));
            continue;
        };
        let database = client.database(&entry.database(db)?);
        for (ns, report) in migrate(database, args.clone(), display).await? {
            complete &= report.is_complete();
            text.push_str(&format!("{ns}: {report}\n"));
            reports.push(output::migration_report(&ns, &report));
        }
    }
    let mut json = Map::new();
    json.insert("complete".into(), complete.into());
    json.insert("collections".into(), reports.into());
    json.insert("notVersioned".into(), skipped.into());
    Ok(Done { code: if complete { OK } else { INCOMPLETE }, text, json })
}
