//! The [`Dump`] builder and its run: reads the chosen collections' options and indexes, then streams each one's
//! documents in `_id` order into its file, a batch at a time, from one snapshot where the server can.

use super::files::{io_error, Output};
use super::layout::{bson_file, metadata_file, uuid_hex, Compression, Metadata};
use super::owned::METADATA_KIND;
use super::report::Callback;
use super::report::{CollectionDump, DumpReport, Skipped};
use super::select::Choice;
use super::staging::{self, STAGING_KIND};
use super::ReadMode;
use crate::base::error::{BackupError, Result};
use crate::base::model::Model;
use crate::base::plan::ownership::METADATA_COLLECTIONS;
use crate::base::progress::Progress;
use crate::driver::observe::{Op, Returned};
use bson::{doc, Document, RawDocumentBuf};
use futures_util::TryStreamExt;
use mongodb::options::ReadConcern;
use mongodb::{Client, ClientSession};
use std::path::PathBuf;
use std::time::Instant;

/// A pending dump (see the [module documentation](super)). Nothing happens until it is awaited.
#[must_use = "a `Dump` does nothing until it is awaited"]
pub struct Dump<'c> {
    client: &'c Client,
    out: PathBuf,
    default_db: Option<String>,
    choices: Vec<Choice>,
    compression: Compression,
    batch: usize,
    read_mode: Option<ReadMode>,
    progress: Callback<'c>,
}

/// What a dump will write, the collections asked for that are absent, and those left out for their type.
type Planning = (Vec<Planned>, Vec<String>, Skipped);

/// A collection the dump will write, as read before any document is.
struct Planned {
    db: String,
    metadata: Metadata,
    estimated: u64,
}

impl<'c> Dump<'c> {
    /// A dump through `client` into the directory `out` (created when missing), of the collections then added
    /// with [`Dump::model`] or [`Dump::collection`].
    pub fn new(client: &'c Client, out: impl Into<PathBuf>) -> Self {
        Dump {
            client,
            out: out.into(),
            default_db: None,
            choices: Vec::new(),
            compression: Compression::None,
            batch: 1000,
            read_mode: None,
            progress: Callback::none(),
        }
    }

    /// The database of models that do not name one (`#[odm(db = "…")]`). Given alone (no [`Dump::model`] nor
    /// [`Dump::collection`]), every collection of that database is dumped, but the server's own (`system.*`); views
    /// and time-series collections are then left out and listed in [`DumpReport::skipped`].
    pub fn database(mut self, name: impl Into<String>) -> Self {
        self.default_db = Some(name.into());
        self
    }

    /// Adds model `M`'s collection; for a model named by a template (`log_app_event_{yyyymm}`, see
    /// [`crate::template`]), every live instance of it.
    pub fn model<M: Model>(mut self) -> Self {
        self.choices.push(Choice::model::<M>());
        self
    }

    /// Adds model `M`'s collection (every live instance, for a model named by a template) as it is in database
    /// `db` instead of the database `M` names: a copy of the model's data kept under another database's name.
    pub fn model_in<M: Model>(mut self, db: impl Into<String>) -> Self {
        self.choices.push(Choice::model_in::<M>(db));
        self
    }

    /// Adds the collection `name` of database `db`, which no model needs to describe.
    pub fn collection(mut self, db: impl Into<String>, name: impl Into<String>) -> Self {
        self.choices.push(Choice::named(db, name));
        self
    }

    /// Compresses both files of each collection with gzip, named as `mongodump --gzip` names them
    /// (`<collection>.bson.gz`, `<collection>.metadata.json.gz`).
    pub fn gzip(mut self) -> Self {
        self.compression = Compression::Gzip;
        self
    }

    /// Documents per server reply (the cursor's `batchSize`, default 1000); progress is reported after each batch.
    pub fn batch_size(mut self, n: usize) -> Self {
        self.batch = n.clamp(1, i32::MAX as usize);
        self
    }

    /// Reads in `mode` instead of the best the server allows ([`ReadMode::of`]): [`ReadMode::Majority`] or
    /// [`ReadMode::Plain`] for a dump that would outlast the server's snapshot window (each collection is then read
    /// as it is when read). Asking for [`ReadMode::Snapshot`] from a server without snapshot reads fails with the
    /// server's refusal.
    pub fn read_mode(mut self, mode: ReadMode) -> Self {
        self.read_mode = Some(mode);
        self
    }

    /// Called after every batch of documents written, for a progress bar. [`Progress::total`] is the collections'
    /// estimated counts when the dump started (asked for only when a callback is set).
    pub fn on_progress(mut self, f: impl FnMut(&Progress) + Send + 'c) -> Self {
        self.progress = Callback::new(f);
        self
    }

