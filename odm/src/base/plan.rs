//! The sync plan: what differs between the models and the database, as a readable report, a mongosh script and
//! JSON, so a DBA can review it before launch.
//!
//! One file, over the usual length: each [`Action`]'s command, its text and its JSON are matches over the same
//! variants, read and changed together with the enum.

// Published as `odm::sync::plan` (the module itself is re-exported, so its documentation is here). It is a topic of
// its own, below `error`, rather than inside `sync`, so that `Error::Drift` carries a plan without the error module
// depending on sync.
//
// One file of over 600 lines: the actions, their text, their JSON and their mongosh script are one vocabulary, read
// and changed together (a new action is a variant and its three renderings); the children (`ownership`,
// `precondition`, `validator_diff`) take nothing from it, so the module imports one way.

pub mod ownership;
mod precondition;
pub mod validator_diff;

use crate::base::index::{InPlaceChange, IndexSpec};
use bson::{doc, Bson, Document};
use ownership::{forget_command, record_command, record_document_command, OWNED_INDEXES};
use precondition::{check_call, CHECK_FUNCTION};
use std::fmt;
use validator_diff::{validator_changes, ValidatorChange};

/// `<db>.<collection>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Namespace {
    /// Database name.
    pub db: String,
    /// Collection name.
    pub collection: String,
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.db, self.collection)
    }
}

