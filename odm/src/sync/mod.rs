//! Startup sync: one call brings the database in line with the models, so schema changes ship with the code.
//!
//! ```no_run
//! # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
//! # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(db = "shop", collection = "order_header")]
//! # struct Order { #[serde(rename = "n")] name: String }
//! let report = odm::SchemaSync::new(&client)
//!     .model::<Order>()
//!     .mode(odm::SyncMode::CreateMissing)
//!     .run()
//!     .await?;
//! println!("{report}");
//! # Ok(()) }
//! ```
//!
//! A sync first reads the database — one `listCollections` per database, filtered to the models' collections, and
//! one `listIndexes` per existing collection, a few at a time, nothing else — and builds a [`Plan`], in model
//! order. Then, by [`SyncMode`]:
//! - [`SyncMode::Verify`] changes nothing and fails with [`Error::Drift`] if the plan is not empty;
//! - [`SyncMode::CreateMissing`] creates missing collections (with validator, level, action, capped options) and
//!   missing indexes, and reports the rest;
//! - [`SyncMode::Apply`] also updates validators (`collMod`), changes TTL seconds and `hidden` in place, rebuilds
//!   owned indexes whose definition changed, and handles stale owned indexes as asked ([`StaleHandling`]).
//!
//! Ownership: indexes are matched by structure (key pattern and identity options) and owned by name (`idx_…`).
//! An index odm does not own is never changed or dropped; a conflict with one is reported, not "fixed".
//! Collections no model names are never read or touched.
//!
//! Many replicas may sync at once: a collection or index created by a concurrent sync counts as done
//! (`NamespaceExists`, `IndexBuildAlreadyInProgress` and identical-index replies are expected outcomes).

pub mod plan;

use crate::error::{Error, Result};
use crate::index::{InPlaceChange, IndexSpec};
use crate::model::{Capped, Model, ValidationAction, ValidationLevel};
use bson::{doc, Bson, Document};
use futures_util::{stream, StreamExt, TryStreamExt};
use mongodb::{Client, Database};
use plan::{Action, Namespace, Plan, StaleHandling};
use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

/// What a sync may change.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum SyncMode {
    /// Read only: report drift, fail if there is any.
    Verify,
    /// Create missing collections and indexes; report everything else (the safe production default).
    #[default]
    CreateMissing,
    /// Bring everything the models own in line.
    Apply,
}

/// How a changed validator reaches a collection that already holds documents.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ValidatorRollout {
    /// Apply as `moderate`/`warn`, count the documents that fail the new validator, and switch to the model's
    /// level and action only when none does (otherwise stay at `moderate`/`warn` and report the count).
    #[default]
    Staged,
    /// Apply the model's validator, level and action in one `collMod`.
    Direct,
}

/// What sync knows about one model.
#[derive(Clone, Debug)]
pub struct ModelSpec {
    /// The Rust type's full path (`shop::Order`).
    pub type_name: &'static str,
    /// The model's database, if it names one.
    pub db: Option<&'static str>,
    /// The collection.
    pub collection: &'static str,
    /// The validator.
    pub validator: Document,
    /// `validationLevel`.
    pub level: ValidationLevel,
    /// `validationAction`.
    pub action: ValidationAction,
    /// Capped settings.
    pub capped: Option<Capped>,
    /// Declared indexes.
    pub indexes: Vec<IndexSpec>,
}

impl ModelSpec {
    /// The spec of model `M`.
    pub fn of<M: Model>() -> Self {
        ModelSpec {
            type_name: std::any::type_name::<M>(),
            db: M::DATABASE,
            collection: M::COLLECTION,
            validator: M::validator(),
            level: M::VALIDATION_LEVEL,
            action: M::VALIDATION_ACTION,
            capped: M::CAPPED,
            indexes: M::indexes(),
        }
    }

