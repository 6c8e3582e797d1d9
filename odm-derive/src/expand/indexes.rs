//! Index specs, capped settings, per-field key constants and the index const assertions of a model.

use crate::internals::ast::{Container, Data, Field};
use crate::internals::check::{source, Source};
use crate::internals::check_index::{parse_partial, resolve_keys, resolve_path, Key, KeyKind, PartialValue};
use crate::internals::index_attr::IndexAttr;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

/// The `BsonKind` of a top-level field, as an expression.
fn field_kind(f: &Field) -> TokenStream {
    let ty = f.ty;
    match source(f) {
        Source::Trait => quote!(<#ty as __odm::BsonSchema>::KIND),
        Source::Fixed(alias) => {
            let v = format_ident!(
                "{}",
                match alias.as_str() {
                    "int" => "Int",
                    "long" => "Long",
                    "double" => "Double",
                    "decimal" => "Decimal",
                    "string" => "String",
                    "bool" => "Bool",
                    "objectId" => "ObjectId",
                    "date" => "Date",
                    "timestamp" => "Timestamp",
                    "binData" => "Binary",
                    "object" => "Object",
                    "array" => "Array",
                    _ => "Other",
                }
            );
            quote!(__odm::BsonKind::#v)
        }
        Source::Mixed => quote!(__odm::BsonKind::Other),
    }
}

/// `impl T { pub const __ODM_FIELD_x: FieldInfo }` for every stored field: lets other models' index paths
/// (`items.name`) resolve to stored keys at compile time.
pub fn field_consts(cont: &Container) -> TokenStream {
    let Data::Struct(fields) = &cont.data else { return TokenStream::new() };
    let ident = cont.ident;
    let consts = fields.iter().filter(|f| f.is_stored()).map(|f| {
        let name = format_ident!("__ODM_FIELD_{}", f.rust_name);
        let key = &f.key;
        let kind = field_kind(f);
        quote! {
            #[doc(hidden)]
            #[allow(non_upper_case_globals)]
            pub const #name: __odm::FieldInfo = __odm::FieldInfo { key: #key, kind: #kind };
        }
    });
    quote! {
        #[automatically_derived]
        impl #ident {
            #(#consts)*
        }
    }
}

fn nested_info(seg: &str, inner: &syn::Type, span: proc_macro2::Span) -> TokenStream {
    let name = format_ident!("__ODM_FIELD_{}", seg, span = span);
    quote_spanned!(span=> <#inner>::#name)
}

fn stored_path(k: &Key, span: proc_macro2::Span) -> TokenStream {
    match (k.field, &k.nested) {
        (None, _) => quote!(__odm::String::from("$**")),
        (Some(f), None) => {
            let key = &f.key;
            if k.kind == KeyKind::Wildcard {
                quote!(__odm::format!("{}.$**", #key))
            } else {
                quote!(__odm::String::from(#key))
            }
        }
        (Some(f), Some((seg, inner))) => {
            let key = &f.key;
            let info = nested_info(seg, inner, span);
            if k.kind == KeyKind::Wildcard {
                quote!(__odm::format!("{}.{}.$**", #key, #info.key))
            } else {
                quote!(__odm::format!("{}.{}", #key, #info.key))
            }
        }
    }
}

fn key_kind_expr(k: &Key, span: proc_macro2::Span) -> TokenStream {
    match (k.field, &k.nested) {
        (None, _) => quote!(__odm::BsonKind::Other),
        (Some(f), None) => field_kind(f),
        (Some(_), Some((seg, inner))) => {
            let info = nested_info(seg, inner, span);
            quote!(#info.kind)
        }
    }
}

fn key_value(kind: KeyKind) -> TokenStream {
    match kind {
        KeyKind::Asc | KeyKind::Wildcard => quote!(__odm::Bson::Int32(1)),
        KeyKind::Desc => quote!(__odm::Bson::Int32(-1)),
        KeyKind::Text => quote!(__odm::Bson::String(__odm::String::from("text"))),
        KeyKind::Hashed => quote!(__odm::Bson::String(__odm::String::from("hashed"))),
        KeyKind::Sphere => quote!(__odm::Bson::String(__odm::String::from("2dsphere"))),
    }
}

fn lit_bson(lit: &syn::Lit) -> TokenStream {
    match lit {
        syn::Lit::Str(s) => quote!(__odm::Bson::String(__odm::String::from(#s))),
        syn::Lit::Int(i) => quote!(__odm::Bson::Int32(#i)),
        syn::Lit::Bool(b) => quote!(__odm::Bson::Boolean(#b)),
        other => quote!(__odm::Bson::String(__odm::String::from(stringify!(#other)))),
    }
}

fn one_index<'a>(fields: &'a [Field<'a>], idx: &IndexAttr) -> Option<(TokenStream, TokenStream)> {
    let keys_lit = idx.keys.as_ref()?;
    let span = keys_lit.span();
    let keys = resolve_keys(fields, &keys_lit.value()).ok()?;
    let paths: Vec<TokenStream> = keys.iter().map(|k| stored_path(k, span)).collect();
    let values: Vec<TokenStream> = keys.iter().map(|k| key_value(k.kind)).collect();
    let name = match &idx.name {
        Some(n) => quote!(__odm::String::from(#n)),
        None => quote!(__odm::IndexSpec::default_name(&__keys)),
    };
    let mut opts = TokenStream::new();
    if idx.unique.is_some() {
        opts.extend(quote!(__s.unique = true;));
    }
    if idx.sparse.is_some() {
        opts.extend(quote!(__s.sparse = true;));
    }
    if idx.hidden.is_some() {
        opts.extend(quote!(__s.hidden = true;));
    }
    if let Some((ttl, _)) = &idx.ttl {
        opts.extend(quote!(__s.expire_after_seconds = ::core::option::Option::Some(#ttl);));
    }
    if let Some(lang) = &idx.default_language {
        opts.extend(quote!(__s.default_language = ::core::option::Option::Some(__odm::String::from(#lang));));
    }
    if let Some((coll, _)) = &idx.collation {
        let entries = coll.iter().map(|(k, v)| {
            let v = lit_bson(v);
            quote!(__c.insert(#k, #v);)
        });
        opts.extend(quote! {{
            let mut __c = __odm::Document::new();
            #(#entries)*
            __s.collation = ::core::option::Option::Some(__c);
        }});
    }
    if let Some(w) = &idx.weights {
        let text = w.value();
        let entries = text.split(',').filter_map(|e| {
            let (f, n) = e.split_once(':')?;
            let n: i32 = n.trim().parse().ok()?;
            let (field, nested, _) = resolve_path(fields, f.trim()).ok()?;
            let key = Key { field, nested, first_is_array: false, kind: KeyKind::Text };
            let path = stored_path(&key, w.span());
            Some(quote!(__w.insert(#path, #n);))
        });
        let entries: Vec<TokenStream> = entries.collect();
        opts.extend(quote! {{
            let mut __w = __odm::Document::new();
            #(#entries)*
            __s.weights = ::core::option::Option::Some(__w);
        }});
    }
    if let Some(p) = &idx.partial {
        let conditions = parse_partial(fields, &p.value()).ok()?;
        let adds = conditions.iter().filter_map(|(path, op, value)| {
            let (field, nested, _) = resolve_path(fields, path).ok()?;
            let key = Key { field, nested, first_is_array: false, kind: KeyKind::Asc };
            let path = stored_path(&key, p.span());
            let v = match value {
                PartialValue::Bool(b) => quote!(__odm::Bson::Boolean(#b)),
                PartialValue::Int(n) => quote!(__odm::Bson::Int64(#n)),
                PartialValue::Double(f) => quote!(__odm::Bson::Double(#f)),
                PartialValue::Str(s) => quote!(__odm::Bson::String(__odm::String::from(#s))),
            };
            Some(quote!(__odm::build::partial_condition(&mut __p, #path, #op, #v);))
        });
        let adds: Vec<TokenStream> = adds.collect();
        opts.extend(quote! {{
            let mut __p = __odm::Document::new();
            #(#adds)*
            __s.partial_filter_expression = ::core::option::Option::Some(__p);
        }});
    }
    let build = quote! {{
        let mut __keys = __odm::Document::new();
        #(__keys.insert(#paths, #values);)*
        let mut __s = __odm::IndexSpec::new(#name, __keys);
        #opts
        __s
    }};

    // Const assertions for what only types know: TTL on a date, parallel arrays, hashed arrays.
    let mut asserts = TokenStream::new();
    let label = keys_lit.value();
    if idx.ttl.is_some() && keys.len() == 1 {
        let kind = key_kind_expr(&keys[0], span);
        let msg = format!("TTL index on `{label}`: the field is not a date, so documents would never expire; index a `bson::DateTime` field");
        asserts.extend(quote_spanned! {span=>
            const _: () = if !::core::matches!(#kind, __odm::BsonKind::Date) { ::core::panic!(#msg) };
        });
    }
    if keys.len() > 1 {
        let arrays = keys.iter().map(|k| {
            let syntactic = k.first_is_array;
            let kind = key_kind_expr(k, span);
            quote!((#syntactic || #kind.is_array()) as usize)
        });
        let msg = format!("index `{label}` reaches through two arrays (parallel arrays): MongoDB cannot build it; index the arrays separately");
        asserts.extend(quote_spanned! {span=>
            const _: () = if 0 #(+ #arrays)* > 1 { ::core::panic!(#msg) };
        });
    }
    for k in keys.iter().filter(|k| k.kind == KeyKind::Hashed) {
        let kind = key_kind_expr(k, span);
        let syntactic = k.first_is_array;
        let msg = format!("hashed index `{label}` on an array: hashed indexes cannot hold arrays");
        asserts.extend(quote_spanned! {span=>
            const _: () = if #syntactic || #kind.is_array() { ::core::panic!(#msg) };
        });
    }
    Some((build, asserts))
}

/// The `indexes()` and `CAPPED` items of `impl Model`, and the index const assertions.
pub fn expand(cont: &Container) -> (TokenStream, TokenStream) {
    let Data::Struct(fields) = &cont.data else { return (TokenStream::new(), TokenStream::new()) };
    let mut builds = Vec::new();
    let mut asserts = TokenStream::new();
    for idx in &cont.attrs.indexes {
        if let Some((b, a)) = one_index(fields, idx) {
            builds.push(b);
            asserts.extend(a);
        }
    }
    let capped = match &cont.attrs.capped {
        Some(c) => {
            let size = c.size.as_ref().map_or(0, |(n, _)| *n);
            let max = match &c.max {
                Some((m, _)) => quote!(::core::option::Option::Some(#m)),
                None => quote!(::core::option::Option::None),
            };
            quote!(const CAPPED: ::core::option::Option<__odm::Capped> = ::core::option::Option::Some(__odm::Capped { size: #size, max: #max });)
        }
        None => TokenStream::new(),
    };
    let items = quote! {
        #capped
        fn indexes() -> __odm::Vec<__odm::IndexSpec> {
            __odm::vec![#(#builds),*]
        }
    };
    (items, asserts)
}