/// One difference between a model and the database, and what fixes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The collection does not exist: create it with the validator (and capped options).
    CreateCollection {
        /// Where.
        ns: Namespace,
        /// The `create` command.
        command: Document,
    },
    /// The live validator, level or action differs from the model's.
    UpdateValidator {
        /// Where.
        ns: Namespace,
        /// The live `validator` (`None`: no validator).
        live: Option<Document>,
        /// The live `validationLevel` / `validationAction` (server defaults when absent).
        live_level: String,
        /// See `live_level`.
        live_action: String,
        /// The `collMod` command that sets the model's validator, level and action.
        command: Document,
    },
    /// A declared index is missing.
    CreateIndex {
        /// Where.
        ns: Namespace,
        /// The index.
        spec: IndexSpec,
    },
    /// A declared index exists with other TTL seconds or hidden flag: changed in place with `collMod`.
    ModifyIndex {
        /// Where.
        ns: Namespace,
        /// The index name.
        name: String,
        /// The change.
        change: InPlaceChange,
    },
    /// An owned index has the declared name but another definition: dropped and rebuilt.
    RebuildIndex {
        /// Where.
        ns: Namespace,
        /// What is live.
        live: IndexSpec,
        /// What the model declares.
        desired: IndexSpec,
    },
    /// A declared index conflicts with an index odm does not own (same name, or same keys under another name);
    /// never touched: a person decides.
    IndexConflict {
        /// Where.
        ns: Namespace,
        /// What is live.
        live: IndexSpec,
        /// What the model declares.
        desired: IndexSpec,
        /// Why it conflicts.
        reason: String,
    },
    /// An index named like odm's (`idx_…`) that odm has no record of creating ([`ownership`]), or that was
    /// recreated with other keys since odm recorded it: not odm's, so never changed nor dropped. Information, not
    /// drift; adopt it ([`AdoptIndexes::OdmNamed`]) when odm created it before it kept records.
    UnownedIndex {
        /// Where.
        ns: Namespace,
        /// The live index.
        live: IndexSpec,
        /// What odm recorded under its name, when the live index is another one (`None`: no record).
        recorded: Option<IndexSpec>,
    },
    /// An index named like odm's that has no (matching) record, adopted as asked ([`AdoptIndexes::OdmNamed`]):
    /// its record is written, and from then on odm owns it.
    AdoptIndex {
        /// Where.
        ns: Namespace,
        /// The live index, recorded as it is.
        live: IndexSpec,
    },
    /// The model's collection name is taken by a namespace of another type (a view, or a time-series collection
    /// for a model that is not one): nothing of it is synced (no validator, no index); a person decides.
    NotACollection {
        /// Where.
        ns: Namespace,
        /// Its type as `listCollections` gives it (`view`, `timeseries`).
        kind: String,
    },
    /// An owned index no model declares any more (only acted on when asked).
    StaleIndex {
        /// Where.
        ns: Namespace,
        /// The live index.
        live: IndexSpec,
        /// What sync will do with it.
        handling: StaleHandling,
    },
    /// A newer version of the application already synced the collection: its validator is of a later version of the
    /// model than this binary's. Nothing about the collection is changed (neither the validator nor any index), so
    /// an older binary never undoes what a newer one installed; it keeps serving.
    CollectionAhead {
        /// Where.
        ns: Namespace,
        /// The version the live validator was generated for.
        live: u32,
        /// This binary's version of the model.
        model: u32,
    },
    /// The model declares a shard key and the cluster has not sharded the collection: `enableSharding` and
    /// `shardCollection` (run against `admin`).
    ShardCollection {
        /// Where.
        ns: Namespace,
        /// The key document (`{ rg: 1, cu: 1 }`, `{ _id: "hashed" }`).
        key: Document,
        /// True when this sync creates the collection (it is empty): then even
        /// [`SyncMode::CreateMissing`](crate::SyncMode::CreateMissing) shards it; an existing collection is sharded in
        /// [`SyncMode::Apply`](crate::SyncMode::Apply) only, since its documents then move between shards.
        new_collection: bool,
    },
    /// The collection is sharded by another key than the model declares; changing it (`reshardCollection`,
    /// `refineCollectionShardKey`) is a person's decision.
    ShardKeyMismatch {
        /// Where.
        ns: Namespace,
        /// The live key.
        live: Document,
        /// The declared key.
        desired: Document,
    },
    /// The model declares a shard key, but the server is not a sharded cluster (`mongos`): nothing to shard here.
    /// Information, with the command a cluster would get.
    NotACluster {
        /// Where.
        ns: Namespace,
        /// The declared key document.
        key: Document,
    },
    /// Documents not at the model's current version that the validator of every version the model reads refuses:
    /// their version key is not an `int` naming a version the model reads (a double such as `1.0`, which typed reads
    /// refuse, a long, a string), or their fields are of no listed shape. While they remain, the validator can never
    /// tighten to the current version: [`Collection::migrate`](crate::Collection::migrate) stores those a typed read
    /// takes at the current version and reports the others, which a person fixes or deletes. Nothing is run.
    UnreadableDocuments {
        /// Where.
        ns: Namespace,
        /// How many there are.
        count: u64,
        /// The `_id`s of the first few.
        sample: Vec<Bson>,
        /// The model's current version.
        version: u32,
        /// The stored key of the version.
        key: String,
    },
    /// Capped settings differ; a collection cannot become (un)capped in place.
    CappedMismatch {
        /// Where.
        ns: Namespace,
        /// Live `(size, max)`, `None` when not capped.
        live: Option<(i64, Option<i64>)>,
        /// Declared `(size, max)`, `None` when not capped.
        desired: Option<(i64, Option<i64>)>,
    },
    /// A time-series setting the server changes in place (`collMod`): a coarser granularity, or the expiry.
    ModifyTimeseries {
        /// Where.
        ns: Namespace,
        /// The `collMod` command.
        command: Document,
    },
    /// Time-series settings differ in a way the server cannot change in place: a plain collection where the model
    /// declares a time series (or the reverse), another time or meta field, a finer granularity. Migrating to a new
    /// collection is a person's decision; nothing is run.
    TimeseriesMismatch {
        /// Where.
        ns: Namespace,
        /// The live `timeseries` options, `None` for a plain collection.
        live: Option<Document>,
        /// The declared ones, `None` when the model declares none.
        desired: Option<Document>,
    },
}

