//! What a dump and a restore did, per collection.

use super::ReadMode;
use crate::base::progress::Progress;
use crate::driver::progress::OnProgress;
use std::fmt;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Collections left out for their type (a view, a time-series collection): `(<db>.<collection>, type)`.
pub(crate) type Skipped = Vec<(String, String)>;

/// A dump's or a restore's progress callback, if one was given. Behind a mutex so that the running job, which
/// holds it across awaits by shared reference, stays `Send` with a callback that is only `Send`.
pub(crate) struct Callback<'a>(Option<Mutex<OnProgress<'a>>>);

impl<'a> Callback<'a> {
    /// No callback.
    pub(crate) fn none() -> Self {
        Callback(None)
    }

    /// Calls `f` with each progress report.
    pub(crate) fn new(f: impl FnMut(&Progress) + Send + 'a) -> Self {
        Callback(Some(Mutex::new(Box::new(f))))
    }

    /// True when a callback was given.
    pub(crate) fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// Tells the callback: `done` documents of `total`, since `started`.
    pub(crate) fn report(&self, done: u64, total: u64, started: Instant) {
        if let Some(f) = &self.0 {
            let mut f = f.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            f(&crate::driver::progress::documents(done, total, started));
        }
    }
}

/// What a [`Dump`](super::Dump) wrote.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DumpReport {
    /// How the documents were read: one snapshot, majority or plain reads.
    pub read_mode: ReadMode,
    /// The collections dumped, in the order they were written.
    pub collections: Vec<CollectionDump>,
    /// Collections asked for that the server does not hold (`<db>.<collection>`): nothing was written for them.
    pub absent: Vec<String>,
    /// Collections of a database dumped whole ([`Dump::database`](super::Dump::database) alone) that were left
    /// out because odm does not dump their type: `(<db>.<collection>, type)`, the type `view` or `timeseries`
    /// (or odm's own metadata collections, whose records travel in the metadata of the collections they describe).
    pub skipped: Vec<(String, String)>,
    /// Time the whole dump took.
    pub elapsed: Duration,
}

/// One dumped collection.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CollectionDump {
    /// Its database.
    pub db: String,
    /// Its name.
    pub collection: String,
    /// Documents written.
    pub documents: u64,
    /// BSON bytes written (before compression).
    pub bytes: u64,
    /// The documents file (`<out>/<db>/<collection>.bson`, `.bson.gz`).
    pub file: PathBuf,
    /// The size of that file (after compression).
    pub file_bytes: u64,
    /// How its documents were read.
    pub read_mode: ReadMode,
    /// Time it took, metadata included.
    pub elapsed: Duration,
}

/// What a [`Restore`](super::Restore) loaded.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RestoreReport {
    /// The collections restored, in the order they were loaded.
    pub collections: Vec<CollectionRestore>,
    /// Collections of the dump left out because odm does not restore their type, when the whole dump (or one of
    /// its databases) was restored: `(<db>.<collection>, type)` as dumped, the type `view` or `timeseries`.
    pub skipped: Vec<(String, String)>,
    /// Temporary collections an interrupted restore had left (`<db>.odm_restore_tmp.<collection>`) that this one
    /// removed before loading the same collections again.
    pub removed: Vec<String>,
    /// Temporary collections of an interrupted restore found in the target databases and left there, being of
    /// collections this restore does not load (another restore may be loading them): drop them once none runs.
    pub leftovers: Vec<String>,
    /// Time the whole restore took.
    pub elapsed: Duration,
}

/// One restored collection.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CollectionRestore {
    /// The documents file it was read from (its metadata file when the dump holds no documents file for it).
    pub file: PathBuf,
    /// The database it was restored into.
    pub db: String,
    /// Its name.
    pub collection: String,
    /// Documents inserted.
    pub documents: u64,
    /// BSON bytes inserted.
    pub bytes: u64,
    /// Indexes built from the metadata (the `_id` index, which every collection has, not counted).
    pub indexes: usize,
    /// True when a collection of that name existed and was dropped first ([`Restore::drop_existing`]).
    ///
    /// [`Restore::drop_existing`]: super::Restore::drop_existing
    pub replaced: bool,
    /// False when the dump holds no metadata file for it (a `.bson` file alone, or a dump interrupted between
    /// writing a collection's two files): it was created without the dumped options, validator and indexes.
    pub metadata: bool,
    /// Time it took, indexes included.
    pub elapsed: Duration,
}

impl fmt::Display for DumpReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dump ({} reads) in {:.1?}", self.read_mode, self.elapsed)?;
        for c in &self.collections {
            write!(
                f,
                "\n  {}.{}: {} document(s), {} bytes -> {} ({} bytes), {:.1?}",
                c.db,
                c.collection,
                c.documents,
                c.bytes,
                c.file.display(),
                c.file_bytes,
                c.elapsed
            )?;
        }
        for namespace in &self.absent {
            write!(f, "\n  {namespace}: not on the server, nothing written")?;
        }
        for (namespace, kind) in &self.skipped {
            write!(f, "\n  {namespace}: a {kind}, not dumped")?;
        }
        Ok(())
    }
}

impl fmt::Display for RestoreReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "restore in {:.1?}", self.elapsed)?;
        for c in &self.collections {
            let replaced = if c.replaced { " (replaced the existing collection)" } else { "" };
            let bare =
                if c.metadata { "" } else { " (no metadata file: created without the options, validator or indexes)" };
            write!(
                f,
                "\n  {}.{}: {} document(s), {} bytes, {} index(es) from {}{replaced}{bare}, {:.1?}",
                c.db,
                c.collection,
                c.documents,
                c.bytes,
                c.indexes,
                c.file.display(),
                c.elapsed
            )?;
        }
        for (namespace, kind) in &self.skipped {
            write!(f, "\n  {namespace}: a {kind}, not restored")?;
        }
        for namespace in &self.removed {
            write!(f, "\n  {namespace}: the temporary collection of an interrupted restore, removed")?;
        }
        for namespace in &self.leftovers {
            write!(f, "\n  {namespace}: the temporary collection of an interrupted restore, left (drop it once no restore runs)")?;
        }
        Ok(())
    }
}
