//! Const assertions for what tokens cannot show: a type alias hiding an array, a non-integer counter or revision.
//! They run after type checking, so they see through aliases (bytemuck's `traits.rs` pattern).

use super::text::Code;
use crate::internals::ast::{Container, Data, Field, Style, Variant};
use crate::internals::resolve::Resolved;
use crate::internals::rules;
use crate::internals::source::Source;
use crate::internals::symbol::{COUNTER, MAX_ITEMS, MAX_LEN, MIN_ITEMS, MIN_LEN, UNBOUNDED, UNIQUE_ITEMS};
use crate::internals::ty::{self, TyKind};
use proc_macro2::TokenStream;
use quote::quote_spanned;

fn is_syntactic_array(field: &Field) -> bool {
    let mut t = ty::unwrap_option(field.ty);
    while let TyKind::Boxed(inner) = ty::classify(t) {
        t = inner;
    }
    matches!(ty::classify(t), TyKind::Array { .. })
}

/// Writes the const assertions of `cont`'s fields, counters, revision and a polymorphic model's shared indexes.
pub fn expand(code: &mut Code, cont: &Container, resolved: &Resolved) {
    let mut out = TokenStream::new();
    if let Some(field) = resolved.revision {
        revision_assert(field, &mut out);
    }
    if let (Data::Enum(variants), true) = (&cont.data, cont.is_polymorphic()) {
        shared_index_asserts(cont, variants, resolved, &mut out);
    }
    match &cont.data {
        Data::Struct(fields) => {
            fields_asserts(fields, resolved, &mut out);
            counter_asserts(fields, resolved, &mut out);
        }
        Data::Newtype(field) => fields_asserts(std::slice::from_ref(&**field), resolved, &mut out),
        Data::Enum(variants) => {
            let model = cont.is_polymorphic();
            for v in variants.iter().filter(|v| !v.attrs.skip) {
                match &v.style {
                    Style::Struct(fields) => {
                        fields_asserts(fields, resolved, &mut out);
                        if model {
                            counter_asserts(fields, resolved, &mut out);
                        }
                    }
                    Style::Newtype(field) if model => wrapped_struct_assert(cont, v, field, &mut out),
                    Style::Newtype(field) => fields_asserts(std::slice::from_ref(&**field), resolved, &mut out),
                    Style::Unit | Style::Tuple => {}
                }
            }
        }
    }
    code.tokens(out);
}

