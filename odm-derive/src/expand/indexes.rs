//! A model's indexes: the declared indexes and the ESR indexes built for the declared queries, as data in a struct
//! model's table when each is (`DeclaredIndex`: top-level keys, no option that needs a document), else built by a
//! generated `indexes()`; `CAPPED` and `SHARD_KEY` of `impl Model`; and the index const assertions beside it (TTL on
//! a date, no parallel arrays, no hashed array, default names that collide).
//!
//! Nested index paths (`items.name`) name a field of another type, which this derive cannot see: they resolve at
//! compile time through the field table the other type's derive generates (`BsonSchema::OBJECT`: Rust name →
//! stored key and type family; the assertions' parts are in `index_parts.rs`). A type without a table (not derived,
//! a BSON scalar, an enum) has `None`, so every problem ends in a const assertion with a message of ours, pointing
//! at the literal.

use super::text::Code;
use crate::internals::ast::{Container, Data};
use crate::internals::attr::index::IndexAttr;
use crate::internals::index_keys::{default_name, key_label, Key, KeyKind};
use crate::internals::resolve::{FieldFacts, Index, PartialValue, Resolved};
use crate::internals::rules;
use crate::internals::ty;
use proc_macro2::{Delimiter, Span, TokenStream};
use quote::{quote, quote_spanned};

use super::index_parts::*;

/// One resolved index: its spec expression and its const assertions.
struct Built<'a> {
    idx: &'a IndexAttr,
    keys: &'a [Key<'a>],
    /// The expression building the index, when it is not data.
    build: Option<TokenStream>,
    asserts: TokenStream,
    nested: bool,
    /// The spec names only `__Odm…`/`__odm_…` aliases, not `__odm::…` (key pattern of top-level fields, no options).
    aliases_only: bool,
    /// The index as a `DeclaredIndex` expression (text), when it is one: top-level keys ascending or descending, and
    /// no option that needs a document.
    data: Option<String>,
}

fn one_index<'a>(resolved: &'a Index<'a>, facts: &FieldFacts, tag: Option<&str>) -> Option<Built<'a>> {
    let idx: &IndexAttr = &resolved.attr;
    let keys_lit = idx.keys.as_ref()?;
    let span = keys_lit.span();
    let keys: &[Key] = resolved.keys.as_ref()?.as_ref().ok()?;
    let plain = keys.iter().all(|k| k.nested.is_none() && matches!(k.kind, KeyKind::Asc | KeyKind::Desc));
    let top_level = keys.iter().map(|k| k.field.map(|f| (&f.key, k.kind))).collect::<Option<Vec<_>>>();
    let documents = idx.default_language.is_some()
        || idx.collation.is_some()
        || idx.weights.is_some()
        || idx.partial.is_some()
        || (resolved.variant.is_some() && tag.is_some());
    let data = match &top_level {
        Some(top) if plain && !documents => Some(declared_index(idx, top)),
        _ => None,
    };
    // An index as data needs no tokens building it; the others a spec expression.
    let (build, aliases_only) = match &data {
        Some(_) => (None, true),
        None => {
            let (build, aliases_only) = spec_tokens(resolved, idx, keys, top_level, plain, span, tag)?;
            (Some(build), aliases_only)
        }
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
        let kind = key_kind_expr(&keys[0], facts, span);
        let item = key_item_kind_expr(&keys[0], facts, span);
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
                    let kind = key_kind_expr(k, facts, span);
                    quote!(::core::matches!(#kind, __OdmSome(__OdmKind::Array)))
                })
                .collect();
            // A scalar by its tokens holds no array, and neither does anything under it.
            if top_is_scalar(group[0]) {
                continue;
            }
            let top = top_is_array(group[0], facts);
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
        let top = top_is_array(k, facts);
        let kind = key_kind_expr(k, facts, span);
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
    Some(Built { idx, keys, build, asserts, nested: has_nested, aliases_only, data })
}

/// The expression building an index that is not data ([`Built::data`]): an `IndexSpec` with its key document and
/// options; `None` when a partial filter's conditions did not resolve.
fn spec_tokens(
    resolved: &Index,
    idx: &IndexAttr,
    keys: &[Key],
    top_level: Option<Vec<(&String, KeyKind)>>,
    plain: bool,
    span: Span,
    tag: Option<&str>,
) -> Option<(TokenStream, bool)> {
    let simple = plain && top_level.is_some();
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
    let aliases_only = simple && opts.is_empty();
    let build = if opts.is_empty() {
        spec
    } else {
        quote! {{
            let mut __s = #spec;
            #opts
            __s
        }}
    };
    Some((build, aliases_only))
}

/// `DeclaredIndex::new(name, &[(key, ±1), …])` and its options, as text: `top` are the index's top-level keys.
fn declared_index(idx: &IndexAttr, top: &[(&String, KeyKind)]) -> String {
    let name = idx.name.as_ref().map_or_else(|| "__OdmNone".to_owned(), |n| format!("__OdmSome({:?})", n.value()));
    let keys: Vec<String> = top
        .iter()
        .map(|(key, kind)| format!("({key:?}, {}i32)", if *kind == KeyKind::Desc { -1 } else { 1 }))
        .collect();
    let mut text = format!("__OdmDeclaredIndex::new({name}, &[{}])", keys.join(", "));
    for (set, call) in
        [(idx.unique.is_some(), ".unique()"), (idx.sparse.is_some(), ".sparse()"), (idx.hidden.is_some(), ".hidden()")]
    {
        if set {
            text.push_str(call);
        }
    }
    if let Some((ttl, _)) = &idx.ttl {
        text.push_str(&format!(".expire_after({ttl}i64)"));
    }
    text
}

/// A model's indexes, each built once: [`Indexes::asserts`] writes their const assertions beside `impl Model`,
/// [`Indexes::items`] its `indexes()`, `CAPPED` and `SHARD_KEY` items.
pub struct Indexes<'a> {
    built: Vec<Built<'a>>,
    /// A struct model's indexes, each of which is data ([`Built::data`]): written into its table
    /// ([`Indexes::table_call`]) rather than by a generated `indexes()`.
    in_table: bool,
}

