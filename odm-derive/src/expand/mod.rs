//! Code generation, the last stage: the items of a type that passed every rule, read from the IR and the resolved
//! model only; and on errors, placeholder impls so call sites produce no second wave of errors.

mod asserts;
mod encode;
mod fields;
mod indexes;
mod model;
mod schema;
mod version;

use crate::internals::ast::{Container, Derive};
use crate::internals::resolve::Resolved;
use proc_macro2::TokenStream;
use quote::quote;

/// The generated items of a type that passed every rule: reads the IR and the resolved model only.
pub fn generate(cont: &Container, resolved: &Resolved, odm: &TokenStream) -> TokenStream {
    let (field_items, schema_extra) = fields::expand(cont, resolved);
    let declared = fields::declare(cont, odm);
    let schema_impl = schema::expand(cont, odm, &schema_extra);
    let model_impl = if cont.derive == Derive::Model { model::expand(cont, resolved, odm) } else { TokenStream::new() };
    let asserts = asserts::expand(cont, resolved);
    let body = wrap(odm, quote! { #schema_impl #model_impl #asserts #field_items });
    quote! { #declared #body }
}

/// The path generated code reaches the runtime through: `#[odm(crate = "...")]`, or `::odm`.
pub fn odm_path(cont: Option<&Container>) -> TokenStream {
    match cont.and_then(|c| c.attrs.crate_path.as_ref()) {
        Some(path) => quote!(#path),
        None => quote!(::odm),
    }
}

/// Everything generated lives in an anonymous const, so helper items never clash with the user's names.
fn wrap(odm: &TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            use #odm::__private as __odm;
            #body
        };
    }
}

/// Placeholder impls emitted beside the errors (thiserror's `fallback.rs` idea). When serde's derive fails on the
/// same input, `Model` (which requires `Serialize + DeserializeOwned`) is left out: its impl would only add errors
/// about the missing serde impls.
pub fn fallback(input: &syn::DeriveInput, derive: Derive, odm: &TokenStream, serde_fails: bool) -> TokenStream {
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let table = indexes::fallback_table(input);
    let schema = quote! {
        #[automatically_derived]
        impl __odm::BsonSchema for #ident {
            const KIND: __odm::BsonKind = __odm::BsonKind::Other;
            #table
            type Node<R, W, A: __odm::Access> = __odm::Path<R, W, A>;
            fn bson_schema() -> __odm::Document {
                ::core::unreachable!("odm derive failed to compile")
            }
        }
    };
    let model = if derive == Derive::Model && !serde_fails {
        quote! {
            #[automatically_derived]
            impl __odm::Model for #ident {
                const COLLECTION: &'static str = "";
            }
        }
    } else {
        TokenStream::new()
    };
    wrap(odm, quote! { #schema #model })
}