/// Array bounds through type aliases: an alias hiding an array needs a bound, and array attributes need an array.
fn fields_asserts(fields: &[Field], resolved: &Resolved, out: &mut TokenStream) {
    for field in fields.iter().filter(|f| f.is_stored() && matches!(resolved.facts(f).source, Source::Trait)) {
        let ty = field.ty;
        let a = &field.attrs;
        // The first string and the first array attribute, with their spans.
        let string_attr = [(a.max_len.as_ref(), MAX_LEN), (a.min_len.as_ref(), MIN_LEN)]
            .into_iter()
            .find_map(|(attr, name)| Some((attr?.span(), name)));
        let array_attr = [
            (a.max_items.as_ref().map(|s| s.span()), MAX_ITEMS),
            (a.min_items.as_ref().map(|s| s.span()), MIN_ITEMS),
            (a.unbounded.as_ref().map(|s| s.span()), UNBOUNDED),
            (a.counter.as_ref().map(|s| s.span()), COUNTER),
            (a.unique_items.as_ref().map(|s| s.span()), UNIQUE_ITEMS),
        ]
        .into_iter()
        .find_map(|(span, name)| Some((span?, name)));
        // A type certain from its tokens is a std or bson type, no alias: what it is stored as is known, and
        // without array or string attributes there is nothing to assert.
        if string_attr.is_none() && array_attr.is_none() && field.ty_text.is_some() {
            continue;
        }
        // Rendering the type is only needed for a message, and costs a round trip to the compiler.
        let shown = || ty::display(ty);
        // `max_len`/`min_len` on an alias or a newtype (`Email(String)`): the real type is stored as a string.
        let is_string = matches!(ty::classify(ty::unwrap_option(ty)), TyKind::Str);
        if let (Some((span, name)), false) = (string_attr, is_string) {
            let msg = rules::STRING_LENGTH.message(format_args!(
                "field `{}`: `{name}` applies only to string fields, and `{}` is not stored as a string; remove it",
                field.rust_name,
                shown()
            ));
            out.extend(quote_spanned! {span=>
                const _: () = if !::core::matches!(<#ty as __OdmSchema>::KIND, __OdmKind::String) {
                    ::core::panic!("{}", #msg)
                };
            });
        }
        if is_syntactic_array(field) {
            continue;
        }
        match array_attr {
            // Not an array, by its tokens: nothing to assert.
            None if ty::is_known_scalar(ty) => {}
            None => {
                let tspan = field.ty_span();
                let msg = rules::ARRAY_BOUND.message(format_args!(
                    "field `{}`: `{}` is stored as an array without a bound of its own, and arrays must be \
                     bounded; add `#[odm(max_items = N)]`, or `#[odm(unbounded)]` if growth is really \
                     unbounded",
                    field.rust_name,
                    shown()
                ));
                out.extend(quote_spanned! {tspan=>
                    const _: () = if <#ty as __OdmSchema>::KIND.is_array()
                        && !<#ty as __OdmSchema>::BOUNDED
                    {
                        ::core::panic!("{}", #msg)
                    };
                });
            }
            Some((span, name)) => {
                let msg = rules::ARRAY_KEYWORD.message(format_args!(
                    "field `{}`: `{name}` applies only to array fields, and `{}` is not an array",
                    field.rust_name,
                    shown()
                ));
                out.extend(quote_spanned! {span=>
                    const _: () = if !<#ty as __OdmSchema>::KIND.is_array() { ::core::panic!("{}", #msg) };
                });
            }
        }
    }
}

/// Counters through type aliases: the counter's real type is an integer.
fn counter_asserts(fields: &[Field], resolved: &Resolved, out: &mut TokenStream) {
    for field in fields.iter().filter(|f| f.is_stored()) {
        let Some(counter) = &field.attrs.counter else {
            continue;
        };
        let Some(target) = resolved.field_facts.counter_target(field, fields) else {
            continue;
        };
        if !matches!(ty::classify(target.ty), TyKind::Other) {
            continue; // decided from the tokens by the rules
        }
        let cty = target.ty;
        let msg = rules::COUNTER_INTEGER.message(format_args!(
            "counter `{}` must be an integer field (`i32`, `i64` or `u32`) holding the array's size; its type `{}` is \
             not stored as `int` or `long`",
            counter.value,
            ty::display(cty)
        ));
        out.extend(quote_spanned! {counter.span()=>
            const _: () = if !<#cty as __OdmSchema>::KIND.is_integer() { ::core::panic!("{}", #msg) };
        });
    }
}

/// The revision through a type alias: its real type is an integer.
fn revision_assert(field: &Field, out: &mut TokenStream) {
    let (Some(at), TyKind::Other) = (&field.attrs.revision, ty::classify(field.ty)) else {
        return; // decided from the tokens by the rules
    };
    let rty = field.ty;
    let msg = rules::REVISION_FIELD.message(format_args!(
        "revision `{}` must be an integer field (`i32`, `i64` or `u32`) that odm increments on every write; its type \
         `{}` is not stored as `int` or `long`",
        field.rust_name,
        ty::display(rty)
    ));
    out.extend(quote_spanned! {at.span()=>
        const _: () = if !<#rty as __OdmSchema>::KIND.is_integer() { ::core::panic!(#msg) };
    });
}

/// A polymorphic model's newtype variant wraps a struct with a field table of its own (`#[derive(Embedded)]`, no
/// serde `tag`): serde writes the discriminator into that struct's document, beside its fields.
fn wrapped_struct_assert(cont: &Container, v: &Variant, field: &Field, out: &mut TokenStream) {
    let (ty, span) = (field.ty, field.ty_span());
    let msg = rules::POLY_VARIANT.message(format_args!(
        "variant `{}::{}` wraps `{}`, which is not a struct deriving `Embedded` (without a serde `tag` of its own): \
         serde writes the discriminator into the wrapped value's document, so it must be a plain struct whose fields \
         odm knows; derive `Embedded` for it, or make `{}` a struct variant",
        cont.ident,
        v.ident,
        ty::display(ty),
        v.ident
    ));
    out.extend(quote_spanned! {span=>
        const _: () = match <#ty as __OdmSchema>::OBJECT {
            __OdmSome(m) if m.variants.is_empty() && m.tag.is_none() => {}
            _ => ::core::panic!("{}", #msg),
        };
    });
}

/// An index of a polymorphic model without `variant` names fields every variant stores alike (rule `poly-attr`):
/// the rules compare the struct variants' fields, and this asserts it of the structs newtype variants wrap, whose
/// fields only their field tables show (the test shared paths make too, see `odm::path::shared`).
fn shared_index_asserts(cont: &Container, variants: &[Variant], resolved: &Resolved, out: &mut TokenStream) {
    let stored: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    let wrapped: Vec<(&Variant, &Field)> = stored
        .iter()
        .filter_map(|v| match &v.style {
            Style::Newtype(field) => Some((*v, &**field)),
            _ => None,
        })
        .collect();
    if wrapped.is_empty() {
        return;
    }
    // Where a field sits in the model's table: its variant and its place among the variant's stored fields.
    let place = |field: &Field| {
        stored.iter().enumerate().find_map(|(vi, v)| match &v.style {
            Style::Struct(fields) => {
                fields.iter().filter(|f| f.is_stored()).position(|f| std::ptr::eq(f, field)).map(|i| (vi, i, *v))
            }
            _ => None,
        })
    };
    let ident = cont.ident;
    for index in resolved.indexes.iter().filter(|i| i.variant.is_none() && i.attr.variant.is_none()) {
        let Some(lit) = index.attr.keys.as_ref() else { continue };
        let keys =
            index.keys.iter().flatten().flatten().chain(index.partial.iter().flatten().flatten().map(|c| &c.key));
        let mut seen: Vec<&str> = Vec::new();
        for field in keys.filter_map(|k| k.field) {
            let Some((vi, i, owner)) = place(field) else { continue };
            if seen.contains(&field.rust_name.as_str()) {
                continue;
            }
            seen.push(&field.rust_name);
            for (v, w) in &wrapped {
                let wty = w.ty;
                let msg = rules::POLY_ATTR.message(format_args!(
                    "`{}` (wrapped by variant `{ident}::{}`) does not store `{}` as the other variants do, under the \
                     key `{}` with the same type, and an index of a polymorphic model names fields every variant \
                     stores alike; declare it alike there, or index one variant's documents with `variant = \"{}\"` \
                     (by a partial filter on the discriminator)",
                    ty::display(wty),
                    v.ident,
                    field.rust_name,
                    field.key,
                    crate::internals::resolve::variant_name(owner),
                ));
                out.extend(quote_spanned! {lit.span()=>
                    const _: () = if !__odm_stores_alike(
                        <#wty as __OdmSchema>::OBJECT, <#ident as __OdmSchema>::OBJECT, #vi, #i
                    ) {
                        ::core::panic!("{}", #msg)
                    };
                });
            }
        }
    }
}
