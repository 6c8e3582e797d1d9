//! [`Repair`]: finds the stale copies of an extended reference on the server and brings them in step with their
//! sources, batch by batch, resumable.

use super::keys::{by_key, copied_pairs, set_copies};
pub use crate::base::error::repair_report::{RepairReport, StaleCopy, UnfixableCopy};
use crate::base::error::{Error, RepairStopped, Result};
use crate::base::model::Model;
use crate::base::path::AsPath;
use crate::base::progress::Progress;
use crate::base::reference::traits::{Copies, HoldsReferences};
use crate::driver::collection::Collection;
use crate::driver::observe::Op;
use crate::driver::progress::OnProgress;
use bson::{doc, Bson, Document};
use futures_util::TryStreamExt;
use std::marker::PhantomData;
use std::time::Instant;

/// A repair of the copies an extended reference keeps in model `H`'s documents (a field of type `R`, `Option<R>`
/// or `Vec<R>`, where `R` copies another model's fields: see [`crate::reference`]).
///
/// Each batch of holders (in `_id` order, their references only) is read with the sources its references name
/// (their copied fields only, one `$in` query: a `$lookup` through an array of references is not matched alike by
/// every server); a copy that differs from its source is set to the source's value by one targeted update,
/// guarded by the stale value it replaces, so a copy another writer brought in step meanwhile is left alone. A
/// reference whose source is gone is reported ([`RepairReport::dangling`]), never deleted. A copy the holder's
/// validator refuses to set to its source's value (a source written around odm, whose value breaks the copy's
/// bounds: too long, missing, of another type) is reported with the validator's reason by Rust field
/// ([`RepairReport::unfixable`]) and left as it is, and the repair goes on with the next one. The report's
/// [`RepairReport::last`] resumes an interrupted repair ([`Repair::after`]); a repair that stops on an error answers
/// [`Error::RepairStopped`], whose report holds what was done and that `last`.
///
/// A repair runs outside any session `holders` is bound to: it spans many batches, more than one transaction
/// should hold, and each guarded update is atomic on its own. To change copies with their source atomically, use
/// [`super::Propagate`] in the source's transaction.
///
/// ```no_run
/// # use odm::{bson::oid::ObjectId, Model, Embedded};
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "hr_employee")]
/// # struct Employee { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "n")] name: String }
/// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
/// # #[odm(copies(model = "Employee", by = "id"))]
/// # struct EmployeeRef { #[serde(rename = "i")] id: ObjectId, #[serde(rename = "n")] name: String }
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "hr_team")]
/// # struct Team { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "l")] lead: EmployeeRef }
/// # async fn run(teams: odm::Collection<Team>) -> odm::error::Result<()> {
/// use odm::reference::Repair;
/// let report = Repair::new(&teams, Team::fields().lead()).batch_size(500).await?;
/// println!("{} copies repaired, {} dangling", report.repaired, report.dangling.len());
/// # Ok(()) }
/// ```
#[must_use = "a repair does nothing until it is awaited"]
pub struct Repair<'a, H: Model, V: HoldsReferences> {
    holders: &'a Collection<H>,
    key: String,
    batch: usize,
    after: Option<Bson>,
    on_progress: Option<OnProgress<'a>>,
    _value: PhantomData<fn() -> V>,
}

impl<'a, H: Model, V: HoldsReferences> Repair<'a, H, V> {
    /// A repair of the references at `path` in `holders` (a typed path of `H` to a field of type `R`,
    /// `Option<R>` or `Vec<R>`).
    pub fn new<P: AsPath<H, Value = V>>(holders: &'a Collection<H>, path: P) -> Self {
        Repair {
            holders,
            key: path.as_path().key().to_owned(),
            batch: 1000,
            after: None,
            on_progress: None,
            _value: PhantomData,
        }
    }

    /// Holders per batch (default 1000): one aggregation and at most one update per stale reference each.
    pub fn batch_size(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// Resumes after the holder with this `_id` ([`RepairReport::last`] of an interrupted repair).
    pub fn after(mut self, id: impl Into<Bson>) -> Self {
        self.after = Some(id.into());
        self
    }

    /// Called after every batch with how far the repair has come (`done` holders of about `total`, `repaired`).
    pub fn on_progress(mut self, f: impl FnMut(&Progress) + Send + 'a) -> Self {
        self.on_progress = Some(Box::new(f));
        self
    }

    async fn run(self) -> Result<RepairReport> {
        let Repair { holders, key, batch, after, mut on_progress, .. } = self;
        Job::<H, V> { holders, key, batch, _value: PhantomData }.run(after, on_progress.as_mut()).await
    }
}

/// A repair's settings, apart from its callback (which is not `Sync`, and is not needed while waiting).
struct Job<'a, H: Model, V: HoldsReferences> {
    holders: &'a Collection<H>,
    key: String,
    batch: usize,
    _value: PhantomData<fn() -> V>,
}

