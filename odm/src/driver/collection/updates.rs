//! The update builders: [`UpdateOne`] (and its upsert), [`UpdateMany`], [`ReplaceOne`] and [`UpdateChanges`], with
//! the explain of an update statement.

use super::handle::Collection;
use super::results::Updated;
use super::wire::{IfNone, Reach};
use crate::base::codec::encode;
use crate::base::error::Result;
use crate::base::explain::Explain;
use crate::base::filter::Filter;
use crate::base::model::Model;
use crate::base::update::Update;
use bson::RawDocumentBuf;
use std::borrow::{Borrow, Cow};

impl<M: Model> Collection<M> {
    /// Applies `update` to the first document matching `filter` (one document, stated explicitly); `.await` it for what
    /// it [`Updated`]. A guarded update (counted `add_to_set`, `pop`) matches nothing when its guard does not hold:
    /// `matched` is then 0. A `pull` from a counted set of documents that matched nothing because the set holds the
    /// element more than once fails with [`Error::DuplicateInSet`](crate::Error::DuplicateInSet) instead (see
    /// [`Update::pull`]).
    ///
    /// On a model with a revision ([`Model::REVISION`]) the update also adds one to the revision, so a guarded write
    /// based on an earlier read sees the change; it is not itself guarded: add `f.revision().eq(r)` to `filter` to
    /// apply it only at revision `r`, or use [`Collection::update_changes`].
    ///
    /// On a versioned model that still reads older versions, only a document at the current version is updated; if the
    /// filter matches only older ones, the call fails with [`Error::NotMigrated`](crate::Error::NotMigrated) (see
    /// [`crate::version`]).
    ///
    /// With [`UpdateOne::upsert`] it inserts a document when none matches.
    ///
    /// ```no_run
    /// # use odm::{Collection, Model, Update, bson::oid::ObjectId};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "shop_stock")]
    /// # struct Stock {
    /// #     #[serde(rename = "_id")] id: ObjectId,
    /// #     #[serde(rename = "s")] sku: String,
    /// #     #[serde(rename = "q")] quantity: i32,
    /// # }
    /// # async fn f(stock: Collection<Stock>, id: ObjectId) -> odm::error::Result<()> {
    /// let f = Stock::fields();
    /// let done = stock.update_one(f.id().eq(id), Update::new().inc(f.quantity(), -1)).await?;
    /// assert!(done.matched <= 1);
    /// let made = stock.update_one(f.sku().eq("pen"), Update::new().set(f.quantity(), 10)).upsert().await?;
    /// let inserted: Option<ObjectId> = made.upserted_id;
    /// # Ok(()) }
    /// ```
    pub fn update_one(&self, filter: Filter<M>, update: Update<M>) -> UpdateOne<'_, M> {
        UpdateOne { coll: Cow::Borrowed(self), filter, update, if_none: IfNone::Nothing, hint: None }
    }

    /// Applies `update` to every document matching `filter` (multi-document updates are stated explicitly); `.await`
    /// it for what it [`Updated`]. On a model with a revision, each changed document's revision grows by one.
    ///
    /// On a versioned model that still reads older versions, the update is refused with
    /// [`Error::NotMigrated`](crate::Error::NotMigrated), before anything is written, when any matching document is at
    /// an older version.
    ///
    /// A `pull` from a counted set of documents skips a document whose set holds the element more than once, and then
    /// fails with [`Error::DuplicateInSet`](crate::Error::DuplicateInSet) naming it, with how many other documents it
    /// changed (see [`Update::pull`]): one read after every such `update_many` tells.
    pub fn update_many(&self, filter: Filter<M>, update: Update<M>) -> UpdateMany<'_, M> {
        UpdateMany { coll: Cow::Borrowed(self), filter, update, if_none: IfNone::Nothing, hint: None }
    }

    /// Writes only what changed between `old` and `new` (see [`Update::diff`]) to the document matching `filter`.
    /// `.await` it for `None`, when nothing was written because the values are equal and the document is at the
    /// current version, or what it [`Updated`].
    ///
    /// On a versioned model, a document matching `filter` at an older version is written whole as `new`, at the
    /// current version, even when `old` and `new` are equal: reading it, changing nothing and saving it stores it
    /// migrated (see [`crate::version`]). Finding out costs one lookup while the model reads older versions.
    ///
    /// On a model with a revision ([`Model::REVISION`]) the write is guarded: it applies only if the stored revision is
    /// still `old`'s, and adds one to it in the same statement (the revision of `new` is not read: the diff never
    /// writes the revision). If another writer changed the document since `old` was read, nothing is written and the
    /// call fails with [`Error::Conflict`](crate::Error::Conflict) (reload, apply the change again, retry); if no
    /// document matches `filter`, with [`Error::NotFound`](crate::Error::NotFound). On success the stored revision is
    /// `old`'s plus one.
    pub fn update_changes<'a>(&'a self, filter: Filter<M>, old: &'a M, new: &'a M) -> UpdateChanges<'a, M> {
        UpdateChanges { coll: Cow::Borrowed(self), filter, old, new }
    }

    /// Replaces the first document matching `filter` with `value` (checked like an insert); `.await` it for what it
    /// [`Updated`]. Prefer targeted updates: a replacement re-sends every field and, on a model without a revision,
    /// overwrites concurrent changes.
    ///
    /// On a model with a revision ([`Model::REVISION`]) the replacement is guarded: it applies only if the stored
    /// revision equals `value`'s, and the stored document gets `value`'s revision plus one. If another writer changed
    /// the document since `value` was read, nothing is written and the call fails with
    /// [`Error::Conflict`](crate::Error::Conflict) (reload, apply the change again, retry); if no document matches
    /// `filter`, with [`Error::NotFound`](crate::Error::NotFound). (No upsert: a replacement refused by its revision
    /// guard would insert a second copy.)
    pub fn replace_one(&self, filter: Filter<M>, value: impl Borrow<M>) -> ReplaceOne<'_, M> {
        let value = value.borrow();
        ReplaceOne { coll: Cow::Borrowed(self), filter, raw: encode(value), revision: value.revision(), hint: None }
    }

    /// What the server plans for `update` on the documents matching `filter` that `reach` names.
    async fn explain_update(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        (reach, if_none): (Reach, IfNone),
        hint: Option<String>,
    ) -> Result<Explain> {
        let (filter, built, _) = Self::prepare(filter, update, if_none)?;
        let (many, upsert) = (reach.multi(), if_none.upsert());
        let (update, array_filters) = built.into_statement();
        let mut statement = bson::doc! { "q": filter, "u": update, "multi": many, "upsert": upsert };
        if !array_filters.is_empty() {
            statement.insert("arrayFilters", array_filters);
        }
        if let Some(hint) = hint {
            statement.insert("hint", hint);
        }
        self.explain(bson::doc! { "update": self.raw.name(), "updates": [statement] }).await
    }
}

