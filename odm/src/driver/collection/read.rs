//! Reads: `find_one` ([`FindOne`]), `find` (and by variant) and `count` ([`Count`]).

use super::find::Find;
use super::handle::Collection;
use super::wire::{decode_variant, view_projection};
use crate::base::codec::{decode, decode_view};
use crate::base::error::Result;
use crate::base::explain::Explain;
use crate::base::filter::{Filter, Projection};
use crate::base::model::{Model, VariantOf};
use crate::base::view::View;
use bson::{doc, RawDocument};
use mongodb::action::Action;
use std::borrow::Cow;

impl<M: Model> Collection<M> {
    /// The first document matching `filter`: `.await` it for `Option<M>`, or [`FindOne::explain`] it.
    pub fn find_one(&self, filter: Filter<M>) -> FindOne<'_, M, M> {
        FindOne { coll: Cow::Borrowed(self), filter, hint: None, projection: None, decode: decode::<M>, checked: true }
    }

    /// The documents matching `filter`: add a sort, limit, skip or projection, then `.await` (or `.stream()`).
    ///
    /// ```no_run
    /// # use odm::{Model, Collection, bson::oid::ObjectId};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "shop_review")]
    /// # struct Review { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "s")] stars: i32 }
    /// # async fn f(reviews: Collection<Review>) -> odm::error::Result<()> {
    /// let f = Review::fields();
    /// let best: Vec<Review> = reviews.find(f.stars().gte(4)).sort(f.stars().desc()).limit(10).await?;
    /// # Ok(()) }
    /// ```
    pub fn find(&self, filter: Filter<M>) -> Find<'_, M, M> {
        Find::new(self, filter, decode::<M>)
    }

    /// The documents of one variant of a polymorphic model matching `filter`, as the struct that variant wraps
    /// (see [`VariantOf`]): the discriminator is added to the filter. Add a sort, limit, skip or projection, then
    /// `.await`, as with [`Collection::find`].
    ///
    /// ```no_run
    /// # use odm::{Collection, Embedded, Model};
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// # struct Referral { #[serde(rename = "by")] by: String }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "web_event")]
    /// # #[serde(tag = "t")]
    /// # enum Event { Click { x: i32 }, #[serde(rename = "ref")] Referral(Referral) }
    /// # async fn f(events: Collection<Event>) -> odm::error::Result<()> {
    /// let f = Event::fields();
    /// let from_grace: Vec<Referral> = events.find_variant(f.referral().by().eq("grace")).await?;
    /// let all: Vec<Referral> = events.find_variant(odm::Filter::everything()).await?;
    /// # Ok(()) }
    /// ```
    pub fn find_variant<V: VariantOf<M>>(&self, filter: Filter<M>) -> Find<'_, M, V> {
        let (tag, value) = V::TAG;
        let filter = filter.and(Filter::from_document(bson::doc! { tag: value }));
        Find::new(self, filter, decode_variant::<M, V>)
    }

    /// The first document of one variant matching `filter`, as the struct the variant wraps (see
    /// [`Collection::find_variant`]): `.await` it for `Option<V>`.
    pub fn find_one_variant<V: VariantOf<M> + Send>(&self, filter: Filter<M>) -> FindOne<'_, M, V> {
        let (tag, value) = V::TAG;
        let filter = filter.and(Filter::from_document(bson::doc! { tag: value }));
        FindOne {
            coll: Cow::Borrowed(self),
            filter,
            hint: None,
            projection: None,
            decode: decode_variant::<M, V>,
            checked: false,
        }
    }

    /// Number of documents matching `filter`: `.await` it, or [`Count::explain`] it.
    pub fn count(&self, filter: Filter<M>) -> Count<'_, M> {
        Count { coll: Cow::Borrowed(self), filter, hint: None }
    }
}

