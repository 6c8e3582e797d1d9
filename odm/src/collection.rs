//! A typed collection: create it from its model (validator, level, action), insert and read typed values.
//! Writes are checked before they are sent (16 MiB), and validation failures come back as field-level errors.
mod codec;
mod ddl;
mod explain;
mod find;
mod find_and_modify;
mod handle;
mod prep;
mod read;
mod write;

pub(crate) use codec::{check_statement, decode_as, document_len, write_concern_document};
pub use codec::{decode, encode};
pub use ddl::{create_collection, create_command};
pub use find::{Decoded, Find};
pub use find_and_modify::FindAndModify;
pub use handle::Collection;
