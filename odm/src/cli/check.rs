//! `check`: the schema checker ([`crate::check`]) over each selected model's collections.

use super::args::CheckArgs;
use super::exit::{FAILING, OK};
use super::failure::Failure;
use super::models::Entry;
use super::output::{self, Done};
use super::progress::Display;
use mongodb::Client;
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
        for (ns, report) in (entry.check)(database, args.clone(), display).await? {
            failing += report.failing;
            text.push_str(&format!("{ns}: {report}\n"));
            reports.push(output::schema_report(&ns, &report));
        }
    }
    let mut json = Map::new();
    json.insert("failing".into(), failing.into());
    json.insert("collections".into(), reports.into());
    Ok(Done { code: if failing > 0 { FAILING } else { OK }, text, json })
}
