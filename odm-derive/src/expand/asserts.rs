//! Const assertions for what tokens cannot show: a type alias hiding an array or a non-integer counter.
//! They run after type checking, so they see through aliases (bytemuck's `traits.rs` pattern).

use crate::internals::ast::{Container, Data, Field};
use crate::internals::check::{source, Source};
use crate::internals::ty::{self, TyKind};
use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;

fn is_syntactic_array(field: &Field) -> bool {
    let mut t = ty::unwrap_option(field.ty);
    while let TyKind::Boxed(inner) = ty::classify(t) {
        t = inner;
    }
    matches!(ty::classify(t), TyKind::Array { .. })
}

pub fn expand(cont: &Container, _odm: &TokenStream) -> TokenStream {
    let Data::Struct(fields) = &cont.data else {
        return TokenStream::new();
    };
    let mut out = TokenStream::new();
    for field in fields
        .iter()
        .filter(|f| f.is_stored() && matches!(source(f), Source::Trait))
    {
        let ty = field.ty;
        let a = &field.attrs;
        if a.max_items.is_none() && a.unbounded.is_none() && !is_syntactic_array(field) {
            let msg = format!(
                "field `{}` is an array (through a type alias): arrays must be bounded; add `#[odm(max_items = N)]` or \
                 `#[odm(unbounded)]`",
                field.rust_name
            );
            out.extend(quote_spanned! {ty.span()=>
                const _: () = if <#ty as __odm::BsonSchema>::KIND.is_array() { ::core::panic!(#msg) };
            });
        }
        if let Some(counter) = &a.counter {
            if let Some(target) = fields.iter().find(|t| t.rust_name == counter.value) {
                let cty = target.ty;
                let msg = format!(
                    "counter `{}` must be an integer field (`int` or `long`)",
                    counter.value
                );
                out.extend(quote_spanned! {counter.span()=>
                    const _: () = if !<#cty as __odm::BsonSchema>::KIND.is_integer() { ::core::panic!(#msg) };
                });
            }
        }
    }
    out
}
