//! [`SchemaSync`]: plans a sync of several models against the database and executes it.

use super::diff::{diff_collection, diff_indexes, diff_sharding, ownership_questions, Owners, Sharding};
use super::read::{list_collections, list_indexes_of};
use super::{execute, lock, read};
use crate::base::error::{Error, Result, Waited};
use crate::base::index::IndexSpec;
use crate::base::model::Model;
use crate::base::plan;
use crate::base::plan::{Action, AdoptIndexes, Namespace, Plan, StaleHandling};
use crate::base::sync::{ModelSpec, Outcome, SyncMode, SyncReport, Topology, ValidatorRollout};
use crate::driver::collection::instances_listed as listed;
use bson::{Bson, Document};
use mongodb::Client;
use std::time::Duration;

/// A sync of several models (see the [module docs](crate::sync)).
#[must_use = "a sync does nothing until it is awaited"]
pub struct SchemaSync<'c> {
    client: &'c Client,
    default_db: Option<String>,
    models: Vec<ModelSpec>,
    mode: SyncMode,
    indexes: IndexPolicy,
    rollout: ValidatorRollout,
    topology: Topology,
    timeout: Duration,
    /// `maxPoolSize` and `retryWrites` of the client's options, for the connection checklist, when given.
    client_options: Option<(Option<u32>, Option<bool>)>,
}