    /// The `create` command for this model's collection.
    pub fn create_command(&self) -> Document {
        let mut c = doc! {
            "create": self.collection,
            "validator": self.validator.clone(),
            "validationLevel": self.level.as_str(),
            "validationAction": self.action.as_str(),
        };
        if let Some(capped) = self.capped {
            c.insert("capped", true);
            c.insert("size", capped.size as i64);
            if let Some(max) = capped.max {
                c.insert("max", max as i64);
            }
        }
        c
    }
}

/// A sync of several models (see the [module docs](self)).
pub struct SchemaSync<'c> {
    client: &'c Client,
    default_db: Option<String>,
    models: Vec<ModelSpec>,
    mode: SyncMode,
    stale: StaleHandling,
    rollout: ValidatorRollout,
    timeout: Duration,
}

/// What a sync did with one action.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Carried out.
    Done,
    /// Already done by a concurrent sync.
    AlreadyDone,
    /// Validator applied as `moderate`/`warn`; this many documents fail it, so it was not made stricter.
    Staged {
        /// Documents that fail the new validator.
        failing: u64,
    },
    /// Not carried out: the mode does not allow it, or a person must decide.
    Pending,
    /// The server refused it (e.g. index conflicts 85/86); the message says why.
    Refused(String),
}

/// The result of a sync: the plan and what happened to each action.
///
/// A sync in [`SyncMode::CreateMissing`] (the default) succeeds while validators or indexes still differ from the
/// models: it logs each such item as a `tracing` warning (target `odm::sync`) and lists it in the report. Call
/// [`SyncReport::require_in_sync`] to make pending drift an error instead:
///
/// ```no_run
/// # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
/// # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(db = "shop", collection = "order_header")]
/// # struct Order { #[serde(rename = "n")] name: String }
/// odm::SchemaSync::new(&client).model::<Order>().run().await?.require_in_sync()?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[must_use = "a sync can succeed while the database still differs from the models: read `remaining()` or call \
              `require_in_sync()`"]
pub struct SyncReport {
    /// What differed.
    pub plan: Plan,
    /// The outcome of each action of the plan, in order.
    pub outcomes: Vec<Outcome>,
}

impl SyncReport {
    /// Actions that still differ after this sync (pending, staged or refused).
    pub fn remaining(&self) -> impl Iterator<Item = (&Action, &Outcome)> {
        self.plan
            .actions
            .iter()
            .zip(&self.outcomes)
            .filter(|(a, o)| a.is_drift() && !matches!(o, Outcome::Done | Outcome::AlreadyDone))
    }

    /// True when nothing differs any more.
    pub fn is_in_sync(&self) -> bool {
        self.remaining().next().is_none()
    }

    /// `Ok` when nothing differs any more; otherwise [`Error::Drift`] with the plan of what still differs.
    pub fn require_in_sync(&self) -> Result<()> {
        if self.is_in_sync() {
            return Ok(());
        }
        let actions = self.remaining().map(|(a, _)| a.clone()).collect();
        Err(Error::Drift(Box::new(Plan { actions })))
    }
}

impl fmt::Display for SyncReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.plan.actions.is_empty() {
            return writeln!(f, "in sync: nothing to do");
        }
        match self.remaining().count() {
            0 => writeln!(f, "in sync after this run:")?,
            n => writeln!(f, "STILL DIFFERS: {n} item(s) below are not in line with the models:")?,
        }
        for (action, outcome) in self.plan.actions.iter().zip(&self.outcomes) {
            let o = match outcome {
                Outcome::Done => "done".to_owned(),
                Outcome::AlreadyDone => "already done (concurrent sync)".to_owned(),
                Outcome::Staged { failing } => {
                    format!("staged as moderate/warn: {failing} existing documents fail the new validator")
                }
                Outcome::Pending => "pending".to_owned(),
                Outcome::Refused(m) => format!("refused: {m}"),
            };
            writeln!(f, "- {action} [{o}]")?;
        }
        Ok(())
    }
}

impl<'c> SchemaSync<'c> {
    /// A sync through `client`, in [`SyncMode::CreateMissing`], keeping stale indexes, staged validator rollout.
    pub fn new(client: &'c Client) -> Self {
        SchemaSync {
            client,
            default_db: None,
            models: Vec::new(),
            mode: SyncMode::default(),
            stale: StaleHandling::Keep,
            rollout: ValidatorRollout::default(),
            timeout: Duration::from_secs(60),
        }
    }

