//! What operations check and add before sending: the typed filter and update documents, one-shard routing,
//! documents still at an older version, and the revision a guarded write bumps or expects.

use super::handle::Collection;
use super::set_pull::PullRecheck;
use crate::base::error::{Error, Invalid, NotMigratedError, Result, ScatterGatherError};
use crate::base::filter::Filter;
use crate::base::model::model_name;
use crate::base::model::{Model, Scatter};
use crate::base::update::{BuiltUpdate, Update};
use bson::{Bson, Document};
use mongodb::action::Action;

/// How many older-version documents [`Collection::older_matching`] reports: all of them counted (one more command),
/// or only that there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tally {
    Count,
    AnyOne,
}

impl<M: Model> Collection<M> {
    /// The error for a refused filter, sort, projection or update: its paths named through the model.
    pub(crate) fn invalid(cause: Invalid) -> Error {
        Error::invalid_operation::<M>(cause)
    }

    pub(crate) fn filter_doc(filter: Filter<M>) -> Result<Document> {
        filter.into_marked().map_err(Self::invalid)
    }

    /// Checks, before sending, that a single-document operation on a sharded model reaches one shard (see
    /// [`crate::shard`]): refused or logged per [`Model::SCATTER`].
    pub(crate) fn one_shard(filter: &Document, operation: &'static str) -> Result<()> {
        let Some(key) = M::SHARD_KEY else { return Ok(()) };
        if M::SCATTER == Scatter::Allow {
            return Ok(());
        }
        let missing = crate::base::shard::unpinned(filter, key.keys);
        if missing.is_empty() {
            return Ok(());
        }
        let meta = M::type_meta();
        let model = model_name::<M>();
        let missing = missing
            .into_iter()
            .map(|k| crate::base::meta::rust_name(meta, k).unwrap_or_else(|| format!("{model}.{k}")))
            .collect();
        let err = ScatterGatherError { model, operation, missing };
        match M::SCATTER {
            Scatter::Warn => {
                tracing::warn!(target: "odm::shard", model, operation, "{err}");
                Ok(())
            }
            _ => Err(Error::ScatterGather(Box::new(err))),
        }
    }

    /// Builds `update` and folds its guards into `filter`; with what tells why it matched nothing when its guard
    /// holds exact pulls from counted sets of documents (see [`Collection::recheck_pull`]).
    pub(crate) fn prepare(
        filter: Filter<M>,
        update: Update<M>,
        if_none: super::wire::IfNone,
    ) -> Result<(Document, BuiltUpdate, Option<PullRecheck>)> {
        let mut built = update.build_marked().map_err(Self::invalid)?;
        if if_none.upsert() && built.guard().is_some() {
            return Err(Self::invalid(Invalid::GuardedUpsert));
        }
        let once = built.take_once();
        let recheck = Self::pull_recheck(&filter, &built, once)?;
        let filter = match built.take_guard() {
            Some(guard) => filter.and(Filter::from_document(guard)),
            None => filter,
        };
        let filter = match built.take_variant() {
            Some(variant) => filter.and(Filter::from_document(variant)),
            None => filter,
        };
        Ok((Self::current_only(Self::filter_doc(filter)?), built, recheck))
    }

    /// The model's version while it still reads older ones: typed updates then apply to current documents only.
    pub(crate) fn migrating() -> Option<crate::base::model::VersionSpec> {
        M::VERSION.filter(|spec| spec.oldest < spec.current)
    }

    /// `filter`, restricted to documents at the current version while the model reads older ones: a typed update
    /// applied to an older document would leave it mixing two versions' fields.
    pub(crate) fn current_only(filter: Document) -> Document {
        match Self::migrating() {
            Some(spec) => bson::doc! { "$and": [filter, { spec.key: i64::from(spec.current) }] },
            None => filter,
        }
    }

