//! The schema checker: `SchemaCheck` (`Collection::check_schema`) streams the collection in `_id` batches, asks the
//! server which documents the validator refuses and why (`batch`, `sets`), and tallies the `Finding`s into a
//! `SchemaReport`. Users read the docs at `odm::check` (src/check.rs).

mod batch;
mod finding;
mod sets;

pub use finding::{Check, Finding};

use crate::base::error::Result;
use crate::base::meta::rust_name;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::model::VersionSpec;
use crate::base::validator::{Part, ValidatorParts};
use crate::driver::collection::Collection;
use crate::driver::observe::Op;
use crate::driver::progress::OnProgress;
use crate::driver::session::Session;
use batch::{id_of, Explainer};
use bson::{doc, Bson, Document, RawBsonRef, RawDocumentBuf};
use futures_util::stream::BoxStream;
use futures_util::{StreamExt, TryStreamExt};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::future::IntoFuture;
use std::time::Instant;

/// What a schema check found (the result of awaiting a [`SchemaCheck`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaReport {
    /// The model's Rust type name.
    pub model: &'static str,
    /// Documents read.
    pub checked: u64,
    /// Documents the validator refuses, apart from those at an older version the model reads; a document at an older
    /// version that does not read as it ([`Check::Unreadable`]) is failing.
    pub failing: u64,
    /// Documents at an older version the model still reads: not corrupt, but not yet migrated.
    pub older: u64,
    /// Why, by part of the validator and field, most frequent first. A document breaking two parts counts in both.
    pub findings: Vec<Finding>,
}

impl SchemaReport {
    /// True when every document matches the validator: none failing, none at an older version.
    pub fn is_clean(&self) -> bool {
        self.failing == 0 && self.older == 0
    }
}

impl fmt::Display for SchemaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} of {} document(s) fail the validator", self.model, self.failing, self.checked)?;
        if self.older > 0 {
            write!(f, "; {} are at older versions the model reads (migrate them)", self.older)?;
        }
        for finding in &self.findings {
            write!(f, "\n  {finding}")?;
        }
        Ok(())
    }
}

/// A pending schema check of a collection (see the [module documentation](crate::check)).
#[must_use = "a `SchemaCheck` does nothing until it is awaited"]
pub struct SchemaCheck<'a, M: Model> {
    /// Borrowed, or a copy bound to the session [`SchemaCheck::session`] gave it.
    coll: std::borrow::Cow<'a, Collection<M>>,
    batch: usize,
    samples: usize,
    progress: Option<OnProgress<'a>>,
    by_id: bool,
}

impl<M: Model> Collection<M> {
    /// Finds the stored documents the model's validator would refuse (see [`crate::check`]).
    pub fn check_schema(&self) -> SchemaCheck<'_, M> {
        SchemaCheck { coll: std::borrow::Cow::Borrowed(self), batch: 1000, samples: 5, progress: None, by_id: false }
    }
}