impl<'c> SchemaSync<'c> {
    /// A sync through `client`, in [`SyncMode::CreateMissing`], keeping stale indexes, staged validator rollout.
    pub fn new(client: &'c Client) -> Self {
        SchemaSync {
            client,
            default_db: None,
            models: Vec::new(),
            mode: SyncMode::default(),
            indexes: IndexPolicy::default(),
            rollout: ValidatorRollout::default(),
            topology: Topology::default(),
            timeout: Duration::from_secs(60),
            client_options: None,
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

    /// Adds the instance `key` names of model `M`, whose collection is named at run time
    /// (`#[odm(collection = "log_app_event_{yyyymm}")]`; see [`crate::template`]): the sync creates it when missing,
    /// with its validator and indexes, so a program can create the next period's collection before it is needed:
    ///
    /// ```no_run
    /// # #[derive(serde::Serialize, serde::Deserialize, odm::Model)]
    /// # #[odm(collection = "log_app_event_{yyyymm}", keep_periods = 12)]
    /// # struct Event { #[serde(rename = "_id")] id: odm::bson::oid::ObjectId }
    /// # async fn run(client: odm::mongodb::Client) -> odm::error::Result<()> {
    /// use odm::{bson::DateTime, sync::SchemaSync, Model};
    /// let template = Event::TEMPLATE.expect("named by a template");
    /// let next_month = template.period_start(DateTime::now(), 1).expect("a period");
    /// SchemaSync::new(&client).database("app").instance::<Event>(next_month)?.await?;
    /// # Ok(()) }
    /// ```
    ///
    /// [`SchemaSync::model`] of such a model brings every live instance in line instead (and creates none). Fails
    /// before anything is sent when `M` has no template or `key` names no instance of it
    /// ([`crate::error::Invalid::Instance`]).
    pub fn instance<M: Model>(self, key: impl Into<crate::base::template::InstanceKey>) -> Result<Self> {
        let name = crate::driver::collection::instance_name::<M>(&key.into())?;
        Ok(self.spec(ModelSpec::of::<M>().instance(name)))
    }

    /// Adds `count` consecutive periods of model `M`, whose collection is one per period, starting with the one
    /// containing `from`: `periods::<Event>(DateTime::now(), 2)` is this month and the next, which a job run before
    /// each month turns creates ahead of the first write (see [`SchemaSync::instance`]).
    pub fn periods<M: Model>(mut self, from: bson::DateTime, count: u32) -> Result<Self> {
        let template = M::TEMPLATE.filter(|t| t.placeholder.is_period());
        for offset in 0..i64::from(count) {
            let start = template.and_then(|t| t.period_start(from, offset)).unwrap_or(from);
            self = self.instance::<M>(start)?;
        }
        Ok(self)
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

    /// What to do with owned indexes no model declares (acted on in [`SyncMode::Apply`] only). Only indexes odm
    /// recorded creating are odm's ([`ownership`](crate::sync::plan::ownership)): any other index stays, whatever
    /// its name.
    pub fn stale_indexes(mut self, handling: StaleHandling) -> Self {
        self.indexes.stale = handling;
        self
    }

    /// Whether to adopt the indexes named like odm's (`idx_…`) that odm has no record of creating, such as those
    /// an odm release created before it kept records (default [`AdoptIndexes::Never`]: they are reported as not
    /// odm's and left alone). Adopting writes their records ([`Action::AdoptIndex`]), in
    /// [`SyncMode::CreateMissing`] and [`SyncMode::Apply`]; review the plan first, since a DBA's index named
    /// `idx_…` is adopted too.
    pub fn adopt_indexes(mut self, adopt: AdoptIndexes) -> Self {
        self.indexes.adopt = adopt;
        self
    }

    /// How changed validators reach non-empty collections.
    pub fn validator_rollout(mut self, rollout: ValidatorRollout) -> Self {
        self.rollout = rollout;
        self
    }

    /// Whether to plan as for a sharded cluster (default: ask the server, when a model declares a shard key).
    pub fn topology(mut self, topology: Topology) -> Self {
        self.topology = topology;
        self
    }

    /// The longest a sync may take before it fails (default 60 s); it never hangs on a dead server.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The options the client was built from, so the connection checklist in the report also checks the pool size
    /// and `retryWrites` (the driver does not show them on a built client; see [`crate::connection`]).
    pub fn client_options(mut self, options: &mongodb::options::ClientOptions) -> Self {
        self.client_options = Some(crate::driver::connection::check::pool_and_retry(options));
        self
    }

    fn db_name<'a>(&'a self, m: &'a ModelSpec) -> Result<&'a str> {
        m.db.or(self.default_db.as_deref()).ok_or_else(|| Error::NoDatabase { model: m.type_name })
    }

    /// Reads the database and returns the plan, changing nothing.
    pub async fn plan(&self) -> Result<Plan> {
        let plan = async { self.plan_inner(&self.expanded().await?).await };
        tokio::time::timeout(self.timeout, plan).await.map_err(|_| self.timed_out(Waited::Plan))?
    }

    async fn apply(&self) -> Result<SyncReport> {
        tokio::time::timeout(self.timeout, async {
            let models = self.expanded().await?;
            let plan = self.plan_inner(&models).await?;
            let budgets = self.budgets(&models)?;
            // After planning, so a sync refused before anything is sent (two models on one collection) sends nothing;
            // before the mode's outcome, so a `Verify` that finds drift has logged them too.
            let connection = self.connection().await?;
            if self.mode == SyncMode::Verify {
                if plan.is_in_sync() {
                    let outcomes = vec![Outcome::Pending; plan.actions.len()];
                    return Ok(SyncReport { plan, outcomes, budgets, connection });
                }
                return Err(Error::Drift(Box::new(plan)));
            }
            let mut report = self.execute(plan, &models).await?;
            report.budgets = budgets;
            report.connection = connection;
            for (action, outcome) in report.remaining() {
                let ns = action.namespace();
                tracing::warn!(target: "odm::sync", ns = %ns, kind = action.kind(), outcome = ?outcome, "still differs: {action}");
            }
            Ok(report)
        })
        .await
        .map_err(|_| self.timed_out(Waited::Sync))?
    }

    /// The connection checklist for the synced models, each warning logged (target `odm::connection`): at `WARN`,
    /// except that the options were not given (`INFO`: it is about the check, not the connection).
    async fn connection(&self) -> Result<Vec<crate::base::connection::ConnectionWarning>> {
        use crate::base::connection::ConnectionWarning;
        let warnings =
            crate::driver::connection::check::warnings(self.client, self.client_options, &self.models).await?;
        for warning in &warnings {
            match warning {
                ConnectionWarning::OptionsNotGiven => tracing::info!(target: "odm::connection", "{warning}"),
                _ => tracing::warn!(target: "odm::connection", "{warning}"),
            }
        }
        Ok(warnings)
    }

    /// Carries out `plan`, collection by collection. A versioned collection with something to change is synced
    /// under its lease and planned again once the lease is held, so a sync acts on what is live then: a newer
    /// binary that synced meanwhile makes the collection ahead, and nothing of it is changed.
    async fn execute(&self, plan: Plan, models: &[ModelSpec]) -> Result<SyncReport> {
        let mut actions = Vec::with_capacity(plan.actions.len());
        let mut outcomes = Vec::with_capacity(plan.actions.len());
        let mut preconditions = plan.preconditions;
        let mut planned = plan.actions.into_iter().peekable();
        for (db_name, models) in self.by_database(models)? {
            let db = self.client.database(db_name);
            for m in models {
                let mut these = Vec::new();
                while let Some(a) =
                    planned.next_if(|a| a.namespace().db == db_name && a.namespace().collection == m.collection)
                {
                    these.push(a);
                }
                if m.version.is_some() && these.iter().any(Action::is_drift) {
                    let lease = lock::acquire(&db, &m.collection).await?;
                    let synced = self.sync_collection(&db, db_name, m).await;
                    lease.release().await;
                    let (planned, o) = synced?;
                    // What this collection's plan assumed is now what its second plan, made under the lease, did.
                    preconditions.retain(|p| p.ns.db != db_name || p.ns.collection != m.collection);
                    preconditions.extend(planned.precondition);
                    actions.extend(planned.actions);
                    outcomes.extend(o);
                } else {
                    for action in these {
                        outcomes.push(execute::execute(self.client, self.mode, self.rollout, &action).await?);
                        actions.push(action);
                    }
                }
            }
        }
        Ok(SyncReport { plan: Plan { actions, preconditions }, outcomes, budgets: Vec::new(), connection: Vec::new() })
    }

    /// Each model's collection with its document-size budget, in model order (a newer version standing for an older
    /// one); one over 16 MiB, which its model let compile with `size_budget = "warn"`, is logged as a warning too.
    fn budgets(&self, models: &[ModelSpec]) -> Result<Vec<(Namespace, crate::base::size::Budget)>> {
        let mut budgets = Vec::new();
        for (db, models) in self.by_database(models)? {
            for m in models {
                let ns = Namespace { db: db.to_owned(), collection: m.collection.clone() };
                if m.size.exceeds_document_limit() {
                    tracing::warn!(target: "odm::sync", ns = %ns, "{}", crate::base::sync::report::budget_line(&ns, &m.size));
                }
                budgets.push((ns, m.size));
            }
        }
        Ok(budgets)
    }

    /// Plans one collection from what is live now, and carries the plan out.
    async fn sync_collection(
        &self,
        db: &mongodb::Database,
        db_name: &str,
        m: &ModelSpec,
    ) -> Result<(Planned, Vec<Outcome>)> {
        let live = list_collections(db, &[m.collection.as_str()]).await?.remove(&m.collection);
        let indexes = match live {
            Some(_) => read::list_indexes(db, &m.collection).await?,
            None => Vec::new(),
        };
        let sharding = self.sharding(&[m]).await?;
        let planned = plan_collection(db, db_name, m, live, indexes, self.indexes, &sharding).await?;
        let mut outcomes = Vec::with_capacity(planned.actions.len());
        for action in &planned.actions {
            outcomes.push(execute::execute(self.client, self.mode, self.rollout, action).await?);
        }
        Ok((planned, outcomes))
    }

    fn timed_out(&self, waited: Waited) -> Error {
        Error::Timeout { waited, limit: self.timeout }
    }

    /// The models grouped by database, in model order; refuses two models on one collection before anything
    /// is sent, unless one is an earlier version of the other (listed in its `older(…)`): then the newer one
    /// stands for both.
    fn by_database<'m>(&'m self, models: &'m [ModelSpec]) -> Result<Vec<(&'m str, Vec<&'m ModelSpec>)>> {
        let mut by_db: Vec<(&str, Vec<&ModelSpec>)> = Vec::new();
        for m in models {
            let db = self.db_name(m)?;
            match by_db.iter_mut().find(|(d, _)| *d == db) {
                Some((_, ms)) => match ms.iter_mut().find(|o| o.collection == m.collection) {
                    Some(first) if first.supersedes(m) => {}
                    Some(first) if m.supersedes(first) => *first = m,
                    Some(first) => {
                        return Err(Error::SharedCollection {
                            namespace: format!("{db}.{}", m.collection),
                            first: first.type_name,
                            second: m.type_name,
                        })
                    }
                    None => ms.push(m),
                },
                None => by_db.push((db, vec![m])),
            }
        }
        Ok(by_db)
    }

    /// Whether the server is a cluster and, if so, how the models' collections are sharded: read only when a model
    /// declares a shard key (one `hello` and one `config.collections` query).
    async fn sharding(&self, models: &[&ModelSpec]) -> Result<Sharding> {
        let sharded: Vec<String> = models
            .iter()
            .filter(|m| m.shard_key.is_some())
            .map(|m| Ok(format!("{}.{}", self.db_name(m)?, m.collection)))
            .collect::<Result<_>>()?;
        if sharded.is_empty() {
            return Ok(Sharding::default());
        }
        let cluster = match self.topology {
            Topology::Detect => read::is_cluster(self.client).await?,
            Topology::Sharded => true,
            Topology::NotSharded => false,
        };
        let live = match self.topology {
            Topology::Detect if cluster => read::shard_keys(self.client, sharded).await?,
            // Planning for a cluster on a server that may not be one: its sharding catalog, if it has one.
            Topology::Sharded => read::shard_keys(self.client, sharded).await.unwrap_or_default(),
            _ => Default::default(),
        };
        Ok(Sharding { cluster, live })
    }

    /// The models to sync, a model named by a template standing for each of its live instances (found by one
    /// `listCollections` of names per such model), in name order; an instance named twice is synced once.
    async fn expanded(&self) -> Result<Vec<ModelSpec>> {
        let mut out: Vec<ModelSpec> = Vec::with_capacity(self.models.len());
        for m in &self.models {
            let instances = match m.template {
                Some(template) if m.collection == template.to_string() => {
                    let db = self.client.database(self.db_name(m)?);
                    // Collections only: a view or other namespace of an instance's name is never synced.
                    let (names, skipped) = listed(&db, template, m.timeseries.is_some()).await?;
                    for s in &skipped {
                        tracing::warn!(target: "odm::sync", ns = %format!("{}.{}", db.name(), s.name), kind = %s.kind, "named like an instance of {template} but not a collection: not synced");
                    }
                    let mut live: Vec<_> = names.iter().filter_map(|n| template.parse(n)).collect();
                    live.sort();
                    live.into_iter().map(|i| m.instance(i.name)).collect()
                }
                _ => vec![m.clone()],
            };
            for i in instances {
                // An instance both named and live is synced once; a model given twice is still refused.
                let same = |o: &ModelSpec| (o.type_name, &o.collection, o.db) == (i.type_name, &i.collection, i.db);
                if i.template.is_none() || !out.iter().any(same) {
                    out.push(i);
                }
            }
        }
        Ok(out)
    }

    async fn plan_inner(&self, models: &[ModelSpec]) -> Result<Plan> {
        let by_db = self.by_database(models)?;
        let all: Vec<&ModelSpec> = by_db.iter().flat_map(|(_, ms)| ms.iter().copied()).collect();
        let sharding = self.sharding(&all).await?;
        let mut actions = Vec::new();
        let mut preconditions = Vec::new();
        for (db_name, models) in by_db {
            let db = self.client.database(db_name);
            // One listCollections per database, for the models' collections only.
            let names: Vec<&str> = models.iter().map(|m| m.collection.as_str()).collect();
            let mut live = list_collections(&db, &names).await?;
            // One listIndexes per existing collection, sent concurrently; the plan still follows model order.
            let existing: Vec<&str> = names.into_iter().filter(|c| live.contains_key(*c)).collect();
            let mut live_indexes = list_indexes_of(&db, existing).await?;
            for m in models {
                let listed = live_indexes.remove(m.collection.as_str()).unwrap_or_default();
                let live = live.remove(&m.collection);
                let planned = plan_collection(&db, db_name, m, live, listed, self.indexes, &sharding).await?;
                actions.extend(planned.actions);
                preconditions.extend(planned.precondition);
            }
        }
        Ok(Plan { actions, preconditions })
    }
}

/// What a sync does with indexes no model declares, and with those odm has no record of creating.
#[derive(Copy, Clone, Default)]
struct IndexPolicy {
    stale: StaleHandling,
    adopt: AdoptIndexes,
}

/// The plan of one collection: its actions, and what they assume of a versioned collection.
struct Planned {
    actions: Vec<Action>,
    precondition: Option<plan::Precondition>,
}

/// The actions for one model's collection, from its `listCollections` entry (`None`: it does not exist) and its
/// indexes. A versioned model that reads older versions asks whether any such document remains (one indexed
/// `find_one`), which decides the validator it wants; when some remain, it also looks for those the model cannot
/// read (they would keep the validator from ever tightening: [`Action::UnreadableDocuments`]).
async fn plan_collection(
    db: &mongodb::Database,
    db_name: &str,
    m: &ModelSpec,
    live: Option<Document>,
    indexes: Vec<IndexSpec>,
    policy: IndexPolicy,
    sharding: &Sharding,
) -> Result<Planned> {
    let ns = Namespace { db: db_name.to_owned(), collection: m.collection.clone() };
    let (actions, older_remain) = plan_actions(db, &ns, m, live, indexes, policy, sharding).await?;
    // A script carrying these actions out later checks what they assume: that no newer release synced the
    // collection, and, when the validator tightens, that no older document was written since.
    let precondition = match m.version {
        Some(spec) if actions.iter().any(|a| a.is_drift() && !a.commands().is_empty()) => Some(plan::Precondition {
            ns,
            key: spec.key.to_owned(),
            version: spec.current,
            tightens: m.rollout_validator.is_some() && !older_remain,
        }),
        _ => None,
    };
    Ok(Planned { actions, precondition })
}

/// [`plan_collection`]'s actions, and whether documents of older versions remain.
async fn plan_actions(
    db: &mongodb::Database,
    ns: &Namespace,
    m: &ModelSpec,
    live: Option<Document>,
    indexes: Vec<IndexSpec>,
    policy: IndexPolicy,
    sharding: &Sharding,
) -> Result<(Vec<Action>, bool)> {
    let ns = ns.clone();
    let mut actions = Vec::new();
    let Some(mut info) = live else {
        actions.push(Action::CreateCollection { ns: ns.clone(), command: m.create_command() });
        for spec in &m.indexes {
            actions.push(Action::CreateIndex { ns: ns.clone(), spec: spec.clone() });
        }
        actions.extend(diff_sharding(m, &ns, sharding, true));
        return Ok((actions, false));
    };
    // A view, or a time-series collection for a model that is not one, is no collection of the model's.
    let kind = info.get_str("type").unwrap_or("collection");
    if kind != "collection" && !(kind == "timeseries" && m.timeseries.is_some()) {
        actions.push(Action::NotACollection { ns, kind: kind.to_owned() });
        return Ok((actions, false));
    }
    let options = match info.remove("options") {
        Some(Bson::Document(options)) => options,
        _ => Document::new(),
    };
    let older_remain = match (m.version, &m.rollout_validator) {
        (Some(spec), Some(_)) => read::has_older_documents(db, &m.collection, spec).await?,
        _ => false,
    };
    if diff_collection(m, &ns, &options, older_remain, &mut actions) {
        if let (true, Some(spec), Some(rollout)) = (older_remain, m.version, &m.rollout_validator) {
            let (count, sample) = read::unreadable_older_documents(db, &m.collection, spec, rollout).await?;
            if count > 0 {
                let key = spec.key.to_owned();
                actions.push(Action::UnreadableDocuments { ns: ns.clone(), count, sample, version: spec.current, key });
            }
        }
        // Whose indexes these are is read only when it decides something (see `ownership_questions`).
        let questions = ownership_questions(&m.indexes, &indexes, policy.adopt);
        let records = read::index_records(db, &m.collection, &questions).await?;
        let owners = Owners { records, adopt: policy.adopt };
        diff_indexes(&ns, &m.indexes, &indexes, &owners, policy.stale, &mut actions);
        actions.extend(diff_sharding(m, &ns, sharding, false));
    }
    Ok((actions, older_remain))
}

/// Plans, then carries out what the mode allows. In [`SyncMode::Verify`], fails with [`Error::Drift`] when the plan
/// is not empty. In the other modes, what still differs afterwards is logged as a warning and listed by
/// [`SyncReport::remaining`]; [`SyncReport::require_in_sync`] turns it into an error.
impl<'c> std::future::IntoFuture for SchemaSync<'c> {
    type Output = Result<SyncReport>;
    type IntoFuture = futures_util::future::BoxFuture<'c, Result<SyncReport>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move { self.apply().await })
    }
}
