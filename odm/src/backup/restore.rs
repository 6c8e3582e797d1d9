//! The [`Restore`] builder and its run: finds the collections of a dump directory (odm's or mongodump's, gzip or
//! not), checks every target before changing anything, then recreates each collection with its options, inserts
//! its documents in ordered batches and builds its indexes.

use super::files::Documents;
use super::insert::Inserts;
use super::layout::Metadata;
use super::report::{Callback, CollectionRestore, RestoreReport};
use super::select::Choice;
use super::source::{Source, Wanted};
use crate::error::{BackupError, Result};
use crate::model::Model;
use crate::progress::Progress;
use bson::{doc, Document};
use mongodb::{Client, Database};
use std::path::PathBuf;
use std::time::Instant;

/// A pending restore (see the [module documentation](super)). Nothing happens until it is awaited.
#[must_use = "a `Restore` does nothing until it is awaited"]
pub struct Restore<'c> {
    client: &'c Client,
    dir: PathBuf,
    source_db: Option<String>,
    into_db: Option<String>,
    choices: Vec<Choice>,
    drop_existing: bool,
    bypass_validation: bool,
    batch: usize,
    progress: Callback<'c>,
}

impl<'c> Restore<'c> {
    /// A restore through `client` from the dump directory `dir` (`<dir>/<db>/<collection>.bson`, as
    /// [`Dump`](super::Dump) and mongodump write it): every collection of every database in it, unless narrowed
    /// with [`Restore::database`], [`Restore::model`] or [`Restore::collection`].
    pub fn new(client: &'c Client, dir: impl Into<PathBuf>) -> Self {
        Restore {
            client,
            dir: dir.into(),
            source_db: None,
            into_db: None,
            choices: Vec::new(),
            drop_existing: false,
            bypass_validation: false,
            batch: 1000,
            progress: Callback::none(),
        }
    }

    /// Restores only the dump's database `name` (its directory `<dir>/<name>`); also the database of models that
    /// do not name one.
    pub fn database(mut self, name: impl Into<String>) -> Self {
        self.source_db = Some(name.into());
        self
    }

    /// Restores into the database `name` instead of the one each collection was dumped from. The dump (or the part
    /// of it chosen) must hold one database.
    pub fn into_db(mut self, name: impl Into<String>) -> Self {
        self.into_db = Some(name.into());
        self
    }

    /// Restores model `M`'s collection (every dumped instance of a model named by a template); a document its
    /// validator refuses is then named by `M`'s Rust fields. Once a model or a collection is given, only those are
    /// restored.
    pub fn model<M: Model>(mut self) -> Self {
        self.choices.push(Choice::model::<M>());
        self
    }

    /// Restores the collection `name` dumped from database `db`. Once a model or a collection is given, only those
    /// are restored.
    pub fn collection(mut self, db: impl Into<String>, name: impl Into<String>) -> Self {
        self.choices.push(Choice::named(db, name));
        self
    }

    /// Replaces a target collection that exists: it is dropped and created again from the dump. Without it, a
    /// restore into a collection holding documents is refused before anything is changed.
    pub fn drop_existing(mut self) -> Self {
        self.drop_existing = true;
        self
    }

    /// Inserts the documents with `bypassDocumentValidation`, so the collection's validator does not check them
    /// (as they were stored, even those an older validator let in). Without it, the first document the validator
    /// refuses stops the restore, named by its collection and `_id`.
    pub fn bypass_validation(mut self) -> Self {
        self.bypass_validation = true;
        self
    }