impl<'a, M: Model> SchemaCheck<'a, M> {
    /// Documents read per batch (default 1000).
    pub fn batch_size(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// Sample `_id`s kept per finding (default 5).
    pub fn samples(mut self, n: usize) -> Self {
        self.samples = n;
        self
    }

    /// Explains failing documents by `_id` against the collection, as on a server without `$documents`, whatever the
    /// server: for tests of that path against any server.
    #[cfg(feature = "testing")]
    #[doc(hidden)]
    pub fn explain_by_id(mut self) -> Self {
        self.by_id = true;
        self
    }

    /// Called after every batch, for a progress bar.
    pub fn on_progress(mut self, f: impl FnMut(&crate::base::progress::Progress) + Send + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Reads the collection in `session` (one whose reads follow its writes, or a transaction's: what it wrote and
    /// has not committed is checked too). It wins over the session of a collection bound with
    /// [`Collection::with_session`].
    pub fn session(mut self, session: &crate::driver::session::Session) -> Self {
        self.coll = std::borrow::Cow::Owned(self.coll.with_session(session));
        self
    }

    async fn scan(mut self) -> Result<SchemaReport> {
        let started = Instant::now();
        let raw = self.coll.raw();
        let session = self.coll.session().cloned();
        let validator = M::validator();
        let description = described::<M>(&validator);
        let parts = description.parts();
        // Only a progress report needs the total. The estimate reads metadata on mongod, which no session orders (it
        // cannot run in one); a server that keeps no count reads every document for it.
        let total = match self.progress {
            Some(_) => Op::on(raw, "count").run(raw.estimated_document_count()).await?,
            None => 0,
        };
        let mut tally = Tally::new::<M>(parts, self.samples);
        let mut explainer = Explainer::new(raw, session.as_ref(), parts, self.by_id);
        let refuses = doc! { "$nor": [&validator] };
        // Whole documents in `_id` order, a batch at a time; the server says which of each batch the validator
        // refuses as the batch is read, so counts (and the progress they report) follow the scan.
        let batch_size = u32::try_from(self.batch).unwrap_or(u32::MAX);
        let mut rows = stream(raw, session.as_ref(), doc! {}, None, Some(batch_size)).await?;
        let mut held = Held::default();
        loop {
            let row = rows.try_next().await?;
            let end = row.is_none();
            if let Some(row) = row {
                held.bytes += row.as_bytes().len();
                held.docs.push(row);
            }
            if !end && held.docs.len() < self.batch && held.bytes < HELD_BYTES {
                continue;
            }
            if held.docs.is_empty() {
                break;
            }
            let batch = std::mem::take(&mut held).docs;
            let checked = batch.len() as u64;
            // `Debug` text keeps the BSON type: the server returns each `_id` as stored.
            let refused: HashSet<String> =
                explainer.refused(&refuses, &batch).await?.iter().map(|id| format!("{id:?}")).collect();
            let failing = batch.into_iter().filter(|d| refused.contains(&format!("{:?}", id_of(d)))).collect();
            tally.batch(&mut explainer, checked, failing, M::VERSION).await?;
            if let Some(progress) = &mut self.progress {
                let report = &tally.report;
                progress(&crate::base::progress::Progress {
                    repaired: 0,
                    done: report.checked,
                    total: total.max(report.checked),
                    failed: report.failing,
                    migrated: 0,
                    retried: 0,
                    elapsed: started.elapsed(),
                });
            }
            if end {
                break;
            }
        }
        for (stored, ids, passing) in self.coll.reordered_duplicates(&validator).await? {
            let path = rust_name(M::type_meta(), &stored).unwrap_or_else(|| stored.clone());
            tally.reordered(&stored, path, ids, passing);
        }
        Ok(tally.finish())
    }
}

/// The most bytes of documents held for one batch; a batch of large documents ends early.
const HELD_BYTES: usize = 16 * 1024 * 1024;

/// The documents of the batch being read, and their size.
#[derive(Default)]
struct Held {
    docs: Vec<RawDocumentBuf>,
    bytes: usize,
}

/// Opens a cursor over the documents matching `filter` in `_id` order (in `session`, when the collection has one),
/// `batch_size` documents per server reply when given.
async fn stream(
    raw: &mongodb::Collection<RawDocumentBuf>,
    session: Option<&Session>,
    filter: Document,
    projection: Option<Document>,
    batch_size: Option<u32>,
) -> Result<BoxStream<'static, Result<RawDocumentBuf>>> {
    // One order for both cursors, total over every BSON type of `_id`: batches never skip a document.
    let op = Op::on(raw, "find")
        .in_session(session)
        .values(|| doc! { "filter": &filter, "sort": { "_id": 1 }, "projection": &projection });
    let mut find = raw.find(filter).sort(doc! { "_id": 1 });
    if let Some(projection) = projection {
        find = find.projection(projection);
    }
    if let Some(n) = batch_size {
        find = find.batch_size(n);
    }
    Ok(match session {
        Some(s) => {
            let cursor = op.run(find.session(&mut *s.lock().await).into_future()).await?;
            crate::driver::session::rows(cursor, s.clone())
        }
        None => op.run(find).await?.map_err(crate::base::error::Error::from).boxed(),
    })
}

/// The parts of `validator` (the model's, as sent): the model's description ([`Model::validator_parts`]), unless
/// the model writes a validator of its own, which is then split as it is.
fn described<M: Model>(validator: &Document) -> ValidatorParts {
    let described = M::validator_parts();
    if described.validator() == validator {
        described
    } else {
        ValidatorParts::from_validator(validator)
    }
}

/// The findings so far, one per part, plus the documents no part explains and those at older versions.
struct Tally<'p> {
    report: SchemaReport,
    parts: &'p [Part],
    findings: Vec<Finding>,
    other: Finding,
    older: Vec<Finding>,
    /// Documents at an older version that do not read as it, by version.
    unreadable: Vec<Finding>,
    /// Reads a stored document as the model does: the error, when it cannot.
    read: fn(&RawDocumentBuf) -> Option<crate::base::error::Error>,
    samples: usize,
    /// The Rust name of the version key, for its findings.
    version_path: Option<String>,
}

impl<'p> Tally<'p> {
    fn new<M: Model>(parts: &'p [Part], samples: usize) -> Self {
        let rust = |stored: &str| rust_name(M::type_meta(), stored).unwrap_or_else(|| stored.to_owned());
        let named = |p: &Part| p.path.clone().unwrap_or_else(|| p.stored.clone());
        let finding = |check: Check, stored: &str| Finding {
            check,
            path: if stored.is_empty() { String::new() } else { rust(stored) },
            stored_path: stored.to_owned(),
            array: None,
            version: None,
            reason: None,
            rule: check.rule(),
            count: 0,
            sample_ids: Vec::new(),
        };
        let findings = parts
            .iter()
            .map(|p| Finding {
                rule: p.rule,
                path: named(p),
                // A sum of fields names each of them (`sb, sh`).
                array: p.array.as_deref().map(|a| a.split(", ").map(rust).collect::<Vec<_>>().join("`, `")),
                ..finding(p.check, &p.stored)
            })
            .collect();
        Tally {
            report: SchemaReport { model: model_name::<M>(), checked: 0, failing: 0, older: 0, findings: Vec::new() },
            parts,
            findings,
            other: finding(Check::Other, ""),
            older: Vec::new(),
            unreadable: Vec::new(),
            read: read_error::<M>,
            samples,
            version_path: M::VERSION.map(|spec| rust(spec.key)),
        }
    }

