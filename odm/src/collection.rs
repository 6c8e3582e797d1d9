//! A typed collection: create it from its model (validator, level, action), insert and read typed values.
//! Writes are checked before they are sent (16 MiB), and validation failures come back as field-level errors.
//!
//! Each single-document operation returns a builder named after it ([`UpdateOne`], [`FindOneAndUpdate`], …): set
//! its options (`.upsert()`, `.hint(…)`, `.session(…)`), then `.await` it, or call `.explain()` on those the server
//! explains. Writes report in odm's own types ([`Inserted`], [`InsertedMany`], [`Updated`], [`Deleted`]), ids
//! typed as the model's [`Model::Id`](crate::Model::Id).

pub use crate::driver::collection::{
    create_collection, create_command, drop_expired, expired, instances, Collection, Count, Decoded, DeleteMany,
    DeleteOne, Deleted, Dropped, Find, FindOne, FindOneAndDelete, FindOneAndUpdate, InsertMany, InsertOne, Inserted,
    InsertedMany, Instances, NotACollection, ReplaceOne, UpdateChanges, UpdateMany, UpdateOne, Updated,
};