/// Whether a sync adopts the indexes named like odm's (`idx_…`) that it has no record of creating
/// ([`ownership`]): indexes odm created before it kept records, which are otherwise never changed nor dropped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum AdoptIndexes {
    /// Reported as not odm's ([`Action::UnownedIndex`]), left alone (the default).
    #[default]
    Never,
    /// Every index named `idx_…` on the synced models' collections without a record matching it is recorded as
    /// odm's ([`Action::AdoptIndex`]), then treated as odm's: rebuilt when its model changes it, hidden or dropped
    /// when stale and asked to. Review the plan first: a DBA's index named `idx_…` is adopted too.
    OdmNamed,
}

/// What happens to owned indexes no model declares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum StaleHandling {
    /// Reported, left alone (the default).
    #[default]
    Keep,
    /// Hidden from the planner (reversible; drop later once nothing regressed).
    Hide,
    /// Dropped.
    Drop,
}

impl Action {
    /// The namespace the action concerns.
    pub fn namespace(&self) -> &Namespace {
        match self {
            Action::CreateCollection { ns, .. }
            | Action::UpdateValidator { ns, .. }
            | Action::CreateIndex { ns, .. }
            | Action::ModifyIndex { ns, .. }
            | Action::RebuildIndex { ns, .. }
            | Action::IndexConflict { ns, .. }
            | Action::StaleIndex { ns, .. }
            | Action::UnownedIndex { ns, .. }
            | Action::AdoptIndex { ns, .. }
            | Action::NotACollection { ns, .. }
            | Action::CollectionAhead { ns, .. }
            | Action::ShardCollection { ns, .. }
            | Action::ShardKeyMismatch { ns, .. }
            | Action::NotACluster { ns, .. }
            | Action::UnreadableDocuments { ns, .. }
            | Action::CappedMismatch { ns, .. }
            | Action::ModifyTimeseries { ns, .. }
            | Action::TimeseriesMismatch { ns, .. } => ns,
        }
    }

    /// A short machine-readable kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::CreateCollection { .. } => "createCollection",
            Action::UpdateValidator { .. } => "updateValidator",
            Action::CreateIndex { .. } => "createIndex",
            Action::ModifyIndex { .. } => "modifyIndex",
            Action::RebuildIndex { .. } => "rebuildIndex",
            Action::IndexConflict { .. } => "indexConflict",
            Action::StaleIndex { .. } => "staleIndex",
            Action::UnownedIndex { .. } => "unownedIndex",
            Action::AdoptIndex { .. } => "adoptIndex",
            Action::NotACollection { .. } => "notACollection",
            Action::CollectionAhead { .. } => "collectionAhead",
            Action::ShardCollection { .. } => "shardCollection",
            Action::ShardKeyMismatch { .. } => "shardKeyMismatch",
            Action::NotACluster { .. } => "notACluster",
            Action::UnreadableDocuments { .. } => "unreadableDocuments",
            Action::CappedMismatch { .. } => "cappedMismatch",
            Action::ModifyTimeseries { .. } => "modifyTimeseries",
            Action::TimeseriesMismatch { .. } => "timeseriesMismatch",
        }
    }

    /// True when this is drift (something differs), false for information only (a stale index kept as asked, a
    /// collection a newer version of the application owns now).
    pub fn is_drift(&self) -> bool {
        !matches!(
            self,
            Action::StaleIndex { handling: StaleHandling::Keep, .. }
                | Action::UnownedIndex { .. }
                | Action::CollectionAhead { .. }
                | Action::NotACluster { .. }
        )
    }

    /// The database the action's commands run against: `admin` for sharding commands, else the collection's.
    pub fn command_database(&self) -> &str {
        match self {
            Action::ShardCollection { .. } => "admin",
            other => &other.namespace().db,
        }
    }

    /// The commands that carry the action out, in order (empty when a person has to decide).
    pub fn commands(&self) -> Vec<Document> {
        match self {
            Action::CreateCollection { command, .. }
            | Action::UpdateValidator { command, .. }
            | Action::ModifyTimeseries { command, .. } => vec![command.clone()],
            Action::CreateIndex { ns, spec } => vec![create_index(ns, spec), record_command(&ns.collection, spec)],
            Action::ModifyIndex { ns, name, change } => vec![coll_mod_index(ns, name, change)],
            Action::RebuildIndex { ns, live, desired } => vec![
                doc! { "dropIndexes": &ns.collection, "index": &live.name },
                forget_command(&ns.collection, &live.name),
                create_index(ns, desired),
                record_command(&ns.collection, desired),
            ],
            Action::AdoptIndex { ns, live } => {
                vec![record_document_command(&ns.collection, &live.name, live.to_document())]
            }
            Action::StaleIndex { ns, live, handling: StaleHandling::Hide } if !live.hidden => {
                vec![coll_mod_index(ns, &live.name, &InPlaceChange::Hidden { from: false, to: true })]
            }
            Action::StaleIndex { ns, live, handling: StaleHandling::Drop } => vec![
                doc! { "dropIndexes": &ns.collection, "index": &live.name },
                forget_command(&ns.collection, &live.name),
            ],
            Action::ShardCollection { ns, key, .. } => {
                vec![doc! { "enableSharding": &ns.db }, doc! { "shardCollection": ns.to_string(), "key": key.clone() }]
            }
            Action::StaleIndex { .. }
            | Action::UnownedIndex { .. }
            | Action::NotACollection { .. }
            | Action::IndexConflict { .. }
            | Action::CappedMismatch { .. }
            | Action::TimeseriesMismatch { .. }
            | Action::CollectionAhead { .. }
            | Action::ShardKeyMismatch { .. }
            | Action::UnreadableDocuments { .. }
            | Action::NotACluster { .. } => Vec::new(),
        }
    }
}

