//! The codec: encoding a value (16 MiB checked, `_id` first) and decoding raw documents (older versions migrated,
//! failing fields named). Driver-free: a document can be encoded and checked where no database is reachable.

pub use crate::base::codec::{decode, encode};
