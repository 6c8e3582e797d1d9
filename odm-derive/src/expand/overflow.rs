//! The subset pattern (`#[odm(max_items = N, keep_last, overflow(model = "…", owner = "…"))]` on an array of a
//! model): `impl Subset<Overflow>`, and assertions evaluated by the compiler over the field tables that the overflow
//! model holds the element's fields alike and the owner's `_id` as the owner stores it, in a field an index starts
//! with (rule `array-overflow`).

use super::text::Code;
use crate::internals::ast::{Container, Data, Derive, Field};
use crate::internals::rules;
use crate::internals::ty::{classify, TyKind};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// Writes the subset-pattern items of each array of a model that declares `overflow`.
pub fn expand(code: &mut Code, cont: &Container) {
    let (Derive::Model, Data::Struct(fields)) = (cont.derive, &cont.data) else { return };
    code.tokens(fields.iter().map(|f| one(cont, f)).collect());
}

fn one(cont: &Container, f: &Field) -> TokenStream {
    let Some(overflow) = &f.attrs.overflow else { return TokenStream::new() };
    let (Some((path, lit)), Some(owner), Some(field)) = (&overflow.model, &overflow.by, f.ident) else {
        return TokenStream::new();
    };
    let TyKind::Array { elem, fixed: None } = classify(f.ty) else { return TokenStream::new() };
    let ident = cont.ident;
    let source = quote_spanned!(lit.span()=> #path);
    let owner_name = owner.value();
    let (model, array) = (lit.value(), &f.rust_name);
    let at = format!("`{ident}.{array}` moves its elements to `{model}`");
    let msg = |what: &str| rules::ARRAY_OVERFLOW.message(format_args!("{at}, but {what}"));
    let element = msg("its element is not a struct with named fields: push a `#[derive(Embedded)]` struct");
    let missing = msg(&format!(
        "`{model}` stores no field under one of the element's keys: give `{model}` each field of the element, with \
         the same `rename`"
    ));
    let ty = msg(&format!(
        "`{model}` stores one of the element's fields as another BSON type (or element type, or converter): give it \
         the element's type"
    ));
    let absent = msg(&format!(
        "the element may leave a field absent or `null`, and `{model}` may not: make that field of `{model}` an \
         `Option` stored as the element's is"
    ));
    let bounds = msg(&format!(
        "`{model}` bounds one of the element's fields more narrowly (`max_items`, `max_len`, …): an element would \
         not fit; give `{model}` the element's bounds or wider"
    ));
    let extra = msg(&format!(
        "`{model}` requires a field that is neither the element's, `{owner_name}`, nor `_id`: a document built from \
         an element would lack it; make it an `Option`"
    ));
    let id = msg(&format!(
        "`{model}`'s `_id` is not an `ObjectId`: overflow documents get a new `ObjectId` each; declare `_id` as one"
    ));
    let owner_msg = rules::ARRAY_OVERFLOW.message(format_args!(
        "`{model}.{owner_name}` holds the `_id` of the `{ident}` that owns it, but is not a field of `{model}` stored \
         as `{ident}`'s `_id` is (same BSON type): declare it with `{ident}`'s id type"
    ));
    let index_msg = rules::ARRAY_OVERFLOW.message(format_args!(
        "`{model}.{owner_name}` holds the `_id` of the `{ident}` that owns it, and reading one owner's overflow \
         filters on it, but no index of `{model}` starts with it: declare `index(keys = \"{owner_name}, -id\")` on \
         `{model}`"
    ));
    let mut out = quote! {
        #[automatically_derived]
        impl __odm::Subset<#source> for #ident {
            type Element = #elem;
            const OWNER: &'static str = #owner_name;
            fn push_element(element: Self::Element) -> __odm::Update<Self> {
                __odm::Update::new().keeping_overflow().push(Self::fields().#field(), element)
            }
        }
    };
    out.extend(quote_spanned! {lit.span()=>
        const _: () = match __odm::overflow_fits(
            <#elem as __OdmSchema>::OBJECT, <#source as __OdmSchema>::OBJECT, #owner_name
        ) {
            __odm::fault::NONE => {}
            __odm::fault::ELEMENT => ::core::panic!("{}", #element),
            __odm::fault::MISSING => ::core::panic!("{}", #missing),
            __odm::fault::TYPE => ::core::panic!("{}", #ty),
            __odm::fault::ABSENT => ::core::panic!("{}", #absent),
            __odm::fault::BOUNDS => ::core::panic!("{}", #bounds),
            __odm::fault::EXTRA => ::core::panic!("{}", #extra),
            _ => ::core::panic!("{}", #id),
        };
    });
    out.extend(quote_spanned! {owner.span()=>
        const _: () = if !__odm::id_fits(
            <#source as __OdmSchema>::OBJECT, <#ident as __OdmSchema>::OBJECT, #owner_name
        ) {
            ::core::panic!("{}", #owner_msg)
        };
        const _: () = if !__odm::owner_indexed(
            <#source as __OdmSchema>::OBJECT, #owner_name
        ) {
            ::core::panic!("{}", #index_msg)
        };
    });
    out
}
