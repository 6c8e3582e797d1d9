//! Reads: `find_one`, `find` (and by variant) and `count`.

use super::find::Find;
use super::handle::Collection;
use super::wire::decode_variant;
use crate::codec::decode;
use crate::error::Result;
use crate::filter::Filter;
use crate::model::{Model, VariantOf};
use bson::doc;
use mongodb::action::Action;

impl<M: Model> Collection<M> {
    /// The first document matching `filter`.
    pub async fn find_one(&self, filter: Filter<M>) -> Result<Option<M>> {
        self.check_older_shapes(&filter).await?;
        let filter = Self::filter_doc(filter)?;
        Self::one_shard(&filter, "find_one")?;
        let op = self.op("find").values(|| doc! { "filter": &filter, "limit": 1 });
        match op.run(self.raw.find_one(filter).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))).await? {
            Some(raw) => decode(&raw).map(Some),
            None => Ok(None),
        }
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
    /// [`Collection::find_variant`]).
    pub async fn find_one_variant<V: VariantOf<M> + Send>(&self, filter: Filter<M>) -> Result<Option<V>> {
        let (tag, value) = V::TAG;
        let filter = filter.and(Filter::from_document(bson::doc! { tag: value }));
        let filter = Self::filter_doc(filter)?;
        let op = self.op("find").values(|| doc! { "filter": &filter, "limit": 1 });
        let found =
            op.run(self.raw.find_one(filter).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))).await?;
        match found {
            Some(raw) => decode_variant::<M, V>(&raw).map(Some),
            None => Ok(None),
        }
    }

    /// Number of documents matching `filter`.
    pub async fn count(&self, filter: Filter<M>) -> Result<u64> {
        self.check_older_shapes(&filter).await?;
        let filter = Self::filter_doc(filter)?;
        let op = self.op("aggregate").values(|| doc! { "query": &filter });
        Ok(op
            .run(self.raw.count_documents(filter).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await?)
    }
}
