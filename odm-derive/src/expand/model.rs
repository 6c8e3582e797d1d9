//! `impl Model`: collection name, database, validation, concern and query settings, the revision, the time-series
//! settings, and the items other generators add to it (indexes, versions); beside it, the bucket and variant impls
//! and the index and version assertions.

use super::indexes::Indexes;
use super::text::Code;
use crate::internals::ast::{Container, Data, Field, Style};
use crate::internals::resolve::Resolved;
use proc_macro2::{Delimiter, TokenStream};
use quote::quote;

/// Writes `impl Model` (and the items beside it: variant impls, index and version assertions).
pub fn expand(code: &mut Code, cont: &Container, resolved: &Resolved, indexes: &Indexes) {
    let ident = cont.ident;
    let a = &cont.attrs;
    let collection = a.collection.as_ref().map(|c| c.value.clone()).unwrap_or_default();
    let mut items = TokenStream::new();
    if let Ok(Some(t)) = &resolved.template {
        let (prefix, suffix) = (&t.prefix, &t.suffix);
        let placeholder = proc_macro2::Ident::new(t.variant, proc_macro2::Span::call_site());
        let keep = match a.keep_periods.as_ref().map(|k| k.value as u32) {
            Some(n) => quote!(__OdmSome(#n)),
            None => quote!(__OdmNone),
        };
        items.extend(quote!(const TEMPLATE: __OdmOption<__odm::NameTemplate> = __OdmSome(__odm::NameTemplate {
            prefix: #prefix, placeholder: __odm::Placeholder::#placeholder, suffix: #suffix, keep_periods: #keep,
        });));
    }
    if let Some(db) = &a.db {
        let db = &db.value;
        items.extend(quote!(const DATABASE: __OdmOption<&'static str> = __OdmSome(#db);));
    }
    // Strict and error are the trait's defaults.
    match a.validation_level.as_ref().map(|s| s.value.as_str()) {
        Some("moderate") => items.extend(quote!(
            const VALIDATION_LEVEL: __odm::ValidationLevel = __odm::ValidationLevel::Moderate;
        )),
        Some("off") => items.extend(quote!(
            const VALIDATION_LEVEL: __odm::ValidationLevel = __odm::ValidationLevel::Off;
        )),
        _ => {}
    }
    match a.validation_action.as_ref().map(|s| s.value.as_str()) {
        Some("warn") => items.extend(quote!(
            const VALIDATION_ACTION: __odm::ValidationAction = __odm::ValidationAction::Warn;
        )),
        Some("errorAndLog") => items.extend(quote!(
            const VALIDATION_ACTION: __odm::ValidationAction = __odm::ValidationAction::ErrorAndLog;
        )),
        _ => {}
    }
    // The declared access patterns, as written: the runtime resolves their paths (`odm::testing` explains them).
    if !a.queries.is_empty() {
        let queries = a.queries.iter().map(|q| {
            let part = |l: &Option<syn::LitStr>| l.as_ref().map_or_else(String::new, syn::LitStr::value);
            let (eq, sort, range) = (part(&q.eq), part(&q.sort), part(&q.range));
            quote!(__odm::QuerySpec { eq: #eq, sort: #sort, range: #range })
        });
        items.extend(quote!(const QUERIES: &'static [__odm::QuerySpec] = &[#(#queries),*];));
    }
    match a.scatter.as_ref().map(|s| s.value.as_str()) {
        Some("warn") => items.extend(quote!(
            const SCATTER: __odm::Scatter = __odm::Scatter::Warn;
        )),
        Some("allow") => items.extend(quote!(
            const SCATTER: __odm::Scatter = __odm::Scatter::Allow;
        )),
        _ => {}
    }
    if let Some(rev) = resolved.revision.and_then(|f| Some((f.ident?, &f.key))) {
        let (member, key) = rev;
        items.extend(quote! {
            const REVISION: __OdmOption<&'static str> = __OdmSome(#key);
            fn revision(&self) -> __OdmOption<i64> {
                __odm::revision_of(&self.#member)
            }
        });
    }
    // The attribute spells the server's name (`secondaryPreferred`); the enum variant is the same, capitalised.
    let variant = |ty: &str, v: &String| {
        let ty = syn::Ident::new(ty, proc_macro2::Span::call_site());
        let name =
            syn::Ident::new(&format!("{}{}", v[..1].to_ascii_uppercase(), &v[1..]), proc_macro2::Span::call_site());
        quote!(__OdmSome(__odm::#ty::#name))
    };
    if let Some(rc) = &a.read_concern {
        let v = variant("ReadConcernLevel", &rc.value);
        items.extend(quote!(const READ_CONCERN: __OdmOption<__odm::ReadConcernLevel> = #v;));
    }
    if let Some(rp) = &a.read_preference {
        let v = variant("ReadPreferenceMode", &rp.value);
        items.extend(quote!(const READ_PREFERENCE: __OdmOption<__odm::ReadPreferenceMode> = #v;));
    }
    match &a.write_concern {
        None => {}
        Some(wc) => {
            let w = match &wc.w {
                None => quote!(__OdmNone),
                Some(Ok(n)) => quote!(__OdmSome(__odm::Acknowledgment::Nodes(#n))),
                Some(Err(tag)) => quote!(__OdmSome(__odm::Acknowledgment::Tag(#tag))),
            };
            let j = match wc.journal {
                Some(j) => quote!(__OdmSome(#j)),
                None => quote!(__OdmNone),
            };
            let t = match wc.timeout_ms {
                Some(t) => quote!(__OdmSome(#t)),
                None => quote!(__OdmNone),
            };
            items.extend(quote!(const WRITE_CONCERN: __OdmOption<__odm::WriteConcernSpec> =
                __OdmSome(__odm::WriteConcernSpec { w: #w, journal: #j, timeout_ms: #t });));
        }
    }
    items.extend(id_type(cont));
    super::series::bucket_impl(code, cont, resolved);
    code.tokens(variant_impls(cont));
    indexes.asserts(code);
    super::version::asserts(code, cont);
    code.push(&format!("#[automatically_derived] impl __OdmModel for {ident} "));
    code.open(Delimiter::Brace);
    // A struct model's table holds its collection (`schema::struct_impl`), which `COLLECTION` reads by default.
    if !matches!(cont.data, Data::Struct(_)) {
        code.push(&format!("const COLLECTION: &'static str = {collection:?}; "));
    }
    code.tokens(items);
    super::series::timeseries_item(code, cont, resolved);
    indexes.items(code, cont, resolved);
    super::version::items(code, cont);
    code.close();
}

/// `type Id`: the type of the field serialized as `_id`; `ObjectId` (what the driver generates) without one; `Bson`
/// when the variants of a polymorphic model do not name one type (a newtype variant's struct is not visible here).
fn id_type(cont: &Container) -> TokenStream {
    fn stored_id<'a>(fields: &[Field<'a>]) -> Option<&'a syn::Type> {
        fields.iter().find(|f| f.key == "_id" && f.is_stored()).map(|f| f.ty)
    }
    let found: Option<Option<&syn::Type>> = match &cont.data {
        Data::Struct(fields) => Some(stored_id(fields)),
        Data::Newtype(_) => None,
        Data::Enum(variants) => {
            let mut declared: Option<Option<&syn::Type>> = None;
            let mut agree = true;
            for v in variants.iter().filter(|v| !v.attrs.skip) {
                let id = match &v.style {
                    Style::Struct(fields) => stored_id(fields),
                    Style::Unit => None,
                    _ => {
                        agree = false;
                        break;
                    }
                };
                let shown = |t: Option<&syn::Type>| t.map(|t| quote!(#t).to_string());
                match declared {
                    Some(d) if shown(d) != shown(id) => agree = false,
                    _ => declared = Some(id),
                }
            }
            agree.then(|| declared.flatten())
        }
    };
    match found {
        Some(Some(ty)) => quote!(type Id = #ty;),
        Some(None) => quote!(
            type Id = __odm::bson::oid::ObjectId;
        ),
        None => quote!(
            type Id = __odm::Bson;
        ),
    }
}

/// `impl VariantOf<Model>` for the struct each newtype variant of a polymorphic model wraps, when no other variant
/// wraps the same type (the impls would overlap).
fn variant_impls(cont: &Container) -> TokenStream {
    let (Data::Enum(variants), true) = (&cont.data, cont.is_polymorphic()) else { return TokenStream::new() };
    let ident = cont.ident;
    let tag = cont.attrs.tag.as_ref().map(|t| t.value.clone()).unwrap_or_default();
    let shown = |ty: &syn::Type| quote!(#ty).to_string();
    let newtypes: Vec<(&syn::Ident, &syn::Type, &String)> = variants
        .iter()
        .filter(|v| !v.attrs.skip)
        .filter_map(|v| match &v.style {
            Style::Newtype(f) => Some((v.ident, f.ty, &v.name)),
            _ => None,
        })
        .collect();
    let impls = newtypes
        .iter()
        .filter(|(_, ty, _)| newtypes.iter().filter(|(_, t, _)| shown(t) == shown(ty)).count() == 1)
        .map(|(vident, ty, value)| {
            quote! {
                #[automatically_derived]
                impl __odm::VariantOf<#ident> for #ty {
                    const TAG: (&'static str, &'static str) = (#tag, #value);
                    #[allow(unreachable_patterns)]
                    fn from_model(__model: #ident) -> __OdmOption<Self> {
                        match __model {
                            #ident::#vident(__v) => __OdmSome(__v),
                            _ => __OdmNone,
                        }
                    }
                    fn into_model(self) -> #ident {
                        #ident::#vident(self)
                    }
                }
            }
        });
    quote!(#(#impls)*)
}
