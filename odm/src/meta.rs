//! Field metadata of derived types: Rust names beside stored keys, so server errors (which speak in stored keys)
//! can be reported in Rust terms (`Order.items[2].price`).

pub use crate::base::meta::{field, FieldMeta, FieldType, TypeMeta};