    /// Counts a batch of `checked` documents, of which `docs` fail the validator.
    async fn batch(
        &mut self,
        explainer: &mut Explainer<'_>,
        checked: u64,
        docs: Vec<RawDocumentBuf>,
        version: Option<VersionSpec>,
    ) -> Result<()> {
        self.report.checked += checked;
        let mut failing = Vec::with_capacity(docs.len());
        for doc in docs {
            // Documents at an older version the model reads are not corrupt: counted apart, by version.
            // unless they do not read as that version (a field the upgrade needs is missing): those fail, with the
            // reason a migration gives.
            match version.and_then(|spec| older_version(&doc, spec)) {
                Some(at) => match (self.read)(&doc) {
                    None => self.older_at(at, id_of(&doc), version),
                    Some(error) => self.unreadable_at(at, id_of(&doc), &error, version),
                },
                None => failing.push(doc),
            }
        }
        self.report.failing += failing.len() as u64;
        let broken = explainer.broken(&failing).await?;
        let ids: Vec<Bson> = failing.iter().map(id_of).collect();
        // Which documents break which part, by position in the batch: looked up once per `_id` the server names, so
        // a batch costs time in proportion to its size times the parts. (`Debug` text keeps the BSON type: the
        // server returns each `_id` as stored.)
        let position: HashMap<String, usize> = ids.iter().enumerate().map(|(j, id)| (format!("{id:?}"), j)).collect();
        let breaks: Vec<Vec<bool>> = broken
            .iter()
            .map(|found| {
                let mut row = vec![false; ids.len()];
                found.iter().filter_map(|id| position.get(&format!("{id:?}"))).for_each(|&j| row[j] = true);
                row
            })
            .collect();
        let mut explained = vec![false; ids.len()];
        for (i, part) in self.parts.iter().enumerate() {
            // Bounds are reported only for values of the right type (the type part comes first).
            let counted = |j: &usize| breaks[i][*j] && !part.unless.is_some_and(|type_part| breaks[type_part][*j]);
            let these: Vec<usize> = (0..ids.len()).filter(counted).collect();
            these.iter().for_each(|&j| explained[j] = true);
            record(&mut self.findings[i], these.into_iter().map(|j| ids[j].clone()).collect(), self.samples);
        }
        let unexplained = ids.iter().zip(&explained).filter(|(_, e)| !**e).map(|(id, _)| id.clone()).collect();
        record(&mut self.other, unexplained, self.samples);
        Ok(())
    }

