//! The document-size budget in generated code: `BsonSchema::SIZE` of the types whose size no field table gives
//! (newtypes and embedded enums; a struct's is provided, read from its table), and the refusal of a model whose worst
//! case is over 16 MiB (rule `model-size`), a statement of the anonymous const the derive already emits, so it costs
//! no item.

use super::schema::{alias_kind, variant_table};
use super::text::Code;
use crate::internals::ast::{Container, Data, Derive, Field, Style, Variant};
use crate::internals::resolve::field::may_be_large;
use crate::internals::resolve::Resolved;
use crate::internals::source::Source;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// The `Size` expression of a field's type with its own bounds (`max_len`, `max_items`) applied.
pub fn field_size(field: &Field, resolved: &Resolved) -> TokenStream {
    let facts = resolved.facts(field);
    let (ty, span) = (field.ty, field.ty_span());
    let base = match &facts.source {
        Source::Trait => quote_spanned!(span=> <#ty as __OdmSchema>::SIZE),
        Source::Fixed(alias) => {
            let kind = alias_kind(alias);
            quote!(__odm::size::Size::of_kind(__OdmKind::#kind))
        }
        Source::Mixed => quote!(__odm::size::Size::unbounded(__odm::size::Reason::Free)),
    };
    if facts.keywords.is_empty() {
        return base;
    }
    let keywords = facts.keywords.iter().map(|(keyword, n)| quote!((#keyword, #n)));
    quote!(#base.bounded(&[#(#keywords),*]))
}

/// Writes `const SIZE` of a newtype (its field's, with the field's bounds) or an embedded enum; nothing for a
/// polymorphic model, whose size its field table gives.
pub fn type_size(code: &mut Code, cont: &Container, resolved: &Resolved) {
    match &cont.data {
        Data::Newtype(field) => {
            let size = field_size(field, resolved);
            code.tokens(quote!(const SIZE: __odm::size::Size = #size;));
        }
        Data::Enum(variants) if !cont.is_polymorphic() => code.tokens(enum_size(cont, variants, resolved)),
        _ => {}
    }
}

/// `const SIZE` of an embedded enum: the longest name of a string enum, else its largest variant's document.
fn enum_size(cont: &Container, variants: &[Variant], resolved: &Resolved) -> TokenStream {
    let stored: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    let Some(tag) = &cont.attrs.tag else {
        // A string: length, bytes, NUL.
        let longest = stored.iter().map(|v| v.name.len()).max().unwrap_or(0) as u64 + 5;
        return quote!(const SIZE: __odm::size::Size = __odm::size::Size::AtMost(#longest););
    };
    let tag = &tag.value;
    let content = cont.attrs.content.as_ref().map(|c| &c.value);
    let parts = stored.iter().enumerate().map(|(vi, v)| {
        let (name, value) = (format!("{}::{}", cont.ident, v.ident), &v.name);
        match (&v.style, content) {
            // The variant's table, tagged when serde writes the tag into its document.
            (Style::Struct(_), None) => {
                let t = variant_table(vi);
                quote!(__odm::size::of_table(&#t))
            }
            (Style::Struct(_), Some(c)) => {
                let t = variant_table(vi);
                quote!(__odm::size::adjacent(#name, #tag, #value, #c, __odm::size::of_table(&#t)))
            }
            (Style::Newtype(f), None) => {
                let size = field_size(f, resolved);
                quote!(__odm::size::tagged(#size, #tag, #value))
            }
            (Style::Newtype(f), Some(c)) => {
                let size = field_size(f, resolved);
                quote!(__odm::size::adjacent(#name, #tag, #value, #c, #size))
            }
            // serde writes the tag alone.
            (Style::Unit | Style::Tuple, _) => {
                quote!(__odm::size::of_table(&__OdmTable::new(#name, &[]).tagged(#tag, #value)))
            }
        }
    });
    quote!(const SIZE: __odm::size::Size = __odm::size::one_of(&[#(#parts),*]);)
}

/// Writes the refusal of a model whose worst case is over 16 MiB, pointed at its largest field (or its largest
/// variant), or at the model when no field takes most of it; nothing for `size_budget = "warn"`, nor for a struct
/// whose stored fields are all scalars the derive knows from their tokens (a few bytes each).
///
/// Each place the error may point at gets one statement, a call of the runtime's `refuse_at` (a field, by its index
/// among the stored ones) or `refuse` (the rest), named through the glob import, spanned there: both are `#[track_caller]`, so the
/// evaluation fails at the call. A struct with one field that may be large needs one call: over the limit, that field
/// is all of the document but a few bytes. Plain calls rather than a `match` on the refusal: fewer expressions for
/// the compiler to check in every model.
pub fn model_check(code: &mut Code, cont: &Container, resolved: &Resolved) {
    let warned = cont.attrs.size_budget.as_ref().is_some_and(|s| s.value == "warn");
    if cont.derive != Derive::Model || warned {
        return;
    }
    let ident = cont.ident;
    let large = |f: &Field| may_be_large(&resolved.facts(f).source, f.ty, &f.attrs);
    let culprits: Vec<(usize, proc_macro2::Span)> = match &cont.data {
        Data::Struct(fields) => {
            let stored: Vec<&Field> = fields.iter().filter(|f| f.is_stored()).collect();
            if stored.iter().all(|f| f.ty_text.is_some() && !large(f)) {
                return;
            }
            stored
                .iter()
                .enumerate()
                .filter(|(_, f)| large(f))
                .map(|(i, f)| (i, f.ident.map_or_else(|| f.ty_span(), |i| i.span())))
                .collect()
        }
        Data::Enum(variants) => {
            variants.iter().filter(|v| !v.attrs.skip).enumerate().map(|(i, v)| (i, v.ident.span())).collect()
        }
        Data::Newtype(_) => return,
    };
    if let ([(_, span)], Data::Struct(_)) = (culprits.as_slice(), &cont.data) {
        code.tokens_naming(quote_spanned!(*span=> __odm_refuse::<#ident>();), false);
        return;
    }
    for (i, span) in culprits {
        code.tokens_naming(quote_spanned!(span=> __odm_refuse_at::<#ident>(#i);), false);
    }
    code.tokens_naming(quote_spanned!(ident.span()=> __odm_refuse::<#ident>();), false);
}
