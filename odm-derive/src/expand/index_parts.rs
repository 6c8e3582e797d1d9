//! What an index's const assertions are made of: the field tables' types, the kinds of the fields a key names, and
//! the nested paths (`items.name`) resolved at compile time through the embedded types' field tables, with the
//! "did you mean" hints const evaluation computes.

use crate::internals::ast::Field;
use crate::internals::attr::index::IndexAttr;
use crate::internals::index_keys::{Key, KeyKind};
use crate::internals::lists::{location, span_within, Lang, KEYS, PARTIAL, WEIGHTS};
use crate::internals::resolve::{FieldFacts, Index};
use crate::internals::rules;
use crate::internals::source::Source;
use crate::internals::ty;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use std::ops::Range;

/// The `BsonKind` of a top-level field, whose validator learns its type from `source`, as an expression.
pub(super) fn field_kind(f: &Field, source: &Source) -> TokenStream {
    let ty = f.ty;
    match source {
        Source::Trait => quote!(<#ty as __OdmSchema>::KIND),
        Source::Fixed(alias) => {
            let kind = super::schema::alias_kind(alias);
            quote!(__OdmKind::#kind)
        }
        Source::Mixed => quote!(__OdmKind::Other),
    }
}

/// The element `BsonKind` of a top-level array field (`None` for anything else), whose validator learns its type
/// from `source`, as an expression.
pub(super) fn field_item_kind(f: &Field, source: &Source) -> TokenStream {
    let ty = f.ty;
    match source {
        Source::Trait => quote!(<#ty as __OdmSchema>::ITEM_KIND),
        _ => quote!(::core::option::Option::<__OdmKind>::None),
    }
}

/// The type of the field tables (`BsonSchema::OBJECT`).
pub(super) fn table_type() -> TokenStream {
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
pub(super) const DISTANCE: &str = include_str!("../internals/distance.rs");

/// Helpers for nested paths, emitted once per model that has some.
pub(super) fn nested_helpers() -> TokenStream {
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
pub(super) fn panic_over(tokens: &TokenStream, msg: &str) -> TokenStream {
    let mut spans = tokens.clone().into_iter().map(|t| t.span());
    let first = spans.next().unwrap_or_else(Span::call_site);
    let last = spans.last().unwrap_or(first);
    let head = quote_spanned!(first=> ::core::panic!);
    let args = quote_spanned!(last=> ("{}", #msg));
    quote!(#head #args)
}

/// `<Inner as BsonSchema>::OBJECT` (`None` unless a derived struct), spanned at the literal that names the path.
pub(super) fn table_of(inner: &syn::Type, span: Span) -> TokenStream {
    quote_spanned!(span=> <#inner as __OdmSchema>::OBJECT)
}

pub(super) fn stored_path(k: &Key, span: Span) -> TokenStream {
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
pub(super) fn key_kind_expr(k: &Key, facts: &FieldFacts, span: Span) -> TokenStream {
    match (k.field, &k.nested) {
        (None, _) => quote!(::core::option::Option::<__OdmKind>::None),
        (Some(f), None) => {
            let kind = field_kind(f, &facts.of(f).source);
            quote!(__OdmSome(#kind))
        }
        (Some(_), Some((seg, inner))) => {
            let table = table_of(inner, span);
            quote!(__odm_kind(#table, #seg))
        }
    }
}

/// The element kind of the field a key names, as a const `Option<BsonKind>` (`None`: not an array, or unknown).
pub(super) fn key_item_kind_expr(k: &Key, facts: &FieldFacts, span: Span) -> TokenStream {
    match (k.field, &k.nested) {
        (None, _) => quote!(::core::option::Option::<__OdmKind>::None),
        (Some(f), None) => field_item_kind(f, &facts.of(f).source),
        (Some(_), Some((seg, inner))) => {
            let table = table_of(inner, span);
            quote!(__odm_item_kind(#table, #seg))
        }
    }
}

/// True (const) when the top-level field of `k` is an array, by its tokens or its type.
pub(super) fn top_is_array(k: &Key, facts: &FieldFacts) -> TokenStream {
    match k.field {
        Some(f) => {
            let syntactic = k.first_is_array;
            let kind = field_kind(f, &facts.of(f).source);
            quote!((#syntactic || #kind.is_array()))
        }
        None => quote!(false),
    }
}

/// True when the key's top-level field is a scalar by its tokens alone (`String`, `Option<i64>`, …).
pub(super) fn top_is_scalar(k: &Key) -> bool {
    k.field.is_some_and(|f| !k.first_is_array && ty::is_known_scalar(f.ty))
}

/// The parts whose concatenation is the index's name (as `IndexSpec::default_name` builds it), as const `&str`s;
/// and the conditions under which they are known (nested fields found).
pub(super) fn name_parts(idx: &IndexAttr, keys: &[Key], span: Span) -> (Vec<TokenStream>, Vec<TokenStream>) {
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
pub(super) struct NestedPath<'a> {
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
pub(super) fn nested_paths<'a>(idx: &'a Index<'a>) -> Vec<NestedPath<'a>> {
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
pub(super) fn nested_path_exists(n: &NestedPath) -> TokenStream {
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

pub(super) fn key_value(kind: KeyKind) -> TokenStream {
    match kind {
        KeyKind::Asc | KeyKind::Wildcard => quote!(__odm::Bson::Int32(1)),
        KeyKind::Desc => quote!(__odm::Bson::Int32(-1)),
        KeyKind::Text => quote!(__odm::Bson::String(__odm::String::from("text"))),
        KeyKind::Hashed => quote!(__odm::Bson::String(__odm::String::from("hashed"))),
        KeyKind::Sphere => quote!(__odm::Bson::String(__odm::String::from("2dsphere"))),
    }
}

pub(super) fn lit_bson(lit: &syn::Lit) -> TokenStream {
    match lit {
        syn::Lit::Str(s) => quote!(__odm::Bson::String(__odm::String::from(#s))),
        syn::Lit::Int(i) => quote!(__odm::Bson::Int32(#i)),
        syn::Lit::Bool(b) => quote!(__odm::Bson::Boolean(#b)),
        other => quote!(__odm::Bson::String(__odm::String::from(stringify!(#other)))),
    }
}

pub(super) fn label(idx: &IndexAttr) -> String {
    idx.keys.as_ref().map_or_else(String::new, syn::LitStr::value)
}
