//! A versioned model's items of `impl Model` (where documents keep their version, and how an older one is read:
//! deserialized as its own shape, then upgraded step by step) and the assertions that each step exists.

use super::text::Code;
use crate::internals::ast::{version_fields, Container, Data, Field};
use crate::internals::rules;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The model's version, and the field that keeps it; `None` for a model without `version`.
fn versioned<'c, 'a>(cont: &'c Container<'a>) -> Option<(u32, &'c Field<'a>)> {
    let (Some(version), Data::Struct(fields)) = (&cont.attrs.version, &cont.data) else { return None };
    Some((version.value as u32, version_fields(fields).first().copied()?))
}

/// Writes the version items of `impl Model`; nothing for a model without `version`.
pub fn items(code: &mut Code, cont: &Container) {
    let Some((current, field)) = versioned(cont) else { return };
    let ident = cont.ident;
    let older: &[syn::Type] = cont.attrs.older.as_ref().map_or(&[], |o| &o.value);
    let oldest = current - older.len() as u32;
    let key = &field.key;

    // Version `oldest + i` is read as `older[i]`, then upgraded step by step. Each step names its types where the
    // list does, so a missing or mismatched step is one error there (the same step in several arms is one error).
    let next = |j: usize| match older.get(j + 1) {
        Some(next) => quote!(#next),
        None => quote!(#ident),
    };
    let arms = older.iter().enumerate().map(|(i, ty)| {
        let v = oldest + i as u32;
        let mut value = quote!(__v);
        for (j, from) in older.iter().enumerate().skip(i) {
            let to = next(j);
            let step = quote_spanned!(from.span()=> __odm::version::step::<#from, #to>);
            value = quote!(#step(#value));
        }
        let read = quote_spanned!(ty.span()=> __odm::version::read::<#ty>);
        quote!(#v => __OdmSome(#read(__raw).map(|__v| #value)),)
    });
    let read_older = (!older.is_empty()).then(|| {
        quote! {
            fn read_older(
                __version: u32,
                __raw: &__odm::bson::RawDocument,
            ) -> __OdmOption<::core::result::Result<Self, __odm::bson::error::Error>> {
                match __version {
                    #(#arms)*
                    _ => __OdmNone,
                }
            }
        }
    });
    // What the validator accepts while older documents remain: each shape's schema, spanned at its type so that a
    // shape without one is reported where `older(…)` names it.
    let shapes = older.iter().enumerate().map(|(i, ty)| {
        let v = oldest + i as u32;
        quote_spanned!(ty.span()=> __odm::version::shape::<#ty>(#v))
    });
    let older_items = (!older.is_empty()).then(|| {
        quote! { const OLDER: &'static [__odm::version::OlderShape] = &[#(#shapes),*]; }
    });
    let items = quote! {
        const VERSION: __OdmOption<__odm::VersionSpec> =
            __OdmSome(__odm::VersionSpec { key: #key, current: #current, oldest: #oldest });
        #older_items
        #read_older
    };
    code.tokens(items);
}

/// Writes the assertion that the version field's real type holds the model's version (through aliases too);
/// nothing for a model without `version`.
pub fn asserts(code: &mut Code, cont: &Container) {
    let Some((current, field)) = versioned(cont) else { return };
    let fty = field.ty;
    let msg = rules::VERSION_FIELD.message(format_args!(
        "field `{}` must be `odm::Version<{current}>`, the model's `version = {current}`",
        field.rust_name
    ));
    code.tokens(quote_spanned! {field.ty_span()=>
        const _: () = if <#fty as __odm::VersionNumber>::NUMBER != #current { ::core::panic!("{}", #msg) };
    });
}