fn create_index(ns: &Namespace, spec: &IndexSpec) -> Document {
    doc! { "createIndexes": &ns.collection, "indexes": [spec.to_document()] }
}

fn coll_mod_index(ns: &Namespace, name: &str, change: &InPlaceChange) -> Document {
    let index = match change {
        InPlaceChange::ExpireAfterSeconds { to, .. } => doc! { "name": name, "expireAfterSeconds": *to },
        InPlaceChange::Hidden { to, .. } => doc! { "name": name, "hidden": *to },
    };
    doc! { "collMod": &ns.collection, "index": index }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = self.namespace();
        match self {
            Action::CreateCollection { command, .. } => {
                let capped = if command.get_bool("capped").unwrap_or(false) { " (capped)" } else { "" };
                if command.contains_key("timeseries") {
                    return write!(f, "{ns}: create time-series collection");
                }
                write!(f, "{ns}: create collection{capped} with validator")
            }
            Action::UpdateValidator { live, live_level, live_action, command, .. } => {
                let level = command.get_str("validationLevel").unwrap_or("strict");
                let action = command.get_str("validationAction").unwrap_or("error");
                let what = if live.is_none() { "add validator" } else { "replace validator" };
                let validator = command.get_document("validator").ok();
                let versions = match validator.and_then(|v| v.get_document("$jsonSchema").ok()?.get_str("title").ok()) {
                    Some(title) if title.starts_with("version ") => format!(" ({title})"),
                    _ => String::new(),
                };
                write!(f, "{ns}: {what}{versions}; level {live_level} -> {level}, action {live_action} -> {action}")
            }
            Action::CreateIndex { spec, .. } => write!(f, "{ns}: create index {spec}"),
            Action::ModifyIndex { name, change, .. } => match change {
                InPlaceChange::ExpireAfterSeconds { from, to } => {
                    let from = from.map_or_else(|| "none".to_owned(), |s| s.to_string());
                    write!(f, "{ns}: index {name}: expireAfterSeconds {from} -> {to} (collMod)")
                }
                InPlaceChange::Hidden { from, to } => write!(f, "{ns}: index {name}: hidden {from} -> {to} (collMod)"),
            },
            Action::RebuildIndex { live, desired, .. } => {
                write!(f, "{ns}: rebuild index {}: live {live}; declared {desired}", desired.name)
            }
            Action::IndexConflict { live, desired, reason, .. } => {
                write!(f, "{ns}: CONFLICT (left alone): {reason}; live {live}; declared {desired}")
            }
            Action::StaleIndex { live, handling, .. } => {
                let what = match handling {
                    StaleHandling::Keep => "kept (no model declares it; sync with stale indexes hidden or dropped to remove it)",
                    StaleHandling::Hide => "hide (no model declares it)",
                    StaleHandling::Drop => "drop (no model declares it)",
                };
                write!(f, "{ns}: stale owned index {}: {what}", live.name)
            }
            Action::UnownedIndex { live, recorded: None, .. } => write!(
                f,
                "{ns}: index {live} is not odm's (no record of it in {}.{OWNED_INDEXES}): left alone, never changed \
                 nor dropped; if odm created it before it kept records, adopt it (sync adopting odm-named indexes: \
                 `apply --adopt-indexes`)",
                ns.db
            ),
            Action::UnownedIndex { live, recorded: Some(recorded), .. } => write!(
                f,
                "{ns}: index {live} is not odm's: odm recorded {recorded} under that name, so it was recreated \
                 since; left alone, never changed nor dropped (adopt it to make it odm's: `apply --adopt-indexes`)"
            ),
            Action::NotACollection { kind, .. } => write!(
                f,
                "{ns}: a {kind}, not a collection: the model's collection name is taken; nothing of it was synced \
                 (no validator, no index): rename or drop the {kind} to let the model have its collection"
            ),
            Action::AdoptIndex { live, .. } => {
                write!(f, "{ns}: adopt index {live} (record it as odm's in {}.{OWNED_INDEXES})", ns.db)
            }
            Action::CollectionAhead { live, model, .. } => write!(
                f,
                "{ns}: the collection is ahead: a newer version of the application synced it (validator of version \
                 {live}; this binary's model is version {model}); left as it is"
            ),
            Action::ShardCollection { key, .. } => write!(f, "{ns}: shard collection by {key}"),
            Action::ShardKeyMismatch { live, desired, .. } => write!(
                f,
                "{ns}: sharded by {live}, but the model declares {desired}; left alone: changing a shard key \
                 (reshardCollection, refineCollectionShardKey) is a decision for a person"
            ),
            Action::NotACluster { key, .. } => write!(
                f,
                "{ns}: shard key {key} not applied: the server is not a sharded cluster (on one, sync runs \
                 sh.shardCollection(\"{ns}\", {key}))"
            ),
            Action::UnreadableDocuments { count, sample, version, key, .. } => {
                let ids: Vec<String> = sample.iter().map(Bson::to_string).collect();
                write!(
                    f,
                    "{ns}: {count} document(s) not at version {version} fail the validator of every version the \
                     model reads (e.g. _id {}): their `{key}` is not an int naming a version the model reads (a \
                     double such as 1.0, which typed reads refuse, or a long), or their fields are of no version's \
                     shape; while they remain the validator cannot tighten to version {version}. A migration stores \
                     those a typed read takes at version {version} and reports the others: fix those (a version is \
                     stored as an int: NumberInt(1) in mongosh) or delete them",
                    ids.join(", ")
                )
            }
            Action::CappedMismatch { live, desired, .. } => write!(
                f,
                "{ns}: capped settings differ (live {live:?}, declared {desired:?}); a collection cannot change this in \
                 place: migrate to a new collection"
            ),
            Action::ModifyTimeseries { command, .. } => {
                write!(f, "{ns}: change time-series settings in place: {command}")
            }
            Action::TimeseriesMismatch { live, desired, .. } => {
                let show = |d: &Option<Document>| d.as_ref().map_or_else(|| "none".to_owned(), Document::to_string);
                write!(
                    f,
                    "{ns}: time-series settings differ (live {}, declared {}); a collection cannot change this in \
                     place: migrate to a new collection",
                    show(live),
                    show(desired)
                )
            }
        }
    }
}