    /// The database for models that do not name one.
    pub fn database(mut self, name: impl Into<String>) -> Self {
        self.default_db = Some(name.into());
        self
    }

    /// Adds model `M`.
    pub fn model<M: Model>(self) -> Self {
        self.spec(ModelSpec::of::<M>())
    }

    /// Adds a model by its spec.
    pub fn spec(mut self, spec: ModelSpec) -> Self {
        self.models.push(spec);
        self
    }

    /// What may change.
    pub fn mode(mut self, mode: SyncMode) -> Self {
        self.mode = mode;
        self
    }

    /// What to do with owned indexes no model declares (acted on in [`SyncMode::Apply`] only).
    pub fn stale_indexes(mut self, handling: StaleHandling) -> Self {
        self.stale = handling;
        self
    }

    /// How changed validators reach non-empty collections.
    pub fn validator_rollout(mut self, rollout: ValidatorRollout) -> Self {
        self.rollout = rollout;
        self
    }

    /// The longest a sync may take before it fails (default 60 s); it never hangs on a dead server.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    fn db_name<'a>(&'a self, m: &'a ModelSpec) -> Result<&'a str> {
        m.db.or(self.default_db.as_deref()).ok_or_else(|| {
            Error::Config(format!(
                "model `{}` names no database: add `#[odm(db = \"...\")]` or call `SchemaSync::database`",
                m.type_name
            ))
        })
    }

    /// Reads the database and returns the plan, changing nothing.
    pub async fn plan(&self) -> Result<Plan> {
        tokio::time::timeout(self.timeout, self.plan_inner()).await.map_err(|_| self.timed_out("planning"))?
    }

    /// Plans, then carries out what the mode allows. In [`SyncMode::Verify`], fails with [`Error::Drift`] when the
    /// plan is not empty. In the other modes, what still differs afterwards is logged as a warning and listed by
    /// [`SyncReport::remaining`]; [`SyncReport::require_in_sync`] turns it into an error.
    pub async fn run(&self) -> Result<SyncReport> {
        tokio::time::timeout(self.timeout, async {
            let plan = self.plan_inner().await?;
            if self.mode == SyncMode::Verify {
                if plan.is_in_sync() {
                    let outcomes = vec![Outcome::Pending; plan.actions.len()];
                    return Ok(SyncReport { plan, outcomes });
                }
                return Err(Error::Drift(Box::new(plan)));
            }
            let mut outcomes = Vec::with_capacity(plan.actions.len());
            for action in &plan.actions {
                outcomes.push(self.execute(action).await?);
            }
            let report = SyncReport { plan, outcomes };
            for (action, outcome) in report.remaining() {
                let ns = action.namespace();
                tracing::warn!(target: "odm::sync", ns = %ns, kind = action.kind(), outcome = ?outcome, "still differs: {action}");
            }
            Ok(report)
        })
        .await
        .map_err(|_| self.timed_out("sync"))?
    }

    fn timed_out(&self, what: &str) -> Error {
        Error::Config(format!("{what} did not finish within {:?}; is the server reachable?", self.timeout))
    }

    /// The models grouped by database, in model order; refuses two models on one collection before anything
    /// is sent.
    fn by_database(&self) -> Result<Vec<(&str, Vec<&ModelSpec>)>> {
        let mut by_db: Vec<(&str, Vec<&ModelSpec>)> = Vec::new();
        for m in &self.models {
            let db = self.db_name(m)?;
            match by_db.iter_mut().find(|(d, _)| *d == db) {
                Some((_, ms)) => {
                    if let Some(first) = ms.iter().find(|o| o.collection == m.collection) {
                        return Err(Error::SharedCollection {
                            namespace: format!("{db}.{}", m.collection),
                            first: first.type_name,
                            second: m.type_name,
                        });
                    }
                    ms.push(m)
                }
                None => by_db.push((db, vec![m])),
            }
        }
        Ok(by_db)
    }

    async fn plan_inner(&self) -> Result<Plan> {
        let by_db = self.by_database()?;
        let mut actions = Vec::new();
        for (db_name, models) in by_db {
            let db = self.client.database(db_name);
            // One listCollections per database, for the models' collections only.
            let names: Vec<&str> = models.iter().map(|m| m.collection).collect();
            let mut live = list_collections(&db, &names).await?;
            // One listIndexes per existing collection, sent concurrently; the plan still follows model order.
            let existing: Vec<&str> = names.into_iter().filter(|c| live.contains_key(*c)).collect();
            let mut live_indexes = list_indexes_of(&db, existing).await?;
            for m in models {
                let ns = Namespace { db: db_name.to_owned(), collection: m.collection.to_owned() };
                match live.remove(m.collection) {
                    None => {
                        actions.push(Action::CreateCollection { ns: ns.clone(), command: m.create_command() });
                        for spec in &m.indexes {
                            actions.push(Action::CreateIndex { ns: ns.clone(), spec: spec.clone() });
                        }
                    }
                    Some(mut info) => {
                        let options = match info.remove("options") {
                            Some(Bson::Document(options)) => options,
                            _ => Document::new(),
                        };
                        diff_collection(m, &ns, &options, &mut actions);
                        let listed = live_indexes.remove(m.collection).unwrap_or_default();
                        diff_indexes(&ns, &m.indexes, &listed, self.stale, &mut actions);
                    }
                }
            }
        }
        Ok(Plan { actions })
    }

    async fn execute(&self, action: &Action) -> Result<Outcome> {
        let allowed = match self.mode {
            SyncMode::Verify => false,
            SyncMode::CreateMissing => matches!(action, Action::CreateCollection { .. } | Action::CreateIndex { .. }),
            SyncMode::Apply => true,
        };
        let commands = action.commands();
        if !allowed || commands.is_empty() || !action.is_drift() {
            return Ok(Outcome::Pending);
        }
        let ns = action.namespace();
        let db = self.client.database(&ns.db);
        tracing::info!(target: "odm::sync", ns = %ns, kind = action.kind(), "{action}");
        match action {
            Action::UpdateValidator { command, .. } => self.update_validator(&db, ns, command).await,
            Action::CreateIndex { spec, .. } => create_index(&db, ns, spec, &commands[0]).await,
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

    async fn update_validator(&self, db: &Database, ns: &Namespace, command: &Document) -> Result<Outcome> {
        let coll = db.collection::<Document>(&ns.collection);
        let has_documents = coll.find_one(doc! {}).projection(doc! { "_id": 1 }).await?.is_some();
        if self.rollout == ValidatorRollout::Direct || !has_documents {
            run(db, command).await?;
            return Ok(Outcome::Done);
        }
        // Staged: validate new writes without rejecting, then measure existing documents.
        let mut staged = command.clone();
        staged.insert("validationLevel", "moderate");
        staged.insert("validationAction", "warn");
        run(db, &staged).await?;
        let validator = command.get_document("validator").cloned().unwrap_or_default();
        let failing = coll.count_documents(doc! { "$nor": [validator] }).await?;
        if failing > 0 {
            tracing::warn!(target: "odm::sync", ns = %ns, failing, "validator staged as moderate/warn: existing documents fail it");
            return Ok(Outcome::Staged { failing });
        }
        run(db, command).await?;
        Ok(Outcome::Done)
    }
}

async fn run(db: &Database, command: &Document) -> Result<Document> {
    Ok(db.run_command(command.clone()).await?)
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
    while start.elapsed() < Duration::from_secs(30) {
        if list_indexes(db, &ns.collection).await?.iter().any(|i| i.name == name) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(Error::Config(format!("{ns}: index {name} was being built by another sync but never appeared")))
}

/// How many `listIndexes` a plan keeps in flight. Across a network, a sequential sweep of many collections spends
/// most of its time waiting for round trips, and a few in flight hide that wait (against a server on the same busy
/// machine, which is the bottleneck itself, it changes little). Eight stays below the driver's default pool
/// (`maxPoolSize` 10: more would only queue for a connection), leaves connections to the application sharing the
/// client, and is a light load for the server even when many replicas start at once.
const CONCURRENT_READS: usize = 8;

/// The named collections of `db` that exist, by name, as raw documents with their options (the driver's typed form
/// rejects newer option values). The filter keeps a database's other collections, and their validators, off the
/// wire; `nameOnly` cannot be used, since the options are what is compared.
async fn list_collections(db: &Database, names: &[&str]) -> Result<HashMap<String, Document>> {
    let specs: Vec<Document> = db
        .list_collections()
        .filter(doc! { "name": { "$in": names } })
        .batch_size(100_000)
        .await?
        .with_type::<Document>()
        .try_collect()
        .await?;
    Ok(specs.into_iter().filter_map(|s| Some((s.get_str("name").ok()?.to_owned(), s))).collect())
}

/// The indexes of each named collection, read with at most [`CONCURRENT_READS`] `listIndexes` in flight.
async fn list_indexes_of<'a>(db: &Database, collections: Vec<&'a str>) -> Result<HashMap<&'a str, Vec<IndexSpec>>> {
    let reads: Vec<_> = collections.into_iter().map(|c| named_indexes(db, c)).collect();
    stream::iter(reads).buffer_unordered(CONCURRENT_READS).try_collect().await
}

