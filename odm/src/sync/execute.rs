//! Carrying out a plan's actions: the commands, the outcomes concurrent syncs produce, the staged validator rollout.

use super::mode::{SyncMode, ValidatorRollout};
use super::plan::{Action, Namespace, StaleHandling};
use super::read::list_indexes;
use super::report::Outcome;
use crate::error::{Error, Result, Waited};
use crate::index::{InPlaceChange, IndexSpec};
use crate::observe::Op;
use bson::{doc, Document};
use mongodb::{Client, Database};
use std::time::{Duration, Instant};

/// Carries out `action` as far as `mode` allows: each command, with the outcomes concurrent syncs produce
/// (already created, already dropped) taken as done.
pub(super) async fn execute(
    client: &Client,
    mode: SyncMode,
    rollout: ValidatorRollout,
    action: &Action,
) -> Result<Outcome> {
    let allowed = match mode {
        SyncMode::Verify => false,
        SyncMode::CreateMissing => matches!(
            action,
            Action::CreateCollection { .. }
                | Action::CreateIndex { .. }
                | Action::ShardCollection { new_collection: true, .. }
        ),
        SyncMode::Apply => true,
    };
    let commands = action.commands();
    if !allowed || commands.is_empty() || !action.is_drift() {
        return Ok(Outcome::Pending);
    }
    let ns = action.namespace();
    let db = client.database(action.command_database());
    tracing::info!(target: "odm::sync", ns = %ns, kind = action.kind(), "{action}");
    match action {
        Action::UpdateValidator { command, .. } => update_validator(&db, ns, command, rollout).await,
        Action::ShardCollection { .. } => {
            for command in &commands {
                match run(&db, command).await {
                    Ok(_) => {}
                    // AlreadyInitialized: sharded meanwhile by a concurrent sync.
                    Err(e) if e.code() == Some(23) => return Ok(Outcome::AlreadyDone),
                    // CommandNotFound, Unauthorized, IllegalOperation: this server or user cannot shard.
                    Err(e) if matches!(e.code(), Some(59) | Some(13) | Some(20)) => {
                        return Ok(Outcome::Refused(e.server_message()))
                    }
                    Err(e) => return Err(e),
                }
            }
            Ok(Outcome::Done)
        }
        Action::CreateIndex { spec, .. } => create_index(&db, ns, spec, &commands[0]).await,
        Action::ModifyTimeseries { command, .. } => {
            run(&db, command).await?;
            // Some servers acknowledge a `collMod` of time-series settings without applying it: check.
            let live = super::read::list_collections(&db, &[ns.collection.as_str()]).await?;
            let options = live.get(&ns.collection).and_then(|info| info.get_document("options").ok());
            if options.is_some_and(|o| super::timeseries::applied(command, o)) {
                Ok(Outcome::Done)
            } else {
                Ok(Outcome::Refused(format!("the server acknowledged {command} but the collection is unchanged")))
            }
        }
        Action::RebuildIndex { desired, .. } => {
            match run(&db, &commands[0]).await {
                Ok(_) => {}
                Err(e) if e.code() == Some(27) => {} // dropped by a concurrent sync
                Err(e) => return Err(e),
            }
            create_index(&db, ns, desired, &commands[1]).await
        }
        Action::ModifyIndex { name, change: InPlaceChange::Hidden { .. }, .. }
        | Action::StaleIndex { live: IndexSpec { name, .. }, handling: StaleHandling::Hide, .. } => {
            let to = match action {
                Action::ModifyIndex { change: InPlaceChange::Hidden { to, .. }, .. } => *to,
                _ => true,
            };
            run(&db, &commands[0]).await?;
            // Some servers acknowledge `collMod {index: {hidden}}` without applying it: check.
            let live = list_indexes(&db, &ns.collection).await?;
            if live.iter().any(|i| &i.name == name && i.hidden == to) {
                Ok(Outcome::Done)
            } else {
                Ok(Outcome::Refused(format!(
                    "the server acknowledged collMod {{index: {{name: {name:?}, hidden: {to}}}}} but the index is unchanged"
                )))
            }
        }
        _ => {
            for command in &commands {
                match run(&db, command).await {
                    Ok(_) => {}
                    // NamespaceExists: a concurrent sync created it; IndexNotFound: dropped concurrently.
                    Err(e) if matches!(e.code(), Some(48) | Some(27)) => return Ok(Outcome::AlreadyDone),
                    Err(e) => return Err(e),
                }
            }
            Ok(Outcome::Done)
        }
    }
}

/// A changed validator, rolled out as `rollout` says.
async fn update_validator(
    db: &Database,
    ns: &Namespace,
    command: &Document,
    rollout: ValidatorRollout,
) -> Result<Outcome> {
    let coll = db.collection::<Document>(&ns.collection);
    let any = coll.find_one(doc! {}).projection(doc! { "_id": 1 });
    let has_documents = Op::on(&coll, "find").run(any).await?.is_some();
    if rollout == ValidatorRollout::Direct || !has_documents {
        run(db, command).await?;
        return Ok(Outcome::Done);
    }
    // Staged: validate new writes without rejecting, then measure existing documents.
    let mut staged = command.clone();
    staged.insert("validationLevel", "moderate");
    staged.insert("validationAction", "warn");
    run(db, &staged).await?;
    let validator = command.get_document("validator").cloned().unwrap_or_default();
    let failing_filter = doc! { "$nor": [validator] };
    let op = Op::on(&coll, "aggregate").values(|| doc! { "query": &failing_filter });
    let failing = op.run(coll.count_documents(failing_filter)).await?;
    if failing > 0 {
        tracing::warn!(target: "odm::sync", ns = %ns, failing, "validator staged as moderate/warn: existing documents fail it");
        return Ok(Outcome::Staged { failing });
    }
    run(db, command).await?;
    Ok(Outcome::Done)
}

async fn run(db: &Database, command: &Document) -> Result<Document> {
    Ok(Op::command(db, command).run(db.run_command(command.clone())).await?)
}

async fn create_index(db: &Database, ns: &Namespace, spec: &IndexSpec, command: &Document) -> Result<Outcome> {
    match run(db, command).await {
        Ok(reply) => {
            let noted = reply.get_str("note").is_ok_and(|n| n.contains("already exist"));
            Ok(if noted { Outcome::AlreadyDone } else { Outcome::Done })
        }
        // IndexAlreadyExists / IndexBuildAlreadyInProgress: a concurrent sync is building the same index.
        Err(e) if matches!(e.code(), Some(68) | Some(276)) => {
            wait_for_index(db, ns, &spec.name).await?;
            Ok(Outcome::AlreadyDone)
        }
        // IndexOptionsConflict / IndexKeySpecsConflict: reported as a plan item, never a crash at boot.
        Err(e) if matches!(e.code(), Some(85) | Some(86) | Some(67)) => Ok(Outcome::Refused(e.server_message())),
        Err(e) => Err(e),
    }
}

async fn wait_for_index(db: &Database, ns: &Namespace, name: &str) -> Result<()> {
    let start = Instant::now();
    let limit = Duration::from_secs(30);
    while start.elapsed() < limit {
        if list_indexes(db, &ns.collection).await?.iter().any(|i| i.name == name) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let waited = Waited::IndexBuild { namespace: ns.to_string(), index: name.to_owned() };
    Err(Error::Timeout { waited, limit })
}