impl<H: Model, V: HoldsReferences> Job<'_, H, V> {
    async fn run(&self, after: Option<Bson>, mut on_progress: Option<&mut OnProgress<'_>>) -> Result<RepairReport> {
        let pairs = copied_pairs::<V::Copy>();
        let by = by_key::<V::Copy>();
        let started = Instant::now();
        let raw = self.holders.raw();
        // Only a progress report needs the total (a server that keeps no count reads every document for it).
        let total = match on_progress {
            Some(_) => {
                Op::on(raw, "count").run(raw.estimated_document_count()).await.map_err(Collection::<H>::map_err)?
            }
            None => 0,
        };
        let mut report = RepairReport::after(after);
        let stopped = |report: RepairReport, cause: Error| {
            Error::RepairStopped(Box::new(RepairStopped {
                model: crate::base::model::model_name::<H>(),
                report,
                cause,
            }))
        };
        loop {
            let (batch, sources) = match self.read_batch(&report.last, &by, &pairs).await {
                Ok(read) => read,
                Err(cause) => return Err(stopped(report, cause)),
            };
            for holder in &batch {
                if let Err(cause) = self.repair_holder(holder, &sources, &by, &pairs, &mut report).await {
                    return Err(stopped(report, cause));
                }
                // Every reference of this holder handled: a resumed repair starts after it.
                report.examined += 1;
                report.last = holder.get("_id").cloned();
            }
            if let Some(f) = on_progress.as_mut() {
                f(&Progress {
                    done: report.examined,
                    total: total.max(report.examined),
                    failed: (report.dangling.len() + report.unfixable.len()) as u64,
                    migrated: 0,
                    retried: 0,
                    repaired: report.repaired,
                    elapsed: started.elapsed(),
                });
            }
            if batch.len() < self.batch {
                break;
            }
        }
        Ok(report)
    }

    /// The next holders after `after` (their `_id` and references only), and the sources their references name
    /// (their `_id` and copied fields only), read with one query each.
    async fn read_batch(
        &self,
        after: &Option<Bson>,
        by: &str,
        pairs: &[(String, String)],
    ) -> Result<(Vec<Document>, Vec<Document>)> {
        let key = &self.key;
        let filter = after.as_ref().map_or_else(Document::new, |a| doc! { "_id": { "$gt": a.clone() } });
        let raw = self.holders.raw().clone_with_type::<Document>();
        let op = Op::on(&raw, "find").values(|| doc! { "filter": &filter, "sort": { "_id": 1 } });
        let find = raw
            .find(filter)
            .sort(doc! { "_id": 1 })
            .limit(i64::try_from(self.batch).unwrap_or(i64::MAX))
            .projection(doc! { key.as_str(): 1 });
        let holders: Vec<Document> =
            op.run(async { find.await?.try_collect().await }).await.map_err(Collection::<H>::map_err)?;
        let mut ids: Vec<Bson> = Vec::new();
        for holder in &holders {
            for r in references::<H, V>(holder, key)? {
                if let Some(id) = r.get(by).filter(|id| !ids.contains(id)) {
                    ids.push(id.clone());
                }
            }
        }
        if ids.is_empty() {
            return Ok((holders, Vec::new()));
        }
        let mut projection = doc! { "_id": 1 };
        for (_, source) in pairs {
            projection.insert(source.clone(), 1);
        }
        let source_coll = self
            .holders
            .raw()
            .client()
            .database(self.holders.raw().namespace().db.as_str())
            .collection::<Document>(<<V::Copy as Copies>::Source as Model>::COLLECTION);
        let filter = doc! { "_id": { "$in": ids } };
        let op = Op::on(&source_coll, "find").values(|| doc! { "filter": &filter });
        let find = source_coll.find(filter).projection(projection);
        let sources = op.run(async { find.await?.try_collect().await }).await.map_err(Collection::<H>::map_err)?;
        Ok((holders, sources))
    }

    /// Compares each reference of `holder` with its source and sets the stale copies.
    async fn repair_holder(
        &self,
        holder: &Document,
        sources: &[Document],
        by: &str,
        pairs: &[(String, String)],
        report: &mut RepairReport,
    ) -> Result<()> {
        let hid = holder.get("_id").cloned().unwrap_or(Bson::Null);
        let refs = references::<H, V>(holder, &self.key)?;
        let raw = self.holders.raw().clone_with_type::<Document>();
        for r in refs {
            let Some(id) = r.get(by) else { continue };
            let Some(source) = sources.iter().find(|s| s.get("_id") == Some(id)) else {
                report.dangling.push(StaleCopy { holder: hid.clone(), source: id.clone() });
                continue;
            };
            let stale: Vec<&(String, String)> = pairs.iter().filter(|(c, s)| r.get(c) != source.get(s)).collect();
            if stale.is_empty() {
                continue;
            }
            // Guarded by the stale values, so a copy brought in step meanwhile is not written again.
            let (prefix, mut filter, options) = if V::MANY {
                let mut element = doc! { format!("e.{by}"): id.clone() };
                for (c, _) in &stale {
                    element.insert(format!("e.{c}"), guard(r.get(c)));
                }
                let options = mongodb::options::UpdateOptions::builder().array_filters(vec![element]).build();
                (format!("{}.$[e]", self.key), doc! { "_id": hid.clone() }, Some(options))
            } else {
                let mut filter = doc! { "_id": hid.clone(), format!("{}.{by}", self.key): id.clone() };
                for (c, _) in &stale {
                    filter.insert(format!("{}.{c}", self.key), guard(r.get(c)));
                }
                (self.key.clone(), filter, None)
            };
            let update = set_copies(&prefix, stale.into_iter(), source);
            if V::MANY {
                filter.insert(format!("{}.{by}", self.key), id.clone());
            }
            let op = Op::on(&raw, "update").values(|| doc! { "q": &filter, "u": &update });
            match op.run(raw.update_one(filter, update).with_options(options)).await.map_err(Error::from_write::<H>) {
                Ok(result) => report.repaired += result.modified_count,
                // The source's value breaks the copy's bounds: reported, and the repair goes on.
                Err(Error::Validation(v)) => report.unfixable.push(UnfixableCopy {
                    holder: hid.clone(),
                    source: id.clone(),
                    path: self.rust_path(),
                    failures: v.failures,
                }),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl<H: Model, V: HoldsReferences> Job<'_, H, V> {
    /// The Rust path of the references (`Team.lead`, `Team.members[]`).
    fn rust_path(&self) -> String {
        let path = crate::base::meta::rust_name(H::type_meta(), &self.key)
            .unwrap_or_else(|| format!("{}.{}", crate::base::model::model_name::<H>(), self.key));
        if V::MANY {
            format!("{path}[]")
        } else {
            path
        }
    }
}

/// The references a holder document holds at `key`: none, one, or an array's.
fn references<'d, H: Model, V: HoldsReferences>(holder: &'d Document, key: &str) -> Result<Vec<&'d Document>> {
    Ok(match lookup::<H>(holder, key)? {
        Some(Bson::Document(d)) if !V::MANY => vec![d],
        Some(Bson::Array(items)) if V::MANY => items.iter().filter_map(Bson::as_document).collect(),
        _ => Vec::new(),
    })
}

