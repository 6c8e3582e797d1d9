//! [`AddReading`]: one reading into its key's bucket, in one statement.

use crate::base::bucket::{Bucket, BucketLayout};
use crate::base::error::{Error, Invalid, NamedPath, Result};
use crate::base::filter::{overlaps, Filter};
use crate::base::update::{Operator, Update};
use crate::driver::collection::{Collection, IfNone, Reach};
use bson::{doc, Bson, Document};
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
    also: Option<Update<B>>,
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
        AddReading { buckets, key, reading, also: None }
    }

    /// Also applies `update` in the same statement: fields the bucket keeps about its readings (the first and last
    /// time with `min`/`max`, a sum with `inc`), so they are never out of step with the array, even under concurrent
    /// writers. On a bucket the reading opens, `min`, `max` and `inc` create the field (declare such fields `Option`:
    /// rule [`bucket-shape`](crate::rules#bucket-shape)).
    ///
    /// ```no_run
    /// # use odm::{bucket::AddReading, Embedded, Model, Update, bson::{oid::ObjectId, DateTime}};
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// # struct Reading { #[serde(rename = "t")] at: DateTime, #[serde(rename = "v")] value: i64 }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "iot_reading_bucket", bucket(key = "sensor", items = "readings"))]
    /// # #[odm(index(keys = "sensor, count"))]
    /// # struct SensorDay {
    /// #     #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "s")] sensor: String,
    /// #     #[serde(rename = "r")] #[odm(max_items = 200, counter = "count")] readings: Vec<Reading>,
    /// #     #[serde(rename = "n")] count: i32,
    /// #     #[serde(rename = "lt", skip_serializing_if = "Option::is_none")] last: Option<DateTime>,
    /// #     #[serde(rename = "sm", skip_serializing_if = "Option::is_none")] sum: Option<i64>,
    /// # }
    /// # async fn run(buckets: odm::Collection<SensorDay>) -> odm::error::Result<()> {
    /// let (f, at) = (SensorDay::fields(), DateTime::now());
    /// AddReading::new(&buckets, f.sensor().eq("s-17"), Reading { at, value: 7 })
    ///     .also(Update::new().max(f.last(), at).inc(f.sum(), 7))
    ///     .await?;
    /// # Ok(()) }
    /// ```
    ///
    /// An update that writes the array or its counter, or carries a guard (which an upsert cannot honour), is
    /// refused before sending.
    pub fn also(mut self, update: Update<B>) -> Self {
        self.also = Some(update);
        self
    }

    async fn run(self) -> Result<AddedReading> {
        let layout = B::layout();
        self.buckets.check_older_shapes(&self.key).await?;
        let filter = bucket_filter::<B>(&layout, Collection::<B>::filter_doc(self.key)?)?;
        // While the model still reads older versions, an older bucket of this key with room would be passed over for
        // a second, current one: refused like every upsert (migrate first), and only current buckets are filled.
        if Collection::<B>::migrating().is_some() {
            if let Some(older) =
                self.buckets.older_matching(Some(&filter), crate::driver::collection::Tally::Count).await?
            {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        let filter = Collection::<B>::current_only(filter);
        let reading = <B::Reading as crate::base::schema::BsonSchema>::to_bson(&self.reading)
            .map_err(|e| Error::serialize::<B>(e))?;
        let one = if layout.counter_long { Bson::Int64(1) } else { Bson::Int32(1) };
        let computed = computed_steps::<B>(&layout, &reading)?;
        let mut update = doc! { "$push": { layout.items: reading }, "$inc": { layout.counter: one } };
        merge::<B>(&layout, &mut update, computed)?;
        if let Some(spec) = B::VERSION {
            // A bucket the reading opens is written at the current version, stored as the version field stores it.
            merge::<B>(&layout, &mut update, doc! { "$setOnInsert": { spec.key: spec.current as i32 } })?;
        }
        let mut array_filters = Vec::new();
        if let Some(also) = self.also {
            let built = also.build()?;
            if built.guard().is_some() {
                return Err(Error::invalid_operation::<B>(Invalid::GuardedUpsert));
            }
            let (also, filters) = built.into_statement();
            merge::<B>(&layout, &mut update, also)?;
            array_filters = filters;
        }
        let result = self
            .buckets
            .send_update(filter, update, array_filters, (Reach::First, IfNone::Insert), None, "add_reading")
            .await?;
        Ok(AddedReading { opened: result.upserted_id })
    }
}

/// What keeps the bucket's computed fields in step with one more reading (`$inc` of a sum, `$max`, `$min`), as
/// operator groups; empty when the bucket declares none.
fn computed_steps<B: Bucket>(layout: &BucketLayout, reading: &Bson) -> Result<Document> {
    if layout.computes.is_empty() {
        return Ok(Document::new());
    }
    let mut groups = vec![(Operator::Push, doc! { layout.items: reading.clone() })];
    let arrays = vec![(layout.items.to_owned(), layout.computes)];
    crate::base::update::computed::follow(&mut groups, arrays, &[]).map_err(Error::invalid_operation::<B>)?;
    Ok(groups.into_iter().skip(1).map(|(op, fields)| (op.name().to_owned(), Bson::Document(fields))).collect())
}

/// Adds the operators of `also` to `update` (the reading's `$push` and the counter's `$inc`), refusing any that
/// writes the array or the counter (or a path above or below them): the array and its counter move together only.
fn merge<B: Bucket>(layout: &BucketLayout, update: &mut Document, also: Document) -> Result<()> {
    for (op, fields) in also {
        let Bson::Document(fields) = fields else { continue };
        for own in [(layout.items, Operator::Push), (layout.counter, Operator::Inc)] {
            if let Some(path) = fields.keys().find(|k| overlaps(k, own.0)) {
                let second_operator = operator(&op).unwrap_or(own.1);
                return Err(Error::invalid_operation::<B>(Invalid::PathConflict {
                    first: NamedPath::at(own.0),
                    first_operator: own.1,
                    second: NamedPath::at(path),
                    second_operator,
                }));
            }
        }
        match update.get_mut(&op) {
            Some(Bson::Document(group)) => group.extend(fields),
            _ => {
                update.insert(op, fields);
            }
        }
    }
    Ok(())
}

/// The operator spelt `name`.
fn operator(name: &str) -> Option<Operator> {
    use Operator::*;
    [Set, Unset, Inc, Mul, Min, Max, CurrentDate, SetOnInsert, Push, AddToSet, Pull, Pop]
        .into_iter()
        .find(|o| o.name() == name)
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