    /// Runs the dump (see [`IntoFuture`](std::future::IntoFuture) for [`Dump`]).
    async fn execute(self) -> Result<DumpReport> {
        let started = Instant::now();
        let read_mode = match self.read_mode {
            Some(mode) => mode,
            None => ReadMode::of(self.client).await?,
        };
        let (planned, absent, skipped) = self.plan().await?;
        // Nothing to write is a mistake of the job (a database name mistyped, models whose collections are not
        // there), never an empty success; and no directory is made for it.
        if planned.is_empty() {
            return Err(BackupError::NothingToDump { absent, skipped }.into());
        }
        // Every file is checked before any is written: a dump that cannot finish does not start. A file of the other
        // compression counts too: a restore would find two files for one collection.
        for p in &planned {
            let name = &p.metadata.collection_name;
            for compression in [Compression::None, Compression::Gzip] {
                let files = [
                    bson_file(&self.out, &p.db, name, compression),
                    metadata_file(&self.out, &p.db, name, compression),
                ];
                for path in files {
                    if path.exists() {
                        return Err(BackupError::Exists { path }.into());
                    }
                }
            }
            let dir = self.out.join(&p.db);
            std::fs::create_dir_all(&dir).map_err(io_error(&dir, "create the directory"))?;
        }
        let mut session = self.client.start_session().snapshot(read_mode == ReadMode::Snapshot).await?;
        let total = planned.iter().map(|p| p.estimated).sum();
        let mut report =
            DumpReport { read_mode, collections: Vec::new(), absent, skipped, elapsed: Default::default() };
        let mut done = 0;
        for p in &planned {
            let dumped = self.dump_one(p, read_mode, &mut session, &mut done, total, started).await?;
            report.collections.push(dumped);
        }
        report.elapsed = started.elapsed();
        Ok(report)
    }

    /// Reads what the dump will write: each collection's `listCollections` entry and indexes, and its estimated
    /// count; also the collections asked for that are absent, and those of a whole database left out for their
    /// type. Fails before anything is written when a collection asked for is a view or a time-series collection.
    async fn plan(&self) -> Result<Planning> {
        let whole;
        let choices = match (&self.choices[..], &self.default_db) {
            ([], Some(db)) => {
                whole = [Choice::everything(db)];
                &whole[..]
            }
            ([], None) => return Err(BackupError::NothingChosen.into()),
            (choices, _) => choices,
        };
        let (mut planned, mut absent, mut skipped) = (Vec::<Planned>::new(), Vec::new(), Vec::new());
        for choice in choices {
            let db_name = choice.db(self.default_db.as_deref())?;
            let db = self.client.database(&db_name);
            let filter = match choice.exact() {
                Some(name) => doc! { "name": name },
                None => Document::new(),
            };
            let list = doc! { "listCollections": 1, "filter": filter };
            let op = Op::on_db(&db, choice.exact().unwrap_or_default(), "listCollections");
            let entries: Vec<Document> =
                op.run(async { db.run_cursor_command(list).await?.try_collect().await }).await?;
            let mut found = false;
            for entry in entries {
                let name = entry.get_str("name").unwrap_or_default().to_owned();
                if !choice.matches(&name) {
                    continue;
                }
                found = true;
                // Asked for twice (by model and by name, say): dumped once.
                if planned.iter().any(|p| p.db == db_name && p.metadata.collection_name == name) {
                    continue;
                }
                let kind = entry.get_str("type").unwrap_or("collection").to_owned();
                // A restore's temporary collection (one a crash left) is not the database's data.
                if staging::is_staging(&name) && choice.is_everything() {
                    skipped.push((format!("{db_name}.{name}"), STAGING_KIND.to_owned()));
                    continue;
                }
                // odm's own records travel in the metadata of the collections they describe (`super::owned`).
                if choice.is_everything() && METADATA_COLLECTIONS.contains(&name.as_str()) {
                    skipped.push((format!("{db_name}.{name}"), METADATA_KIND.to_owned()));
                    continue;
                }
                if kind != "collection" && choice.is_everything() {
                    skipped.push((format!("{db_name}.{name}"), kind));
                    continue;
                }
                if kind != "collection" {
                    return Err(BackupError::Unsupported { namespace: format!("{db_name}.{name}"), kind }.into());
                }
                let list = doc! { "listIndexes": &name };
                let op = Op::on_db(&db, &name, "listIndexes");
                let indexes: Vec<Document> =
                    op.run(async { db.run_cursor_command(list).await?.try_collect().await }).await?;
                // Only a progress report needs the total; a server may count by reading every document (not every
                // server keeps the count as metadata), which would cost a dump nobody watches a quarter of its time.
                let estimated = if self.progress.is_set() {
                    let coll = db.collection::<Document>(&name);
                    Op::on(&coll, "count").run(coll.estimated_document_count()).await?
                } else {
                    0
                };
                let odm_indexes = super::owned::recorded(&db, &name, &indexes).await?;
                let metadata = Metadata {
                    options: entry.get_document("options").cloned().unwrap_or_default(),
                    odm_indexes,
                    indexes,
                    uuid: uuid_hex(&entry),
                    collection_name: name,
                    kind,
                };
                planned.push(Planned { db: db_name.clone(), metadata, estimated });
            }
            // A model named by a template with no live instance is absent too, named by its template.
            if !found && !choice.is_everything() {
                absent.push(format!("{db_name}.{}", choice.shown()));
            }
        }
        Ok((planned, absent, skipped))
    }

