//! `odm::sync` with the driver: comparing the models with what the database holds, executing a plan, and the lease
//! that serializes syncs.

mod diff;
mod execute;
mod lock;
// The reader of what is live, shared with `live`.
pub(crate) mod read;
mod schema_sync;
mod timeseries;

// How a record of an index odm owns is written, shared with the restore of a backup.
pub(crate) use execute::write_record;
pub use schema_sync::SchemaSync;
