//! `impl BsonSchema`: the validator fragment, field metadata and counter checks of a struct or enum.

use crate::internals::ast::{Container, Data, Derive, Field, Style, Variant};
use crate::internals::source::{source, Source};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

fn opt_str(s: Option<&String>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// The schema expression of one field, with its field-level keywords applied; `__closed` (whether the enclosing
/// document is closed) must be in scope.
pub fn field_schema(field: &Field) -> TokenStream {
    let ty = field.ty;
    let a = &field.attrs;
    let mut expr = match source(field) {
        Source::Trait => quote_spanned!(ty.span()=> <#ty as __odm::BsonSchema>::bson_schema_within(__closed)),
        Source::Fixed(alias) => quote!(__odm::build::fixed(#alias)),
        Source::Mixed => quote!(__odm::build::any()),
    };
    for (attr, keyword) in
        [(&a.min_items, "minItems"), (&a.max_items, "maxItems"), (&a.min_len, "minLength"), (&a.max_len, "maxLength")]
    {
        if let Some(n) = attr {
            let n = n.value as i64;
            expr = quote!(__odm::build::with(#expr, #keyword, #n));
        }
    }
    if a.nullable.is_some() {
        expr = quote!(__odm::build::nullable(#expr));
    }
    if let Some(doc) = &field.doc {
        expr = quote!(__odm::build::describe(#expr, #doc));
    }
    expr
}

/// `|| <T>::dynamic_keys(depth - 1)` for every stored field (mixed fields count as dynamic).
fn dynamic_keys<'a>(fields: impl Iterator<Item = &'a Field<'a>>) -> TokenStream {
    let parts = fields.filter(|f| f.is_stored()).map(|f| {
        let ty = f.ty;
        match source(f) {
            Source::Trait => quote!(|| <#ty as __odm::BsonSchema>::dynamic_keys(__depth - 1)),
            Source::Mixed => quote!(|| true),
            Source::Fixed(_) => TokenStream::new(),
        }
    });
    quote! {
        fn dynamic_keys(__depth: u8) -> bool {
            __depth == 0 #(#parts)*
        }
    }
}

/// Statements adding `fields` to an `ObjectSchema` named `__s`.
fn object_fields(fields: &[Field]) -> TokenStream {
    let adds = fields.iter().filter(|f| f.is_stored()).map(|f| {
        let key = &f.key;
        let schema = field_schema(f);
        let required = f.is_always_written();
        quote!(__s.field(#key, #schema, #required);)
    });
    quote!(#(#adds)*)
}

/// The `nested` metadata function of a field.
fn nested_meta(field: &Field) -> TokenStream {
    let ty = field.ty;
    match source(field) {
        Source::Trait => quote!(<#ty as __odm::BsonSchema>::type_meta),
        _ => quote!(__odm::no_meta),
    }
}

/// `fn bson_schema_within` computing `__closed` for this type (its own `closed`/`open`, else the enclosing
/// document's) before `body`, and `fn bson_schema` as the same outside any document.
fn schema_fns(cont: &Container, body: TokenStream) -> TokenStream {
    let closed = if cont.attrs.closed.is_some() {
        quote!(true)
    } else if cont.attrs.open.is_some() {
        quote!(false)
    } else {
        quote!(__within)
    };
    quote! {
        fn bson_schema() -> __odm::Document {
            <Self as __odm::BsonSchema>::bson_schema_within(false)
        }
        // A string enum or a converted field has no keys to close.
        #[allow(unused_variables)]
        fn bson_schema_within(__within: bool) -> __odm::Document {
            let __closed: bool = #closed;
            #body
        }
    }
}

pub fn expand(cont: &Container, _odm: &TokenStream, extra: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let desc = opt_str(cont.doc.as_ref());
    match &cont.data {
        Data::Struct(fields) => {
            let mut adds = object_fields(fields);
            if let Some(tag) = &cont.attrs.tag {
                // serde writes the tag first, holding the struct's serialized name.
                let tag = &tag.value;
                let value = cont.attrs.rename.as_ref().map_or_else(|| ident.to_string(), |r| r.value.clone());
                adds = quote! {
                    __s.field(#tag, __odm::build::string_enum(&[#value], ::core::option::Option::None), true);
                    #adds
                };
            }
            let implicit_id = (cont.derive == Derive::Model).then(|| quote!(__s.implicit_id();));
            let name = ident.to_string();
            let metas = fields.iter().filter(|f| f.is_stored()).map(|f| {
                let rust = &f.rust_name;
                let key = &f.key;
                let nested = nested_meta(f);
                let counter = match &f.attrs.counter {
                    Some(c) => {
                        let c = &c.value;
                        quote!(::core::option::Option::Some(#c))
                    }
                    None => quote!(::core::option::Option::None),
                };
                let ty = f.ty;
                let map = match source(f) {
                    Source::Trait => quote!(<#ty as __odm::BsonSchema>::KIND.is_map()),
                    _ => quote!(false),
                };
                quote!(__odm::FieldMeta { name: #rust, key: #key, nested: #nested, counter: #counter, map: #map })
            });
            let checks = counter_checks(fields);
            let dynamic = dynamic_keys(fields.iter());
            let schema_fns = schema_fns(
                cont,
                quote! {
                    let mut __s = __odm::build::ObjectSchema::new();
                    #adds
                    #implicit_id
                    __s.finish(__closed, #desc)
                },
            );
            quote! {
                static __META: __odm::TypeMeta = __odm::TypeMeta { name: #name, fields: &[#(#metas),*] };

                /// Counter checks of this struct's fields, for field expressions `<prefix><key>`.
                fn __counter_checks(__prefix: &str, __depth: usize, __out: &mut __odm::Vec<__odm::Bson>) {
                    let _ = (__prefix, __depth, &__out);
                    #checks
                }

                #[automatically_derived]
                impl __odm::BsonSchema for #ident {
                    const KIND: __odm::BsonKind = __odm::BsonKind::Object;
                    #extra
                    #schema_fns
                    fn type_meta() -> ::core::option::Option<&'static __odm::TypeMeta> {
                        ::core::option::Option::Some(&__META)
                    }
                    #dynamic
                    fn counter_checks(__value: &str, __depth: usize, __out: &mut __odm::Vec<__odm::Bson>) {
                        __counter_checks(&__odm::format!("{}.", __value), __depth, __out)
                    }
                }
            }
        }
        Data::Newtype(field) => {
            let ty = field.ty;
            let schema_fns = schema_fns(cont, field_schema(field));
            let dynamic = dynamic_keys(std::iter::once(&**field));
            let (kind, item, meta, checks) = match source(field) {
                Source::Trait => (
                    quote!(<#ty as __odm::BsonSchema>::KIND),
                    quote!(<#ty as __odm::BsonSchema>::ITEM_KIND),
                    quote!(<#ty as __odm::BsonSchema>::type_meta()),
                    quote!(<#ty as __odm::BsonSchema>::counter_checks(__value, __depth, __out)),
                ),
                _ => (
                    quote!(__odm::BsonKind::Other),
                    quote!(::core::option::Option::None),
                    quote!(::core::option::Option::None),
                    quote!(let _ = (__value, __depth, __out);),
                ),
            };
            quote! {
                #[automatically_derived]
                impl __odm::BsonSchema for #ident {
                    const KIND: __odm::BsonKind = #kind;
                    const ITEM_KIND: ::core::option::Option<__odm::BsonKind> = #item;
                    // The derive refused an unbounded array field (or one behind an alias), so an array newtype
                    // always carries its bound.
                    const BOUNDED: bool = true;
                    #extra
                    #schema_fns
                    fn type_meta() -> ::core::option::Option<&'static __odm::TypeMeta> {
                        #meta
                    }
                    #dynamic
                    fn counter_checks(__value: &str, __depth: usize, __out: &mut __odm::Vec<__odm::Bson>) {
                        #checks
                    }
                }
            }
        }
        Data::Enum(variants) => {
            let stored: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
            let names: Vec<&String> = stored.iter().map(|v| &v.name).collect();
            let (kind, body) = match &cont.attrs.tag {
                None => (quote!(__odm::BsonKind::String), quote!(__odm::build::string_enum(&[#(#names),*], #desc))),
                Some(tag) => {
                    let tag = &tag.value;
                    let content = cont.attrs.content.as_ref().map(|c| &c.value);
                    let schemas = stored.iter().map(|v| variant_schema(v, tag, content));
                    (
                        quote!(__odm::BsonKind::Object),
                        quote!(__odm::build::tagged_enum(#tag, &[#(#names),*], __odm::vec![#(#schemas),*], #desc)),
                    )
                }
            };
            let variant_fields = stored.iter().flat_map(|v| match &v.style {
                Style::Newtype(f) => std::slice::from_ref(&**f).iter(),
                Style::Struct(fs) => fs.iter(),
                Style::Unit | Style::Tuple => [].iter(),
            });
            let dynamic = dynamic_keys(variant_fields);
            let schema_fns = schema_fns(cont, body);
            // A string enum converts straight to its stored name, skipping the serde round trip.
            let all_unit = variants.iter().all(|v| !v.attrs.skip && matches!(v.style, Style::Unit));
            let to_bson = (cont.attrs.tag.is_none() && all_unit && !variants.is_empty()).then(|| {
                let arms = variants.iter().map(|v| {
                    let (vident, name) = (v.ident, &v.name);
                    quote!(#ident::#vident => #name,)
                });
                quote! {
                    fn to_bson(__value: &Self) -> ::core::result::Result<__odm::Bson, __odm::bson::error::Error> {
                        ::core::result::Result::Ok(__odm::Bson::String(__odm::String::from(match __value { #(#arms)* })))
                    }
                }
            });
            quote! {
                #[automatically_derived]
                impl __odm::BsonSchema for #ident {
                    const KIND: __odm::BsonKind = #kind;
                    #extra
                    #schema_fns
                    #to_bson
                    #dynamic
                }
            }
        }
    }
}

/// One variant's object schema; closed when the enum is (`__closed` in scope).
fn variant_schema(v: &Variant, tag: &str, content: Option<&String>) -> TokenStream {
    let name = &v.name;
    let desc = opt_str(v.doc.as_ref());
    let tag_schema = quote!(__odm::doc! { "enum": [#name] });
    match (&v.style, content) {
        (Style::Newtype(field), None) => {
            let schema = field_schema(field);
            quote!(__odm::build::tag_into(#schema, #tag, #name))
        }
        (Style::Newtype(field), Some(content)) => {
            let schema = field_schema(field);
            quote! {{
                let mut __s = __odm::build::ObjectSchema::new();
                __s.field(#tag, #tag_schema, true);
                __s.field(#content, #schema, true);
                __s.finish(__closed, #desc)
            }}
        }
        (Style::Struct(fields), None) => {
            let adds = object_fields(fields);
            quote! {{
                let mut __s = __odm::build::ObjectSchema::new();
                __s.field(#tag, #tag_schema, true);
                #adds
                __s.finish(__closed, #desc)
            }}
        }
        (Style::Struct(fields), Some(content)) => {
            let adds = object_fields(fields);
            quote! {{
                let __inner = {
                    let mut __s = __odm::build::ObjectSchema::new();
                    #adds
                    __s.finish(__closed, ::core::option::Option::None)
                };
                let mut __s = __odm::build::ObjectSchema::new();
                __s.field(#tag, #tag_schema, true);
                __s.field(#content, __inner, true);
                __s.finish(__closed, #desc)
            }}
        }
        (Style::Unit | Style::Tuple, _) => quote! {{
            let mut __s = __odm::build::ObjectSchema::new();
            __s.field(#tag, #tag_schema, true);
            __s.finish(__closed, #desc)
        }},
    }
}

/// Statements pushing the `$expr` checks of `fields` (nested ones, then this level's counters) into `__out`.
fn counter_checks(fields: &[Field]) -> TokenStream {
    let nested = fields.iter().filter(|f| f.is_stored() && matches!(source(f), Source::Trait)).map(|f| {
        let ty = f.ty;
        let key = &f.key;
        quote!(<#ty as __odm::BsonSchema>::counter_checks(&__odm::format!("{}{}", __prefix, #key), __depth, __out);)
    });
    let own = fields.iter().filter_map(|f| {
        let counter = f.attrs.counter.as_ref()?;
        let target = fields.iter().find(|t| t.rust_name == counter.value)?;
        let array = &f.key;
        let count = &target.key;
        Some(quote! {
            __out.push(__odm::build::counter_check(
                &__odm::format!("{}{}", __prefix, #array),
                &__odm::format!("{}{}", __prefix, #count),
            ));
        })
    });
    quote!(#(#nested)* #(#own)*)
}
