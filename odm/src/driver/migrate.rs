//! `odm::migrate` with the driver: reading, migrating and writing batches.

mod batch;
mod migration;

pub use migration::Migration;