/// What a plan assumed about a versioned collection, checked by the exported script before each of its steps
/// ([`Plan::to_mongosh`]): the plan was made from what was live then, and a script may run much later. odm's own
/// sync plans such a collection again under its lease instead (see [`crate::sync`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Precondition {
    /// The collection.
    pub ns: Namespace,
    /// The stored key of the model's version.
    pub key: String,
    /// The model's version the plan was made for: a collection whose validator is of a later version is ahead (a
    /// newer release synced it meanwhile), and nothing of it may be changed.
    pub version: u32,
    /// The plan tightens the validator to this version alone (no older document was left when it was made): the
    /// validator step also requires that no document of another version remains, since the tightened validator
    /// would refuse every later write of such a document.
    pub tightens: bool,
}

impl Precondition {
    /// Whether the step(s) of `action` must also find no document of another version (the tightening validator).
    pub fn needs_no_older(&self, action: &Action) -> bool {
        self.tightens && matches!(action, Action::UpdateValidator { .. })
    }

    /// The script's check before the steps of `action` (`description` is the action's text as a JSON string).
    fn script_call(&self, action: &Action, description: &str) -> String {
        let no_older = self.needs_no_older(action);
        check_call(&self.ns.db, &self.ns.collection, description, self.version, &self.key, no_older)
    }

