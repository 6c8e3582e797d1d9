//! Deletes: [`DeleteOne`] and [`DeleteMany`], and the explain of a delete statement.

use super::handle::Collection;
use super::results::Deleted;
use super::wire::Reach;
use crate::base::error::Result;
use crate::base::explain::Explain;
use crate::base::filter::Filter;
use crate::base::model::Model;
use bson::doc;
use mongodb::action::Action;
use std::borrow::Cow;

impl<M: Model> Collection<M> {
    /// Deletes the first document matching `filter`; `.await` it for how many were [`Deleted`] (0 or 1).
    pub fn delete_one(&self, filter: Filter<M>) -> DeleteOne<'_, M> {
        DeleteOne(Delete { coll: Cow::Borrowed(self), filter, hint: None })
    }

    /// Deletes every document matching `filter` (stated explicitly); `.await` it for how many were [`Deleted`].
    pub fn delete_many(&self, filter: Filter<M>) -> DeleteMany<'_, M> {
        DeleteMany(Delete { coll: Cow::Borrowed(self), filter, hint: None })
    }
}

/// What both deletes hold: the first matching document is deleted, or (`many`) every one.
struct Delete<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    filter: Filter<M>,
    hint: Option<String>,
}

impl<M: Model> Delete<'_, M> {
    async fn run(self, reach: Reach) -> Result<Deleted> {
        let many = reach.multi();
        let coll = self.coll;
        coll.check_older_shapes(&self.filter).await?;
        let filter = Collection::filter_doc(self.filter)?;
        let limit = if many { 0 } else { 1 };
        if !many {
            Collection::<M>::one_shard(&filter, "delete_one")?;
        }
        let op = coll.op("delete").values(|| doc! { "q": &filter, "limit": limit, "hint": &self.hint });
        let hint = self.hint.map(mongodb::options::Hint::Name);
        let mut session = coll.lock().await;
        let result = if many {
            let delete = coll.raw.delete_many(filter).optional(hint, |a, h| a.hint(h));
            op.run(delete.optional(session.as_deref_mut(), |a, s| a.session(s))).await
        } else {
            let delete = coll.raw.delete_one(filter).optional(hint, |a, h| a.hint(h));
            op.run(delete.optional(session.as_deref_mut(), |a, s| a.session(s))).await
        };
        Ok(Deleted::from_driver(result.map_err(Collection::<M>::map_err)?))
    }

    /// What the server plans for this delete, with execution statistics; nothing is deleted.
    async fn explain(self, reach: Reach) -> Result<Explain> {
        let many = reach.multi();
        let mut statement = doc! { "q": Collection::filter_doc(self.filter)?, "limit": if many { 0 } else { 1 } };
        if let Some(hint) = self.hint {
            statement.insert("hint", hint);
        }
        self.coll.explain(doc! { "delete": self.coll.raw.name(), "deletes": [statement] }).await
    }
}

/// A pending [`Collection::delete_one`]: set its options, then `.await` it (or [`DeleteOne::explain`] it).
#[must_use = "a `DeleteOne` does nothing until awaited"]
pub struct DeleteOne<'a, M: Model>(Delete<'a, M>);

/// A pending [`Collection::delete_many`]: set its options, then `.await` it (or [`DeleteMany::explain`] it).
#[must_use = "a `DeleteMany` does nothing until awaited"]
pub struct DeleteMany<'a, M: Model>(Delete<'a, M>);

/// The options both deletes take, and their explain (`$reach`: the first matching document, or every one).
macro_rules! delete_options {
    ($builder:ident, $reach:expr) => {
        impl<M: Model> $builder<'_, M> {
            hint_setter!(0.hint);
            session_setter!(0.coll);

            /// What the server plans for this delete, with execution statistics, instead of running it (see
            /// [`crate::explain`]): nothing is deleted.
            pub async fn explain(self) -> Result<Explain> {
                self.0.explain($reach).await
            }
        }

        into_future!([] $builder<'a, M> => Deleted, |b| b.0.run($reach).await);
    };
}

delete_options!(DeleteOne, Reach::First);
delete_options!(DeleteMany, Reach::Every);
