//! The codec: encoding a value (16 MiB checked, `_id` first) and decoding raw documents (older versions migrated,
//! failing fields named), whole or through a view. Driver-free: a document can be encoded and checked where no database is reachable.

pub use crate::base::codec::{decode, decode_view, encode};
