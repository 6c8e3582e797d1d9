//! `audit`: a database checked against the rules ([`crate::audit`]), whoever wrote it: the `--db` database, or the
//! databases of the selected models; every collection, or the `--collection` ones.

use super::args::AuditArgs;
use super::exit::{FINDINGS, OK};
use super::failure::Failure;
use super::models::Entry;
use super::output::Done;
use super::progress::Display;
use crate::driver::audit::Audit;
use mongodb::Client;
use serde_json::{Map, Value};
use std::future::IntoFuture;

/// Audits each database; [`FINDINGS`] when anything breaks a rule or a collection asked for is absent.
pub(super) async fn audit(
    client: &Client,
    entries: &[&Entry],
    db: Option<&str>,
    args: &AuditArgs,
    display: Display,
) -> Result<Done, Failure> {
    let databases = Entry::databases(entries, db)?;
    let (mut text, mut reports, mut clean) = (String::new(), Vec::new(), true);
    for name in databases {
        let mut audit =
            Audit::new(&client.database(&name)).read_all_up_to(args.survey.read_all_up_to).sample(args.survey.sample);
        if !args.survey.collections.is_empty() {
            audit = audit.collections(args.survey.collections.iter().cloned());
        }
        let report =
            display.track(format!("audit {name}"), |t| audit.on_progress(move |p| t.update(p)).into_future()).await?;
        clean &= report.is_clean();
        text.push_str(&report.to_string());
        let json: Value = serde_json::from_str(&report.to_json()).expect("the report's JSON");
        reports.push(json);
    }
    let mut json = Map::new();
    json.insert("databases".into(), reports.into());
    Ok(Done { code: if clean { OK } else { FINDINGS }, text, json })
}
