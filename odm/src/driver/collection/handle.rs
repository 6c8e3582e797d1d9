//! The `Collection` handle: construction, session binding, the driver collection and driver-error mapping.

use crate::base::error::Error;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::driver::session::Session;
use bson::RawDocumentBuf;
use mongodb::Database;
use std::marker::PhantomData;

/// A collection of `M` documents; bound to a [`Session`] with [`Collection::with_session`], every operation runs in
/// it.
pub struct Collection<M: Model> {
    pub(super) raw: mongodb::Collection<RawDocumentBuf>,
    pub(super) session: Option<Session>,
    pub(super) _model: PhantomData<fn() -> M>,
}

impl<M: Model> Clone for Collection<M> {
    fn clone(&self) -> Self {
        Collection { raw: self.raw.clone(), session: self.session.clone(), _model: PhantomData }
    }
}

impl<M: Model> Collection<M> {
    /// `M`'s collection in `db` (no I/O).
    ///
    /// Reads and writes use the model's read concern, read preference and write concern, when it declares them.
    ///
    /// A model whose collection is named at run time (`{yyyymm}`, `{name}` in its name: see [`crate::template`])
    /// has no one collection: the build fails here (when the code is built, not by `cargo check`), and
    /// [`Collection::instance`] opens one of its instances (rule [`name-template`](crate::rules#name-template)).
    ///
    /// ```compile_fail
    /// # #[derive(serde::Serialize, serde::Deserialize, odm::Model)]
    /// # #[odm(collection = "log_app_event_{yyyymm}", keep_periods = 12)]
    /// # struct Event { #[serde(rename = "k")] kind: String }
    /// use odm::{mongodb::Database, Collection};
    /// fn open(db: &Database) -> Collection<Event> {
    ///     Collection::new(db) // this model's collection is named at run time: open one instance …
    /// }
    /// let built: fn(&Database) -> Collection<Event> = open;
    /// ```
    pub fn new(db: &Database) -> Self {
        const {
            assert!(
                M::TEMPLATE.is_none(),
                "this model's collection is named at run time: open one instance with `Collection::instance(&db, key)` \
                 (rule `name-template`)"
            )
        };
        Self::named(db, M::COLLECTION)
    }

    /// The instance of `M` that `key` names, for a model whose collection is named at run time
    /// (`#[odm(collection = "log_app_event_{yyyymm}")]`): a moment opens the collection of its period
    /// (`log_app_event_202612`), a name the collection of that name for a `{name}` template. No I/O: a missing
    /// instance is created by the first write without a validator, so sync it first
    /// ([`crate::sync::SchemaSync::instance`]).
    ///
    /// ```no_run
    /// # #[derive(serde::Serialize, serde::Deserialize, odm::Model)]
    /// # #[odm(collection = "log_app_event_{yyyymm}", keep_periods = 12)]
    /// # struct Event { #[serde(rename = "_id")] id: odm::bson::oid::ObjectId }
    /// # async fn run(db: odm::mongodb::Database) -> odm::error::Result<()> {
    /// use odm::{bson::DateTime, Collection};
    /// let this_month = Collection::<Event>::instance(&db, DateTime::now())?;
    /// assert!(this_month.name().starts_with("log_app_event_"));
    /// # Ok(()) }
    /// ```
    ///
    /// Fails before anything is sent when `M` is not named by a template or `key` names no instance of it
    /// ([`crate::error::Invalid::Instance`]).
    pub fn instance(
        db: &Database,
        key: impl Into<crate::base::template::InstanceKey>,
    ) -> crate::base::error::Result<Self> {
        Ok(Self::named(db, &crate::driver::collection::instance_name::<M>(&key.into())?))
    }

    /// The collection's name (for a model named at run time, the instance's).
    pub fn name(&self) -> &str {
        self.raw.name()
    }

    /// `M`'s collection named `name` in `db`, with the model's concerns: the one place a collection is opened, which
    /// the admin command line also uses to open each live instance of a model named at run time by its name.
    pub(crate) fn named(db: &Database, name: &str) -> Self {
        let mut options = mongodb::options::CollectionOptions::default();
        options.read_concern = M::READ_CONCERN.map(crate::base::model::ReadConcernLevel::to_driver);
        options.selection_criteria = M::READ_PREFERENCE.map(crate::base::model::ReadPreferenceMode::to_driver);
        options.write_concern = M::WRITE_CONCERN.map(crate::base::model::WriteConcernSpec::to_driver);
        Collection { raw: db.collection_with_options(name, options), session: None, _model: PhantomData }
    }

    /// This collection with every operation run in `session` (one at a time): causally consistent reads, and the
    /// operations of a transaction (see [`crate::session`] and [`crate::Transaction`]). Inside a transaction the
    /// transaction's concerns apply, not the model's per-operation ones.
    ///
    /// Every operation means every one: reads and writes, [`Find`](crate::collection::Find) streams (each batch read through the
    /// session), bulk writes, pipelines, `explain`, the schema checker, migrations and change streams. A cursor locks
    /// the session for each batch it reads, so other operations of the session run between two batches; a change
    /// stream holds it while it waits for the next event, so give a long-lived one its own session.
    ///
    /// One operation can also run in a session of its own, through its builder's `.session(…)` (for example
    /// [`UpdateOne::session`](crate::collection::UpdateOne::session)): that session wins over this one.
    pub fn with_session(&self, session: &Session) -> Self {
        Collection { raw: self.raw.clone(), session: Some(session.clone()), _model: PhantomData }
    }

    /// The session this collection runs in, if any.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The span of one operation `command` on this collection, with the settings it is sent with (none of its own
    /// inside a transaction).
    pub(crate) fn op(&self, command: &'static str) -> crate::driver::observe::Op {
        crate::driver::observe::Op::on(&self.raw, command).in_session(self.session.as_ref())
    }

    /// The bound session, locked for one operation (`None` without one).
    pub(crate) async fn lock(&self) -> Option<tokio::sync::OwnedMutexGuard<mongodb::ClientSession>> {
        match &self.session {
            Some(s) => Some(s.lock().await),
            None => None,
        }
    }

    /// The underlying driver collection, for operations odm does not type yet.
    pub fn raw(&self) -> &mongodb::Collection<RawDocumentBuf> {
        &self.raw
    }

    pub(crate) fn map_err(e: mongodb::error::Error) -> Error {
        Error::from_driver(e, model_name::<M>(), M::type_meta())
    }
}
