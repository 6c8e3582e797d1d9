//! Why a guarded pull from a counted set of documents matched nothing. Such a pull applies only where the set holds
//! exactly one element equal to the pulled one, in any key order (see [`Update::pull`](crate::Update::pull)); where
//! it holds none the answer "matched 0" is the right one (already taken back), but where it holds two (one element in
//! two key orders, written by another client) the caller must be told, or it would take "matched 0" for "already
//! taken back". Only an update that matched nothing pays for finding out, and an `update_many` (it goes on past such
//! a document, so it reads after every run): one read, in the update's session.

use super::handle::Collection;
use crate::base::error::{DuplicateInSetError, Error, Result};
use crate::base::filter::Filter;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::update::value::PullOnce;
use crate::base::update::BuiltUpdate;
use crate::driver::observe::Op;
use bson::{doc, Bson, Document};
use futures_util::TryStreamExt;
use mongodb::options::{ReadPreference, SelectionCriteria};

/// What a prepared update keeps to tell why it matched nothing: the documents it would have applied to but for a set
/// holding the pulled element more than once, and the pulls.
pub(crate) struct PullRecheck {
    filter: Document,
    once: Vec<PullOnce>,
}

impl<M: Model> Collection<M> {
    /// The recheck of an update whose guard holds exact pulls (`once`), for `filter` as the caller gave it and the
    /// update as built; `None` without such pulls (nothing kept, nothing to pay).
    pub(super) fn pull_recheck(
        filter: &Filter<M>,
        built: &BuiltUpdate,
        once: Vec<PullOnce>,
    ) -> Result<Option<PullRecheck>> {
        if once.is_empty() {
            return Ok(None);
        }
        let mut recheck = filter.clone().and(Filter::from_document(recheck_guard(built.guard(), &once)));
        if let Some(variant) = built.variant() {
            recheck = recheck.and(Filter::from_document(variant.clone()));
        }
        Ok(Some(PullRecheck { filter: Self::current_only(Self::filter_doc(recheck)?), once }))
    }

    /// After an update that matched nothing, or after an `update_many` (which goes on past such a document):
    /// [`Error::DuplicateInSet`] when a document it would have applied to holds a pulled element more than once, with
    /// how many documents the update `updated`; `Ok` otherwise (no such document, or the element is not there:
    /// "matched 0" is then the answer). One `aggregate`, in the collection's session (a transaction's own writes are
    /// seen), from the primary (a lagging secondary could show another set than the one the update saw).
    pub(super) async fn recheck_pull(&self, recheck: PullRecheck, updated: u64) -> Result<()> {
        let PullRecheck { filter, once } = recheck;
        let mut counts = doc! { "_id": 1 };
        for (i, pull) in once.iter().enumerate() {
            counts.insert(format!("n{i}"), pull.count.clone());
        }
        let pipeline = vec![doc! { "$match": filter }, doc! { "$limit": 1 }, doc! { "$project": counts }];
        let op = Op::on(&self.raw, "aggregate").values(|| doc! { "pipeline": &pipeline });
        let aggregate =
            self.raw.aggregate(pipeline).selection_criteria(SelectionCriteria::ReadPreference(ReadPreference::Primary));
        let mut session = self.lock().await;
        let found = op
            .run(async {
                match session.as_deref_mut() {
                    Some(s) => aggregate.session(&mut *s).await?.next(s).await.transpose(),
                    None => aggregate.await?.try_next().await,
                }
            })
            .await
            .map_err(Self::map_err)?;
        let Some(found) = found else { return Ok(()) };
        let copies = |i: usize| match found.get(format!("n{i}")) {
            Some(Bson::Int32(n)) => u64::try_from(*n).unwrap_or(0),
            Some(Bson::Int64(n)) => u64::try_from(*n).unwrap_or(0),
            Some(Bson::Double(n)) => *n as u64,
            _ => 0,
        };
        let Some((pull, copies)) = once.iter().enumerate().map(|(i, p)| (p, copies(i))).find(|(_, n)| *n >= 2) else {
            return Ok(());
        };
        let meta = M::type_meta();
        let model = model_name::<M>();
        let rust =
            |stored: &str| crate::base::meta::rust_name(meta, stored).unwrap_or_else(|| format!("{model}.{stored}"));
        Err(Error::DuplicateInSet(Box::new(DuplicateInSetError {
            model,
            path: rust(&pull.key),
            stored: pull.key.clone(),
            counter: rust(&pull.counter),
            id: found.get("_id").cloned().unwrap_or(Bson::Null),
            copies,
            updated,
        })))
    }
}

/// The guard a pull that matched nothing is checked again with: `sent` (the guard the update was sent with) with its `$expr`
/// replaced by "every pulled element is there, and one of them more than once". A document it matches is one the
/// update would have applied to but for a set holding the pulled element twice.
fn recheck_guard(sent: Option<&Document>, once: &[PullOnce]) -> Document {
    let at_least = |p: &PullOnce, n: i32| Bson::Document(doc! { "$gte": [p.count.clone(), n] });
    let mut all: Vec<Bson> = once.iter().map(|p| at_least(p, 1)).collect();
    all.push(Bson::Document(doc! { "$or": once.iter().map(|p| at_least(p, 2)).collect::<Vec<_>>() }));
    let mut guard = sent.cloned().unwrap_or_default();
    guard.insert("$expr", doc! { "$and": all });
    guard
}
