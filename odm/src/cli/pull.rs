//! `pull`: a Rust model per collection of a database ([`crate::pull`]), written to `--out`: the `--db` database, or
//! the one database of the selected models; every collection, or the `--collection` ones. All or nothing.

use super::args::PullArgs;
use super::exit::{NOT_PULLED, OK};
use super::failure::Failure;
use super::models::Entry;
use super::output::Done;
use super::progress::Display;
use crate::driver::pull::Pull;
use mongodb::Client;
use serde_json::{json, Map, Value};
use std::future::IntoFuture;

/// Pulls the database's models and writes them, or writes nothing and gives [`NOT_PULLED`] when any collection asked
/// for is absent or cannot be modelled.
pub(super) async fn pull(
    client: &Client,
    entries: &[&Entry],
    db: Option<&str>,
    args: &PullArgs,
    display: Display,
) -> Result<Done, Failure> {
    let databases = Entry::databases(entries, db)?;
    let name = match databases.as_slice() {
        [one] => one.clone(),
        _ => {
            return Err(Failure::Usage(format!(
                "pull writes one database's models: give `--db NAME` (the models name {})",
                if databases.is_empty() { "none".to_owned() } else { databases.join(", ") }
            )))
        }
    };
    let mut pull = Pull::new(&client.database(&name))
        .read_all_up_to(args.survey.read_all_up_to)
        .sample(args.survey.sample)
        .versioned(args.versioned);
    if !args.survey.collections.is_empty() {
        pull = pull.collections(args.survey.collections.iter().cloned());
    }
    let report =
        display.track(format!("pull {name}"), |t| pull.on_progress(move |p| t.update(p)).into_future()).await?;
    let mut text = report.to_string();
    let complete = report.unpullable.is_empty() && report.missing.is_empty();
    let written = if complete {
        report.write_to(&args.out).map_err(|e| Failure::Message(format!("pull {name}: {e}")))?
    } else {
        text.push_str(
            "nothing written: pull writes every model asked for or none; leave these out with `--collection`\n",
        );
        Vec::new()
    };
    for path in &written {
        text.push_str(&format!("wrote {}\n", path.display()));
    }
    let mut json = Map::new();
    json.insert("database".into(), name.into());
    let models: Vec<Value> = report
        .models
        .iter()
        .map(|m| {
            let notes: Vec<Value> =
                m.notes.iter().map(|n| json!({ "rule": n.rule, "path": n.path, "message": n.message })).collect();
            json!({ "collection": m.collection, "module": m.module, "model": m.model, "embedded": m.embedded, "notes": notes })
        })
        .collect();
    json.insert("models".into(), models.into());
    let refused: Vec<Value> =
        report.unpullable.iter().map(|u| json!({ "collection": u.collection, "reason": u.reason })).collect();
    json.insert("unpullable".into(), refused.into());
    json.insert("missing".into(), report.missing.clone().into());
    let files: Vec<Value> = written.iter().map(|p| p.display().to_string().into()).collect();
    json.insert("written".into(), files.into());
    Ok(Done { code: if complete { OK } else { NOT_PULLED }, text, json })
}
