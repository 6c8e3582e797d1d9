//! Reading a live database into surveys: each collection's options and indexes as `crate::driver::live` reads them,
//! and its documents, every one or a `$sample`, streamed into a `Survey`. Users read the docs at `odm::introspect`
//! (src/introspect.rs).

use crate::base::error::Result;
use crate::base::introspect::{Shape, Survey};
use crate::base::plan::ownership::METADATA_COLLECTIONS;
use crate::base::progress::Progress;
use crate::driver::live::{self, LiveCollection, LiveKind};
use crate::driver::observe::{Op, Returned};
use crate::driver::progress::OnProgress;
use bson::{doc, RawDocumentBuf};
use futures_util::future::BoxFuture;
use mongodb::Database;
use std::future::IntoFuture;
use std::time::Instant;

/// Collections of at most this many documents are read whole unless [`Introspect::read_all_up_to`] says otherwise.
pub const READ_ALL_UP_TO: u64 = 10_000;
/// Documents a `$sample` reads from a larger collection unless [`Introspect::sample`] says otherwise.
pub const SAMPLE: u64 = 1_000;

/// A survey of the collections of a live database, awaited for an [`Introspection`]: each collection's validator,
/// options and indexes, and what its documents hold path by path ([`Shape`]). It reads and writes nothing else.
///
/// A collection of at most [`READ_ALL_UP_TO`] documents (by its estimated count) is read whole; a larger one through
/// a `$sample` of [`SAMPLE`] documents, and the report says which ([`Read`]). Documents are streamed: memory does not
/// grow with the collection.
///
/// ```no_run
/// # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
/// use odm::introspect::Introspect;
///
/// let found = Introspect::new(&client.database("shop")).collections(["orders"]).sample(5_000).await?;
/// for collection in &found.collections {
///     println!("{}: {} documents read", collection.live.name, collection.shape.documents);
///     for path in &collection.shape.paths {
///         println!("  {} {:?}", path.path, path.types.iter().map(|t| (t.kind, t.count)).collect::<Vec<_>>());
///     }
/// }
/// # Ok(()) }
/// ```
#[must_use = "an introspection does nothing until it is awaited"]
pub struct Introspect<'a> {
    db: Database,
    names: Option<Vec<String>>,
    read_all_up_to: u64,
    sample: u64,
    progress: Option<OnProgress<'a>>,
}

/// What an [`Introspect`] found.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Introspection {
    /// The database surveyed.
    pub database: String,
    /// Each collection surveyed, in name order.
    pub collections: Vec<Surveyed>,
    /// Collections asked for by name ([`Introspect::collections`]) that the database does not hold.
    pub missing: Vec<String>,
}

/// One collection: what is live of it and what its documents hold.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Surveyed {
    /// Its options (validator, validation settings, capped, time series) and indexes.
    pub live: LiveCollection,
    /// Its estimated document count when the survey began, when the survey asked for it: to choose between reading
    /// every document and a sample, or for a progress callback's total. A survey that reads every collection whole
    /// (`read_all_up_to(u64::MAX)`) without a callback does not ask: some servers count by reading every document.
    pub estimated: Option<u64>,
    /// Whether every document was read or a sample.
    pub read: Read,
    /// What the documents read hold, path by path.
    pub shape: Shape,
}

/// How a collection's documents were read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// Every document (the collection held at most [`Introspect::read_all_up_to`]).
    Every,
    /// A `$sample` of this many documents (the server picks them at random; a sample may repeat none).
    Sample(u64),
}

impl<'a> Introspect<'a> {
    /// A survey of every collection of `db` (not its views, nor `system.` collections, nor odm's own records of
    /// the indexes it created and of the sync's lease).
    pub fn new(db: &Database) -> Self {
        Introspect { db: db.clone(), names: None, read_all_up_to: READ_ALL_UP_TO, sample: SAMPLE, progress: None }
    }

    /// Surveys only these collections. A name the database does not hold is listed in
    /// [`Introspection::missing`].
    pub fn collections<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.names = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Reads every document of a collection of at most `documents` documents (default [`READ_ALL_UP_TO`]); a larger
    /// one is sampled. `u64::MAX` reads every collection whole.
    pub fn read_all_up_to(mut self, documents: u64) -> Self {
        self.read_all_up_to = documents;
        self
    }

    /// Documents a `$sample` reads from a collection too large to read whole (default [`SAMPLE`]).
    pub fn sample(mut self, documents: u64) -> Self {
        self.sample = documents.max(1);
        self
    }

