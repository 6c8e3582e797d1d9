//! Code generation, the last stage: the items of a type that passed every rule, read from the IR and the resolved
//! model only; and on errors, placeholder impls so call sites produce no second wave of errors.
//!
//! Every generator has one shape: it writes its items into a [`Code`] and returns nothing,
//! `fn(code: &mut Code, cont: &Container, resolved: &Resolved)` (a struct's generators take its fields too, and
//! one that reads neither the container nor the resolved model leaves them out). Fixed parts are written as text,
//! parts an error may point at are spliced as spanned tokens ([`Code::tokens`]); the smaller pieces a generator
//! assembles (a field's schema expression, an index key's kind) are values it splices, not generators. Where one
//! generator's items go in two places, inside `impl Model` and beside it, a value built once writes each
//! ([`indexes::Indexes`]), or two generators do (`version::asserts`, `version::items`); one that wraps items other
//! generators own takes them as a closure over the same `Code` (`schema::enum_impl`). The order generators write
//! in is the order of the output, and so of the compiler's errors about it.

mod asserts;
mod computed;
mod copies;
mod encode;
mod fields;
mod index_parts;
mod indexes;
mod model;
mod overflow;
mod schema;
mod series;
mod size;
mod text;
mod version;
pub mod view;

use crate::internals::ast::{Container, Data, Derive};
use crate::internals::resolve::Resolved;
use proc_macro2::{Delimiter, TokenStream};
use quote::quote;
use text::Code;

/// The generated items of a type that passed every rule: reads the IR and the resolved model only.
pub fn generate(cont: &Container, resolved: &Resolved, odm: &TokenStream) -> TokenStream {
    let odm_text = odm_text(cont, odm);
    let mut code = Code::new();
    let indexes = (cont.derive == Derive::Model).then(|| indexes::Indexes::new(cont, resolved));
    let indexes = indexes.as_ref();
    if let Data::Struct(fields) = &cont.data {
        fields::declare_struct(&mut code, cont);
        open_const(&mut code, &odm_text);
        // A model's indexes, when they are data, go into its table (`indexes::Indexes::table_call`).
        let table_indexes = indexes.and_then(indexes::Indexes::table_call);
        schema::struct_impl(&mut code, cont, fields, resolved, table_indexes.as_deref());
        model_and_asserts(&mut code, cont, resolved, indexes);
        fields::struct_items(&mut code, cont, fields, resolved);
    } else {
        fields::declare(&mut code, cont);
        open_const(&mut code, &odm_text);
        schema::enum_impl(&mut code, cont, resolved, |code| {
            fields::node_items(code, cont);
            size::type_size(code, cont, resolved);
        });
        model_and_asserts(&mut code, cont, resolved, indexes);
        fields::enum_items(&mut code, cont, resolved);
    }
    close_const(&mut code, &odm_text);
    code.finish()
}

/// `impl Model` (for a model) and the const assertions, between the schema impl and the typed paths.
fn model_and_asserts(code: &mut Code, cont: &Container, resolved: &Resolved, indexes: Option<&indexes::Indexes>) {
    if let Some(indexes) = indexes {
        model::expand(code, cont, resolved, indexes);
    }
    asserts::expand(code, cont, resolved);
    copies::expand(code, cont);
    computed::expand(code, cont, resolved);
    overflow::expand(code, cont);
    size::model_check(code, cont, resolved);
}

/// The path generated code reaches the runtime through: `#[odm(crate = "...")]`, or `::odm`.
pub fn odm_path(cont: Option<&Container>) -> TokenStream {
    crate_path(cont.and_then(|c| c.attrs.crate_path.as_ref()))
}

/// The path to the runtime given by a `crate = "..."` attribute, or `::odm`.
pub fn crate_path(path: Option<&syn::Path>) -> TokenStream {
    match path {
        Some(path) => quote!(#path),
        None => quote!(::odm),
    }
}

/// [`odm_path`] as text (rendering tokens is a round trip to the compiler, so the usual `::odm` is written out).
fn odm_text(cont: &Container, odm: &TokenStream) -> String {
    match cont.attrs.crate_path {
        Some(_) => odm.to_string(),
        None => "::odm".to_owned(),
    }
}

/// Opens the anonymous const everything generated lives in, so helper items never clash with the user's names;
/// the caller closes it (`}` and `;`). Each lint named in its `allow` costs every build: only those generated code
/// can trip (a qualified path the user's imports make redundant, the glob import, clippy's own) are named.
fn open_const(code: &mut Code, odm: &str) {
    // No `#[doc(hidden)]`: rustdoc never shows an unnamed const, and the impls inside are documented either way.
    code.text("#[allow(unused_qualifications, unused_imports, clippy::all)] const _: () =");
    code.open(Delimiter::Brace);
    code.push(&format!("use {odm}::__private::names::*; "));
}

/// Closes the anonymous const of [`open_const`], importing the runtime's private module as `__odm` if anything
/// written names it (items of a block may come in any order; an unused import would still cost the compiler).
fn close_const(code: &mut Code, odm: &str) {
    if code.mentions_odm() {
        code.push(&format!("use {odm}::__private as __odm; "));
    }
    code.close();
    code.text(";");
}

/// `body` inside the anonymous const of [`open_const`].
fn wrap(odm: &TokenStream, body: TokenStream) -> TokenStream {
    let mut code = Code::new();
    let odm = odm.to_string();
    open_const(&mut code, &odm);
    code.tokens(body);
    close_const(&mut code, &odm);
    code.finish()
}

/// Placeholder impls emitted beside the errors (thiserror's `fallback.rs` idea). When serde's derive fails on the
/// same input, `Model` (which requires `Serialize + DeserializeOwned`) is left out: its impl would only add errors
/// about the missing serde impls.
pub fn fallback(input: &syn::DeriveInput, derive: Derive, odm: &TokenStream, serde_fails: bool) -> TokenStream {
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let table = index_parts::fallback_table(input);
    let schema = quote! {
        #[automatically_derived]
        impl __OdmSchema for #ident {
            const KIND: __OdmKind = __OdmKind::Other;
            #table
            type Node<R, W, A: __OdmAccess> = __OdmPath<R, W, A>;
            fn bson_schema() -> __OdmDocument {
                ::core::unreachable!("odm derive failed to compile")
            }
        }
    };
    let model = if derive == Derive::Model && !serde_fails {
        quote! {
            #[automatically_derived]
            impl __OdmModel for #ident {
                const COLLECTION: &'static str = "";
                type Id = __odm::Bson;
            }
        }
    } else {
        TokenStream::new()
    };
    wrap(odm, quote! { #schema #model })
}
