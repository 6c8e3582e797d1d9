//! [`PushKeeping`]: one element onto a subset array, and into the overflow collection that keeps them all.

use super::read::owner_key;
use crate::base::codec::{decode, encode};
use crate::base::error::{Error, Result};
use crate::base::filter::Filter;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::subset::Subset;
use crate::base::update::Update;
use crate::driver::collection::Collection;
use crate::driver::observe::raw_value;
use crate::driver::transaction::Transaction;
use bson::{doc, oid::ObjectId, Bson, Document, RawDocumentBuf};
use mongodb::action::Action;
use std::future::{Future, IntoFuture};
use std::pin::Pin;

/// Pushes one element onto an owner's subset array (keeping the latest `max_items`) and inserts it into the overflow
/// collection (which keeps every element), in one transaction when the server runs them, else overflow first (see
/// the [module](crate::subset) docs).
///
/// ```no_run
/// # use odm::{subset::PushKeeping, Collection, Embedded, Model, bson::oid::ObjectId};
/// # #[derive(Embedded, serde::Serialize, serde::Deserialize, Clone)]
/// # struct ReviewText { #[serde(rename = "by")] author: String, #[serde(rename = "s")] stars: i32 }
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "shop_product")]
/// # struct Product {
/// #     #[serde(rename = "_id")] id: ObjectId,
/// #     #[serde(rename = "rv")] #[odm(max_items = 10, keep_last, overflow(model = "Review", owner = "product"))]
/// #     reviews: Vec<ReviewText>,
/// # }
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "shop_review", index(keys = "product, -id"))]
/// # struct Review {
/// #     #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "pr")] product: ObjectId,
/// #     #[serde(rename = "by")] author: String, #[serde(rename = "s")] stars: i32,
/// # }
/// # async fn run(products: Collection<Product>, reviews: Collection<Review>, id: ObjectId) -> odm::error::Result<()> {
/// let review = ReviewText { author: "ada".into(), stars: 5 };
/// let pushed = PushKeeping::new(&products, &reviews, id, review).await?;
/// println!("stored as review {}", pushed.overflow_id);
/// # Ok(()) }
/// ```
///
/// The element is cloned when the server runs the transaction again after a transient error (a write conflict
/// with a concurrent push onto the same owner).
#[must_use = "an element is pushed only when the builder is awaited"]
pub struct PushKeeping<'a, M: Subset<O>, O: Model> {
    owners: &'a Collection<M>,
    overflow: &'a Collection<O>,
    owner: Bson,
    element: M::Element,
    also: Option<Update<M>>,
}

/// What [`PushKeeping`] did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Pushed {
    /// The `_id` of the overflow document that holds the element.
    pub overflow_id: ObjectId,
    /// Whether both writes were in one transaction (odm's own, when the server runs transactions, or the caller's,
    /// when the collections are bound to a session in one); else they were written overflow first.
    pub atomic: bool,
}