    /// The precondition of `action`'s steps as JSON (for [`Plan::to_json`]).
    fn to_json(&self, action: &Action) -> serde_json::Value {
        serde_json::json!({
            "versionKey": self.key,
            "notAheadOfVersion": self.version,
            "noDocumentOfAnotherVersion": self.needs_no_older(action),
        })
    }
}

/// Everything sync found, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// The actions, grouped by namespace in model order.
    pub actions: Vec<Action>,
    /// What the plan assumed about each versioned collection it changes, checked by the exported script before
    /// each step on it ([`Plan::to_mongosh`]); odm's own sync plans such a collection again under its lease instead.
    pub preconditions: Vec<Precondition>,
}

impl Plan {
    /// True when the database matches the models.
    pub fn is_in_sync(&self) -> bool {
        !self.actions.iter().any(Action::is_drift)
    }

    /// The plan as a mongosh script a DBA can review and run: `mongosh "<connection string>" plan.js`.
    ///
    /// Each command is written in canonical Extended JSON and read back with `EJSON.deserialize(…, { relaxed:
    /// false })`, so every BSON type and every digit reaches the server as odm's own sync sends it (mongosh's
    /// default relaxed mode would turn `long` bounds into `int` and `10.0` into `int`, and round integers beyond
    /// 2^53). Each step prints its outcome; the first failure prints the server's answer and ends the script with
    /// exit code 1. Actions that need a person's decision are printed, not run.
    ///
    /// A step on a versioned collection first checks what the plan assumed ([`Plan::preconditions`]): that no newer
    /// release synced the collection since (its validator names no later version), and, for a validator that
    /// tightens to the current version alone, that no document of another version was written since. When one no
    /// longer holds, the script prints `FAILED: …` with the reason and exits with code 1 before the step runs.
    pub fn to_mongosh(&self) -> String {
        let steps: usize = self.actions.iter().map(|a| a.commands().len()).sum();
        let mut out = format!(
            "// odm sync plan: {} action(s), {steps} command(s).\n\
             // Run with: mongosh \"<connection string>\" <this file>\n\
             // Each step prints its outcome; the first failure stops the script with exit code 1.\n\
             const odmStep = (database, description, command) => {{\n  \
               let reply;\n  \
               try {{\n    \
                 reply = db.getSiblingDB(database).runCommand(EJSON.deserialize(command, {{ relaxed: false }}));\n  \
               }} catch (e) {{\n    \
                 reply = {{ ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName }};\n  \
               }}\n  \
               if (!reply || Number(reply.ok) !== 1 || reply.writeErrors) {{\n    \
                 print(`FAILED: ${{description}}: ${{EJSON.stringify(reply)}}`);\n    \
                 quit(1);\n  \
               }}\n  \
               print(`ok: ${{description}}`);\n\
             }};\n",
            self.actions.len()
        );
        if !self.preconditions.is_empty() {
            out.push_str(CHECK_FUNCTION);
        }
        for action in &self.actions {
            let description = serde_json::Value::String(action.to_string());
            out.push_str(&format!("\n// {action}\n"));
            let commands = action.commands();
            if commands.is_empty() {
                let what = if action.is_drift() { "needs a decision (no command)" } else { "note" };
                out.push_str(&format!("print(`{what}: ${{{description}}}`);\n"));
            }
            let db = serde_json::Value::String(action.command_database().to_owned());
            if let (Some(precondition), false) = (self.precondition(action), commands.is_empty()) {
                out.push_str(&precondition.script_call(action, &description.to_string()));
            }
            for command in commands {
                let json = Bson::Document(command).into_canonical_extjson();
                out.push_str(&format!("odmStep({db}, {description}, {json});\n"));
            }
        }
        out.push_str("\nprint(\"odm sync plan: done\");\n");
        out
    }

