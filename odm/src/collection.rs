//! A typed collection: create it from its model (validator, level, action), insert and read typed values.
//! Writes are checked before they are sent (16 MiB), and validation failures come back as field-level errors.
mod ddl;
mod explain;
mod find;
mod find_and_modify;
mod handle;
mod instances;
mod prep;
mod read;
mod set_pull;
mod wire;
mod write;

pub use ddl::{create_collection, create_command};
pub use find::{Decoded, Find};
pub use find_and_modify::FindAndModify;
pub use handle::Collection;
pub use instances::{drop_expired, expired, instances, Dropped, Instances, NotACollection};
pub(crate) use instances::{instance_name, listed as instances_listed};
pub(crate) use wire::{check_statement, document_len};
