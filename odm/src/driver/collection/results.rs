//! What single-document writes report, in odm's own types: the ids typed as the model's [`Model::Id`], the counts
//! as plain numbers (the driver's result types stay behind [`Collection::raw`](crate::Collection::raw)).

use crate::base::error::{DecodeError, Error, Result};
use crate::base::model::model_name;
use crate::base::model::Model;
use bson::Bson;
use std::fmt;

/// What [`Collection::insert_one`](crate::Collection::insert_one) inserted.
#[non_exhaustive]
pub struct Inserted<M: Model> {
    /// The `_id` of the inserted document: the value's own, or the `ObjectId` the driver generated for a model
    /// without an `_id` field.
    pub id: M::Id,
}

/// What [`Collection::insert_many`](crate::Collection::insert_many) inserted.
#[non_exhaustive]
pub struct InsertedMany<M: Model> {
    /// The `_id`s of the inserted documents, in the order the values were given.
    pub ids: Vec<M::Id>,
}

/// What an update or a replacement changed ([`Collection::update_one`](crate::Collection::update_one),
/// [`update_many`](crate::Collection::update_many), [`replace_one`](crate::Collection::replace_one),
/// [`update_changes`](crate::Collection::update_changes)).
#[non_exhaustive]
pub struct Updated<M: Model> {
    /// How many documents the filter matched (0 when a guarded update's guard did not hold).
    pub matched: u64,
    /// How many of them the write changed (a document already as the update leaves it is matched, not modified).
    pub modified: u64,
    /// The `_id` of the document an upsert inserted; `None` when it updated one, or was no upsert.
    pub upserted_id: Option<M::Id>,
}

/// What a delete removed ([`Collection::delete_one`](crate::Collection::delete_one),
/// [`delete_many`](crate::Collection::delete_many)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Deleted {
    /// How many documents were deleted.
    pub count: u64,
}

/// `id` as the model's id type; a stored `_id` of another type is a decode error naming it, not a panic.
pub(crate) fn decode_id<M: Model>(id: Bson) -> Result<M::Id> {
    bson::deserialize_from_bson::<M::Id>(id.clone()).map_err(|mut e| {
        e.key.get_or_insert_with(|| "_id".to_owned());
        Error::Decode(Box::new(DecodeError::new(model_name::<M>(), M::type_meta(), Some(id), e)))
    })
}

impl<M: Model> Updated<M> {
    /// The driver's result, its upserted id decoded as the model's.
    pub(crate) fn from_driver(result: mongodb::results::UpdateResult) -> Result<Self> {
        Ok(Updated {
            matched: result.matched_count,
            modified: result.modified_count,
            upserted_id: result.upserted_id.map(decode_id::<M>).transpose()?,
        })
    }
}

impl Deleted {
    /// The driver's result.
    pub(crate) fn from_driver(result: mongodb::results::DeleteResult) -> Self {
        Deleted { count: result.deleted_count }
    }
}

// By hand: derived impls would require the model itself to be `Debug`, `Clone`, `PartialEq`; only its id need be.

impl<M: Model> fmt::Debug for Inserted<M>
where
    M::Id: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inserted").field("id", &self.id).finish()
    }
}

impl<M: Model> Clone for Inserted<M>
where
    M::Id: Clone,
{
    fn clone(&self) -> Self {
        Inserted { id: self.id.clone() }
    }
}

impl<M: Model> PartialEq for Inserted<M>
where
    M::Id: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl<M: Model> fmt::Debug for InsertedMany<M>
where
    M::Id: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InsertedMany").field("ids", &self.ids).finish()
    }
}

impl<M: Model> Clone for InsertedMany<M>
where
    M::Id: Clone,
{
    fn clone(&self) -> Self {
        InsertedMany { ids: self.ids.clone() }
    }
}

impl<M: Model> PartialEq for InsertedMany<M>
where
    M::Id: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.ids == other.ids
    }
}

impl<M: Model> fmt::Debug for Updated<M>
where
    M::Id: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Updated")
            .field("matched", &self.matched)
            .field("modified", &self.modified)
            .field("upserted_id", &self.upserted_id)
            .finish()
    }
}

impl<M: Model> Clone for Updated<M>
where
    M::Id: Clone,
{
    fn clone(&self) -> Self {
        Updated { matched: self.matched, modified: self.modified, upserted_id: self.upserted_id.clone() }
    }
}

impl<M: Model> PartialEq for Updated<M>
where
    M::Id: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        (self.matched, self.modified) == (other.matched, other.modified) && self.upserted_id == other.upserted_id
    }
}