impl<'a, M, O> PushKeeping<'a, M, O>
where
    M: Subset<O>,
    M::Element: Clone + Send + Sync,
    O: Model,
{
    /// Pushes `element` onto the array of the owner whose `_id` is `owner`, in `owners`, and inserts it into
    /// `overflow` with the owner's `_id`.
    pub fn new(
        owners: &'a Collection<M>,
        overflow: &'a Collection<O>,
        owner: impl Into<Bson>,
        element: M::Element,
    ) -> Self {
        PushKeeping { owners, overflow, owner: owner.into(), element, also: None }
    }

    /// Also applies `update` to the owner in the same statement as the push (and so in the same transaction): fields
    /// the owner keeps about every element pushed, which the embedded array cannot tell once it cuts its oldest (a
    /// review count with `inc`, a sum of stars with `inc`, the latest date with `max`), so they are never out of
    /// step with the overflow collection, even under concurrent pushes.
    ///
    /// ```no_run
    /// # use odm::{subset::PushKeeping, Collection, Embedded, Model, Update, bson::oid::ObjectId};
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize, Clone)]
    /// # struct ReviewText { #[serde(rename = "by")] author: String, #[serde(rename = "s")] stars: i32 }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "shop_product")]
    /// # struct Product {
    /// #     #[serde(rename = "_id")] id: ObjectId,
    /// #     #[serde(rename = "rv")] #[odm(max_items = 10, keep_last, overflow(model = "Review", owner = "product"))]
    /// #     reviews: Vec<ReviewText>,
    /// #     #[serde(rename = "rc")] review_count: i32,
    /// #     #[serde(rename = "st")] star_total: i64,
    /// # }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "shop_review", index(keys = "product, -id"))]
    /// # struct Review {
    /// #     #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "pr")] product: ObjectId,
    /// #     #[serde(rename = "by")] author: String, #[serde(rename = "s")] stars: i32,
    /// # }
    /// # async fn run(products: Collection<Product>, reviews: Collection<Review>, id: ObjectId) -> odm::error::Result<()> {
    /// let f = Product::fields();
    /// let review = ReviewText { author: "ada".into(), stars: 5 };
    /// let counted = Update::new().inc(f.review_count(), 1).inc(f.star_total(), i64::from(review.stars));
    /// PushKeeping::new(&products, &reviews, id, review).also(counted).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// An update that writes the array (or a path above or below it), or carries a guard (a counted `add_to_set`,
    /// `pull` or `pop`, which would make the push not apply where it did not hold), is refused before anything is
    /// written.
    pub fn also(mut self, update: Update<M>) -> Self {
        self.also = Some(update);
        self
    }

    async fn run(mut self) -> Result<Pushed> {
        let overflow_id = ObjectId::new();
        let stored = self.overflow_document(overflow_id)?;
        let mut push = M::push_element(self.element.clone());
        if let Some(also) = self.also.take() {
            push = push.along_with(also, "PushKeeping");
            // Refused before anything is written: a path both write is found only when the update is built.
            push.clone().build()?;
        }
        let sessions = [self.owners.session(), self.overflow.session()];
        let bound = sessions.iter().any(Option::is_some);
        // Collections bound to a session in a transaction write as part of the caller's transaction.
        let in_callers = sessions.iter().flatten().any(|s| s.in_transaction());
        if !bound {
            let client = self.owners.raw().client();
            let outcome = Transaction::new(client)
                .run(|s| {
                    let owners = self.owners.with_session(&s);
                    let overflow = self.overflow.with_session(&s);
                    let (stored, push) = (stored.clone(), push.clone());
                    let owner = self.owner.clone();
                    async move { write_both(&owners, &overflow, owner, stored, push).await }
                })
                .await;
            match outcome {
                Ok(()) => return Ok(Pushed { overflow_id, atomic: true }),
                // The server said it runs no transactions: write in the order that loses nothing.
                Err(Error::Unsupported { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        // Overflow first: a crash before the push leaves the element in the full history, never nowhere.
        let written = write_both(self.owners, self.overflow, self.owner, stored, push).await;
        if let Err(Error::NotFound { .. }) = &written {
            // No such owner: the overflow document would refer to nothing.
            let delete = self.overflow.raw().delete_one(doc! { "_id": overflow_id });
            self.overflow
                .op("delete")
                .values(|| doc! { "q": { "_id": overflow_id }, "limit": 1 })
                .run(delete.optional(self.overflow.lock().await.as_deref_mut(), |a, s| a.session(s)))
                .await
                .map_err(Collection::<O>::map_err)?;
        }
        written.map(|()| Pushed { overflow_id, atomic: in_callers })
    }

    /// The overflow document: the element's stored fields, the owner's `_id` and a new `_id`. Read as `O` and written
    /// back, so a document the overflow model would not read is refused before anything is written.
    fn overflow_document(&self, id: ObjectId) -> Result<RawDocumentBuf> {
        let serialize = Error::serialize::<O>;
        let mut stored =
            match <M::Element as crate::base::schema::BsonSchema>::to_bson(&self.element).map_err(serialize)? {
                Bson::Document(d) => d,
                // The derive accepts only elements with named fields; anything else starts empty and is refused by
                // the overflow model's decoding below.
                _ => Document::new(),
            };
        stored.insert("_id", id);
        stored.insert(owner_key::<M, O>(), self.owner.clone());
        let raw = RawDocumentBuf::try_from(&stored).map_err(serialize)?;
        encode(&decode::<O>(&raw)?)
    }
}

/// Inserts the overflow document, then applies `push` (the element's push, with what goes along) to the owner.
async fn write_both<M: Subset<O>, O: Model>(
    owners: &Collection<M>,
    overflow: &Collection<O>,
    owner: Bson,
    stored: RawDocumentBuf,
    push: Update<M>,
) -> Result<()> {
    let op = overflow.op("insert").values(|| doc! { "documents": [raw_value(&stored)] });
    op.run(overflow.raw().insert_one(stored).optional(overflow.lock().await.as_deref_mut(), |a, s| a.session(s)))
        .await
        .map_err(Collection::<O>::map_err)?;
    let id = Filter::from_document(doc! { "_id": owner.clone() });
    let result = owners.update_one(id, push).await?;
    if result.matched == 0 {
        return Err(Error::NotFound { model: model_name::<M>(), id: Some(Box::new(owner)) });
    }
    Ok(())
}

impl<'a, M, O> IntoFuture for PushKeeping<'a, M, O>
where
    M: Subset<O>,
    M::Element: Clone + Send + Sync,
    O: Model,
{
    type Output = Result<Pushed>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}
