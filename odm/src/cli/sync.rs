//! `plan`, `verify`, `apply` and `export`: the startup sync ([`SchemaSync`]) run by an operator.

use super::args::{ApplyArgs, ExportArgs, Rollout, SyncArgs};
use super::exit::{DRIFT, OK};
use super::failure::Failure;
use super::models::Entry;
use super::output::{self, Done};
use super::server::Server;
use crate::base::connection::ConnectionWarning;
use crate::base::error::Error;
use crate::base::plan::AdoptIndexes;
use crate::base::sync::{ModelSpec, SyncMode, ValidatorRollout};
use crate::base::template::InstanceKey;
use crate::driver::connection::Checklist;
use crate::driver::sync::SchemaSync;
use std::path::Path;
use std::time::Duration;

/// How long a sync may take unless `--timeout` says otherwise: index builds on large collections take a while.
const SYNC_TIMEOUT: Duration = Duration::from_secs(600);

/// A sync of `entries` as `args` asks, their databases replaced by `db` when given.
fn sync<'c>(
    server: &'c Server,
    entries: &[&Entry],
    db: Option<&str>,
    args: &SyncArgs,
) -> Result<SchemaSync<'c>, Failure> {
    let mut sync = SchemaSync::new(&server.client)
        .client_options(&server.options)
        .stale_indexes(args.stale.into())
        .adopt_indexes(if args.adopt_indexes { AdoptIndexes::OdmNamed } else { AdoptIndexes::Never })
        .validator_rollout(rollout(args)?)
        .topology(args.topology.into())
        .timeout(server.timeout.unwrap_or(SYNC_TIMEOUT));
    if let Some(db) = db {
        sync = sync.database(db);
    }
    for entry in entries {
        // Fails here, with the command line's advice, for a model without a database and no `--db`.
        entry.database(db)?;
        let mut spec = entry.spec.clone();
        if db.is_some() {
            // The model's own database gives way to `--db`, which the sync uses for models naming none.
            spec.db = None;
        }
        for name in periods(&spec, args.periods)? {
            sync = sync.spec(spec.instance(name));
        }
        sync = sync.spec(spec);
    }
    Ok(sync)
}

/// The validator rollout `--rollout` and `--tighten-anyway` ask for.
fn rollout(args: &SyncArgs) -> Result<ValidatorRollout, Failure> {
    match (args.rollout, args.tighten_anyway) {
        (Rollout::Direct, true) => Ok(ValidatorRollout::DirectAnyway),
        (Rollout::Staged, true) => Err(Failure::Usage(
            "`--tighten-anyway` goes with `--rollout direct`: a staged rollout never tightens over failing documents"
                .to_owned(),
        )),
        (rollout, false) => Ok(rollout.into()),
    }
}

/// For a model with one collection per period: the names of the current period's collection and of the `count - 1`
/// after it (`--periods`), which the sync creates when missing, so a job run before each period turns creates the
/// next one before its first write. None for other models.
fn periods(spec: &ModelSpec, count: u32) -> Result<Vec<String>, Failure> {
    let Some(template) = spec.template.filter(|t| t.placeholder.is_period()) else { return Ok(Vec::new()) };
    let now = bson::DateTime::now();
    (0..i64::from(count))
        .filter_map(|offset| template.period_start(now, offset))
        .map(|start| template.name_of(&InstanceKey::At(start)).map_err(|e| Failure::Message(e.to_string())))
        .collect()
}

/// `plan`: what a sync would change; changes nothing and succeeds whatever it finds.
pub(super) async fn plan(
    server: &Server,
    entries: &[&Entry],
    db: Option<&str>,
    args: &SyncArgs,
) -> Result<Done, Failure> {
    let plan = sync(server, entries, db, args)?.plan().await?;
    Ok(Done { code: OK, text: plan.to_string(), json: output::plan(&plan) })
}

