//! Derive macros for [`odm`](https://docs.rs/odm). Use them through the `odm` crate (`use odm::{Model, Embedded};`);
//! generated code reaches the runtime only through `odm::__private`.
//!
//! The derive runs in stages, as serde's does: parse (`internals::ast`, `internals::attr`) → facts read by every
//! later stage (`internals::source`: how a field's stored type is known; `index_keys`, `esr`, `shard`: the small
//! languages of `keys`, `partial`, queries and shard keys resolved to fields) → check (`internals::check`, every
//! schema-design rule by family, all errors collected in one pass) → generate (`expand`, which reads facts and never
//! imports a rule module). Files import one way: no module imports one that imports it back.

mod expand;
mod internals;

use internals::ast::Derive;
use proc_macro::TokenStream;

/// Derives `odm::Model` (and `odm::BsonSchema`) for a collection's document struct.
///
/// See the `odm` crate documentation for the attributes.
#[proc_macro_derive(Model, attributes(odm))]
pub fn derive_model(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input, Derive::Model).into()
}

/// Derives `odm::BsonSchema` for a struct or enum stored inside a model.
///
/// See the `odm` crate documentation for the attributes.
#[proc_macro_derive(Embedded, attributes(odm))]
pub fn derive_embedded(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input, Derive::Embedded).into()
}