    /// Streams one collection's documents into its file, then writes its metadata.
    async fn dump_one(
        &self,
        p: &Planned,
        read_mode: ReadMode,
        session: &mut ClientSession,
        done: &mut u64,
        total: u64,
        started: Instant,
    ) -> Result<CollectionDump> {
        let began = Instant::now();
        let name = &p.metadata.collection_name;
        let coll = self.client.database(&p.db).collection::<RawDocumentBuf>(name);
        let mut find = coll.find(doc! {}).batch_size(self.batch as u32);
        // A capped collection's order is its insertion order (what a tailable cursor follows), which a restore keeps
        // only when the documents come in that order, as mongodump reads them; every other in `_id` order.
        find = if p.metadata.options.get_bool("capped").unwrap_or(false) {
            find.hint(mongodb::options::Hint::Keys(doc! { "$natural": 1 }))
        } else {
            find.sort(doc! { "_id": 1 })
        };
        if read_mode == ReadMode::Majority {
            find = find.read_concern(ReadConcern::majority());
        }
        // One span for the whole read: the `find` and every `getMore` of its cursor.
        let op = Op::on(&coll, "find");
        let mut cursor = op.open(std::future::IntoFuture::into_future(find.session(&mut *session))).await?;
        let file = bson_file(&self.out, &p.db, name, self.compression);
        let mut out = Output::create(file.clone(), self.compression)?;
        let (mut documents, mut bytes) = (0u64, 0u64);
        while op.open(cursor.advance(session)).await? {
            let doc = cursor.current().as_bytes();
            out.write(doc)?;
            documents += 1;
            bytes += doc.len() as u64;
            *done += 1;
            if documents % self.batch as u64 == 0 {
                self.progress.report(*done, total, started);
            }
        }
        op.finish(&Returned(documents));
        // A collection dropped (or replaced) meanwhile may have lost documents under the cursor: its file is not
        // kept (dropping `out` removes it).
        if !same_collection(&self.client.database(&p.db), &p.metadata).await? {
            return Err(BackupError::Vanished { namespace: format!("{}.{name}", p.db) }.into());
        }
        let file_bytes = out.finish()?;
        let mut meta_out = Output::create(metadata_file(&self.out, &p.db, name, self.compression), self.compression)?;
        meta_out.write(&p.metadata.to_json())?;
        meta_out.finish()?;
        self.progress.report(*done, total, started);
        tracing::info!(target: "odm::backup", ns = %format!("{}.{name}", p.db), documents, bytes, file = %file.display(), read_mode = read_mode.as_str(), "dumped");
        Ok(CollectionDump {
            db: p.db.clone(),
            collection: name.clone(),
            documents,
            bytes,
            file,
            file_bytes,
            read_mode,
            elapsed: began.elapsed(),
        })
    }
}

/// True when the collection the metadata describes is still there: same name and, when the server gives UUIDs, the
/// same UUID (a collection dropped and created again has another).
async fn same_collection(db: &mongodb::Database, metadata: &Metadata) -> Result<bool> {
    let list = doc! { "listCollections": 1, "filter": { "name": &metadata.collection_name } };
    let op = Op::on_db(db, &metadata.collection_name, "listCollections");
    let entries: Vec<Document> = op.run(async { db.run_cursor_command(list).await?.try_collect().await }).await?;
    Ok(entries.first().is_some_and(|entry| metadata.uuid.is_none() || uuid_hex(entry) == metadata.uuid))
}

/// Runs the dump: asks the server which read mode it allows (`hello`, `buildInfo`), reads the collections' options
/// and indexes, refuses before writing anything when a file it would write exists already, then writes each
/// collection's documents (in `_id` order) and metadata, each file under a temporary name renamed once complete.
impl<'c> std::future::IntoFuture for Dump<'c> {
    type Output = Result<DumpReport>;
    type IntoFuture = futures_util::future::BoxFuture<'c, Result<DumpReport>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.execute())
    }
}
