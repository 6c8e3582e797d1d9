//! An extended reference (`#[odm(copies(model = "…", by = "…"))]`): `impl Copies` and `impl HoldsReferences`, and one
//! assertion per copied field, evaluated by the compiler over both field tables, that the copy fits its source
//! (rule `copy-bounds`).

use super::text::Code;
use crate::internals::ast::{Container, Data};
use crate::internals::rules;
use quote::{quote, quote_spanned};

/// Writes the impls and assertions of an extended reference; nothing for any other type.
pub fn expand(code: &mut Code, cont: &Container) {
    let (Some(copies), Data::Struct(fields)) = (&cont.attrs.copies, &cont.data) else { return };
    let (Some((path, lit)), Some(by)) = (&copies.model, &copies.by) else { return };
    let ident = cont.ident;
    let source = quote_spanned!(lit.span()=> #path);
    let by_name = by.value();
    let model = lit.value();
    let mut out = quote! {
        #[automatically_derived]
        impl __odm::Copies for #ident {
            type Source = #source;
            const BY: &'static str = #by_name;
        }
        #[automatically_derived]
        impl __odm::HoldsReferences for #ident {
            type Copy = Self;
            const MANY: bool = false;
        }
    };
    let id_msg = rules::COPY_BOUNDS.message(format_args!(
        "`{ident}.{by_name}` holds the `_id` of the `{model}` it copies, but is not stored as `{model}`'s `_id` is \
         (same BSON type): give it `{model}`'s id type"
    ));
    out.extend(quote_spanned! {by.span()=>
        const _: () = if !__odm::id_fits(
            <#ident as __OdmSchema>::OBJECT, <#source as __OdmSchema>::OBJECT, #by_name
        ) {
            ::core::panic!("{}", #id_msg)
        };
    });
    for f in fields.iter().filter(|f| f.is_stored() && f.rust_name != by_name) {
        let name = &f.rust_name;
        let at = format!("`{ident}.{name}` copies `{model}.{name}`");
        let missing = rules::COPY_BOUNDS.message(format_args!(
            "{at}, but `{model}` stores no field `{name}`: name the field as the source does, or store it apart \
             from the copy"
        ));
        let ty = rules::COPY_BOUNDS.message(format_args!(
            "{at}, but stores it as another BSON type (or element type, or converter): give it the source's type"
        ));
        let absent = rules::COPY_BOUNDS.message(format_args!(
            "{at}, which may be absent or `null`, but the copy may not: make the copy an `Option` stored as the \
             source's is"
        ));
        let bounds = rules::COPY_BOUNDS.message(format_args!(
            "{at}, but its bounds are narrower than the source's (`max_items`, `max_len`, …): a source value would \
             not fit the copy; give the copy the source's bounds or wider"
        ));
        let span = f.ident.map_or_else(|| f.ty_span(), |i| i.span());
        out.extend(quote_spanned! {span=>
            const _: () = match __odm::copy_fits(
                <#ident as __OdmSchema>::OBJECT, <#source as __OdmSchema>::OBJECT, #name
            ) {
                __odm::misfit::NONE => {}
                __odm::misfit::MISSING => ::core::panic!("{}", #missing),
                __odm::misfit::TYPE => ::core::panic!("{}", #ty),
                __odm::misfit::ABSENT => ::core::panic!("{}", #absent),
                _ => ::core::panic!("{}", #bounds),
            };
        });
    }
    code.tokens(out);
}