    /// The older-version documents matching `filter` (a typed filter, before [`Self::current_only`]): how many (one
    /// when `tally` does not ask to count them), and one of them with its version. `None` when there are none, or the model reads no older version.
    pub(crate) async fn older_matching(
        &self,
        filter: Option<&Document>,
        tally: Tally,
    ) -> Result<Option<NotMigratedError>> {
        let (Some(spec), Some(filter)) = (Self::migrating(), filter) else { return Ok(None) };
        let older = bson::doc! { "$and": [filter.clone(), { spec.key: { "$ne": i64::from(spec.current) } }] };
        let op = self.op("find").values(|| bson::doc! { "filter": &older, "limit": 1 });
        let find = self.raw.find_one(older.clone()).projection(bson::doc! { "_id": 1, spec.key: 1 });
        let Some(one) = op.run(find.optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))).await? else {
            return Ok(None);
        };
        let count = if tally == Tally::Count {
            let op = self.op("aggregate").values(|| bson::doc! { "query": &older });
            op.run(self.raw.count_documents(older).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)))
                .await?
        } else {
            1
        };
        Ok(Some(NotMigratedError {
            model: model_name::<M>(),
            count,
            id: one.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok()),
            version: match one.get(spec.key) {
                Ok(Some(bson::RawBsonRef::Int32(v))) => Some(i64::from(v)),
                Ok(Some(bson::RawBsonRef::Int64(v))) => Some(v),
                _ => None,
            },
            current: spec.current,
        }))
    }

    /// The model's revision (see [`Model::REVISION`]): its stored key, and whether it is stored as a `long`.
    pub(super) fn revision_field() -> Option<(&'static str, bool)> {
        let key = M::REVISION?;
        let field = M::type_meta().and_then(|meta| meta.fields.iter().find(|f| f.key == key));
        Some((key, field.is_some_and(|f| f.ty.kind == crate::base::kind::BsonKind::Long)))
    }

    /// A revision as the field stores it (an `int` field compares and increments as an `int`).
    pub(super) fn revision_value(n: i64, long: bool) -> Result<Bson> {
        match (long, i32::try_from(n)) {
            (true, _) => Ok(Bson::Int64(n)),
            (false, Ok(n)) => Ok(Bson::Int32(n)),
            (false, Err(_)) => Err(Self::invalid(Invalid::RevisionNotInt { revision: n })),
        }
    }

    /// Adds one to the revision of every document `update` changes (every typed update does: see
    /// [`Model::REVISION`]). Typed updates have no setter for the revision, so nothing else writes it.
    pub(crate) fn bump_revision(update: &mut Document) {
        let Some((key, long)) = Self::revision_field() else { return };
        let one = if long { Bson::Int64(1) } else { Bson::Int32(1) };
        match update.get_mut("$inc") {
            Some(Bson::Document(inc)) => {
                inc.insert(key, one);
            }
            _ => {
                update.insert("$inc", bson::doc! { key: one });
            }
        }
    }

    /// `filter`, also requiring the stored revision to be `expected`.
    pub(super) fn at_revision(filter: Filter<M>, key: &str, expected: i64, long: bool) -> Result<Filter<M>> {
        let condition = bson::doc! { key: Self::revision_value(expected, long)? };
        Ok(filter.and(Filter::from_document(condition)))
    }

    /// Why a guarded write matched nothing: the document the filter names moved on to another revision
    /// ([`Error::Conflict`]), or there is none ([`Error::NotFound`], naming the `_id` of the value, from `id`). Read
    /// from the primary: a lagging secondary could still show the revision the write expected.
    pub(super) async fn missed(
        &self,
        filter: Filter<M>,
        key: &str,
        expected: i64,
        id: impl FnOnce() -> Option<Bson>,
    ) -> Error {
        let filter = match Self::filter_doc(filter) {
            Ok(f) => f,
            Err(e) => return e,
        };
        let primary = mongodb::options::SelectionCriteria::ReadPreference(mongodb::options::ReadPreference::Primary);
        let mut session = self.lock().await;
        let op = self.op("find").read_preference(&primary).values(|| bson::doc! { "filter": &filter, "limit": 1 });
        let found = self
            .raw
            .find_one(filter)
            .projection(bson::doc! { "_id": 1, key: 1 })
            .selection_criteria(primary)
            .optional(session.as_deref_mut(), |a, s| a.session(s));
        match op.run(found).await {
            Ok(Some(raw)) => Error::Conflict {
                model: model_name::<M>(),
                id: Box::new(raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok()).unwrap_or(Bson::Null)),
                expected,
                found: match raw.get(key) {
                    Ok(Some(bson::RawBsonRef::Int32(n))) => Some(i64::from(n)),
                    Ok(Some(bson::RawBsonRef::Int64(n))) => Some(n),
                    _ => None,
                },
            },
            Ok(None) => Error::NotFound { model: model_name::<M>(), id: id().map(Box::new) },
            Err(e) => Self::map_err(e),
        }
    }
}