    /// What the plan assumed about the collection of `action`, when it is a versioned collection it changes.
    pub fn precondition(&self, action: &Action) -> Option<&Precondition> {
        self.preconditions.iter().find(|p| &p.ns == action.namespace())
    }

    /// The plan as JSON: one object per action with its kind, namespace, description and commands (canonical
    /// Extended JSON).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.actions
                .iter()
                .map(|a| {
                    let ns = a.namespace();
                    serde_json::json!({
                        "kind": a.kind(),
                        "db": ns.db,
                        "commandDb": a.command_database(),
                        "collection": ns.collection,
                        "drift": a.is_drift(),
                        "description": a.to_string(),
                        "commands": a.commands().into_iter().map(|c| Bson::Document(c).into_canonical_extjson()).collect::<Vec<_>>(),
                        "precondition": self.precondition(a).map(|p| p.to_json(a)),
                        "validatorChanges": a.validator_changes_json(),
                    })
                })
                .collect(),
        )
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.actions.is_empty() {
            return writeln!(f, "in sync: nothing to do");
        }
        for action in &self.actions {
            writeln!(f, "- {action}")?;
            validator_diff::write_changes(f, &action.validator_changes())?;
        }
        Ok(())
    }
}

impl Action {
    /// For [`Action::UpdateValidator`] replacing a validator, what differs between the live validator and the
    /// model's, keyword by keyword (see [`validator_diff`]); empty for other actions, for a collection
    /// without a validator (all of it is added), and when only the level or action differs.
    pub fn validator_changes(&self) -> Vec<ValidatorChange> {
        let Action::UpdateValidator { live: Some(live), command, .. } = self else { return Vec::new() };
        let Ok(wanted) = command.get_document("validator") else { return Vec::new() };
        validator_changes(live, wanted)
    }

    /// [`Action::validator_changes`] as a JSON array (for [`crate::sync::plan::Plan::to_json`]), every one.
    pub(crate) fn validator_changes_json(&self) -> serde_json::Value {
        let json = |v: &Option<Bson>| v.clone().map(Bson::into_relaxed_extjson);
        self.validator_changes()
            .iter()
            .map(|c| {
                serde_json::json!({
                    "path": c.path, "field": c.field, "keyword": c.keyword, "change": c.kind.as_str(),
                    "live": json(&c.live), "wanted": json(&c.wanted), "description": c.to_string(),
                })
            })
            .collect()
    }
}
