//! What updates and replacements run when awaited (one, many, upsert, by changes, replacement), and the update
//! statement every typed update sends last.

use super::handle::Collection;
use super::prep::Tally;
use super::results::Updated;
use super::wire::{check_statement, document_len, with_element, IfNone, Reach};
use crate::base::codec::encode;
use crate::base::error::{Error, Result};
use crate::base::filter::Filter;
use crate::base::model::Model;
use crate::base::update::Update;
use crate::driver::observe::raw_value;
use bson::{doc, Bson, Document};
use mongodb::action::Action;

impl<M: Model> Collection<M> {
    async fn run_update(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        reach: Reach,
        if_none: IfNone,
        hint: Option<String>,
        operation: &'static str,
    ) -> Result<mongodb::results::UpdateResult> {
        if reach == Reach::Every || if_none == IfNone::Insert {
            // Checked before writing: a partial `update_many` or an upsert inserting a second copy of an older
            // document would both be worse than an error.
            let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
            if let Some(older) = self.older_matching(typed.as_ref(), Tally::Count).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        let (filter, built, recheck) = Self::prepare(filter, update, if_none)?;
        let (update, array_filters) = built.into_statement();
        let result = self.send_update(filter, update, array_filters, (reach, if_none), hint, operation).await?;
        match (result.matched_count, recheck) {
            // A pull from a counted set that matched nothing: "already taken back", or a set holding it twice.
            (0, Some(recheck)) => self.recheck_pull(recheck, 0).await?,
            // An `update_many` changed the documents holding it once and left any holding it twice: said, not silent.
            (_, Some(recheck)) if reach == Reach::Every => self.recheck_pull(recheck, result.modified_count).await?,
            _ => {}
        }
        Ok(result)
    }

    /// Sends an update document already built and checked for its model (its filter restricted to current documents
    /// where that applies): what every update statement passes last, however it was built. Checks one-shard routing
    /// for a single-document update and the statement's size before sending, and adds one to the revision.
    /// `(reach, if_none)`: which matching documents it updates, and whether it inserts one when none matches.
    pub(crate) async fn send_update(
        &self,
        filter: Document,
        mut update: Document,
        array_filters: Vec<Document>,
        (reach, if_none): (Reach, IfNone),
        hint: Option<String>,
        operation: &'static str,
    ) -> Result<mongodb::results::UpdateResult> {
        let (many, upsert) = (reach.multi(), if_none.upsert());
        if !many {
            Self::one_shard(&filter, operation)?;
        }
        Self::bump_revision(&mut update);
        check_statement::<M>([&filter, &update].into_iter().chain(&array_filters).map(document_len))?;
        let op = self.op("update").values(|| {
            let arrays = &array_filters;
            doc! { "q": &filter, "u": &update, "arrayFilters": arrays, "multi": many, "upsert": upsert, "hint": &hint }
        });
        let hint = hint.map(mongodb::options::Hint::Name);
        let array_filters = (!array_filters.is_empty()).then_some(array_filters);
        let result = if many {
            op.run(
                self.raw
                    .update_many(filter, update)
                    .upsert(upsert)
                    .optional(array_filters, |a, f| a.array_filters(f))
                    .optional(hint, |a, h| a.hint(h))
                    .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
        } else {
            op.run(
                self.raw
                    .update_one(filter, update)
                    .upsert(upsert)
                    .optional(array_filters, |a, f| a.array_filters(f))
                    .optional(hint, |a, h| a.hint(h))
                    .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
        };
        result.map_err(Self::map_err)
    }

    /// [`UpdateOne`](super::UpdateOne), awaited: an upsert refuses older-version documents first (it would insert a
    /// second, current copy); an update that matched nothing tells whether only older ones match.
    pub(super) async fn exec_update_one(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        if_none: IfNone,
        hint: Option<String>,
    ) -> Result<Updated<M>> {
        self.check_older_shapes(&filter).await?;
        if if_none == IfNone::Insert {
            let result = self.run_update(filter, update, Reach::First, IfNone::Insert, hint, "update_one").await?;
            return Updated::from_driver(result);
        }
        // Only while older versions are read is the typed filter needed again (to look for older documents).
        let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
        let result = self.run_update(filter, update, Reach::First, IfNone::Nothing, hint, "update_one").await?;
        if result.matched_count == 0 {
            if let Some(older) = self.older_matching(typed.as_ref(), Tally::AnyOne).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        Updated::from_driver(result)
    }

    /// [`UpdateMany`](super::UpdateMany), awaited.
    pub(super) async fn exec_update_many(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        if_none: IfNone,
        hint: Option<String>,
    ) -> Result<Updated<M>> {
        self.check_older_shapes(&filter).await?;
        Updated::from_driver(self.run_update(filter, update, Reach::Every, if_none, hint, "update_many").await?)
    }

    /// [`UpdateChanges`](super::UpdateChanges), awaited.
    pub(super) async fn exec_update_changes(
        &self,
        filter: Filter<M>,
        old: &M,
        new: &M,
    ) -> Result<Option<mongodb::results::UpdateResult>> {
        let update = Update::diff(old, new);
        // The caller's filter, not the revision guard added below (a revision field new in this version is no
        // reason to refuse: an older document is then written whole).
        self.check_older_shapes(&filter).await?;
        // Only while older versions are read is the typed filter needed again (to look for older documents).
        let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
        // A diff whose only change could not be written (a map key MongoDB cannot store) is an error, not "equal".
        if update.is_empty() && !update.has_error() {
            // Nothing changed, but a document still at an older version is stored at the current one.
            return self.migrate_by_replacing(typed.as_ref(), new).await;
        }
        let revision = Self::revision_field().zip(old.revision());
        let guarded = match revision {
            Some(((key, long), expected)) => Self::at_revision(filter.clone(), key, expected, long)?,
            None => filter.clone(),
        };
        let result = self.run_update(guarded, update, Reach::First, IfNone::Nothing, None, "update_changes").await?;
        if result.matched_count > 0 {
            return Ok(Some(result));
        }
        if let Some(migrated) = self.migrate_by_replacing(typed.as_ref(), new).await? {
            return Ok(Some(migrated));
        }
        match revision {
            Some(((key, _), expected)) => {
                let id = || bson::serialize_to_document(old).ok().and_then(|mut d| d.remove("_id"));
                Err(self.missed(filter, key, expected, id).await)
            }
            None => Ok(Some(result)),
        }
    }

    /// [`Collection::update_changes`] on a document stored at an older version: the diff of two current values cannot
    /// be applied to it, so `new` is written whole (the migration happens in this write), guarded by the version the
    /// document was found at so a concurrent migration or change is not overwritten. `None` when no older document
    /// matches.
    async fn migrate_by_replacing(
        &self,
        typed: Option<&Document>,
        new: &M,
    ) -> Result<Option<mongodb::results::UpdateResult>> {
        let (Some(spec), Some(typed)) = (Self::migrating(), typed) else { return Ok(None) };
        let Some(older) = self.older_matching(Some(typed), Tally::AnyOne).await? else { return Ok(None) };
        let at = match older.version {
            Some(v) => bson::doc! { spec.key: v },
            None => bson::doc! { spec.key: { "$exists": false } },
        };
        let filter = bson::doc! { "$and": [typed.clone(), at] };
        let raw = encode(new)?;
        check_statement::<M>([document_len(&filter), raw.as_bytes().len()])?;
        let result = self.replace(filter, raw, None).await?;
        if result.matched_count == 0 {
            // Changed or migrated meanwhile: report it rather than overwrite.
            return Err(Error::NotMigrated(Box::new(older)));
        }
        Ok(Some(result))
    }

    /// [`ReplaceOne`](super::ReplaceOne), awaited: `raw` is the value encoded, `revision` its revision.
    pub(super) async fn exec_replace_one(
        &self,
        filter: Filter<M>,
        raw: Result<bson::RawDocumentBuf>,
        revision: Option<i64>,
        hint: Option<String>,
    ) -> Result<Updated<M>> {
        self.check_older_shapes(&filter).await?;
        let raw = raw?;
        let (Some((key, long)), Some(expected)) = (Self::revision_field(), revision) else {
            let filter = Self::filter_doc(filter)?;
            Self::one_shard(&filter, "replace_one")?;
            check_statement::<M>([document_len(&filter), raw.as_bytes().len()])?;
            return Updated::from_driver(self.replace(filter, raw, hint).await?);
        };
        let next =
            expected.checked_add(1).ok_or_else(|| Self::invalid(crate::base::error::Invalid::RevisionAtMaximum))?;
        let raw = with_element(&raw, key, Self::revision_value(next, long)?).map_err(Error::serialize::<M>)?;
        let guarded = Self::filter_doc(Self::at_revision(filter.clone(), key, expected, long)?)?;
        Self::one_shard(&guarded, "replace_one")?;
        check_statement::<M>([document_len(&guarded), raw.as_bytes().len()])?;
        let id = raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        let result = self.replace(guarded, raw, hint).await?;
        if result.matched_count == 0 {
            return Err(self.missed(filter, key, expected, || id).await);
        }
        Updated::from_driver(result)
    }

    /// Replaces the document `filter` matches with `raw` (checked by the caller), as one traced `update`.
    async fn replace(
        &self,
        filter: Document,
        raw: bson::RawDocumentBuf,
        hint: Option<String>,
    ) -> Result<mongodb::results::UpdateResult> {
        let op = self.op("update").values(|| doc! { "q": &filter, "u": raw_value(&raw), "hint": &hint });
        let mut session = self.lock().await;
        let replace = self
            .raw
            .replace_one(filter, raw)
            .optional(hint, |a, h| a.hint(mongodb::options::Hint::Name(h)))
            .optional(session.as_deref_mut(), |a, s| a.session(s));
        op.run(replace).await.map_err(Self::map_err)
    }
}
