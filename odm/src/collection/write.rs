//! CRUD writes: inserts, updates (one, many, upsert, by changes), replacement and deletes.

use super::handle::Collection;
use super::wire::{check_statement, document_len, with_element};
use crate::codec::encode;
use crate::error::{Error, Result};
use crate::filter::Filter;
use crate::model::Model;
use crate::observe::raw_value;
use crate::update::Update;
use bson::{doc, Bson, Document};
use mongodb::action::Action;
use std::borrow::Borrow;

impl<M: Model> Collection<M> {
    /// Inserts one value; returns its `_id`. A revision ([`Model::REVISION`]) is stored as the value gives it.
    pub async fn insert_one(&self, value: impl Borrow<M>) -> Result<Bson> {
        let raw = encode(value.borrow())?;
        let op = self.op("insert").values(|| doc! { "documents": [raw_value(&raw)] });
        let result = op
            .run(self.raw.insert_one(raw).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Self::map_err)?;
        Ok(result.inserted_id)
    }

    /// Inserts values in order; every value is encoded and size-checked before the first is sent.
    /// Returns the `_id`s in input order.
    pub async fn insert_many<I>(&self, values: I) -> Result<Vec<Bson>>
    where
        I: IntoIterator,
        I::Item: Borrow<M>,
    {
        let docs = values.into_iter().map(|v| encode(v.borrow())).collect::<Result<Vec<_>>>()?;
        if docs.is_empty() {
            return Ok(Vec::new());
        }
        let n = docs.len();
        let op = self.op("insert").values(|| doc! { "documents": docs.iter().map(raw_value).collect::<Vec<_>>() });
        let result = op
            .run(self.raw.insert_many(docs).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Self::map_err)?;
        Ok((0..n).filter_map(|i| result.inserted_ids.get(&i).cloned()).collect())
    }

