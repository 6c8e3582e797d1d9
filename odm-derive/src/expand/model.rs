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
    quote! {
        #index_asserts
        #[automatically_derived]
        impl __odm::Model for #ident {
            const COLLECTION: &'static str = #collection;
            const DATABASE: ::core::option::Option<&'static str> = #db;
            const VALIDATION_LEVEL: __odm::ValidationLevel = __odm::ValidationLevel::#level;
            const VALIDATION_ACTION: __odm::ValidationAction = __odm::ValidationAction::#action;
            #index_items
            fn counter_exprs() -> __odm::Vec<__odm::Bson> {
                let mut __out = __odm::Vec::new();
                __counter_checks("$", 0, &mut __out);
                __out
            }
        }
    }
}
