//! The encoders of typed paths: how a value written through a path is turned into BSON, the way the field's own
//! serializer writes it.

use crate::internals::ast::Field;
use crate::internals::source::{source, Source};
use proc_macro2::TokenStream;
use quote::quote;

/// The path of the function that serializes a field through its serde converter, if it declares one.
fn converter_fn(field: &Field) -> Option<TokenStream> {
    match (&field.attrs.serialize_fn, &field.attrs.converter) {
        (Some(f), _) => syn::parse_str::<syn::ExprPath>(f).ok().map(|p| quote!(#p)),
        (None, Some(as_ty)) => {
            syn::parse_str::<syn::Type>(&as_ty.value).ok().map(|t| quote!(__odm::serde_with::As::<#t>::serialize))
        }
        (None, None) => None,
    }
}

/// A function item `__conv(&T) -> Result<Bson, bson::error::Error>` serializing through the converter `f`.
fn converter_item(field: &Field, f: &TokenStream) -> TokenStream {
    let ty = field.ty;
    quote! {
        fn __conv(__v: &#ty) -> ::core::result::Result<__odm::Bson, __odm::bson::error::Error> {
            struct __W<'__a>(&'__a #ty);
            impl __odm::serde::Serialize for __W<'_> {
                fn serialize<__S: __odm::serde::Serializer>(
                    &self,
                    __s: __S,
                ) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #f(self.0, __s)
                }
            }
            __odm::bson::serialize_to_bson(&__W(__v))
        }
    }
}

/// The encoder of a field's values for its typed path (`odm::path::Encoder`): its own `to_bson`, or the serde
/// converter it declares.
pub fn path_encoder(field: &Field) -> TokenStream {
    let ty = field.ty;
    match converter_encoder(field) {
        None if matches!(source(field), Source::Trait) => quote!(__odm::encode_schema::<#ty>),
        None => quote!(__odm::encode_value::<#ty>),
        Some(enc) => enc,
    }
}

/// The encoder through the serde converter the field declares, if any.
pub fn converter_encoder(field: &Field) -> Option<TokenStream> {
    let ty = field.ty;
    let conv = converter_item(field, &converter_fn(field)?);
    Some(quote! {{
        fn __enc(__v: &#ty, __at: &str) -> ::core::result::Result<__odm::Bson, __odm::Invalid> {
            #conv
            __odm::encode_converted(__conv(__v), __at)
        }
        __enc
    }})
}
