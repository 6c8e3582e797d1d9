//! `check`: the schema checker ([`crate::check`]) over each selected model's collections.

use super::args::CheckArgs;
use super::exit::{FAILING, OK};
use super::failure::Failure;
use super::models::Entry;
use super::output::{self, Done};
use super::progress::Display;
use mongodb::{Client, Database};
use serde_json::Map;

/// Checks every selected model; [`FAILING`] when a stored document fails its validator.
pub(super) async fn check(
    client: &Client,
    entries: &[&Entry],
    db: Option<&str>,
    args: &CheckArgs,
    display: Display,
) -> Result<Done, Failure> {
    let mut text = String::new();
    let mut reports = Vec::new();
    let mut failing = 0;
    for entry in entries {
        let database = client.database(&entry.database(db)?);
        for (ns, report) in (entry.check)(database.clone(), args.clone(), display).await? {
            failing += report.failing;
            let mut json = output::schema_report(&ns, &report);
            // Nothing checked: a collection that is not there (a mistyped `--db`, a sync never run) is said so,
            // not reported as a clean one.
            if report.checked == 0 && !exists(&database, &ns.collection).await? {
                text.push_str(&format!("{ns}: {}: not on the server, nothing to check\n", report.model));
                json["exists"] = false.into();
            } else {
                text.push_str(&format!("{ns}: {report}\n"));
                json["exists"] = true.into();
            }
            reports.push(json);
        }
    }
    let mut json = Map::new();
    json.insert("failing".into(), failing.into());
    json.insert("collections".into(), reports.into());
    Ok(Done { code: if failing > 0 { FAILING } else { OK }, text, json })
}

/// Whether `db` holds a collection (or view) named `name`.
async fn exists(db: &Database, name: &str) -> Result<bool, Failure> {
    let names = db
        .list_collection_names()
        .filter(bson::doc! { "name": name })
        .await
        .map_err(crate::base::error::Error::from)?;
    Ok(!names.is_empty())
}
