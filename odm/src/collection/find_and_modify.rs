//! Find-and-modify: `find_one_and_update` with its options ([`FindAndModify`]) and `find_one_and_delete`.

use super::handle::Collection;
use super::wire::{check_statement, document_len};
use crate::codec::decode;
use crate::error::{Error, Result};
use crate::filter::{Filter, Sort};
use crate::model::Model;
use crate::update::Update;
use mongodb::action::Action;

impl<M: Model> Collection<M> {
    /// Atomically updates the first document matching `filter` (in `sort` order, when given) and returns it as it
    /// is after the update (`after = true`) or was before. On a model with a revision, the update adds one to it. A
    /// `pull` from a counted set of documents holding the element more than once fails with
    /// [`Error::DuplicateInSet`] rather than answer `None` (see [`Update::pull`]).
    pub async fn find_one_and_update(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        options: FindAndModify<M>,
    ) -> Result<Option<M>> {
        self.check_older_shapes(&filter).await?;
        // Only while older versions are read is the typed filter needed again (to look for older documents).
        let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
        if options.upsert {
            if let Some(older) = self.older_matching(typed.as_ref(), true).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        let (filter, mut built, recheck) = Self::prepare(filter, update, options.upsert)?;
        Self::one_shard(&filter, "find_one_and_update")?;
        Self::bump_revision(&mut built.update);
        let sort = options.sort.map(|s| s.into_marked().map_err(Self::invalid)).transpose()?;
        let parts = [&filter, &built.update].into_iter().chain(&sort).chain(&built.array_filters);
        check_statement::<M>(parts.map(document_len))?;
        let array_filters = (!built.array_filters.is_empty()).then_some(built.array_filters);
        let ret = if options.after {
            mongodb::options::ReturnDocument::After
        } else {
            mongodb::options::ReturnDocument::Before
        };
        let op = self.op("findAndModify").values(|| {
            bson::doc! { "query": &filter, "update": &built.update, "sort": &sort, "arrayFilters": &array_filters, "upsert": options.upsert }
        });
        let found = op
            .run(
                self.raw
                    .find_one_and_update(filter, built.update)
                    .return_document(ret)
                    .upsert(options.upsert)
                    .optional(sort, |a, s| a.sort(s))
                    .optional(array_filters, |a, f| a.array_filters(f))
                    .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)),
            )
            .await
            .map_err(Self::map_err)?;
        if found.is_none() {
            if let Some(older) = self.older_matching(typed.as_ref(), false).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
            if let Some(recheck) = recheck {
                self.recheck_pull(recheck).await?;
            }
        }
        found.as_ref().map(decode).transpose()
    }

    /// Atomically deletes the first document matching `filter` and returns it.
    pub async fn find_one_and_delete(&self, filter: Filter<M>) -> Result<Option<M>> {
        self.check_older_shapes(&filter).await?;
        let filter = Self::filter_doc(filter)?;
        Self::one_shard(&filter, "find_one_and_delete")?;
        let op = self.op("findAndModify").values(|| bson::doc! { "query": &filter, "remove": true });
        let found = op
            .run(self.raw.find_one_and_delete(filter).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Self::map_err)?;
        found.as_ref().map(decode).transpose()
    }
}

/// Options of [`Collection::find_one_and_update`].
pub struct FindAndModify<M> {
    pub(super) after: bool,
    pub(super) upsert: bool,
    pub(super) sort: Option<Sort<M>>,
}

impl<M> FindAndModify<M> {
    /// Return the document as it is after the update.
    pub fn after() -> Self {
        FindAndModify { after: true, upsert: false, sort: None }
    }

    /// Return the document as it was before the update.
    pub fn before() -> Self {
        FindAndModify { after: false, upsert: false, sort: None }
    }

    /// Insert when nothing matches (guarded updates are refused).
    pub fn upsert(mut self) -> Self {
        self.upsert = true;
        self
    }

    /// Which matching document to take first.
    pub fn sort(mut self, sort: Sort<M>) -> Self {
        self.sort = Some(sort);
        self
    }
}