/// The value at the dotted `key` of `doc`; a reference inside an array's elements cannot be targeted by one
/// update, and is refused.
fn lookup<'d, H: Model>(doc: &'d Document, key: &str) -> Result<Option<&'d Bson>> {
    let mut at = doc;
    let mut segments = key.split('.').peekable();
    while let Some(segment) = segments.next() {
        match (at.get(segment), segments.peek()) {
            (value, None) => return Ok(value),
            (Some(Bson::Document(inner)), Some(_)) => at = inner,
            (Some(Bson::Array(_)), Some(_)) => {
                let path = crate::base::error::NamedPath::at(key);
                return Err(Error::invalid_operation::<H>(crate::base::error::Invalid::ReferenceInArray { path }));
            }
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// A filter condition matching the value `v` exactly, or a missing key.
fn guard(v: Option<&Bson>) -> Bson {
    match v {
        Some(v) => Bson::Document(doc! { "$eq": v.clone() }),
        None => Bson::Document(doc! { "$exists": false }),
    }
}

impl<'a, H: Model, V: HoldsReferences + 'a> std::future::IntoFuture for Repair<'a, H, V> {
    type Output = Result<RepairReport>;
    type IntoFuture = futures_util::future::BoxFuture<'a, Result<RepairReport>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}

impl RepairReport {
    /// An empty report of a repair resuming after `last`.
    pub(crate) fn after(last: Option<Bson>) -> Self {
        RepairReport { examined: 0, repaired: 0, dangling: Vec::new(), unfixable: Vec::new(), last }
    }
}