    /// Documents per `insert` command (default 1000, at most 100,000; a command also stays within 16 MiB).
    pub fn batch_size(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// Called after every `insert` command, for a progress bar. A dump does not record its counts, so
    /// [`Progress::total`] is the documents restored so far.
    pub fn on_progress(mut self, f: impl FnMut(&Progress) + Send + 'c) -> Self {
        self.progress = Callback::new(f);
        self
    }

    /// Runs the restore (see [`IntoFuture`](std::future::IntoFuture) for [`Restore`]).
    async fn execute(self) -> Result<RestoreReport> {
        let started = Instant::now();
        let wanted = Wanted {
            dir: &self.dir,
            source_db: self.source_db.as_deref(),
            into_other: self.into_db.is_some(),
            choices: &self.choices,
        };
        let (sources, skipped) = wanted.find()?;
        // Every target is checked before any is changed: a refused restore leaves the database as it was.
        let mut existing = Vec::with_capacity(sources.len());
        for source in &sources {
            existing.push(self.check_target(source).await?);
        }
        let mut report = RestoreReport { collections: Vec::new(), skipped, elapsed: Default::default() };
        let mut done = 0;
        for (source, exists) in sources.iter().zip(existing) {
            let restored = self.restore_one(source, exists, &mut done, started).await?;
            report.collections.push(restored);
        }
        report.elapsed = started.elapsed();
        Ok(report)
    }

    /// The database a collection dumped from `db` is restored into.
    fn target_db(&self, db: &str) -> Database {
        self.client.database(self.into_db.as_deref().unwrap_or(db))
    }

    /// Whether the target collection exists; refuses one that holds documents unless asked to replace it, and a
    /// collection type odm does not restore.
    async fn check_target(&self, source: &Source) -> Result<bool> {
        let db = self.target_db(&source.db);
        let namespace = format!("{}.{}", db.name(), source.collection);
        if let Some(kind) = source.metadata.as_ref().map(|m| m.kind.as_str()).filter(|k| *k != "collection") {
            return Err(BackupError::Unsupported { namespace, kind: kind.to_owned() }.into());
        }
        let names = db.list_collection_names().filter(doc! { "name": &source.collection }).await?;
        if names.is_empty() {
            return Ok(false);
        }
        let coll = db.collection::<Document>(&source.collection);
        let holds_documents = coll.find_one(doc! {}).projection(doc! { "_id": 1 }).await?.is_some();
        if holds_documents && !self.drop_existing {
            return Err(BackupError::NotEmpty { namespace }.into());
        }
        Ok(true)
    }

    /// Creates one collection again (or keeps an empty one that exists), loads its documents and builds its indexes.
    async fn restore_one(
        &self,
        source: &Source,
        exists: bool,
        done: &mut u64,
        started: Instant,
    ) -> Result<CollectionRestore> {
        let began = Instant::now();
        let db = self.target_db(&source.db);
        let name = &source.collection;
        let replaced = exists && self.drop_existing;
        if replaced {
            db.collection::<Document>(name).drop().await?;
        }
        if !exists || replaced {
            let create = match &source.metadata {
                Some(metadata) => metadata.create_command(name),
                None => doc! { "create": name },
            };
            db.run_command(create).await?;
        }
        let mut inserts = Inserts::new(&db, name, source.model, self.bypass_validation, self.batch);
        let mut documents = source.bson.as_deref().map(Documents::open).transpose()?;
        let mut bytes = 0u64;
        while let Some(doc) = documents.as_mut().map(Documents::next_document).transpose()?.flatten() {
            if inserts.is_full_for(&doc) {
                *done += inserts.send().await?;
                self.progress.report(*done, *done, started);
            }
            bytes += doc.as_bytes().len() as u64;
            inserts.push(doc);
        }
        *done += inserts.send().await?;
        self.progress.report(*done, *done, started);
        let indexes = source.metadata.as_ref().map(Metadata::secondary_indexes).unwrap_or_default();
        if !indexes.is_empty() {
            db.run_command(doc! { "createIndexes": name, "indexes": &indexes }).await?;
        }
        if let Some(metadata) = &source.metadata {
            super::owned::restore(&db, name, &metadata.odm_indexes, &indexes).await?;
        }
        tracing::info!(target: "odm::backup", ns = %format!("{}.{name}", db.name()), documents = inserts.inserted, indexes = indexes.len(), replaced, "restored");
        if source.metadata.is_none() {
            tracing::warn!(target: "odm::backup", ns = %format!("{}.{name}", db.name()), "restored without a metadata file: no options, validator or indexes");
        }
        Ok(CollectionRestore {
            file: source.file.clone(),
            db: db.name().to_owned(),
            collection: name.clone(),
            documents: inserts.inserted,
            bytes,
            indexes: indexes.len(),
            replaced,
            metadata: source.metadata.is_some(),
            elapsed: began.elapsed(),
        })
    }
}

/// Runs the restore: finds the dump's collections, checks every target (refusing one that holds documents unless
/// [`Restore::drop_existing`]) before changing anything, then for each collection creates it with the dumped
/// options, inserts its documents in file order in ordered batches, and builds its indexes.
impl<'c> std::future::IntoFuture for Restore<'c> {
    type Output = Result<RestoreReport>;
    type IntoFuture = futures_util::future::BoxFuture<'c, Result<RestoreReport>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.execute())
    }
}
