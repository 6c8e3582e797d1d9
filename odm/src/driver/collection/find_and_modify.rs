//! Find-and-modify: [`FindOneAndUpdate`] and [`FindOneAndDelete`].

use super::handle::Collection;
use super::prep::Tally;
use super::wire::{check_statement, document_len, IfNone};
use crate::base::codec::decode;
use crate::base::error::{Error, Result};
use crate::base::filter::{Filter, Sort};
use crate::base::model::Model;
use crate::base::update::Update;
use mongodb::action::Action;
use mongodb::options::ReturnDocument;
use std::borrow::Cow;

impl<M: Model> Collection<M> {
    /// Atomically updates the first document matching `filter` and returns it: `.await` it for the document as it
    /// was before the update (as the server does), or after it with [`FindOneAndUpdate::after`]; `None` when nothing
    /// matched. On a model with a revision, the update adds one to it. A `pull` from a counted set of documents
    /// holding the element more than once fails with [`Error::DuplicateInSet`] rather than answer `None` (see
    /// [`Update::pull`]).
    pub fn find_one_and_update(&self, filter: Filter<M>, update: Update<M>) -> FindOneAndUpdate<'_, M> {
        FindOneAndUpdate {
            coll: Cow::Borrowed(self),
            filter,
            update,
            returning: ReturnDocument::Before,
            if_none: IfNone::Nothing,
            sort: None,
            hint: None,
        }
    }

    /// Atomically deletes the first document matching `filter` (in [`FindOneAndDelete::sort`] order, when given):
    /// `.await` it for the document deleted, `None` when nothing matched.
    pub fn find_one_and_delete(&self, filter: Filter<M>) -> FindOneAndDelete<'_, M> {
        FindOneAndDelete { coll: Cow::Borrowed(self), filter, sort: None, hint: None }
    }
}

/// A pending [`Collection::find_one_and_update`]: set its options, then `.await` it.
#[must_use = "a `FindOneAndUpdate` does nothing until awaited"]
pub struct FindOneAndUpdate<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    filter: Filter<M>,
    update: Update<M>,
    returning: ReturnDocument,
    if_none: IfNone,
    sort: Option<Sort<M>>,
    hint: Option<String>,
}

impl<M: Model> FindOneAndUpdate<'_, M> {
    /// Returns the document as it is after the update (by default, as it was before).
    pub fn after(mut self) -> Self {
        self.returning = ReturnDocument::After;
        self
    }

    /// Inserts a document when none matches, as [`UpdateOne::upsert`](super::UpdateOne::upsert) does (guarded
    /// updates refused, older-version documents refused); with [`FindOneAndUpdate::after`] the inserted document
    /// comes back, without it `None`.
    pub fn upsert(mut self) -> Self {
        self.if_none = IfNone::Insert;
        self
    }

    /// Which matching document to update first.
    pub fn sort(mut self, sort: Sort<M>) -> Self {
        self.sort = Some(sort);
        self
    }

    hint_setter!();
    session_setter!();

    async fn run(self) -> Result<Option<M>> {
        let FindOneAndUpdate { coll, filter, update, returning, if_none, sort, hint } = self;
        coll.run_find_one_and_update(filter, update, (returning, if_none), sort, hint).await
    }
}

into_future!([] FindOneAndUpdate<'a, M> => Option<M>, |b| b.run().await);

impl<M: Model> Collection<M> {
    /// [`FindOneAndUpdate`], awaited.
    async fn run_find_one_and_update(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        (returning, if_none): (ReturnDocument, IfNone),
        sort: Option<Sort<M>>,
        hint: Option<String>,
    ) -> Result<Option<M>> {
        self.check_older_shapes(&filter).await?;
        // Only while older versions are read is the typed filter needed again (to look for older documents).
        let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
        if if_none == IfNone::Insert {
            if let Some(older) = self.older_matching(typed.as_ref(), Tally::Count).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        let (filter, mut built, recheck) = Self::prepare(filter, update, if_none)?;
        Self::one_shard(&filter, "find_one_and_update")?;
        Self::bump_revision(&mut built.update);
        let sort = sort.map(|s| s.into_marked().map_err(Self::invalid)).transpose()?;
        let parts = [&filter, &built.update].into_iter().chain(&sort).chain(built.array_filters());
        check_statement::<M>(parts.map(document_len))?;
        let (update, array_filters) = built.into_statement();
        let array_filters = (!array_filters.is_empty()).then_some(array_filters);
        let upsert = if_none.upsert();
        let op = self.op("findAndModify").values(|| {
            bson::doc! {
                "query": &filter, "update": &update, "sort": &sort, "arrayFilters": &array_filters, "upsert": upsert,
                "hint": &hint,
            }
        });
        let found = op
            .run(
                self.raw
                    .find_one_and_update(filter, update)
                    .return_document(returning)
                    .upsert(upsert)
                    .optional(sort, |a, s| a.sort(s))
                    .optional(array_filters, |a, f| a.array_filters(f))
                    .optional(hint, |a, h| a.hint(mongodb::options::Hint::Name(h)))
                    .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
            .map_err(Self::map_err)?;
        if found.is_none() {
            if let Some(older) = self.older_matching(typed.as_ref(), Tally::AnyOne).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
            if let Some(recheck) = recheck {
                self.recheck_pull(recheck, 0).await?;
            }
        }
        found.as_deref().map(decode).transpose()
    }
}

/// A pending [`Collection::find_one_and_delete`]: set its options, then `.await` it.
#[must_use = "a `FindOneAndDelete` does nothing until awaited"]
pub struct FindOneAndDelete<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    filter: Filter<M>,
    sort: Option<Sort<M>>,
    hint: Option<String>,
}

impl<M: Model> FindOneAndDelete<'_, M> {
    /// Which matching document to delete first.
    pub fn sort(mut self, sort: Sort<M>) -> Self {
        self.sort = Some(sort);
        self
    }

    hint_setter!();
    session_setter!();

    async fn run(self) -> Result<Option<M>> {
        let coll = self.coll;
        coll.check_older_shapes(&self.filter).await?;
        let filter = Collection::filter_doc(self.filter)?;
        Collection::<M>::one_shard(&filter, "find_one_and_delete")?;
        let sort = self.sort.map(|s| s.into_marked().map_err(Collection::<M>::invalid)).transpose()?;
        let op = coll
            .op("findAndModify")
            .values(|| bson::doc! { "query": &filter, "sort": &sort, "remove": true, "hint": &self.hint });
        let mut session = coll.lock().await;
        let delete = coll
            .raw
            .find_one_and_delete(filter)
            .optional(sort, |a, s| a.sort(s))
            .optional(self.hint, |a, h| a.hint(mongodb::options::Hint::Name(h)))
            .optional(session.as_deref_mut(), |a, s| a.session(s));
        let found = op.run(delete).await.map_err(Collection::<M>::map_err)?;
        found.as_deref().map(decode).transpose()
    }
}

into_future!([] FindOneAndDelete<'a, M> => Option<M>, |b| b.run().await);
