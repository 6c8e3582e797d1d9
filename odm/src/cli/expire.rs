//! `expire`: the retention job of the models with one collection per period (`keep_periods`): whole expired periods
//! dropped ([`crate::collection::drop_expired`]), never a collection a model's name template does not name.

use super::args::ExpireArgs;
use super::exit::OK;
use super::failure::Failure;
use super::models::Entry;
use super::output::Done;
use mongodb::Client;
use serde_json::{json, Map};

/// Drops (or with `--dry-run` lists) each selected model's expired periods; models without a retention by period
/// are listed as having nothing to expire.
pub(super) async fn expire(
    client: &Client,
    entries: &[&Entry],
    db: Option<&str>,
    args: &ExpireArgs,
) -> Result<Done, Failure> {
    let (mut text, mut models) = (String::new(), Vec::new());
    let verb = if args.dry_run { "would drop" } else { "dropped" };
    for entry in entries {
        let Some(expire) = entry.expire else {
            text.push_str(&format!("{}: no retention by period, nothing to expire\n", entry.name));
            models.push(json!({ "model": entry.name, "retention": false }));
            continue;
        };
        let database = entry.database(db)?;
        let done = expire(client.database(&database), args.dry_run).await?;
        let names = &done.dropped;
        if names.is_empty() {
            text.push_str(&format!("{}: no expired period in {database}\n", entry.name));
        }
        for name in names {
            text.push_str(&format!("{}: {verb} {database}.{name} (an expired period)\n", entry.name));
        }
        // Named like an expired period but not a collection (a view, say): never dropped, and said so.
        for s in &done.skipped {
            text.push_str(&format!(
                "{}: skipped {database}.{} (a {}, not a collection: left alone)\n",
                entry.name, s.name, s.kind
            ));
        }
        let skipped: Vec<_> = done.skipped.iter().map(|s| json!({ "collection": s.name, "type": s.kind })).collect();
        models.push(
            json!({ "model": entry.name, "db": database, "retention": true, "collections": names, "skipped": skipped }),
        );
    }
    let mut json = Map::new();
    json.insert("dryRun".into(), args.dry_run.into());
    json.insert("models".into(), models.into());
    Ok(Done { code: OK, text, json })
}
