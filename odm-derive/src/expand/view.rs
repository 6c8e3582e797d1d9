//! The code of a view (`#[derive(View)]`): the checks against the model the tokens cannot make (the model has a
//! field table, each field is one it stores, each type reads the model's), its projection, and its `Deserialize`,
//! which reads each field under the key the model's table gives it.

use crate::internals::rules;
use crate::internals::ty::{self, TyKind};
use crate::internals::view::View;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;

/// The items of `view`, inside one anonymous const.
pub fn generate(view: &View, odm: &TokenStream) -> TokenStream {
    let (ident, of) = (view.ident, &view.of);
    let name = ident.unraw().to_string();
    let of_text = of.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::");
    let n = view.fields.len();
    let of_msg = rules::VIEW_OF.message(format_args!(
        "view `{name}` is of `{of_text}`, which has no fields a view can read: a view is of a struct deriving `Model` \
         or `Embedded` (not of a polymorphic model, nor of a type with a hand-written `BsonSchema`)"
    ));
    let of_check = quote_spanned! {of_span(view)=>
        const _: [(); if __odm_viewable(__T) { 0 } else { ::core::panic!("{}", #of_msg) }] = [];
    };
    let mut checks = TokenStream::new();
    let (mut keys, mut slots, mut projects, mut arms, mut inits) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, f) in view.fields.iter().enumerate() {
        let (fident, fty) = (f.ident, f.ty);
        let fname = fident.unraw().to_string();
        let key = format_ident!("__K{i}");
        let slot = format_ident!("__f{i}");
        let msg = rules::VIEW_FIELD.message(format_args!(
            "`{of_text}` stores no field `{fname}`, so view `{name}` cannot read it; name a field `{of_text}` \
             stores, as `{of_text}` names it (the view reads it under the model's key)"
        ));
        checks.extend(quote_spanned! {fident.span()=>
            const #key: &str = __odm_view_key(__T, #fname);
            const _: [(); if #key.is_empty() && __odm_viewable(__T) { ::core::panic!("{}", #msg) } else { 0 }] = [];
        });
        let how = marker(fty);
        let at = quote_spanned!(fident.span()=> |__m: &#of| &__m.#fident);
        projects.push(quote_spanned! {ty_span(fty)=>
            __odm_view_field(#at).project::<#fty, #how>(__prefix, #key, __out);
        });
        keys.push(key.clone());
        slots.push(quote!(let mut #slot: __OdmOption<#fty> = __OdmNone;));
        arms.push(quote!(#i => #slot = __OdmSome(__map.next_value()?),));
        inits.push(quote!(#fident: match #slot { __OdmSome(__v) => __v, __OdmNone => __odm_view_missing(#key)? },));
    }
    let idx: Vec<usize> = (0..n).collect();
    quote! {
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            use #odm::__private::view_names::*;
            use #odm::__private::serde as __serde;
            const __T: __OdmOption<&'static __OdmTable> = <#of as __OdmSchema>::OBJECT;
            #of_check
            #checks
            #[automatically_derived]
            impl __OdmView for #ident {
                type Of = #of;
                fn __project(__prefix: &str, __out: &mut __OdmDocument) {
                    #(#projects)*
                }
            }
            #[automatically_derived]
            impl __OdmReads<#of, __OdmAsView<#ident>> for #ident {}
            #[automatically_derived]
            impl<'de> __serde::Deserialize<'de> for #ident {
                fn deserialize<__D: __serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                    struct __V;
                    impl<'de> __serde::de::Visitor<'de> for __V {
                        type Value = #ident;
                        fn expecting(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            __odm_view_expecting(__f, #name)
                        }
                        fn visit_map<__A: __serde::de::MapAccess<'de>>(
                            self,
                            mut __map: __A,
                        ) -> ::core::result::Result<#ident, __A::Error> {
                            #(#slots)*
                            while let __OdmSome(__i) =
                                __map.next_key_seed(__OdmViewKeys(|__k: &str| match __k { #(#keys => #idx,)* _ => #n }))?
                            {
                                match __i {
                                    #(#arms)*
                                    _ => {
                                        __map.next_value::<__serde::de::IgnoredAny>()?;
                                    }
                                }
                            }
                            ::core::result::Result::Ok(#ident { #(#inits)* })
                        }
                    }
                    const __FIELDS: &[&str] = &[#(#keys),*];
                    __d.deserialize_struct(#name, __FIELDS, __V)
                }
            }
        };
    }
}

/// Placeholder impls beside a view's errors, so that its uses (`find(…).view::<V>()`) add no second wave of errors.
pub fn fallback(view: &View, odm: &TokenStream) -> TokenStream {
    let (ident, of) = (view.ident, &view.of);
    quote! {
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            use #odm::__private::view_names::*;
            use #odm::__private::serde as __serde;
            #[automatically_derived]
            impl __OdmView for #ident {
                type Of = #of;
                fn __project(_: &str, _: &mut __OdmDocument) {
                    ::core::unreachable!("odm derive failed to compile")
                }
            }
            #[automatically_derived]
            impl<'de> __serde::Deserialize<'de> for #ident {
                fn deserialize<__D: __serde::Deserializer<'de>>(_: __D) -> ::core::result::Result<Self, __D::Error> {
                    ::core::unreachable!("odm derive failed to compile")
                }
            }
        };
    }
}

/// Where an error about `of` points: the path in `#[odm(of = "…")]` as written (its tokens carry the literal's span).
fn of_span(view: &View) -> proc_macro2::Span {
    view.of.segments.first().map_or_else(proc_macro2::Span::call_site, |s| s.ident.span())
}

/// The span of a type as written.
fn ty_span(ty: &syn::Type) -> proc_macro2::Span {
    syn::spanned::Spanned::span(ty)
}

/// The `Reads` marker of a view's field type, spelt from its tokens with holes the compiler fills: which `Option`
/// is the model's own, and whether a leaf is the model's type or a view of it.
fn marker(ty: &syn::Type) -> TokenStream {
    match ty::classify(ty) {
        TyKind::Option(inner) => {
            let inner = marker(inner);
            quote!(__OdmViewOpt<_, #inner>)
        }
        TyKind::Array { elem, .. } => {
            let inner = marker(elem);
            quote!(__OdmViewEach<#inner>)
        }
        TyKind::Map { value, .. } => {
            let inner = marker(value);
            quote!(__OdmViewValues<#inner>)
        }
        TyKind::Boxed(inner) => {
            let inner = marker(inner);
            quote!(__OdmViewBoxed<#inner>)
        }
        _ => quote!(_),
    }
}
