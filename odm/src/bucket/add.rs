//! [`AddReading`]: one reading into its key's bucket, in one statement.

use super::layout::{Bucket, BucketLayout};
use crate::collection::Collection;
use crate::error::{Error, Invalid, NamedPath, Result};
use crate::filter::Filter;
use bson::{doc, Bson, Document};
use mongodb::action::Action;
use std::future::{Future, IntoFuture};
use std::pin::Pin;

/// Adds one reading to the bucket of a key: fills the key's bucket that has room, or opens the next one when all
/// are full (see the [module](crate::bucket) docs for the statement and what concurrent writers do).
///
/// The key is a filter holding every key field to one value (`f.sensor().eq("s-17").and(f.day().eq(day))`); a key
/// field left out or compared otherwise is refused before sending ([`Invalid::BucketKey`]).
#[must_use = "a reading is added only when the builder is awaited"]
pub struct AddReading<'a, B: Bucket> {
    buckets: &'a Collection<B>,
    key: Filter<B>,
    reading: B::Reading,
}

/// What [`AddReading`] did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AddedReading {
    /// The `_id` of the bucket this reading opened; `None` when it went into a bucket that had room.
    pub opened: Option<Bson>,
}

impl<'a, B: Bucket> AddReading<'a, B> {
    /// Adds `reading` to the bucket of `key` in `buckets`.
    pub fn new(buckets: &'a Collection<B>, key: Filter<B>, reading: B::Reading) -> Self {
        AddReading { buckets, key, reading }
    }

    async fn run(self) -> Result<AddedReading> {
        let layout = B::layout();
        let filter = bucket_filter::<B>(&layout, Collection::<B>::filter_doc(self.key)?)?;
        let reading = <B::Reading as crate::BsonSchema>::to_bson(&self.reading)
            .map_err(|e| Error::Serialize { model: std::any::type_name::<B>(), source: Box::new(e) })?;
        let one = if layout.counter_long { Bson::Int64(1) } else { Bson::Int32(1) };
        let update = doc! { "$push": { layout.items: reading }, "$inc": { layout.counter: one } };
        let result = self
            .buckets
            .raw()
            .update_one(filter, update)
            .upsert(true)
            .optional(self.buckets.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Collection::<B>::map_err)?;
        Ok(AddedReading { opened: result.upserted_id })
    }
}

/// The filter of the bucket that takes the reading: the key's equalities, and room in the array.
fn bucket_filter<B: Bucket>(layout: &BucketLayout, mut key: Document) -> Result<Document> {
    for &(name, stored) in &layout.key {
        // An equality is a plain value or `{$eq: v}` (how a filter compares a document value); either becomes a
        // field of the bucket an upsert opens.
        let equality = match key.get(stored) {
            Some(Bson::Document(d)) => {
                d.keys().next().is_none_or(|k| !k.starts_with('$') || (k == "$eq" && d.len() == 1))
            }
            Some(_) => true,
            None => false,
        };
        if !equality {
            let meta = B::type_meta().map_or("", |m| m.name);
            let path = NamedPath::known(stored, format!("{meta}.{name}"));
            return Err(Error::invalid_operation::<B>(Invalid::BucketKey { path }));
        }
    }
    // Any other condition (on the counter, say) would either fight the room condition or never hold for the
    // bucket an upsert opens.
    if let Some(other) = key.keys().find(|k| !layout.key.iter().any(|(_, stored)| stored == k)) {
        let path = NamedPath::at(other);
        return Err(Error::invalid_operation::<B>(Invalid::BucketKey { path }));
    }
    let room = if layout.counter_long { Bson::Int64(layout.size) } else { Bson::Int32(layout.size as i32) };
    key.insert(layout.counter, doc! { "$lt": room });
    Ok(key)
}

impl<'a, B: Bucket> IntoFuture for AddReading<'a, B> {
    type Output = Result<AddedReading>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}
