//! Code generation, the last stage: the items of a type that passed every rule, read from the IR and the resolved
//! model only; and on errors, placeholder impls so call sites produce no second wave of errors.

/// Appends tokens to an existing stream, with `quote!`'s syntax. Inside a derive every token stream lives in the
/// compiler: merging one built apart into another (interpolating a `quote!` result) costs a clone and several round
/// trips, which made up a large share of the derive's own run time. Appending in place costs none. It calls the
/// macro `quote!` itself expands to (`quote_each_token!`, outside quote's documented API): against
/// `out.extend(quote!(…))` it saves about a fifth of the derive's run time. Should a quote release drop it, these
/// two macros are the only place to change.
macro_rules! emit {
    ($out:expr => $($tt:tt)*) => {{
        let mut _s: &mut ::proc_macro2::TokenStream = $out;
        ::quote::quote_each_token! {_s $($tt)*}
    }};
}

/// [`emit!`] with every token it writes (not those it interpolates) at `span`, as `quote_spanned!`.
macro_rules! emit_spanned {
    ($out:expr, $span:expr => $($tt:tt)*) => {{
        let mut _s: &mut ::proc_macro2::TokenStream = $out;
        let _span: ::proc_macro2::Span = $span;
        ::quote::quote_each_token_spanned! {_s _span $($tt)*}
    }};
}

mod asserts;
mod encode;
mod fields;
mod indexes;
mod model;
mod schema;
mod text;
mod version;

use crate::internals::ast::{Container, Derive};
use crate::internals::resolve::Resolved;
use proc_macro2::{Delimiter, Group, TokenStream};
use quote::{quote, TokenStreamExt};

/// The generated items of a type that passed every rule: reads the IR and the resolved model only.
pub fn generate(cont: &Container, resolved: &Resolved, odm: &TokenStream) -> TokenStream {
    let (field_items, schema_extra) = fields::expand(cont, resolved);
    let mut out = fields::declare(cont, odm);
    let schema_impl = schema::expand(cont, odm, schema_extra);
    let model_impl = if cont.derive == Derive::Model { model::expand(cont, resolved, odm) } else { TokenStream::new() };
    let asserts = asserts::expand(cont, resolved);
    wrap_into(&mut out, odm, [schema_impl, model_impl, asserts, field_items]);
    out
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
    let mut out = TokenStream::new();
    wrap_into(&mut out, odm, [body]);
    out
}

/// [`wrap`], appending to `out` (the parts are joined in one step).
fn wrap_into<const N: usize>(out: &mut TokenStream, odm: &TokenStream, parts: [TokenStream; N]) {
    let odm = odm.to_string();
    let mut body = text::lexed(&format!("use {odm}::__private as __odm; use {odm}::__private::names::*;"));
    body.extend(parts);
    out.extend(text::lexed(
        "#[doc(hidden)] #[allow(non_upper_case_globals, unused_qualifications, unused_imports, clippy::all)] const _: () =",
    ));
    out.append(Group::new(Delimiter::Brace, body));
    emit!(out => ;);
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
            }
        }
    } else {
        TokenStream::new()
    };
    wrap(odm, quote! { #schema #model })
}