    async fn run_update(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        many: bool,
        upsert: bool,
        operation: &'static str,
    ) -> Result<mongodb::results::UpdateResult> {
        if many || upsert {
            // Checked before writing: a partial `update_many` or an upsert inserting a second copy of an older
            // document would both be worse than an error.
            let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
            if let Some(older) = self.older_matching(typed.as_ref(), true).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        let (filter, built, recheck) = Self::prepare(filter, update, upsert)?;
        let result = self.send_update(filter, built.update, built.array_filters, many, upsert, operation).await?;
        if let (0, Some(recheck)) = (result.matched_count, recheck) {
            // A pull from a counted set that matched nothing: "already taken back", or a set holding it twice.
            self.recheck_pull(recheck).await?;
        }
        Ok(result)
    }

    /// Sends an update document already built and checked for its model (its filter restricted to current documents
    /// where that applies): what every update statement passes last, however it was built. Checks one-shard routing
    /// for a single-document update and the statement's size before sending, and adds one to the revision.
    pub(crate) async fn send_update(
        &self,
        filter: Document,
        mut update: Document,
        array_filters: Vec<Document>,
        many: bool,
        upsert: bool,
        operation: &'static str,
    ) -> Result<mongodb::results::UpdateResult> {
        if !many {
            Self::one_shard(&filter, operation)?;
        }
        Self::bump_revision(&mut update);
        check_statement::<M>([&filter, &update].into_iter().chain(&array_filters).map(document_len))?;
        let op = self.op("update").values(|| {
            doc! { "q": &filter, "u": &update, "arrayFilters": &array_filters, "multi": many, "upsert": upsert }
        });
        let array_filters = (!array_filters.is_empty()).then_some(array_filters);
        let result = if many {
            op.run(
                self.raw
                    .update_many(filter, update)
                    .upsert(upsert)
                    .optional(array_filters, |a, f| a.array_filters(f))
                    .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
        } else {
            op.run(
                self.raw
                    .update_one(filter, update)
                    .upsert(upsert)
                    .optional(array_filters, |a, f| a.array_filters(f))
                    .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
        };
        result.map_err(Self::map_err)
    }

    /// Applies `update` to the first document matching `filter` (one document, stated explicitly). A guarded update
    /// (counted `add_to_set`, `pop`) matches nothing when its guard does not hold: `matched_count` is then 0. A
    /// `pull` from a counted set of documents that matched nothing because the set holds the element more than once
    /// fails with [`Error::DuplicateInSet`] instead (see [`Update::pull`]).
    ///
    /// On a model with a revision ([`Model::REVISION`]) the update also adds one to the revision, so a guarded write
    /// based on an earlier read sees the change; it is not itself guarded: add `f.revision().eq(r)` to `filter` to
    /// apply it only at revision `r`, or use [`Collection::update_changes`].
    ///
    /// On a versioned model that still reads older versions, only a document at the current version is updated; if
    /// the filter matches only older ones, the call fails with [`Error::NotMigrated`] (see [`crate::version`]).
    pub async fn update_one(&self, filter: Filter<M>, update: Update<M>) -> Result<mongodb::results::UpdateResult> {
        self.check_older_shapes(&filter).await?;
        // Only while older versions are read is the typed filter needed again (to look for older documents).
        let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
        let result = self.run_update(filter, update, false, false, "update_one").await?;
        if result.matched_count == 0 {
            if let Some(older) = self.older_matching(typed.as_ref(), false).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        Ok(result)
    }

    /// Applies `update` to every document matching `filter` (multi-document updates are stated explicitly). On a
    /// model with a revision, each changed document's revision grows by one.
    ///
    /// On a versioned model that still reads older versions, the update is refused with [`Error::NotMigrated`],
    /// before anything is written, when any matching document is at an older version.
    ///
    /// A `pull` from a counted set of documents skips a document whose set holds the element more than once; when
    /// that leaves the update matching nothing it fails with [`Error::DuplicateInSet`] (see [`Update::pull`]).
    pub async fn update_many(&self, filter: Filter<M>, update: Update<M>) -> Result<mongodb::results::UpdateResult> {
        self.check_older_shapes(&filter).await?;
        self.run_update(filter, update, true, false, "update_many").await
    }

    /// Applies `update` to the first document matching `filter`, or inserts one built from the filter's equalities
    /// and the update (with its `set_on_insert`s). Guarded updates are refused: the guard would turn into inserts.
    /// On a model with a revision, an update adds one to it, and an insert starts it at 1.
    /// On a versioned model, an older-version document matching the filter is refused like in
    /// [`Collection::update_many`] (an upsert would otherwise insert a second, current copy).
    pub async fn upsert_one(&self, filter: Filter<M>, update: Update<M>) -> Result<mongodb::results::UpdateResult> {
        self.check_older_shapes(&filter).await?;
        self.run_update(filter, update, false, true, "upsert_one").await
    }

    /// Writes only what changed between `old` and `new` (see [`Update::diff`]) to the document matching `filter`.
    /// Returns `None`, writing nothing, when the values are equal and the document is at the current version.
    ///
    /// On a versioned model, a document matching `filter` at an older version is written whole as `new`, at the
    /// current version, even when `old` and `new` are equal: reading it, changing nothing and saving it stores it
    /// migrated (see [`crate::version`]). Finding out costs one lookup while the model reads older versions.
    ///
    /// On a model with a revision ([`Model::REVISION`]) the write is guarded: it applies only if the stored revision
    /// is still `old`'s, and adds one to it in the same statement (the revision of `new` is not read: the diff never
    /// writes the revision). If another writer changed the document since `old` was read, nothing is written and
    /// the call fails with [`Error::Conflict`] (reload, apply the change again, retry); if no document matches
    /// `filter`, with [`Error::NotFound`]. On success the stored revision is `old`'s plus one.
    pub async fn update_changes(
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
        let result = self.run_update(guarded, update, false, false, "update_changes").await?;
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
        let Some(older) = self.older_matching(Some(typed), false).await? else { return Ok(None) };
        let at = match older.version {
            Some(v) => bson::doc! { spec.key: v },
            None => bson::doc! { spec.key: { "$exists": false } },
        };
        let filter = bson::doc! { "$and": [typed.clone(), at] };
        let raw = encode(new)?;
        check_statement::<M>([document_len(&filter), raw.as_bytes().len()])?;
        let result = self.replace(filter, raw).await?;
        if result.matched_count == 0 {
            // Changed or migrated meanwhile: report it rather than overwrite.
            return Err(Error::NotMigrated(Box::new(older)));
        }
        Ok(Some(result))
    }

    /// Replaces the first document matching `filter` with `value` (checked like an insert). Prefer targeted updates:
    /// a replacement re-sends every field and, on a model without a revision, overwrites concurrent changes.
    ///
    /// On a model with a revision ([`Model::REVISION`]) the replacement is guarded: it applies only if the stored
    /// revision equals `value`'s, and the stored document gets `value`'s revision plus one. If another writer changed
    /// the document since `value` was read, nothing is written and the call fails with [`Error::Conflict`] (reload,
    /// apply the change again, retry); if no document matches `filter`, with [`Error::NotFound`].
    pub async fn replace_one(
        &self,
        filter: Filter<M>,
        value: impl Borrow<M>,
    ) -> Result<mongodb::results::UpdateResult> {
        self.check_older_shapes(&filter).await?;
        let value = value.borrow();
        let raw = encode(value)?;
        let (Some((key, long)), Some(expected)) = (Self::revision_field(), value.revision()) else {
            let filter = Self::filter_doc(filter)?;
            Self::one_shard(&filter, "replace_one")?;
            check_statement::<M>([document_len(&filter), raw.as_bytes().len()])?;
            return self.replace(filter, raw).await;
        };
        let next = expected.checked_add(1).ok_or_else(|| Self::invalid(crate::error::Invalid::RevisionAtMaximum))?;
        let raw = with_element(&raw, key, Self::revision_value(next, long)?).map_err(Error::serialize::<M>)?;
        let guarded = Self::filter_doc(Self::at_revision(filter.clone(), key, expected, long)?)?;
        Self::one_shard(&guarded, "replace_one")?;
        check_statement::<M>([document_len(&guarded), raw.as_bytes().len()])?;
        let id = raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        let result = self.replace(guarded, raw).await?;
        if result.matched_count == 0 {
            return Err(self.missed(filter, key, expected, || id).await);
        }
        Ok(result)
    }

    /// Deletes the first document matching `filter`; returns how many were deleted (0 or 1).
    pub async fn delete_one(&self, filter: Filter<M>) -> Result<u64> {
        self.check_older_shapes(&filter).await?;
        let filter = Self::filter_doc(filter)?;
        Self::one_shard(&filter, "delete_one")?;
        let op = self.op("delete").values(|| doc! { "q": &filter, "limit": 1 });
        Ok(op
            .run(self.raw.delete_one(filter).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Self::map_err)?
            .deleted_count)
    }

    /// Deletes every document matching `filter` (stated explicitly); returns how many.
    pub async fn delete_many(&self, filter: Filter<M>) -> Result<u64> {
        self.check_older_shapes(&filter).await?;
        let filter = Self::filter_doc(filter)?;
        let op = self.op("delete").values(|| doc! { "q": &filter, "limit": 0 });
        Ok(op
            .run(self.raw.delete_many(filter).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Self::map_err)?
            .deleted_count)
    }

    /// Replaces the document `filter` matches with `raw` (checked by the caller), as one traced `update`.
    async fn replace(&self, filter: Document, raw: bson::RawDocumentBuf) -> Result<mongodb::results::UpdateResult> {
        let op = self.op("update").values(|| doc! { "q": &filter, "u": raw_value(&raw) });
        op.run(self.raw.replace_one(filter, raw).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Self::map_err)
    }
}