    /// Counts a document at an older version (`None`: without a version key).
    fn older_at(&mut self, at: Option<i64>, id: Bson, spec: Option<VersionSpec>) {
        self.report.older += 1;
        let i = match self.older.iter().position(|f| f.version == at) {
            Some(i) => i,
            None => {
                let key = spec.map_or("", |s| s.key);
                self.older.push(Finding {
                    check: Check::OlderVersion,
                    path: self.version_path.clone().unwrap_or_else(|| key.to_owned()),
                    stored_path: key.to_owned(),
                    array: None,
                    version: at,
                    reason: None,
                    rule: Check::OlderVersion.rule(),
                    count: 0,
                    sample_ids: Vec::new(),
                });
                self.older.len() - 1
            }
        };
        record(&mut self.older[i], vec![id], self.samples);
    }

    /// Counts a document at an older version (`None`: without a version key) that does not read as it.
    fn unreadable_at(
        &mut self,
        at: Option<i64>,
        id: Bson,
        error: &crate::base::error::Error,
        spec: Option<VersionSpec>,
    ) {
        self.report.failing += 1;
        let i = match self.unreadable.iter().position(|f| f.version == at) {
            Some(i) => i,
            None => {
                let key = spec.map_or("", |s| s.key);
                self.unreadable.push(Finding {
                    check: Check::Unreadable,
                    path: self.version_path.clone().unwrap_or_else(|| key.to_owned()),
                    stored_path: key.to_owned(),
                    array: None,
                    version: at,
                    reason: Some(error.to_string()),
                    rule: Check::Unreadable.rule(),
                    count: 0,
                    sample_ids: Vec::new(),
                });
                self.unreadable.len() - 1
            }
        };
        record(&mut self.unreadable[i], vec![id], self.samples);
    }

    /// The report: findings with documents, one per check, field and rule (a polymorphic model's variants that share
    /// a field add up), most frequent first.
    fn finish(self) -> SchemaReport {
        let mut findings: Vec<Finding> = Vec::new();
        for f in self.findings.into_iter().chain([self.other]).chain(self.unreadable).chain(self.older) {
            if f.count == 0 {
                continue;
            }
            let same = |g: &&mut Finding| {
                (g.check, &g.stored_path, g.rule, &g.array, g.version)
                    == (f.check, &f.stored_path, f.rule, &f.array, f.version)
            };
            match findings.iter_mut().find(same) {
                Some(g) => {
                    g.count += f.count - f.sample_ids.len() as u64;
                    record(g, f.sample_ids, self.samples);
                }
                None => findings.push(f),
            }
        }
        findings.sort_by_key(|f| std::cmp::Reverse(f.count));
        SchemaReport { findings, ..self.report }
    }
}

/// The older version `doc` is at, when it is one the model reads but does not write: `Some(None)` for a document
/// without the version key (read as the oldest).
fn older_version(doc: &RawDocumentBuf, spec: VersionSpec) -> Option<Option<i64>> {
    let at = match doc.get(spec.key).ok()? {
        None => return Some(None),
        Some(RawBsonRef::Int32(v)) => i64::from(v),
        Some(RawBsonRef::Int64(v)) => v,
        Some(RawBsonRef::Double(v)) if v.fract() == 0.0 => v as i64,
        Some(_) => return None,
    };
    (i64::from(spec.oldest)..i64::from(spec.current)).contains(&at).then_some(Some(at))
}

/// Why a stored document does not read as model `M` (a typed read's or a migration's error); `None` when it does.
fn read_error<M: Model>(raw: &RawDocumentBuf) -> Option<crate::base::error::Error> {
    crate::base::codec::decode::<M>(raw).err()
}

/// Counts `ids` in `finding`, keeping the first as samples.
fn record(finding: &mut Finding, ids: Vec<Bson>, samples: usize) {
    finding.count += ids.len() as u64;
    let room = samples.saturating_sub(finding.sample_ids.len());
    finding.sample_ids.extend(ids.into_iter().take(room));
}

/// Reads the collection and reports what fails. Nothing is written.
///
/// The collection is streamed once, whole, in `_id` order and a batch at a time. The server says which documents of
/// each batch the validator refuses (one `$documents` command over the batch as read, `$match: {$nor: [validator]}`:
/// no query reads the collection per batch), then explains those by part, so the time grows linearly with the
/// collection (`docs/benchmarks.md` has the measured figures) and progress follows the documents as they are
/// checked. A server without `$documents` (before MongoDB 5.1) is asked by `_id` against the collection.
impl<'a, M: Model> std::future::IntoFuture for SchemaCheck<'a, M> {
    type Output = Result<SchemaReport>;
    type IntoFuture = futures_util::future::BoxFuture<'a, Result<SchemaReport>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.scan())
    }
}