async fn named_indexes<'a>(db: &Database, collection: &'a str) -> Result<(&'a str, Vec<IndexSpec>)> {
    Ok((collection, list_indexes(db, collection).await?))
}

async fn list_indexes(db: &Database, collection: &str) -> Result<Vec<IndexSpec>> {
    let coll = db.collection::<Document>(collection);
    let listed: Vec<Document> = match coll.list_indexes().batch_size(100_000).await {
        Ok(cursor) => cursor.with_type::<Document>().try_collect().await?,
        Err(e) if Error::from(e.clone()).code() == Some(26) => Vec::new(), // dropped meanwhile
        Err(e) => return Err(e.into()),
    };
    Ok(listed.iter().filter_map(IndexSpec::from_listed).filter(|s| s.name != "_id_").collect())
}

fn level_of(options: &Document) -> &str {
    options.get_str("validationLevel").unwrap_or("strict")
}

fn action_of(options: &Document) -> &str {
    options.get_str("validationAction").unwrap_or("error")
}

fn diff_collection(m: &ModelSpec, ns: &Namespace, options: &Document, actions: &mut Vec<Action>) {
    let live_validator = options.get_document("validator").ok();
    let same_validator = live_validator.is_some_and(|v| crate::index::same_document(v, &m.validator));
    if !same_validator || level_of(options) != m.level.as_str() || action_of(options) != m.action.as_str() {
        actions.push(Action::UpdateValidator {
            ns: ns.clone(),
            live: live_validator.cloned(),
            live_level: level_of(options).to_owned(),
            live_action: action_of(options).to_owned(),
            command: doc! {
                "collMod": m.collection,
                "validator": m.validator.clone(),
                "validationLevel": m.level.as_str(),
                "validationAction": m.action.as_str(),
            },
        });
    }
    let int = |k: &str| {
        options.get(k).and_then(|v| match v {
            Bson::Int32(n) => Some(i64::from(*n)),
            Bson::Int64(n) => Some(*n),
            Bson::Double(n) => Some(*n as i64),
            _ => None,
        })
    };
    let live =
        options.get_bool("capped").unwrap_or(false).then(|| (int("size").unwrap_or(0), int("max").filter(|m| *m > 0)));
    let desired = m.capped.map(|c| (c.size as i64, c.max.map(|m| m as i64)));
    let same = match (live, desired) {
        (None, None) => true,
        // The server rounds capped sizes up (to a multiple of 256 bytes); a live size at least as large is fine.
        (Some((ls, lm)), Some((ds, dm))) => ls >= ds && ls - ds < 4096 && lm == dm,
        _ => false,
    };
    if !same {
        actions.push(Action::CappedMismatch { ns: ns.clone(), live, desired });
    }
}