    /// Called after every 1,000 documents read and at the end of each collection. [`Progress::total`] is the
    /// documents to read in all the collections (estimated counts, or the sample sizes).
    pub fn on_progress(mut self, f: impl FnMut(&Progress) + Send + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    async fn run(mut self) -> Result<Introspection> {
        let started = Instant::now();
        let listed = live::collections(&self.db).await?;
        let mut missing = Vec::new();
        let chosen: Vec<LiveCollection> = match &self.names {
            Some(names) => {
                missing = names.iter().filter(|n| !listed.iter().any(|c| &c.name == *n)).cloned().collect();
                listed.into_iter().filter(|c| names.contains(&c.name)).collect()
            }
            // The server's own collections and odm's records (which indexes it created, the sync's lease) are not
            // the application's data.
            None => listed
                .into_iter()
                .filter(|c| !c.name.starts_with("system.") && !METADATA_COLLECTIONS.contains(&c.name.as_str()))
                .collect(),
        };
        let chosen: Vec<LiveCollection> = chosen.into_iter().filter(|c| c.kind != LiveKind::View).collect();
        let count = self.read_all_up_to < u64::MAX || self.progress.is_some();
        let mut plans = Vec::with_capacity(chosen.len());
        for live in chosen {
            let coll = self.db.collection::<RawDocumentBuf>(&live.name);
            let estimated = match count {
                true => Some(Op::on(&coll, "count").run(coll.estimated_document_count()).await?),
                false => None,
            };
            let read = match estimated {
                Some(n) if n > self.read_all_up_to => Read::Sample(self.sample),
                _ => Read::Every,
            };
            plans.push((live, estimated, read));
        }
        let total = plans.iter().map(|(_, estimated, read)| expected(estimated.unwrap_or(0), *read)).sum();
        let mut done = 0;
        let mut collections = Vec::with_capacity(plans.len());
        for (live, estimated, read) in plans {
            let shape = self.survey(&live.name, read, &mut done, total, started).await?;
            collections.push(Surveyed { live, estimated, read, shape });
        }
        Ok(Introspection { database: self.db.name().to_owned(), collections, missing })
    }

    async fn survey(&mut self, name: &str, read: Read, done: &mut u64, total: u64, started: Instant) -> Result<Shape> {
        let coll = self.db.collection::<RawDocumentBuf>(name);
        let mut survey = Survey::new();
        // One span for the whole read: the command and every `getMore` of its cursor.
        let (op, mut cursor) = match read {
            Read::Every => {
                let op = Op::on(&coll, "find");
                let cursor = op.open(coll.find(doc! {}).into_future()).await?;
                (op, cursor)
            }
            Read::Sample(size) => {
                let size = i64::try_from(size).unwrap_or(i64::MAX);
                let op = Op::on(&coll, "aggregate");
                let cursor = op.open(coll.aggregate([doc! { "$sample": { "size": size } }]).into_future()).await?;
                (op, cursor.with_type::<RawDocumentBuf>())
            }
        };
        while op.open(cursor.advance()).await? {
            survey.add(cursor.current());
            *done += 1;
            if done.is_multiple_of(1_000) {
                self.report(*done, total, started);
            }
        }
        op.finish(&Returned(survey.documents()));
        self.report(*done, total.max(*done), started);
        Ok(survey.shape())
    }

    fn report(&mut self, done: u64, total: u64, started: Instant) {
        if let Some(progress) = &mut self.progress {
            progress(&crate::driver::progress::documents(done, total, started));
        }
    }
}

/// The survey options of a job that reads through an [`Introspect`] (`Audit`, `Pull`): each sets the job's
/// `introspect` field, so every such job takes the same options with the same meaning.
macro_rules! survey_options {
    () => {
        /// Only these collections; a name the database does not hold is reported as missing (see
        /// [`Introspect::collections`](crate::introspect::Introspect::collections)).
        pub fn collections<I, S>(mut self, names: I) -> Self
        where
            I: IntoIterator<Item = S>,
            S: Into<String>,
        {
            self.introspect = self.introspect.collections(names);
            self
        }

        /// Reads every document of a collection of at most `documents` documents (see
        /// [`Introspect::read_all_up_to`](crate::introspect::Introspect::read_all_up_to)).
        pub fn read_all_up_to(mut self, documents: u64) -> Self {
            self.introspect = self.introspect.read_all_up_to(documents);
            self
        }

        /// Documents a `$sample` reads from a larger collection (see
        /// [`Introspect::sample`](crate::introspect::Introspect::sample)).
        pub fn sample(mut self, documents: u64) -> Self {
            self.introspect = self.introspect.sample(documents);
            self
        }

        /// Called as the documents are read (see
        /// [`Introspect::on_progress`](crate::introspect::Introspect::on_progress)).
        pub fn on_progress(mut self, f: impl FnMut(&crate::base::progress::Progress) + Send + 'a) -> Self {
            self.introspect = self.introspect.on_progress(f);
            self
        }
    };
}
pub(crate) use survey_options;

/// Documents a read of `read` is expected to see in a collection of `estimated`.
fn expected(estimated: u64, read: Read) -> u64 {
    match read {
        Read::Every => estimated,
        Read::Sample(size) => size.min(estimated),
    }
}

impl<'a> IntoFuture for Introspect<'a> {
    type Output = Result<Introspection>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}
