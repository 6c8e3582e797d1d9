//! Index specs, capped settings, the field table of every derived struct, and the index const assertions of a model.
//!
//! Nested index paths (`items.name`) name a field of another type, which this derive cannot see: they resolve at
//! compile time through the field table the other type's derive generates (`BsonSchema::OBJECT`: Rust name →
//! stored key and type family). A type without a table (not derived, a BSON scalar, an enum) has `None`, so every
//! problem ends in a const assertion with a message of ours, pointing at the literal.

use crate::internals::ast::{Container, Data, Field};
use crate::internals::attr::index::IndexAttr;
use crate::internals::index_keys::{default_name, key_label, Key, KeyKind};
use crate::internals::lists::{location, span_within, Lang, KEYS, PARTIAL, WEIGHTS};
use crate::internals::resolve::{Index, PartialValue, Resolved};
use crate::internals::rules;
use crate::internals::source::Source;
use crate::internals::ty;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use std::ops::Range;

/// The `BsonKind` of a top-level field, as an expression.
fn field_kind(f: &Field) -> TokenStream {
    let ty = f.ty;
    match &f.facts.source {
        Source::Trait => quote!(<#ty as __OdmSchema>::KIND),
        Source::Fixed(alias) => {
            let kind = super::schema::alias_kind(alias);
            quote!(__OdmKind::#kind)
        }
        Source::Mixed => quote!(__OdmKind::Other),
    }
}

/// The element `BsonKind` of a top-level array field (`None` for anything else), as an expression.
fn field_item_kind(f: &Field) -> TokenStream {
    let ty = f.ty;
    match &f.facts.source {
        Source::Trait => quote!(<#ty as __OdmSchema>::ITEM_KIND),
        _ => quote!(::core::option::Option::<__OdmKind>::None),
    }
}

/// The type of the field tables (`BsonSchema::OBJECT`).
fn table_type() -> TokenStream {
    quote!(__OdmOption<&'static __OdmTable>)
}

/// The field table of a struct whose derive failed (`BsonSchema::OBJECT` of its placeholder impl): `*` matches every
/// name, so models that index into it report nothing more than the errors already shown.
pub fn fallback_table(input: &syn::DeriveInput) -> TokenStream {
    let syn::Data::Struct(syn::DataStruct { fields: syn::Fields::Named(_), .. }) = &input.data else {
        return TokenStream::new();
    };
    quote! {
        const OBJECT: __OdmOption<&'static __OdmTable> = __OdmSome(
            &__OdmTable::new("", &[__odm_meta("*", "", &__odm::FieldType::MIXED)]),
        );
    }
}

/// The source of the edit distance behind "did you mean" hints, embedded in generated code as is.
const DISTANCE: &str = include_str!("../internals/distance.rs");

/// Helpers for nested paths, emitted once per model that has some.
fn nested_helpers() -> TokenStream {
    let table = table_type();
    let distance: TokenStream = DISTANCE.parse().expect("distance.rs is Rust");
    quote! {
        #[allow(dead_code)]
        mod __odm_distance {
            #distance
        }

        /// The Rust name of the field `name` most likely means: the one whose stored key it is, else the closest
        /// one; "" when none is close. Names over 64 bytes are never returned, so a message has room for the guess.
        #[allow(dead_code)]
        const fn __odm_closest(fields: #table, name: &str) -> &'static str {
            let __OdmSome(table) = fields else { return "" };
            let fields = table.fields;
            let (mut best, mut best_distance) = ("", usize::MAX);
            let mut i = 0;
            while i < fields.len() {
                let rust = fields[i].name;
                let d = if __odm_str_eq(fields[i].key, name) { 0 } else { __odm_distance::distance(name, rust) };
                if rust.len() <= 64 && d < best_distance && __odm_distance::close_enough(name, d) {
                    best = rust;
                    best_distance = d;
                }
                i += 1;
            }
            best
        }

        /// `parts` joined into a buffer of `N` bytes (cut there), with the length used: a message built at compile
        /// time.
        #[allow(dead_code)]
        const fn __odm_join<const N: usize>(parts: &[&str]) -> ([u8; N], usize) {
            let mut buf = [0u8; N];
            let (mut len, mut i) = (0, 0);
            while i < parts.len() {
                let part = parts[i].as_bytes();
                let mut j = 0;
                while j < part.len() && len < N {
                    buf[len] = part[j];
                    len += 1;
                    j += 1;
                }
                i += 1;
            }
            (buf, len)
        }

        #[allow(dead_code)]
        const fn __odm_str_eq(a: &str, b: &str) -> bool {
            let (a, b) = (a.as_bytes(), b.as_bytes());
            if a.len() != b.len() {
                return false;
            }
            let mut i = 0;
            while i < a.len() {
                if a[i] != b[i] {
                    return false;
                }
                i += 1;
            }
            true
        }

        /// `None`: no such field; `Some(None)`: the type's derive failed (its errors are shown).
        #[allow(dead_code)]
        const fn __odm_field(
            fields: #table,
            name: &str,
        ) -> __OdmOption<__OdmOption<&'static __odm::FieldMeta>> {
            let __OdmSome(table) = fields else { return __OdmNone };
            let fields = table.fields;
            let mut i = 0;
            while i < fields.len() {
                if __odm_str_eq(fields[i].name, "*") {
                    return __OdmSome(__OdmNone);
                }
                if __odm_str_eq(fields[i].name, name) {
                    return __OdmSome(__OdmSome(&fields[i]));
                }
                i += 1;
            }
            __OdmNone
        }

        #[allow(dead_code)]
        const fn __odm_key(fields: #table, name: &str) -> &'static str {
            match __odm_field(fields, name) {
                __OdmSome(__OdmSome(f)) => f.key,
                _ => "",
            }
        }

        /// True when the field is known (not missing, and its type's derive did not fail).
        #[allow(dead_code)]
        const fn __odm_known(fields: #table, name: &str) -> bool {
            ::core::matches!(__odm_field(fields, name), __OdmSome(__OdmSome(_)))
        }

        #[allow(dead_code)]
        const fn __odm_kind(fields: #table, name: &str) -> __OdmOption<__OdmKind> {
            match __odm_field(fields, name) {
                __OdmSome(__OdmSome(f)) => __OdmSome(f.ty.kind),
                _ => __OdmNone,
            }
        }

        #[allow(dead_code)]
        const fn __odm_item_kind(fields: #table, name: &str) -> __OdmOption<__OdmKind> {
            match __odm_field(fields, name) {
                __OdmSome(__OdmSome(f)) => f.ty.item,
                _ => __OdmNone,
            }
        }

        /// True when the concatenations of `a` and `b` are equal.
        #[allow(dead_code)]
        const fn __odm_concat_eq(a: &[&str], b: &[&str]) -> bool {
            let (mut ai, mut ao, mut bi, mut bo) = (0, 0, 0, 0);
            loop {
                while ai < a.len() && ao == a[ai].len() {
                    ai += 1;
                    ao = 0;
                }
                while bi < b.len() && bo == b[bi].len() {
                    bi += 1;
                    bo = 0;
                }
                match (ai < a.len(), bi < b.len()) {
                    (false, false) => return true,
                    (true, true) => {}
                    _ => return false,
                }
                if a[ai].as_bytes()[ao] != b[bi].as_bytes()[bo] {
                    return false;
                }
                ao += 1;
                bo += 1;
            }
        }
    }
}

/// `panic!(msg)` whose call spans `tokens` (first to last), so the error underlines all of `ttl = 3600`.
fn panic_over(tokens: &TokenStream, msg: &str) -> TokenStream {
    let mut spans = tokens.clone().into_iter().map(|t| t.span());
    let first = spans.next().unwrap_or_else(Span::call_site);
    let last = spans.last().unwrap_or(first);
    let head = quote_spanned!(first=> ::core::panic!);
    let args = quote_spanned!(last=> ("{}", #msg));
    quote!(#head #args)
}

/// `<Inner as BsonSchema>::OBJECT` (`None` unless a derived struct), spanned at the literal that names the path.
fn table_of(inner: &syn::Type, span: Span) -> TokenStream {
    quote_spanned!(span=> <#inner as __OdmSchema>::OBJECT)
}

fn stored_path(k: &Key, span: Span) -> TokenStream {
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
            let table = table_of(inner, span);
            let nested = quote!(__odm_key(#table, #seg));
            if k.kind == KeyKind::Wildcard {
                quote!(__odm::format!("{}.{}.$**", #key, #nested))
            } else {
                quote!(__odm::format!("{}.{}", #key, #nested))
            }
        }
    }
}

/// The `BsonKind` of what the key indexes, as a const `Option<BsonKind>` (`None`: unknown, already reported).
fn key_kind_expr(k: &Key, span: Span) -> TokenStream {
    match (k.field, &k.nested) {
        (None, _) => quote!(::core::option::Option::<__OdmKind>::None),
        (Some(f), None) => {
            let kind = field_kind(f);
            quote!(__OdmSome(#kind))
        }
        (Some(_), Some((seg, inner))) => {
            let table = table_of(inner, span);
            quote!(__odm_kind(#table, #seg))
        }
    }
}

/// The element kind of the field a key names, as a const `Option<BsonKind>` (`None`: not an array, or unknown).
fn key_item_kind_expr(k: &Key, span: Span) -> TokenStream {
    match (k.field, &k.nested) {
        (None, _) => quote!(::core::option::Option::<__OdmKind>::None),
        (Some(f), None) => field_item_kind(f),
        (Some(_), Some((seg, inner))) => {
            let table = table_of(inner, span);
            quote!(__odm_item_kind(#table, #seg))
        }
    }
}

/// True (const) when the top-level field of `k` is an array, by its tokens or its type.
fn top_is_array(k: &Key) -> TokenStream {
    match k.field {
        Some(f) => {
            let syntactic = k.first_is_array;
            let kind = field_kind(f);
            quote!((#syntactic || #kind.is_array()))
        }
        None => quote!(false),
    }
}

/// True when the key's top-level field is a scalar by its tokens alone (`String`, `Option<i64>`, …).
fn top_is_scalar(k: &Key) -> bool {
    k.field.is_some_and(|f| !k.first_is_array && ty::is_known_scalar(f.ty))
}

/// The parts whose concatenation is the index's name (as `IndexSpec::default_name` builds it), as const `&str`s;
/// and the conditions under which they are known (nested fields found).
fn name_parts(idx: &IndexAttr, keys: &[Key], span: Span) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut known = Vec::new();
    if let Some(n) = &idx.name {
        return (vec![quote!(#n)], known);
    }
    let mut parts = vec![quote!("idx_")];
    for (i, k) in keys.iter().enumerate() {
        if i > 0 {
            parts.push(quote!("_"));
        }
        match (k.field, &k.nested) {
            (None, _) => parts.push(quote!("all")),
            (Some(f), None) => {
                let key = &f.key;
                parts.push(quote!(#key));
            }
            (Some(f), Some((seg, inner))) => {
                let key = &f.key;
                let table = table_of(inner, span);
                parts.push(quote!(#key));
                parts.push(quote!("_"));
                parts.push(quote!(__odm_key(#table, #seg)));
                known.push(quote!(__odm_known(#table, #seg)));
            }
        }
    }
    (parts, known)
}

/// A nested path an index names (in its keys, weights or partial filter), with where it is written.
struct NestedPath<'a> {
    label: String,
    key: &'a Key<'a>,
    lit: &'a syn::LitStr,
    lang: &'static Lang,
    /// The path's bytes in the literal's value.
    at: Range<usize>,
    /// The literal is the `keys` of an index built for a query, which the user did not write.
    for_query: bool,
}

impl NestedPath<'_> {
    /// Where errors about the path point: at the path itself where the compiler can, else at its literal.
    fn span(&self) -> Span {
        let within = if self.for_query { None } else { span_within(&self.lit.token(), self.at.clone()) };
        within.unwrap_or_else(|| self.lit.span())
    }
}

/// Every nested path an index names, from its resolved keys, weights and partial filter.
fn nested_paths<'a>(idx: &'a Index<'a>) -> Vec<NestedPath<'a>> {
    let attr: &IndexAttr = &idx.attr;
    let mut out = Vec::new();
    let mut add = |lit: &'a syn::LitStr, lang: &'static Lang, keys: Vec<&'a Key<'a>>| {
        let text = lit.value();
        for key in keys.into_iter().filter(|k| k.field.is_some() && k.nested.is_some()) {
            let (label, at, for_query) = (text[key.at.clone()].to_owned(), key.at.clone(), attr.for_query);
            out.push(NestedPath { label, key, lit, lang, at, for_query });
        }
    };
    if let (Some(lit), Some(Ok(keys))) = (&attr.keys, &idx.keys) {
        add(lit, &KEYS, keys.iter().collect());
    }
    if let (Some(lit), Some(weights)) = (&attr.weights, &idx.weights) {
        add(lit, &WEIGHTS, weights.iter().filter_map(|w| w.as_ref().ok()?.key.as_ref()).collect());
    }
    if let (Some(lit), Some(Ok(conditions))) = (&attr.partial, &idx.partial) {
        add(lit, &PARTIAL, conditions.iter().map(|c| &c.key).collect());
    }
    out
}

/// The const assertion that a nested path names a stored field of its embedded type. An unknown name is
/// answered with the closest field, found at compile time: only const evaluation sees the embedded type's fields.
fn nested_path_exists(n: &NestedPath) -> TokenStream {
    let (Some(f), Some((seg, inner))) = (n.key.field, &n.key.nested) else { return TokenStream::new() };
    let (path, at) = (&n.label, n.span());
    let table = table_of(inner, at);
    let place = if n.for_query { String::new() } else { location(&n.lit.value(), n.at.start, n.lang) };
    let not_embedded = rules::PATH_FIELD.message(format_args!(
        "`{path}`{place}: field `{}` (`{}`) is not an embedded struct with named fields, so it has no field `{seg}`; \
         nested paths go into `#[derive(Embedded)]` structs",
        f.rust_name,
        ty::display(f.ty)
    ));
    let subject = format!("`{path}`{place}: `{}` has no stored field `{seg}`", ty::display(inner));
    let rule = rules::PATH_FIELD.message("; nested paths use the Rust field names of the embedded struct");
    let missing = format!("{subject}{rule}");
    let before = format!("{subject} (did you mean `{}.", f.rust_name);
    let after = format!("`?){rule}");
    // Room for any guess: `__odm_closest` only returns names that fit.
    let room = before.len() + after.len() + 64;
    quote_spanned! {at=>
        const _: () = match #table {
            __OdmNone => ::core::panic!("{}", #not_embedded),
            __fields => if __odm_field(__fields, #seg).is_none() {
                let __guess = __odm_closest(__fields, #seg);
                let __msg: ([u8; #room], usize) = __odm_join(&[#before, __guess, #after]);
                match ::core::str::from_utf8(__msg.0.split_at(__msg.1).0) {
                    ::core::result::Result::Ok(__m) if !__guess.is_empty() => ::core::panic!("{}", __m),
                    _ => ::core::panic!("{}", #missing),
                }
            },
        };
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

/// One resolved index: its spec expression and its const assertions.
struct Built<'a> {
    idx: &'a IndexAttr,
    keys: &'a [Key<'a>],
    build: TokenStream,
    asserts: TokenStream,
    nested: bool,
    /// The spec names only `__Odm…`/`__odm_…` aliases, not `__odm::…` (key pattern of top-level fields, no options).
    aliases_only: bool,
}

fn one_index<'a>(resolved: &'a Index<'a>, tag: Option<&str>) -> Option<Built<'a>> {
    let idx: &IndexAttr = &resolved.attr;
    let keys_lit = idx.keys.as_ref()?;
    let span = keys_lit.span();
    let keys: &[Key] = resolved.keys.as_ref()?.as_ref().ok()?;
    let plain = keys.iter().all(|k| k.nested.is_none() && matches!(k.kind, KeyKind::Asc | KeyKind::Desc));
    let top_level = keys.iter().map(|k| k.field.map(|f| (&f.key, k.kind))).collect::<Option<Vec<_>>>();
    let simple_keys = plain && top_level.is_some();
    let key_doc = match top_level {
        Some(top) if plain => {
            let pairs = top.iter().map(|(key, kind)| {
                let dir = if *kind == KeyKind::Desc { -1i32 } else { 1i32 };
                quote!((#key, #dir))
            });
            quote!(__odm_index_keys(&[#(#pairs),*]))
        }
        _ => {
            let paths = keys.iter().map(|k| stored_path(k, span));
            let values = keys.iter().map(|k| key_value(k.kind));
            quote! {{
                let mut __keys = __OdmDocument::new();
                #(__keys.insert(#paths, #values);)*
                __keys
            }}
        }
    };
    let name = match &idx.name {
        Some(n) => quote!(__OdmSome(#n)),
        None => quote!(__OdmNone),
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
        opts.extend(quote!(__s.expire_after_seconds = __OdmSome(#ttl);));
    }
    if let Some(lang) = &idx.default_language {
        opts.extend(quote!(__s.default_language = __OdmSome(__odm::String::from(#lang));));
    }
    if let Some((coll, _)) = &idx.collation {
        let entries = coll.iter().map(|(k, v)| {
            let v = lit_bson(v);
            quote!(__c.insert(#k, #v);)
        });
        opts.extend(quote! {{
            let mut __c = __OdmDocument::new();
            #(#entries)*
            __s.collation = __OdmSome(__c);
        }});
    }
    if let (Some(w), Some(weights)) = (&idx.weights, &resolved.weights) {
        let entries = weights.iter().filter_map(|weight| {
            let weight = weight.as_ref().ok()?;
            let n = weight.weight;
            let path = stored_path(weight.key.as_ref()?, w.span());
            Some(quote!(__w.insert(#path, #n);))
        });
        let entries: Vec<TokenStream> = entries.collect();
        opts.extend(quote! {{
            let mut __w = __OdmDocument::new();
            #(#entries)*
            __s.weights = __OdmSome(__w);
        }});
    }
    // An index of one variant of a polymorphic model holds that variant's documents only.
    let variant = resolved.variant.zip(tag).map(|(v, tag)| {
        let value = &v.name;
        quote!(__odm::build::partial_condition(
            &mut __p, __odm::String::from(#tag), "$eq", __odm::Bson::String(__odm::String::from(#value)));)
    });
    if let (Some(p), Some(conditions)) = (&idx.partial, &resolved.partial) {
        let conditions = conditions.as_ref().ok()?;
        let adds = conditions.iter().map(|c| {
            let (path, op) = (stored_path(&c.key, p.span()), c.op);
            let v = match &c.value {
                PartialValue::Bool(b) => quote!(__odm::Bson::Boolean(#b)),
                PartialValue::Int(n) => quote!(__odm::Bson::Int64(#n)),
                PartialValue::Double(f) => quote!(__odm::Bson::Double(#f)),
                PartialValue::Str(s) => quote!(__odm::Bson::String(__odm::String::from(#s))),
            };
            quote!(__odm::build::partial_condition(&mut __p, #path, #op, #v);)
        });
        let adds: Vec<TokenStream> = adds.chain(variant).collect();
        opts.extend(quote! {{
            let mut __p = __OdmDocument::new();
            #(#adds)*
            __s.partial_filter_expression = __OdmSome(__p);
        }});
    } else if let Some(variant) = variant {
        opts.extend(quote! {{
            let mut __p = __OdmDocument::new();
            #variant
            __s.partial_filter_expression = __OdmSome(__p);
        }});
    }
    let spec = quote!(__OdmIndex::named(#name, #key_doc));
    let aliases_only = simple_keys && opts.is_empty();
    let build = if opts.is_empty() {
        spec
    } else {
        quote! {{
            let mut __s = #spec;
            #opts
            __s
        }}
    };

    // Const assertions for what only types know.
    let mut asserts = TokenStream::new();
    let label = keys_lit.value();
    let nested = nested_paths(resolved);
    // Nested paths exist (the other assertions read an unknown field as `None` and stay quiet).
    for n in &nested {
        asserts.extend(nested_path_exists(n));
    }
    // TTL: on a date, or an array of dates (the earliest one expires the document).
    if idx.ttl.is_some() && keys.len() == 1 && matches!(keys[0].kind, KeyKind::Asc | KeyKind::Desc) {
        let kind = key_kind_expr(&keys[0], span);
        let item = key_item_kind_expr(&keys[0], span);
        let what = match (keys[0].field, &keys[0].nested) {
            (Some(f), None) => format!("`{}` (`{}`)", f.rust_name, ty::display(f.ty)),
            _ => format!("`{}`", key_label(&keys[0])),
        };
        let msg = rules::INDEX_TTL.message(format_args!(
            "TTL index on {what}, which is not a date: documents would never expire; index a `bson::DateTime` field \
             (or an array of them)"
        ));
        let panic = match &idx.ttl_tokens {
            Some(tokens) => panic_over(tokens, &msg),
            None => quote_spanned!(span=> ::core::panic!("{}", #msg)),
        };
        asserts.extend(quote_spanned! {span=>
            const _: () = match (#kind, #item) {
                (__OdmSome(__OdmKind::Date) | __OdmNone, _)
                | (
                    __OdmSome(__OdmKind::Array),
                    __OdmSome(__OdmKind::Date),
                ) => {}
                _ => #panic,
            };
        });
    }
    // Parallel arrays: keys under one array field share it (`items.name, items.quantity`), and an array nested in
    // it lies on the same path; two arrays side by side cannot be indexed together.
    if keys.len() > 1 {
        let mut groups: Vec<(&str, Vec<&Key>)> = Vec::new();
        for k in keys {
            let Some(f) = k.field else { continue };
            match groups.iter_mut().find(|(n, _)| *n == f.rust_name) {
                Some((_, g)) => g.push(k),
                None => groups.push((&f.rust_name, vec![k])),
            }
        }
        let mut per_group = Vec::new();
        let mut siblings = Vec::new();
        for (_, group) in &groups {
            let nested: Vec<TokenStream> = group
                .iter()
                .filter(|k| k.nested.is_some())
                .map(|k| {
                    let kind = key_kind_expr(k, span);
                    quote!(::core::matches!(#kind, __OdmSome(__OdmKind::Array)))
                })
                .collect();
            // A scalar by its tokens holds no array, and neither does anything under it.
            if top_is_scalar(group[0]) {
                continue;
            }
            let top = top_is_array(group[0]);
            per_group.push(quote!(((#top #(|| #nested)*) as usize)));
            if nested.len() > 1 {
                siblings.push(quote!(((0 #(+ (#nested as usize))*) > 1)));
            }
        }
        let msg = rules::INDEX_PARALLEL_ARRAYS.message(format_args!(
            "index `{label}` reaches through two arrays side by side (parallel arrays): MongoDB cannot index two arrays \
             in one compound index; index the arrays separately"
        ));
        if per_group.len() > 1 || !siblings.is_empty() {
            asserts.extend(quote_spanned! {span=>
                const _: () = if (0 #(+ #per_group)*) > 1 #(|| #siblings)* { ::core::panic!("{}", #msg) };
            });
        }
    }
    // Hashed: never an array.
    for k in keys.iter().filter(|k| k.kind == KeyKind::Hashed && !(top_is_scalar(k) && k.nested.is_none())) {
        let top = top_is_array(k);
        let kind = key_kind_expr(k, span);
        let msg = rules::INDEX_HASHED.message(format_args!(
            "`{}` holds an array: hashed indexes cannot hold arrays; hash a scalar field",
            key_label(k)
        ));
        asserts.extend(quote_spanned! {span=>
            const _: () = if #top || ::core::matches!(#kind, __OdmSome(__OdmKind::Array)) {
                ::core::panic!("{}", #msg)
            };
        });
    }
    let has_nested = !nested.is_empty();
    Some(Built { idx, keys, build, asserts, nested: has_nested, aliases_only })
}

fn label(idx: &IndexAttr) -> String {
    idx.keys.as_ref().map_or_else(String::new, syn::LitStr::value)
}

/// The `indexes()`, `CAPPED` and `SHARD_KEY` items of `impl Model`, the index const assertions, and whether the
/// items name `__odm::…` (the runtime's private module, imported only then).
pub fn expand(cont: &Container, resolved: &Resolved) -> (TokenStream, TokenStream, bool) {
    // A polymorphic model has collection settings and indexes (each of all variants, or of one), but no shard key
    // (rule `poly-attr`).
    let tag = match &cont.data {
        Data::Struct(_) => None,
        _ if cont.is_polymorphic() => cont.attrs.tag.as_ref().map(|t| t.value.as_str()),
        _ => {
            let capped = capped(cont);
            let names_odm = !capped.is_empty();
            return (capped, TokenStream::new(), names_odm);
        }
    };
    // Declared access patterns no declared index serves get their own ESR index.
    let for_queries = resolved.query_indexes.iter().map(|q| &q.index);
    let built: Vec<Built> = resolved.indexes.iter().chain(for_queries).filter_map(|i| one_index(i, tag)).collect();
    let mut asserts = TokenStream::new();
    for b in &built {
        asserts.extend(b.asserts.clone());
    }
    // Names the derive could not compare (a default name with a nested stored key): compared at compile time.
    for (j, b) in built.iter().enumerate() {
        for a in &built[..j] {
            let inexact = |x: &Built| x.idx.name.is_none() && !default_name(x.keys).1;
            if !inexact(a) && !inexact(b) {
                continue;
            }
            let at = b.idx.name.as_ref().or(b.idx.keys.as_ref()).map_or_else(Span::call_site, syn::LitStr::span);
            let span_a = a.idx.keys.as_ref().map_or_else(Span::call_site, syn::LitStr::span);
            let (pa, ka) = name_parts(a.idx, a.keys, span_a);
            let (pb, kb) =
                name_parts(b.idx, b.keys, b.idx.keys.as_ref().map_or_else(Span::call_site, syn::LitStr::span));
            let msg = match (&a.idx.name, &b.idx.name) {
                (_, Some(n)) => format!(
                    "index name `{}` is already the default name of index `{}` (`idx_` and its stored keys); choose \
                     another `name`",
                    n.value(),
                    label(a.idx)
                ),
                (Some(n), None) => format!(
                    "the default name of this index (`idx_` and its stored keys) is `{}`, already the name of index \
                     `{}`; give this one a `name`",
                    n.value(),
                    label(a.idx)
                ),
                (None, None) => format!(
                    "this index gets the same default name as index `{}` (`idx_` and the stored keys); give one of \
                     them a `name`",
                    label(a.idx)
                ),
            };
            let msg = rules::INDEX_NAME.message(msg);
            asserts.extend(quote_spanned! {at=>
                const _: () = if #(#ka &&)* #(#kb &&)* __odm_concat_eq(&[#(#pa),*], &[#(#pb),*]) { ::core::panic!("{}", #msg) };
            });
        }
    }
    if built.iter().any(|b| b.nested) {
        asserts.extend(nested_helpers());
    }
    let builds: Vec<&TokenStream> = built.iter().map(|b| &b.build).collect();
    let indexes = (!builds.is_empty()).then(|| {
        quote! {
            fn indexes() -> __OdmVec<__OdmIndex> {
                __OdmVec::from([#(#builds),*])
            }
        }
    });
    let capped = capped(cont);
    let shard_keys = resolved.shard_fields();
    let shard_key = (!shard_keys.is_empty()).then(|| {
        let keys = shard_keys.iter().map(|(f, hashed)| {
            let key = &f.key;
            quote!((#key, #hashed))
        });
        quote!(const SHARD_KEY: __OdmOption<__odm::ShardKey> =
            __OdmSome(__odm::ShardKey { keys: &[#(#keys),*] });)
    });
    let names_odm = !capped.is_empty() || shard_key.is_some() || built.iter().any(|b| !b.aliases_only);
    let items = quote! {
        #capped
        #shard_key
        #indexes
    };
    (items, asserts, names_odm)
}

/// `const CAPPED` of a model declaring `capped(size = …, max = …)`.
fn capped(cont: &Container) -> TokenStream {
    match &cont.attrs.capped {
        Some(c) => {
            let size = c.size.as_ref().map_or(0, |(n, _)| *n);
            let max = match &c.max {
                Some((m, _)) => quote!(__OdmSome(#m)),
                None => quote!(__OdmNone),
            };
            quote!(const CAPPED: __OdmOption<__odm::Capped> = __OdmSome(__odm::Capped { size: #size, max: #max });)
        }
        None => TokenStream::new(),
    }
}