impl<'a> Indexes<'a> {
    /// Builds the declared indexes and the ESR indexes of the declared queries; none for an embedded enum or
    /// newtype model (only its `CAPPED` item is written).
    pub fn new(cont: &Container, resolved: &'a Resolved<'a>) -> Self {
        // A polymorphic model has collection settings and indexes (each of all variants, or of one), but no shard
        // key (rule `poly-attr`).
        let tag = match &cont.data {
            Data::Struct(_) => None,
            _ if cont.is_polymorphic() => cont.attrs.tag.as_ref().map(|t| t.value.as_str()),
            _ => return Indexes { built: Vec::new(), in_table: false },
        };
        // Declared access patterns no declared index serves get their own ESR index.
        let for_queries = resolved.query_indexes.iter().map(|q| &q.index);
        let facts = &resolved.field_facts;
        let built: Vec<Built> =
            resolved.indexes.iter().chain(for_queries).filter_map(|i| one_index(i, facts, tag)).collect();
        let in_table = tag.is_none() && !built.is_empty() && built.iter().all(|b| b.data.is_some());
        Indexes { built, in_table }
    }

    /// The builder call that puts the indexes into a struct model's table (`.indexes(&[…])`), when they are data.
    pub fn table_call(&self) -> Option<String> {
        self.in_table.then(|| {
            let data: Vec<&str> = self.built.iter().filter_map(|b| b.data.as_deref()).collect();
            format!(".indexes(&[{}])", data.join(", "))
        })
    }

    /// Writes the index const assertions.
    pub fn asserts(&self, code: &mut Code) {
        let built = &self.built;
        let mut asserts = TokenStream::new();
        for b in built {
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
        code.tokens(asserts);
    }

    /// Writes the `indexes()`, `CAPPED` and `SHARD_KEY` items of `impl Model` (marking the
    /// runtime's private module as named only when they name it: a model's plain indexes name aliases only).
    pub fn items(&self, code: &mut Code, cont: &Container, resolved: &Resolved) {
        let built = &self.built;
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
        };
        code.tokens_naming(items, names_odm);
        // In the table when they are all data ([`Indexes::table_call`]), else one fn building them: data as text
        // (`DeclaredIndex::spec`), the others as their spec expressions.
        if self.in_table || built.is_empty() {
            return;
        }
        code.push("fn indexes() -> __OdmVec<__OdmIndex> ");
        code.open(Delimiter::Brace);
        code.push("__OdmVec::from");
        code.open(Delimiter::Parenthesis);
        code.open(Delimiter::Bracket);
        for b in built {
            match (&b.data, &b.build) {
                (Some(data), _) => code.push(&format!("{data}.spec(), ")),
                (None, Some(build)) => {
                    code.tokens_naming(build.clone(), !b.aliases_only);
                    code.push(", ");
                }
                (None, None) => {}
            }
        }
        code.close();
        code.close();
        code.close();
    }
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