/// A pending [`Collection::find_one`] (or [`Collection::find_one_variant`], decoded as `P`): set its options, then
/// `.await` it (or [`FindOne::explain`] it).
#[must_use = "a `FindOne` does nothing until awaited"]
pub struct FindOne<'a, M: Model, P> {
    coll: Cow<'a, Collection<M>>,
    filter: Filter<M>,
    hint: Option<String>,
    /// What the server returns of the document (a view's paths), or all of it.
    projection: Option<Projection<M>>,
    /// How the document is decoded: as the model (older versions migrated), as one variant, or as a view.
    decode: fn(&RawDocument) -> Result<P>,
    /// Whether the filter is checked against older versions' shapes and one-shard routing (a variant's read has
    /// the discriminator added and is not).
    checked: bool,
}

impl<'a, M: Model, P> FindOne<'a, M, P> {
    hint_setter!();
    session_setter!();

    /// Returns only what view `V` reads, decoded as `V`: the server sends exactly the view's stored paths (see
    /// [`crate::view`]). A versioned model's document is read at the current version only, as
    /// [`Find::view`](crate::collection::Find::view) says.
    pub fn view<V: View<Of = M>>(self) -> FindOne<'a, M, V> {
        FindOne {
            coll: self.coll,
            filter: self.filter,
            hint: self.hint,
            projection: Some(view_projection::<M, V>()),
            decode: decode_view::<M, V>,
            checked: self.checked,
        }
    }

    /// What the server plans for this read, with execution statistics, instead of the document (see
    /// [`crate::explain`]).
    pub async fn explain(self) -> Result<Explain> {
        let mut find =
            doc! { "find": self.coll.raw.name(), "filter": Collection::filter_doc(self.filter)?, "limit": 1 };
        if let Some(projection) = self.projection {
            find.insert("projection", projection.into_marked().map_err(Collection::<M>::invalid)?);
        }
        if let Some(hint) = self.hint {
            find.insert("hint", hint);
        }
        self.coll.explain(find).await
    }

    async fn run(self) -> Result<Option<P>> {
        let coll = self.coll;
        if self.checked {
            coll.check_older_shapes(&self.filter).await?;
        }
        let filter = Collection::filter_doc(self.filter)?;
        if self.checked {
            Collection::<M>::one_shard(&filter, "find_one")?;
        }
        let projection = self.projection.map(|p| p.into_marked().map_err(Collection::<M>::invalid)).transpose()?;
        let op = coll.op("find").values(|| {
            doc! { "filter": &filter, "projection": &projection, "limit": 1, "hint": &self.hint }
        });
        let mut session = coll.lock().await;
        let find = coll
            .raw
            .find_one(filter)
            .optional(self.hint, |a, h| a.hint(mongodb::options::Hint::Name(h)))
            .optional(projection, |a, p| a.projection(p))
            .optional(session.as_deref_mut(), |a, s| a.session(s));
        match op.run(find).await? {
            Some(raw) => (self.decode)(&raw).map(Some),
            None => Ok(None),
        }
    }
}

into_future!([P: Send + 'a] FindOne<'a, M, P> => Option<P>, |b| b.run().await);

/// A pending [`Collection::count`]: set its options, then `.await` it (or [`Count::explain`] it).
#[must_use = "a `Count` does nothing until awaited"]
pub struct Count<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    filter: Filter<M>,
    hint: Option<String>,
}

impl<M: Model> Count<'_, M> {
    hint_setter!();
    session_setter!();

    /// What the server plans for this count, with execution statistics, instead of the number (see
    /// [`crate::explain`]).
    pub async fn explain(self) -> Result<Explain> {
        let mut count = doc! { "count": self.coll.raw.name(), "query": Collection::filter_doc(self.filter)? };
        if let Some(hint) = self.hint {
            count.insert("hint", hint);
        }
        self.coll.explain(count).await
    }

    async fn run(self) -> Result<u64> {
        let coll = self.coll;
        coll.check_older_shapes(&self.filter).await?;
        let filter = Collection::filter_doc(self.filter)?;
        let op = coll.op("aggregate").values(|| doc! { "query": &filter, "hint": &self.hint });
        let mut session = coll.lock().await;
        let count = coll
            .raw
            .count_documents(filter)
            .optional(self.hint, |a, h| a.hint(mongodb::options::Hint::Name(h)))
            .optional(session.as_deref_mut(), |a, s| a.session(s));
        Ok(op.run(count).await?)
    }
}

into_future!([] Count<'a, M> => u64, |b| b.run().await);
