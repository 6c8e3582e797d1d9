//! Inserts: [`InsertOne`] and [`InsertMany`], values encoded and size-checked before anything is sent.

use super::handle::Collection;
use super::results::{decode_id, Inserted, InsertedMany};
use crate::base::codec::encode;
use crate::base::error::Result;
use crate::base::model::Model;
use crate::driver::observe::raw_value;
use bson::{doc, RawDocumentBuf};
use mongodb::action::Action;
use std::borrow::{Borrow, Cow};

impl<M: Model> Collection<M> {
    /// Inserts one value; `.await` it for its [`Inserted::id`]. A revision ([`Model::REVISION`]) is stored as the
    /// value gives it.
    pub fn insert_one(&self, value: impl Borrow<M>) -> InsertOne<'_, M> {
        InsertOne { coll: Cow::Borrowed(self), raw: encode(value.borrow()) }
    }

    /// Inserts values in order; every value is encoded and size-checked before the first is sent. `.await` it for
    /// the `_id`s in input order ([`InsertedMany::ids`]).
    pub fn insert_many<I>(&self, values: I) -> InsertMany<'_, M>
    where
        I: IntoIterator,
        I::Item: Borrow<M>,
    {
        let docs = values.into_iter().map(|v| encode(v.borrow())).collect();
        InsertMany { coll: Cow::Borrowed(self), docs }
    }
}

/// A pending [`Collection::insert_one`]: `.await` it.
#[must_use = "an `InsertOne` does nothing until awaited"]
pub struct InsertOne<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    /// The value, encoded when the insert was built (an encoding error fails the await).
    raw: Result<RawDocumentBuf>,
}

impl<M: Model> InsertOne<'_, M> {
    session_setter!();

    async fn run(self) -> Result<Inserted<M>> {
        let (coll, raw) = (self.coll, self.raw?);
        let op = coll.op("insert").values(|| doc! { "documents": [raw_value(&raw)] });
        let result = op
            .run(coll.raw.insert_one(raw).optional(coll.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Collection::<M>::map_err)?;
        Ok(Inserted { id: decode_id::<M>(result.inserted_id)? })
    }
}

into_future!([] InsertOne<'a, M> => Inserted<M>, |b| b.run().await);

/// A pending [`Collection::insert_many`]: `.await` it.
#[must_use = "an `InsertMany` does nothing until awaited"]
pub struct InsertMany<'a, M: Model> {
    coll: Cow<'a, Collection<M>>,
    /// The values, encoded when the insert was built (the first encoding error fails the await).
    docs: Result<Vec<RawDocumentBuf>>,
}

impl<M: Model> InsertMany<'_, M> {
    session_setter!();

    async fn run(self) -> Result<InsertedMany<M>> {
        let (coll, docs) = (self.coll, self.docs?);
        if docs.is_empty() {
            return Ok(InsertedMany { ids: Vec::new() });
        }
        let n = docs.len();
        let op = coll.op("insert").values(|| doc! { "documents": docs.iter().map(raw_value).collect::<Vec<_>>() });
        let mut result = op
            .run(coll.raw.insert_many(docs).optional(coll.lock().await.as_deref_mut(), |a, s| a.session(s)))
            .await
            .map_err(Collection::<M>::map_err)?;
        let ids = (0..n).filter_map(|i| result.inserted_ids.remove(&i)).map(decode_id::<M>);
        Ok(InsertedMany { ids: ids.collect::<Result<_>>()? })
    }
}

into_future!([] InsertMany<'a, M> => InsertedMany<M>, |b| b.run().await);
