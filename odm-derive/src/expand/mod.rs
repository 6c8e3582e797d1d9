//! Code generation: runs parse → check → generate, and on errors still emits placeholder impls so call sites
//! produce no second wave of errors.

mod asserts;
mod encode;
mod fields;
mod indexes;
mod model;
mod schema;

use crate::internals::ast::{Container, Derive};
use crate::internals::check;
use crate::internals::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::quote;

pub fn derive(input: &syn::DeriveInput, derive: Derive) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input, derive);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    let odm = odm_path(cont.as_ref());
    let serde_fails = cx.serde_rejected();
    match cx.check() {
        Ok(()) => {
            let cont = cont.expect("no errors means the IR was built");
            let (field_items, schema_extra) = fields::expand(&cont);
            let declared = fields::declare(&cont, &odm);
            let schema_impl = schema::expand(&cont, &odm, &schema_extra);
            let model_impl = if derive == Derive::Model { model::expand(&cont, &odm) } else { TokenStream::new() };
            let asserts = asserts::expand(&cont, &odm);
            let body = wrap(&odm, quote! { #schema_impl #model_impl #asserts #field_items });
            quote! { #declared #body }
        }
        Err(err) => {
            let errors = err.into_compile_error();
            let fallback = fallback(input, derive, &odm, serde_fails);
            quote! { #errors #fallback }
        }
    }
}

fn odm_path(cont: Option<&Container>) -> TokenStream {
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
fn fallback(input: &syn::DeriveInput, derive: Derive, odm: &TokenStream, serde_fails: bool) -> TokenStream {
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
