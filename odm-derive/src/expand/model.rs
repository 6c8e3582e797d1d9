//! `impl Model`: collection name, database and validation settings of a collection model.

use crate::internals::ast::Container;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub fn expand(cont: &Container, _odm: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let a = &cont.attrs;
    let collection = a.collection.as_ref().map(|c| c.value.clone()).unwrap_or_default();
    let db = match &a.db {
        Some(db) => {
            let db = &db.value;
            quote!(::core::option::Option::Some(#db))
        }
        None => quote!(::core::option::Option::None),
    };
    let level = format_ident!(
        "{}",
        match a.validation_level.as_ref().map(|s| s.value.as_str()) {
            Some("moderate") => "Moderate",
            Some("off") => "Off",
            _ => "Strict",
        }
    );
    let action = format_ident!(
        "{}",
        match a.validation_action.as_ref().map(|s| s.value.as_str()) {
            Some("warn") => "Warn",
            Some("errorAndLog") => "ErrorAndLog",
            _ => "Error",
        }
    );
    let (index_items, index_asserts) = super::indexes::expand(cont);
    // The attribute spells the server's name (`secondaryPreferred`); the enum variant is the same, capitalised.
    let variant = |ty: &str, v: Option<&String>| match v {
        Some(v) => {
            let ty = syn::Ident::new(ty, proc_macro2::Span::call_site());
            let name =
                syn::Ident::new(&format!("{}{}", v[..1].to_ascii_uppercase(), &v[1..]), proc_macro2::Span::call_site());
            quote!(::core::option::Option::Some(__odm::#ty::#name))
        }
        None => quote!(::core::option::Option::None),
    };
    let read_concern = variant("ReadConcernLevel", a.read_concern.as_ref().map(|s| &s.value));
    let read_preference = variant("ReadPreferenceMode", a.read_preference.as_ref().map(|s| &s.value));
    let write_concern = match &a.write_concern {
        None => quote!(::core::option::Option::None),
        Some(wc) => {
            let w = match &wc.w {
                None => quote!(::core::option::Option::None),
                Some(Ok(n)) => quote!(::core::option::Option::Some(__odm::Acknowledgment::Nodes(#n))),
                Some(Err(tag)) => quote!(::core::option::Option::Some(__odm::Acknowledgment::Tag(#tag))),
            };
            let j = match wc.journal {
                Some(j) => quote!(::core::option::Option::Some(#j)),
                None => quote!(::core::option::Option::None),
            };
            let t = match wc.timeout_ms {
                Some(t) => quote!(::core::option::Option::Some(#t)),
                None => quote!(::core::option::Option::None),
            };
            quote!(::core::option::Option::Some(__odm::WriteConcernSpec { w: #w, journal: #j, timeout_ms: #t }))
        }
    };
    quote! {
        #index_asserts
        #[automatically_derived]
        impl __odm::Model for #ident {
            const COLLECTION: &'static str = #collection;
            const DATABASE: ::core::option::Option<&'static str> = #db;
            const VALIDATION_LEVEL: __odm::ValidationLevel = __odm::ValidationLevel::#level;
            const VALIDATION_ACTION: __odm::ValidationAction = __odm::ValidationAction::#action;
            #index_items
            const READ_CONCERN: ::core::option::Option<__odm::ReadConcernLevel> = #read_concern;
            const READ_PREFERENCE: ::core::option::Option<__odm::ReadPreferenceMode> = #read_preference;
            const WRITE_CONCERN: ::core::option::Option<__odm::WriteConcernSpec> = #write_concern;
            fn counter_exprs() -> __odm::Vec<__odm::Bson> {
                let mut __out = __odm::Vec::new();
                __counter_checks("$", 0, &mut __out);
                __out
            }
        }
    }
}
