//! Derive macros for [`odm`](https://docs.rs/odm-mongo) (the `odm-mongo` package). Use them through that crate
//! (`use odm::{Model, Embedded};`); generated code reaches the runtime only through `odm::__private`.
//!
//! The derive runs in stages (`run`), as serde's does: parse (`internals::ast`, `internals::attr`, every keyword
//! spelt once in `internals::symbol`: the input as an IR, each field numbered for the stages after) → resolve
//! (`internals::resolve`: each field's facts, how its stored type is known, how its values are encoded, its
//! `skip_serializing_if` path, its validator keywords, its counter and computed-field links; the small languages
//! written in string attributes, an index's `keys`, `partial` and `weights`, the shard key and the declared queries
//! with the ESR indexes built for them; the fields a bucket or a time series names; all resolved once into a
//! resolved model of fields, paths and kinds) → check (`internals::check`, every schema-design rule by family,
//! reporting the resolve stage's errors and the rest, all in one pass) → generate (`expand`, which reads the IR and
//! the resolved model, never parses a language again and never imports `internals::check`: it names rule ids, from
//! `internals::rules`, only in the messages of the const assertions it generates). `internals::index_keys` says
//! what a resolved key is. Files import one way: no module imports one that imports it back, and no stage imports
//! a later one.

mod expand;
mod internals;
mod run;

use internals::ast::Derive;
use proc_macro::TokenStream;

/// Derives `odm::Model` (and `odm::BsonSchema`) for a collection's document struct.
///
/// See the `odm` crate documentation for the attributes.
#[proc_macro_derive(Model, attributes(odm))]
pub fn derive_model(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    run::derive(&input, Derive::Model).into()
}

/// Derives `odm::BsonSchema` for a struct or enum stored inside a model.
///
/// See the `odm` crate documentation for the attributes.
#[proc_macro_derive(Embedded, attributes(odm))]
pub fn derive_embedded(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    run::derive(&input, Derive::Embedded).into()
}

/// Derives `odm::View` (and serde's `Deserialize`) for a struct reading some of a model's fields: each field is named
/// as the model names it, read under the model's stored key, and its type is checked against the model's.
///
/// See `odm::view` for the attributes.
// `serde` is claimed so that a serde attribute on a view is reported once, as odm's rule, not also as unknown.
#[proc_macro_derive(View, attributes(odm, serde))]
pub fn derive_view(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    run::view(&input).into()
}