/// An update builder and its awaiting (through `$exec`), reaching the documents `$reach` names.
macro_rules! update_builder {
    ($(#[$doc:meta])* $name:ident, reach = $reach:expr, $exec:ident, upsert: { $(#[$upsert:meta])* }) => {
        $(#[$doc])*
        pub struct $name<'a, M: Model> {
            coll: Cow<'a, Collection<M>>,
            filter: Filter<M>,
            update: Update<M>,
            if_none: IfNone,
            hint: Option<String>,
        }

        impl<M: Model> $name<'_, M> {
            $(#[$upsert])*
            pub fn upsert(mut self) -> Self {
                self.if_none = IfNone::Insert;
                self
            }

            hint_setter!();
            session_setter!();

            /// What the server plans for this update, with execution statistics, instead of writing it (see
            /// [`crate::explain`]): nothing is written.
            pub async fn explain(self) -> Result<Explain> {
                self.coll.explain_update(self.filter, self.update, ($reach, self.if_none), self.hint).await
            }
        }

        into_future!([] $name<'a, M> => Updated<M>, |b| {
            b.coll.$exec(b.filter, b.update, b.if_none, b.hint).await
        });
    };
}

update_builder! {
    /// A pending [`Collection::update_one`]: set its options, then `.await` it (or [`UpdateOne::explain`] it).
    #[must_use = "an `UpdateOne` does nothing until awaited"]
    UpdateOne, reach = Reach::First, exec_update_one, upsert: {
        /// Inserts a document when none matches, built from the filter's equalities and the update (with its
        /// `set_on_insert`s); [`Updated::upserted_id`] is then its `_id`. Guarded updates are refused: the guard
        /// would turn into inserts. On a model with a revision, an update adds one to it, and an insert starts it
        /// at 1. On a versioned model, an older-version document matching the filter is refused like in
        /// [`Collection::update_many`] (an upsert would otherwise insert a second, current copy).
    }
}

update_builder! {
    /// A pending [`Collection::update_many`]: set its options, then `.await` it (or [`UpdateMany::explain`] it).
    #[must_use = "an `UpdateMany` does nothing until awaited"]
    UpdateMany, reach = Reach::Every, exec_update_many, upsert: {
        /// Inserts one document when none matches, as [`UpdateOne::upsert`] does (guarded updates refused,
        /// revision started at 1, refused with [`Error::NotMigrated`](crate::Error::NotMigrated) when
        /// older-version documents match).
    }
}

/// A pending [`Collection::replace_one`]: `.await` it.
#[must_use = "a `ReplaceOne` does nothing until awaited"]
pub struct ReplaceOne<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    filter: Filter<M>,
    /// The value, encoded when the replacement was built (an encoding error fails the await).
    raw: Result<RawDocumentBuf>,
    /// The value's revision, which guards the replacement.
    revision: Option<i64>,
    hint: Option<String>,
}

impl<M: Model> ReplaceOne<'_, M> {
    hint_setter!();
    session_setter!();
}

into_future!([] ReplaceOne<'a, M> => Updated<M>, |b| {
    b.coll.exec_replace_one(b.filter, b.raw, b.revision, b.hint).await
});

/// A pending [`Collection::update_changes`]: `.await` it.
#[must_use = "an `UpdateChanges` does nothing until awaited"]
pub struct UpdateChanges<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    filter: Filter<M>,
    old: &'a M,
    new: &'a M,
}

impl<M: Model> UpdateChanges<'_, M> {
    session_setter!();
}

into_future!([] UpdateChanges<'a, M> => Option<Updated<M>>, |b| {
    let written = b.coll.exec_update_changes(b.filter, b.old, b.new).await?;
    written.map(Updated::from_driver).transpose()
});
