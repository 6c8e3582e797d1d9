//! Carrying out a plan's actions: the commands, the outcomes concurrent syncs produce, the staged validator rollout.

use super::read::list_indexes;
use crate::base::error::{Error, Result, Waited};
use crate::base::index::{InPlaceChange, IndexSpec};
use crate::base::plan::{Action, Namespace, StaleHandling};
use crate::base::sync::mode::{SyncMode, ValidatorRollout};
use crate::base::sync::report::Outcome;
use crate::driver::observe::Op;
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
                | Action::AdoptIndex { .. }
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
        Action::CreateIndex { spec, .. } => {
            let outcome = create_index(&db, ns, spec, &commands[0]).await?;
            record(&db, &outcome, &commands[1]).await?;
            Ok(outcome)
        }
        Action::AdoptIndex { .. } => {
            record(&db, &Outcome::Done, &commands[0]).await?;
            Ok(Outcome::Done)
        }
        Action::StaleIndex { handling: StaleHandling::Drop, .. } => {
            let outcome = drop_index(&db, &commands[0]).await?;
            // Dropped by this sync or a concurrent one: either way the record goes with the index.
            write_record(&db, &commands[1]).await?;
            Ok(outcome)
        }
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
            drop_index(&db, &commands[0]).await?;
            write_record(&db, &commands[1]).await?;
            let outcome = create_index(&db, ns, desired, &commands[2]).await?;
            record(&db, &outcome, &commands[3]).await?;
            Ok(outcome)
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
    if !has_documents {
        run(db, command).await?;
        return Ok(Outcome::Done);
    }
    if rollout != ValidatorRollout::Staged {
        // A validator that refuses writes is first counted against what is stored: tightened over failing
        // documents only when asked to, and said either way.
        let refuses = command.get_str("validationAction").unwrap_or("error") == "error";
        let failing = if refuses { failing_documents(&coll, command).await? } else { 0 };
        if failing > 0 && rollout == ValidatorRollout::Direct {
            tracing::warn!(target: "odm::sync", ns = %ns, failing, "validator not applied: stored documents fail it (direct rollout)");
            return Ok(Outcome::NotTightened { failing });
        }
        run(db, command).await?;
        if failing > 0 {
            tracing::warn!(target: "odm::sync", ns = %ns, failing, "validator applied over stored documents that fail it (tighten anyway)");
            return Ok(Outcome::TightenedOver { failing });
        }
        return Ok(Outcome::Done);
    }
    // Staged: validate new writes without rejecting, then measure existing documents.
    let mut staged = command.clone();
    staged.insert("validationLevel", "moderate");
    staged.insert("validationAction", "warn");
    run(db, &staged).await?;
    let failing = failing_documents(&coll, command).await?;
    if failing > 0 {
        tracing::warn!(target: "odm::sync", ns = %ns, failing, "validator staged as moderate/warn: existing documents fail it");
        return Ok(Outcome::Staged { failing });
    }
    run(db, command).await?;
    Ok(Outcome::Done)
}

/// How many stored documents the validator of `command` (a `collMod`) refuses: `{$nor: [validator]}`, as the schema
/// check counts them.
async fn failing_documents(coll: &mongodb::Collection<Document>, command: &Document) -> Result<u64> {
    let validator = command.get_document("validator").cloned().unwrap_or_default();
    let failing_filter = doc! { "$nor": [validator] };
    let op = Op::on(coll, "aggregate").values(|| doc! { "query": &failing_filter });
    Ok(op.run(coll.count_documents(failing_filter)).await?)
}

async fn run(db: &Database, command: &Document) -> Result<Document> {
    Ok(Op::command(db, command).run(db.run_command(command.clone())).await?)
}

/// Drops an index (`dropIndexes`); one a concurrent sync dropped first is already done.
async fn drop_index(db: &Database, command: &Document) -> Result<Outcome> {
    match run(db, command).await {
        Ok(_) => Ok(Outcome::Done),
        // IndexNotFound: dropped by a concurrent sync.
        Err(e) if e.code() == Some(27) => Ok(Outcome::AlreadyDone),
        Err(e) => Err(e),
    }
}

/// Records an index as odm's once it exists (`outcome` done, by this sync or a concurrent one): `command` is the
/// record's upsert ([`ownership`](crate::sync::plan::ownership)). An index the server refused is not recorded.
async fn record(db: &Database, outcome: &Outcome, command: &Document) -> Result<()> {
    match outcome {
        Outcome::Done | Outcome::AlreadyDone => write_record(db, command).await,
        _ => Ok(()),
    }
}

/// Writes or deletes a record of `odm_index`. The server answers a failed write `ok: 1` with `writeErrors`, so those
/// are checked; two syncs upserting one record at once may collide on its `_id` (11000): the upsert then runs once
/// more and updates the record the other one inserted.
pub(crate) async fn write_record(db: &Database, command: &Document) -> Result<()> {
    for attempt in 0..2 {
        let reply = run(db, command).await?;
        let Some(error) = reply.get_array("writeErrors").ok().and_then(|e| e.first()?.as_document().cloned()) else {
            return Ok(());
        };
        let code = error.get_i32("code").unwrap_or_default();
        if code != 11000 || attempt == 1 {
            let message = error.get_str("errmsg").unwrap_or_default();
            return Err(Error::Write {
                model: "odm_index",
                code,
                message: format!(
                    "odm could not write its record of an index in `{}.{}` ({message}); until it can, the index \
                     is not odm's: the application's user needs write access to that collection",
                    db.name(),
                    crate::base::plan::ownership::OWNED_INDEXES
                ),
            });
        }
    }
    Ok(())
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
