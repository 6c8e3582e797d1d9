//! The encoders of typed paths: how a value written through a path is turned into BSON, the way the field's own
//! serializer writes it.

use crate::internals::ast::Field;
use crate::internals::resolve::field::Encoding;
use proc_macro2::TokenStream;
use quote::quote;

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

/// The encoder of a field's values for its typed path (`odm::path::Encoder`), as its resolved `encoding` says:
/// its own `to_bson`, or the serde converter it declares.
pub fn path_encoder(field: &Field, encoding: &Encoding) -> TokenStream {
    let ty = field.ty;
    match encoding {
        Encoding::Schema => quote!(__odm::encode_schema::<#ty>),
        Encoding::Value => quote!(__odm::encode_value::<#ty>),
        Encoding::Converter(f) => converter_encoder(field, f),
    }
}

/// The encoder through the serde converter function `f` the field declares.
pub fn converter_encoder(field: &Field, f: &TokenStream) -> TokenStream {
    let ty = field.ty;
    let conv = converter_item(field, f);
    quote! {{
        fn __enc(__v: __odm::EncoderInput<'_, #ty>, __at: &str) -> ::core::result::Result<__odm::Bson, __odm::Invalid> {
            #conv
            __odm::encode_converted(__conv(__v.get()), __at)
        }
        __enc
    }}
}