/// Matches declared indexes to live ones: by name first, then by structure.
fn diff_indexes(
    ns: &Namespace,
    desired: &[IndexSpec],
    live: &[IndexSpec],
    stale: StaleHandling,
    actions: &mut Vec<Action>,
) {
    let mut used = vec![false; live.len()];
    for d in desired {
        if let Some(i) = live.iter().position(|l| l.name == d.name) {
            used[i] = true;
            let l = &live[i];
            if d.same_structure(l) {
                for change in d.in_place_changes(l) {
                    actions.push(Action::ModifyIndex { ns: ns.clone(), name: d.name.clone(), change });
                }
            } else if l.is_owned() {
                actions.push(Action::RebuildIndex { ns: ns.clone(), live: l.clone(), desired: d.clone() });
            } else {
                actions.push(Action::IndexConflict {
                    ns: ns.clone(),
                    live: l.clone(),
                    desired: d.clone(),
                    reason: format!("an index odm does not own is named `{}` with another definition", d.name),
                });
            }
        } else if let Some(i) = live.iter().enumerate().position(|(i, l)| !used[i] && d.same_structure(l)) {
            used[i] = true;
            let l = &live[i];
            if l.is_owned() {
                // Renamed in the model: the server refuses a second index with the same keys, so rebuild.
                actions.push(Action::RebuildIndex { ns: ns.clone(), live: l.clone(), desired: d.clone() });
            } else {
                actions.push(Action::IndexConflict {
                    ns: ns.clone(),
                    live: l.clone(),
                    desired: d.clone(),
                    reason: format!("the index `{}` (not owned by odm) already has these keys and options", l.name),
                });
            }
        } else {
            actions.push(Action::CreateIndex { ns: ns.clone(), spec: d.clone() });
        }
    }
    for (l, _) in live.iter().zip(&used).filter(|(l, used)| !**used && l.is_owned()) {
        actions.push(Action::StaleIndex { ns: ns.clone(), live: l.clone(), handling: stale });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ns() -> Namespace {
        Namespace { db: "d".into(), collection: "c".into() }
    }

    #[test]
    fn index_diff_matches_by_name_then_structure_and_leaves_foreign_indexes_alone() {
        let mut ttl = IndexSpec::new("idx_at", doc! { "at": 1 });
        ttl.expire_after_seconds = Some(60);
        let desired = vec![
            IndexSpec::new("idx_a", doc! { "a": 1 }),
            ttl.clone(),
            IndexSpec::new("idx_b_c", doc! { "b": 1, "c": -1 }),
            IndexSpec::new("idx_e", doc! { "e": 1 }),
            IndexSpec::new("idx_f", doc! { "f": 1 }),
        ];
        let mut live_ttl = ttl.clone();
        live_ttl.expire_after_seconds = Some(30);
        let live = vec![
            IndexSpec::new("idx_a", doc! { "a": 1 }),
            live_ttl,
            IndexSpec::new("idx_b_c", doc! { "c": -1, "b": 1 }), // owned, other keys: rebuild
            IndexSpec::new("e_1", doc! { "e": 1 }),              // foreign with our keys: conflict
            IndexSpec::new("idx_old", doc! { "z": 1 }),          // owned, undeclared: stale
            IndexSpec::new("manual", doc! { "y": 1 }),           // foreign: untouched, unreported
        ];
        let mut actions = Vec::new();
        diff_indexes(&ns(), &desired, &live, StaleHandling::Keep, &mut actions);
        let kinds: Vec<&str> = actions.iter().map(Action::kind).collect();
        assert_eq!(kinds, ["modifyIndex", "rebuildIndex", "indexConflict", "createIndex", "staleIndex"]);
        assert!(actions.iter().all(|a| a.to_string().contains("d.c")));
        assert!(!actions.iter().any(|a| a.to_string().contains("manual")));
    }
}
