//! The derive's stages in order: parse → resolve → check → generate. Kept apart from every stage so that code
//! generation never imports the checks, and each stage reads only what the ones before it built.

use crate::expand;
use crate::internals::ast::{Container, Derive};
use crate::internals::check;
use crate::internals::ctxt::Ctxt;
use crate::internals::resolve::Resolved;
use crate::internals::view::View;
use proc_macro2::TokenStream;
use quote::quote;

/// Runs the stages on one derive input: its generated items, or every error with placeholder impls.
pub fn derive(input: &syn::DeriveInput, derive: Derive) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input, derive);
    let resolved = cont.as_ref().map(Resolved::new);
    if let (Some(cont), Some(resolved)) = (&cont, &resolved) {
        check::check(&cx, cont, resolved);
    }
    let odm = expand::odm_path(cont.as_ref());
    let serde_fails = cx.serde_rejected();
    match cx.check() {
        Ok(()) => {
            let (Some(cont), Some(resolved)) = (&cont, &resolved) else {
                unreachable!("no errors means the IR was built")
            };
            expand::generate(cont, resolved, &odm)
        }
        Err(err) => {
            let errors = err.into_compile_error();
            let fallback = expand::fallback(input, derive, &odm, serde_fails);
            quote! { #errors #fallback }
        }
    }
}

/// Runs a view's stages: parse and check (`internals::view`), then generate (`expand::view`).
pub fn view(input: &syn::DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let view = View::from_ast(&cx, input);
    match cx.check() {
        Ok(()) => {
            let Some(view) = view else { unreachable!("no errors means the view was read") };
            expand::view::generate(&view, &expand::crate_path(view.crate_path.as_ref()))
        }
        Err(err) => {
            let errors = err.into_compile_error();
            // A generic view has no impl to stand in for: its errors say it cannot be one.
            let fallback = view
                .filter(|_| input.generics.params.is_empty())
                .map(|v| expand::view::fallback(&v, &expand::crate_path(v.crate_path.as_ref())))
                .unwrap_or_default();
            quote! { #errors #fallback }
        }
    }
}
