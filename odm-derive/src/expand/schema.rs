//! `impl BsonSchema`: a struct's field table (the provided items build its validator, size and counter checks
//! from it); an enum's or a newtype's validator fragment, field metadata and items; and the field tables of a
//! tagged enum's struct variants, which its validator and its size both read.

use super::text::Code;
use crate::internals::ast::{Container, Data, Derive, Field, Style, Variant};
use crate::internals::resolve::Resolved;
use crate::internals::source::Source;
use proc_macro2::{Delimiter, TokenStream};
use quote::{quote, quote_spanned};

fn opt_str(s: Option<&String>) -> TokenStream {
    match s {
        Some(s) => quote!(__OdmSome(#s)),
        None => quote!(__OdmNone),
    }
}

/// The schema expression of one field, with its field-level keywords applied; `__closed` (whether the enclosing
/// document is closed) must be in scope.
pub fn field_schema(field: &Field, resolved: &Resolved) -> TokenStream {
    let facts = resolved.facts(field);
    let (ty, span) = (field.ty, field.ty_span());
    let a = &field.attrs;
    let mut expr = match &facts.source {
        Source::Trait => quote_spanned!(span=> <#ty as __OdmSchema>::bson_schema_within(__closed)),
        Source::Fixed(alias) => quote!(__odm::build::fixed(#alias)),
        Source::Mixed => quote!(__odm::build::any()),
    };
    for (keyword, n) in &facts.keywords {
        expr = quote!(__odm::build::with(#expr, #keyword, #n));
    }
    if a.unique_items.is_some() {
        expr = quote!(__odm::build::unique_items(#expr));
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
fn dynamic_keys<'a>(fields: impl Iterator<Item = &'a Field<'a>>, resolved: &Resolved) -> TokenStream {
    let parts = fields.filter(|f| f.is_stored()).map(|f| {
        let ty = f.ty;
        match &resolved.facts(f).source {
            Source::Trait => quote!(|| <#ty as __OdmSchema>::dynamic_keys(__depth - 1)),
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
        fn bson_schema() -> __OdmDocument {
            <Self as __OdmSchema>::bson_schema_within(false)
        }
        // A string enum or a converted field has no keys to close.
        #[allow(unused_variables)]
        fn bson_schema_within(__within: bool) -> __OdmDocument {
            let __closed: bool = #closed;
            #body
        }
    }
}

/// `impl BsonSchema` of a struct, as text with its field types spliced in where errors may point at them: the
/// field table (the provided items read it; `KIND` is provided, `Object`; a model's indexes when they are data,
/// `table_indexes`), `type Node` and `diff`.
pub fn struct_impl(
    code: &mut Code,
    cont: &Container,
    fields: &[Field],
    resolved: &Resolved,
    table_indexes: Option<&str>,
) {
    let table = |code: &mut Code| {
        code.push("__OdmTable::new");
        code.open(Delimiter::Parenthesis);
        code.push(&format!("{:?}, &", cont.ident.to_string()));
        code.open(Delimiter::Bracket);
        entries_text(code, fields, resolved);
        code.close();
        code.close();
        let mut flags = String::new();
        container_flags_text(cont, &mut flags);
        if cont.derive == Derive::Model {
            // The collection is held by the table, not by an item of `impl Model` (see `model::expand`).
            let collection = cont.attrs.collection.as_ref().map(|c| c.value.as_str()).unwrap_or_default();
            flags.push_str(&format!(".collection({collection:?})"));
        }
        if let Some(call) = table_indexes {
            flags.push_str(call);
        }
        if let Some(tag) = &cont.attrs.tag {
            // serde writes the tag first, holding the struct's serialized name.
            let value = cont.attrs.rename.as_ref().map_or_else(|| cont.ident.to_string(), |r| r.value.clone());
            flags.push_str(&format!(".tagged({:?}, {value:?})", tag.value));
        }
        code.text(&flags);
    };
    table_impl(code, cont.ident, table, |code| super::fields::schema_items(code, cont, fields, resolved));
}

/// `closed`/`open` and the description of the type, as builder calls on its table.
fn container_flags_text(cont: &Container, out: &mut String) {
    if cont.attrs.closed.is_some() {
        out.push_str(".closed(true)");
    } else if cont.attrs.open.is_some() {
        out.push_str(".closed(false)");
    }
    if let Some(doc) = &cont.doc {
        out.push_str(&format!(".describe({doc:?})"));
    }
}

/// The entries of a field table (`odm::meta::FieldMeta`), one per stored field, in declaration order, each followed
/// by a comma: text, with the field types spliced in where errors may point at them.
fn entries_text(code: &mut Code, fields: &[Field], resolved: &Resolved) {
    for f in fields.iter().filter(|f| f.is_stored()) {
        let (name, key, ty) = (&f.rust_name, &f.key, f.ty);
        match &resolved.facts(f).source {
            Source::Trait => match &f.ty_text {
                Some(t) => {
                    code.push(&format!("__odm_field_of::<{t}>({name:?}, {key:?})"));
                }
                None => {
                    code.text("__odm_meta");
                    code.open(Delimiter::Parenthesis);
                    code.push(&format!("{name:?}, {key:?}, "));
                    code.type_tokens(quote_spanned!(f.ty_span()=> &<#ty as __OdmSchema>::FIELD_TYPE));
                    code.close();
                }
            },
            Source::Fixed(alias) => {
                let kind = alias_kind_name(alias);
                code.uses_odm();
                code.push(&format!(
                    "__odm_meta({name:?}, {key:?}, &__odm::FieldType::fixed(__OdmKind::{kind})).fixed({alias:?})"
                ));
            }
            Source::Mixed => {
                code.uses_odm();
                code.push(&format!("__odm_meta({name:?}, {key:?}, &__odm::FieldType::MIXED)"));
            }
        }
        entry_calls(code, f, fields, resolved);
    }
}

/// `impl BsonSchema` of a type described by its field table (a struct, or a polymorphic model's variants):
/// `OBJECT` from what `table` writes (the provided items read it; `KIND` is provided, `Object`), then `items`.
fn table_impl(code: &mut Code, ident: &syn::Ident, table: impl FnOnce(&mut Code), items: impl FnOnce(&mut Code)) {
    code.push(&format!("#[automatically_derived] impl __OdmSchema for {ident} "));
    code.open(Delimiter::Brace);
    code.text("const OBJECT: __OdmOption<&'static __OdmTable> = __OdmSome");
    code.open(Delimiter::Parenthesis);
    code.text("&");
    table(code);
    code.close();
    code.text(";");
    items(code);
    code.close();
}

/// Writes `impl BsonSchema` of an enum or a newtype, with what `items` writes (its `type Node`, `diff` and `SIZE`,
/// from the generators that own them) among the items.
pub fn enum_impl(code: &mut Code, cont: &Container, resolved: &Resolved, items: impl FnOnce(&mut Code)) {
    variant_tables(code, cont, resolved);
    let mut extra = Code::new();
    items(&mut extra);
    let extra = extra.finish();
    let ident = cont.ident;
    let desc = opt_str(cont.doc.as_ref());
    match &cont.data {
        Data::Struct(_) => unreachable!("a struct's impl is written by `struct_impl`"),
        Data::Newtype(field) => {
            let ty = field.ty;
            let schema_fns = schema_fns(cont, field_schema(field, resolved));
            let dynamic = dynamic_keys(std::iter::once(&**field), resolved);
            let (kind, item, meta, checks) = match &resolved.facts(field).source {
                Source::Trait => (
                    quote!(<#ty as __OdmSchema>::KIND),
                    quote!(<#ty as __OdmSchema>::ITEM_KIND),
                    quote!(<#ty as __OdmSchema>::type_meta()),
                    quote!(<#ty as __OdmSchema>::counter_checks(__value, __depth, __out)),
                ),
                _ => (
                    quote!(__OdmKind::Other),
                    quote!(__OdmNone),
                    quote!(__OdmNone),
                    quote!(let _ = (__value, __depth, __out);),
                ),
            };
            code.tokens(quote! {
                #[automatically_derived]
                impl __OdmSchema for #ident {
                    const KIND: __OdmKind = #kind;
                    const ITEM_KIND: __OdmOption<__OdmKind> = #item;
                    // The derive refused an unbounded array field (or one behind an alias), so an array newtype
                    // always carries its bound.
                    const BOUNDED: bool = true;
                    #extra
                    #schema_fns
                    fn type_meta() -> __OdmOption<&'static __OdmTable> {
                        #meta
                    }
                    #dynamic
                    fn counter_checks(__value: &str, __depth: usize, __out: &mut __odm::Vec<__odm::CounterCheck>) {
                        #checks
                    }
                }
            });
        }
        Data::Enum(variants) if cont.is_polymorphic() => {
            // A polymorphic model: its table holds the variants' tables; the provided items read it.
            table_impl(code, ident, |c| c.tokens(polymorphic_table(cont, variants, resolved)), |c| c.tokens(extra));
        }
        Data::Enum(variants) => {
            let stored: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
            let names: Vec<&String> = stored.iter().map(|v| &v.name).collect();
            let (kind, body) = match &cont.attrs.tag {
                None => (quote!(__OdmKind::String), quote!(__odm::build::string_enum(&[#(#names),*], #desc))),
                Some(tag) => {
                    let tag = &tag.value;
                    let content = cont.attrs.content.as_ref().map(|c| &c.value);
                    let schemas =
                        stored.iter().enumerate().map(|(vi, v)| variant_schema(v, vi, tag, content, resolved));
                    (
                        quote!(__OdmKind::Object),
                        quote!(__odm::build::tagged_enum(#tag, &[#(#names),*], __odm::vec![#(#schemas),*], #desc)),
                    )
                }
            };
            let variant_fields = stored.iter().flat_map(|v| match &v.style {
                Style::Newtype(f) => std::slice::from_ref(&**f).iter(),
                Style::Struct(fs) => fs.iter(),
                Style::Unit | Style::Tuple => [].iter(),
            });
            let dynamic = dynamic_keys(variant_fields, resolved);
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
            code.tokens(quote! {
                #[automatically_derived]
                impl __OdmSchema for #ident {
                    const KIND: __OdmKind = #kind;
                    #extra
                    #schema_fns
                    #to_bson
                    #dynamic
                }
            });
        }
    }
}

/// The field tables of a tagged enum's struct variants (the `vi`-th stored variant's is [`variant_table`]), each
/// written once, beside the enum's impl, for its validator and its size: tagged with the variant's tag value when
/// serde writes the tag into the variant's document, untagged when it wraps the document in `content`. Nothing for
/// other types.
fn variant_tables(code: &mut Code, cont: &Container, resolved: &Resolved) {
    let (Data::Enum(variants), false, Some(tag)) = (&cont.data, cont.is_polymorphic(), &cont.attrs.tag) else {
        return;
    };
    let adjacent = cont.attrs.content.is_some();
    for (vi, v) in variants.iter().filter(|v| !v.attrs.skip).enumerate() {
        let Style::Struct(fields) = &v.style else { continue };
        let (name, value, tag) = (format!("{}::{}", cont.ident, v.ident), &v.name, &tag.value);
        let table = variant_table(vi);
        let entries = entries(fields, resolved);
        let tagged = (!adjacent).then(|| quote!(.tagged(#tag, #value)));
        code.tokens(quote!(const #table: __OdmTable = __OdmTable::new(#name, &[#entries]) #tagged;));
    }
}

/// The name of the field table of a tagged enum's `vi`-th stored variant, a struct variant ([`variant_tables`]).
pub(super) fn variant_table(vi: usize) -> syn::Ident {
    quote::format_ident!("__ODM_VARIANT_{}", vi)
}

/// One variant's object schema, the `vi`-th stored; closed when the enum is (`__closed` in scope). A struct
/// variant's is read from its table.
fn variant_schema(v: &Variant, vi: usize, tag: &str, content: Option<&String>, resolved: &Resolved) -> TokenStream {
    let name = &v.name;
    let desc = opt_str(v.doc.as_ref());
    let tag_schema = quote!(__odm::doc! { "enum": [#name] });
    match (&v.style, content) {
        (Style::Newtype(field), None) => {
            let schema = field_schema(field, resolved);
            quote!(__odm::build::tag_into(#schema, #tag, #name))
        }
        (Style::Newtype(field), Some(content)) => {
            let schema = field_schema(field, resolved);
            quote! {{
                let mut __s = __odm::build::ObjectSchema::new();
                __s.field(#tag, #tag_schema, true);
                __s.field(#content, #schema, true);
                __s.finish(__closed, #desc)
            }}
        }
        (Style::Struct(_), None) => {
            let table = variant_table(vi);
            quote!(__odm::build::tagged_variant(&#table, __closed, #desc))
        }
        (Style::Struct(_), Some(content)) => {
            let table = variant_table(vi);
            quote!(__odm::build::adjacent_variant(&#table, #tag, #name, #content, __closed, #desc))
        }
        (Style::Unit | Style::Tuple, _) => quote! {{
            let mut __s = __odm::build::ObjectSchema::new();
            __s.field(#tag, #tag_schema, true);
            __s.finish(__closed, #desc)
        }},
    }
}

/// `closed`/`open` and the description of the type, on its table.
fn container_flags(cont: &Container, table: &mut TokenStream) {
    let mut flags = String::new();
    container_flags_text(cont, &mut flags);
    if !flags.is_empty() {
        table.extend(std::iter::once(super::text::lexed(&flags)));
    }
}

/// The table of a polymorphic model: no fields of its own, one table per stored variant (each a model document
/// holding its tag value under the discriminator).
fn polymorphic_table(cont: &Container, variants: &[Variant], resolved: &Resolved) -> TokenStream {
    let tag = cont.attrs.tag.as_ref().map(|t| t.value.clone()).unwrap_or_default();
    let tables = variants.iter().filter(|v| !v.attrs.skip).map(|v| {
        let name = format!("{}::{}", cont.ident, v.ident);
        let value = &v.name;
        let mut t = match &v.style {
            Style::Struct(fields) => {
                let entries = entries(fields, resolved);
                quote!(__OdmTable::new(#name, &[#entries]))
            }
            Style::Newtype(field) => {
                let (ty, span) = (field.ty, field.ty_span());
                let inner = quote_spanned!(span=> <#ty as __OdmSchema>::OBJECT);
                quote!(__OdmTable::wrapping(#name, #inner))
            }
            Style::Unit | Style::Tuple => quote!(__OdmTable::new(#name, &[])),
        };
        t.extend(quote!(.model().tagged(#tag, #value)));
        if let Some(doc) = &v.doc {
            t.extend(quote!(.describe(#doc)));
        }
        t
    });
    let name = cont.ident.to_string();
    let mut table = quote!(__OdmTable::new(#name, &[]).variants(&[#(#tables),*]));
    container_flags(cont, &mut table);
    table
}

/// [`entries_text`] as tokens (the tables of a polymorphic model's struct variants, and of a tagged enum's).
pub(super) fn entries(fields: &[Field], resolved: &Resolved) -> TokenStream {
    let mut code = Code::new();
    entries_text(&mut code, fields, resolved);
    code.finish()
}

/// Writes the builder calls after a table entry (optional, counter, bounds, …) and the comma; `fields` are its
/// siblings (the counter is named by its index among the stored ones, as the table holds them).
fn entry_calls(code: &mut Code, f: &Field, fields: &[Field], resolved: &Resolved) {
    let a = &f.attrs;
    let facts = resolved.facts(f);
    if !f.is_always_written() {
        code.push(".optional()");
    }
    if let Some(c) = facts.counter.filter(|&c| fields[c].is_stored()) {
        let i = fields[..c].iter().filter(|s| s.is_stored()).count();
        code.push(&format!(".counter({i}usize)"));
    }
    if let (Some(_), Some(n)) = (&a.keep_last, &a.max_items) {
        code.push(&format!(".keep_last({}u32)", n.value as u32));
        if a.overflow.is_some() {
            code.push(".overflows()");
        }
    }
    let keywords: Vec<String> = facts.keywords.iter().map(|(keyword, n)| format!("({keyword:?}, {n}i64)")).collect();
    if !keywords.is_empty() {
        code.push(&format!(".keywords(&[{}])", keywords.join(", ")));
    }
    if a.unique_items.is_some() {
        code.push(".unique_items()");
    }
    if resolved.leads_index(f) {
        code.push(".leads_index()");
    }
    super::computed::entry_call(code, f, fields, resolved);
    super::computed::sums_call(code, f, fields, resolved);
    if a.nullable.is_some() {
        code.push(".nullable()");
    }
    if let Some(doc) = &f.doc {
        code.push(&format!(".describe({doc:?})"));
    }
    code.text(",");
}

/// The `BsonKind` variant of a `bsonType` alias a converter or `#[odm(bson_type)]` fixes.
pub fn alias_kind(alias: &str) -> syn::Ident {
    syn::Ident::new(alias_kind_name(alias), proc_macro2::Span::call_site())
}

/// The name of [`alias_kind`]'s variant.
fn alias_kind_name(alias: &str) -> &'static str {
    match alias {
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
}
