//! The [`Restore`] builder and its run: finds the collections of a dump directory (odm's or mongodump's, gzip or
//! not), checks every target before changing anything, then recreates each collection with its options, inserts
//! its documents in ordered batches and builds its indexes.

use super::files::Documents;
use super::insert::Inserts;
use super::layout::Metadata;
use super::report::{Callback, CollectionRestore, RestoreReport};
use super::select::Choice;
use super::source::{Source, Wanted};
use super::staging::{self, Placement};
use crate::base::error::{BackupError, Result};
use crate::base::model::Model;
use crate::base::progress::Progress;
use crate::driver::observe::Op;
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

    /// Restores model `M`'s collection (every dumped instance of a model named by a template) as dumped from
    /// database `db` instead of the database `M` names.
    pub fn model_in<M: Model>(mut self, db: impl Into<String>) -> Self {
        self.choices.push(Choice::model_in::<M>(db));
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

    /// Called once before the first write and after every `insert` command, for a progress bar.
    /// [`Progress::total`] is the documents of every file to restore, counted before anything is written (each file
    /// is read whole first); [`Progress::done`] the documents inserted so far.
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
        // Every documents file is read whole, by its documents' lengths, before anything is written: one cut short
        // fails the restore here with nothing changed, and the count of documents is the progress's total.
        let mut total = 0;
        for source in &sources {
            total += source.bson.as_deref().map(Documents::scan).transpose()?.unwrap_or_default().documents;
        }
        // Every target is checked before any is changed: a refused restore leaves the database as it was.
        let mut existing = Vec::with_capacity(sources.len());
        for source in &sources {
            existing.push(self.check_target(source).await?);
        }
        let prepared = self.prepare(&sources).await?;
        let mut report = RestoreReport {
            collections: Vec::new(),
            skipped,
            removed: prepared.removed,
            leftovers: prepared.left,
            elapsed: Default::default(),
        };
        let mut progress = Done { done: 0, total, started };
        self.progress.report(0, total, started);
        for (i, (source, exists)) in sources.iter().zip(existing).enumerate() {
            let db = self.target_db(&source.db);
            let keeps = prepared.keeps.iter().any(|(name, keeps)| name == db.name() && *keeps);
            match self.restore_one(source, exists, keeps, &mut progress).await {
                Ok(restored) => report.collections.push(restored),
                Err(cause) => {
                    let namespace = |s: &Source| format!("{}.{}", self.target_db(&s.db).name(), s.collection);
                    return Err(BackupError::Stopped {
                        namespace: namespace(source),
                        file: source.file.clone(),
                        restored: report.collections.iter().map(|c| format!("{}.{}", c.db, c.collection)).collect(),
                        not_restored: sources[i..].iter().map(namespace).collect(),
                        cause: Box::new(cause),
                    }
                    .into());
                }
            }
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
        let list = db.list_collection_names().filter(doc! { "name": &source.collection });
        let names = Op::on_db(&db, &source.collection, "listCollections").run(list).await?;
        if names.is_empty() {
            return Ok(false);
        }
        if holds_documents(&db, &source.collection).await? && !self.drop_existing {
            return Err(BackupError::NotEmpty { namespace }.into());
        }
        Ok(true)
    }

    /// Finds the temporary collections an interrupted restore left in the target databases: those of collections
    /// this restore loads are dropped (it loads them again), and so are a probe's; the others are named, untouched
    /// (another restore may be loading them). Then asks each target database whether its rename keeps options.
    async fn prepare(&self, sources: &[Source]) -> Result<Prepared> {
        let mut prepared = Prepared::default();
        for source in sources {
            let db = self.target_db(&source.db);
            if prepared.keeps.iter().any(|(name, _)| name == db.name()) {
                continue;
            }
            for name in staging::leftovers(&db).await? {
                let namespace = format!("{}.{name}", db.name());
                let ours = sources
                    .iter()
                    .any(|s| self.target_db(&s.db).name() == db.name() && staging::name(&s.collection) == name);
                if ours || staging::is_probe(&name) {
                    staging::drop(&db, &name).await?;
                    tracing::warn!(target: "odm::backup", ns = %namespace, "removed the temporary collection of an interrupted restore");
                    prepared.removed.push(namespace);
                } else {
                    tracing::warn!(target: "odm::backup", ns = %namespace, "the temporary collection of an interrupted restore is left: drop it once no restore runs");
                    prepared.left.push(namespace);
                }
            }
            let keeps = staging::rename_keeps_options(self.client, &db).await?;
            prepared.keeps.push((db.name().to_owned(), keeps));
        }
        Ok(prepared)
    }

    /// Restores one collection: loads it into its temporary collection, then renames that into place (or, where
    /// the server's rename would lose options it cannot set again, loads it in place). On any failure what the
    /// restore created is dropped and the target is as it was.
    async fn restore_one(
        &self,
        source: &Source,
        exists: bool,
        keeps: bool,
        progress: &mut Done,
    ) -> Result<CollectionRestore> {
        let began = Instant::now();
        let db = self.target_db(&source.db);
        let name = &source.collection;
        let replaced = exists && self.drop_existing;
        // An empty collection that exists, not to be replaced, keeps its own options and indexes; the dumped indexes
        // are built beside them.
        let (options, own_indexes) = if exists && !replaced {
            staging::live(&db, name).await?
        } else {
            (source.metadata.as_ref().map(|m| m.options.clone()).unwrap_or_default(), Vec::new())
        };
        let placement = Placement::of(&options, keeps);
        let into = match placement {
            Placement::Staged { .. } => staging::name(name),
            Placement::InPlace => name.clone(),
        };
        let creates = matches!(placement, Placement::Staged { .. }) || !exists || replaced;
        if placement == Placement::InPlace && replaced {
            staging::drop(&db, name).await?;
        }
        if creates {
            let mut create = doc! { "create": &into };
            create.extend(options.clone());
            Op::command(&db, &create).run(db.run_command(create.clone())).await?;
        }
        let loaded = self.load(source, &db, &into, own_indexes, progress).await;
        let finished = match loaded {
            Ok(loaded) => match placement {
                Placement::Staged { reapply } => {
                    self.put_in_place(&db, &into, name, exists, replaced, reapply, &options).await.map(|()| loaded)
                }
                Placement::InPlace => Ok(loaded),
            },
            Err(e) => Err(e),
        };
        let (documents, bytes, indexes) = match finished {
            Ok(loaded) => loaded,
            Err(e) => {
                // Best effort: a temporary collection not dropped here is found by the next restore.
                if creates {
                    let _ = staging::drop(&db, &into).await;
                } else {
                    let coll = db.collection::<Document>(&into);
                    let _ = Op::on(&coll, "delete").run(coll.delete_many(doc! {})).await;
                }
                return Err(e);
            }
        };
        // The indexes odm created before the dump are odm's again, once they are built and in place (a failure to
        // record one leaves that index not odm's: never dropped by a sync).
        if let Some(metadata) = &source.metadata {
            super::owned::restore(&db, name, &metadata.odm_indexes, &metadata.secondary_indexes()).await?;
        }
        tracing::info!(target: "odm::backup", ns = %format!("{}.{name}", db.name()), documents, indexes, replaced, "restored");
        if source.metadata.is_none() {
            tracing::warn!(target: "odm::backup", ns = %format!("{}.{name}", db.name()), "restored without a metadata file: no options, validator or indexes");
        }
        Ok(CollectionRestore {
            file: source.file.clone(),
            db: db.name().to_owned(),
            collection: name.clone(),
            documents,
            bytes,
            indexes,
            replaced,
            metadata: source.metadata.is_some(),
            elapsed: began.elapsed(),
        })
    }

    /// Loads the documents into `into` and builds the indexes there (`own`, those of an empty target that exists,
    /// then the dumped ones): the documents, their bytes and the dumped indexes built.
    async fn load(
        &self,
        source: &Source,
        db: &Database,
        into: &str,
        own: Vec<Document>,
        progress: &mut Done,
    ) -> Result<(u64, u64, usize)> {
        let mut inserts = Inserts::new(db, &source.collection, into, source.model, self.bypass_validation, self.batch);
        let mut documents = source.bson.as_deref().map(Documents::open).transpose()?;
        let mut bytes = 0u64;
        while let Some(doc) = documents.as_mut().map(Documents::next_document).transpose()?.flatten() {
            if inserts.is_full_for(&doc) {
                progress.done += inserts.send().await?;
                self.progress.report(progress.done, progress.total, progress.started);
            }
            bytes += doc.as_bytes().len() as u64;
            inserts.push(doc);
        }
        progress.done += inserts.send().await?;
        self.progress.report(progress.done, progress.total, progress.started);
        let dumped = source.metadata.as_ref().map(Metadata::secondary_indexes).unwrap_or_default();
        let built = dumped.len();
        for list in [own, dumped].iter().filter(|l| !l.is_empty()) {
            let command = doc! { "createIndexes": into, "indexes": list };
            Op::command(db, &command).run(db.run_command(command.clone())).await?;
        }
        Ok((inserts.inserted, bytes, built))
    }

    /// Renames the loaded temporary collection `staging` over `name`, then sets again the options a rename lost
    /// (`reapply`).
    #[allow(clippy::too_many_arguments)]
    async fn put_in_place(
        &self,
        db: &Database,
        staging: &str,
        name: &str,
        exists: bool,
        replaced: bool,
        reapply: bool,
        options: &Document,
    ) -> Result<()> {
        // An empty target replaced without `drop_existing` must still be empty: a document written meanwhile is
        // not dropped with it.
        if exists && !replaced && holds_documents(db, name).await? {
            return Err(BackupError::NotEmpty { namespace: format!("{}.{name}", db.name()) }.into());
        }
        staging::rename(self.client, db, staging, name, exists).await?;
        if reapply {
            staging::reapply(db, name, options).await?;
        }
        Ok(())
    }
}

/// What the restore does before its first collection.
#[derive(Default)]
struct Prepared {
    /// Temporary collections of an interrupted restore removed, `<db>.<collection>`.
    removed: Vec<String>,
    /// Those left (of collections this restore does not load).
    left: Vec<String>,
    /// Per target database: whether its server's rename keeps a collection's options.
    keeps: Vec<(String, bool)>,
}

/// A restore's progress: documents inserted of those the files hold.
struct Done {
    done: u64,
    total: u64,
    started: Instant,
}

/// True when the collection `name` of `db` holds a document.
async fn holds_documents(db: &Database, name: &str) -> Result<bool> {
    let coll = db.collection::<Document>(name);
    let first = coll.find_one(doc! {}).projection(doc! { "_id": 1 });
    Ok(Op::on(&coll, "find").run(first).await?.is_some())
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