/// `verify`: read only; [`DRIFT`] when the database differs from the models.
pub(super) async fn verify(
    server: &Server,
    entries: &[&Entry],
    db: Option<&str>,
    args: &SyncArgs,
) -> Result<Done, Failure> {
    match sync(server, entries, db, args)?.mode(SyncMode::Verify).await {
        Ok(report) => {
            let text = format!(
                "in sync: the database matches the models\n{}{}",
                notes(&report.plan),
                connection_lines(&report.connection)
            );
            let mut json = output::plan(&report.plan);
            json.insert("connection".into(), output::connection(&report.connection));
            Ok(Done { code: OK, text, json })
        }
        Err(Error::Drift(plan)) => {
            // The sync stopped at the drift: the checklist it runs first is asked again, so a drifted database
            // does not hide what is wrong with the connection.
            let checklist =
                entries.iter().fold(Checklist::new(&server.client).options(&server.options), |checklist, entry| {
                    checklist.spec(entry.spec.clone())
                });
            let warnings = checklist.await?;
            let text = format!("DRIFT: the database differs from the models:\n{plan}{}", connection_lines(&warnings));
            let mut json = output::plan(&plan);
            json.insert("connection".into(), output::connection(&warnings));
            Ok(Done { code: DRIFT, text, json })
        }
        Err(e) => Err(e.into()),
    }
}

/// The connection checklist's warnings, a line each.
fn connection_lines(warnings: &[ConnectionWarning]) -> String {
    warnings.iter().map(|w| format!("connection: {w}\n")).collect()
}

/// The actions of an in-sync plan, which are notes (a collection ahead, a shard key on a server that is no cluster).
fn notes(plan: &crate::base::plan::Plan) -> String {
    plan.actions.iter().map(|a| format!("note: {a}\n")).collect()
}

/// `apply`: carries out the plan ([`SyncMode::Apply`], or [`SyncMode::CreateMissing`]); [`DRIFT`] when something
/// still differs afterwards.
pub(super) async fn apply(
    server: &Server,
    entries: &[&Entry],
    db: Option<&str>,
    args: &ApplyArgs,
) -> Result<Done, Failure> {
    let mode = if args.create_missing { SyncMode::CreateMissing } else { SyncMode::Apply };
    let report = sync(server, entries, db, &args.sync)?.mode(mode).await?;
    let code = if report.is_in_sync() { OK } else { DRIFT };
    Ok(Done { code, text: report.to_string(), json: output::sync_report(&report) })
}

/// `export`: the plan written as a mongosh script and/or JSON, to files or standard output.
pub(super) async fn export(
    server: &Server,
    entries: &[&Entry],
    db: Option<&str>,
    args: &ExportArgs,
) -> Result<Done, Failure> {
    let plan = sync(server, entries, db, &args.sync)?.plan().await?;
    let mut written = Vec::new();
    if let Some(path) = &args.mongosh {
        write(path, &plan.to_mongosh())?;
        written.push(("mongosh", path));
    }
    if let Some(path) = &args.plan_json {
        let json = serde_json::to_string_pretty(&plan.to_json()).unwrap_or_default();
        write(path, &format!("{json}\n"))?;
        written.push(("planJson", path));
    }
    // A summary beside a script written to standard output would corrupt it: then the script is the output.
    let to_stdout = written.iter().any(|(_, p)| is_stdout(p));
    let text = if to_stdout {
        String::new()
    } else {
        let files: Vec<String> = written.iter().map(|(_, p)| p.display().to_string()).collect();
        format!("wrote the plan ({} action(s)) to {}", plan.actions.len(), files.join(" and "))
    };
    let mut json = output::plan(&plan);
    for (key, path) in written {
        json.insert(key.into(), path.display().to_string().into());
    }
    Ok(Done { code: OK, text, json })
}

/// True for `-`, standard output.
pub(super) fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Writes `text` to `path` (`-`: standard output).
fn write(path: &Path, text: &str) -> Result<(), Failure> {
    if is_stdout(path) {
        output::stdout(text);
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| Failure::Message(format!("cannot write {}: {e}", path.display())))
}
