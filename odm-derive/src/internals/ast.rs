//! The intermediate representation: the input type with its attributes interpreted and stored keys computed.
//! Every node keeps a reference to the syntax it came from, so rules can point at the exact tokens.

use super::attr::{self, Sp};
use super::case::RenameRule;
use super::ctxt::Ctxt;
use super::resolve::field::{self, Facts};
use super::rules;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ext::IdentExt;

/// Which derive is running.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Derive {
    /// `#[derive(Model)]`: a collection's document.
    Model,
    /// `#[derive(Embedded)]`: a nested document or enum.
    Embedded,
}

impl Container<'_> {
    /// True for `#[derive(Model)]` on an enum: a polymorphic collection, one document shape per variant.
    pub fn is_polymorphic(&self) -> bool {
        self.derive == Derive::Model && matches!(self.data, Data::Enum(_))
    }
}

impl Derive {
    pub fn name(self) -> &'static str {
        match self {
            Derive::Model => "Model",
            Derive::Embedded => "Embedded",
        }
    }
}

pub struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub attrs: attr::Container,
    pub data: Data<'a>,
    pub doc: Option<String>,
    pub derive: Derive,
    pub original: &'a syn::DeriveInput,
}

pub enum Data<'a> {
    /// A struct with named fields.
    Struct(Vec<Field<'a>>),
    /// A tuple struct with one field, or a `#[serde(transparent)]` struct: stored as its field.
    Newtype(Box<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

pub struct Field<'a> {
    /// The Rust name (for error paths): the ident, or the index of a tuple field.
    pub rust_name: String,
    /// The field's identifier (`None` for a tuple field).
    pub ident: Option<&'a syn::Ident>,
    pub vis: &'a syn::Visibility,
    pub ty: &'a syn::Type,
    /// The span of the whole type, computed on first use (most field types are written as text and never need
    /// it; joining a type's spans walks all its tokens): generated uses of the type point there.
    ty_span: std::cell::OnceCell<proc_macro2::Span>,
    /// The type as source text when its tokens alone make `BsonSchema` certain ([`super::ty::certain_text`]): generated
    /// code then names it without the span.
    pub ty_text: Option<String>,
    pub attrs: attr::Field,
    /// The key serde writes.
    pub key: String,
    /// Where the key comes from: the `rename` literal, or the field name.
    pub key_tokens: TokenStream,
    pub doc: Option<String>,
    /// What the rules and generators read about the field, resolved once (its counter link among the siblings it
    /// was built with).
    pub facts: Facts,
}

impl Field<'_> {
    /// The span of the whole type: generated uses of the type point there.
    pub fn ty_span(&self) -> proc_macro2::Span {
        *self.ty_span.get_or_init(|| syn::spanned::Spanned::span(self.ty))
    }

    /// True when serialization writes this field at all.
    pub fn is_stored(&self) -> bool {
        self.attrs.skip_serializing.is_none()
    }

    /// True when serialization always writes this field.
    pub fn is_always_written(&self) -> bool {
        self.is_stored() && self.attrs.skip_serializing_if.is_none()
    }
}

/// Two fields of different variants of a polymorphic model stored alike: same name, same key, same type (as
/// written), both through a converter or neither. Its shared paths and its indexes without `variant` name such
/// fields only.
pub fn stored_alike(a: &Field, b: &Field) -> bool {
    let ty = |f: &Field| {
        let t = f.ty;
        quote::quote!(#t).to_string()
    };
    a.rust_name == b.rust_name
        && a.key == b.key
        && a.attrs.converter.is_some() == b.attrs.converter.is_some()
        && ty(a) == ty(b)
}

/// The field that `field`'s `counter = "…"` names among `fields`, its siblings, when there is one.
pub fn counter_target<'f, 'a>(field: &Field, fields: &'f [Field<'a>]) -> Option<&'f Field<'a>> {
    field.facts.counter.map(|i| &fields[i])
}

/// The array among `fields`, its siblings, that `field` counts (the first, when several name it).
pub fn counted_array<'f, 'a>(field: &Field, fields: &'f [Field<'a>]) -> Option<&'f Field<'a>> {
    field.facts.counted_by.map(|i| &fields[i])
}

/// The stored fields typed `odm::Version<…>`: a versioned model's version field (there must be one).
pub fn version_fields<'f, 'a>(fields: &'f [Field<'a>]) -> Vec<&'f Field<'a>> {
    fields.iter().filter(|f| f.is_stored() && super::ty::version_arg(f.ty).is_some()).collect()
}

/// True when some array among its siblings is counted by `field`.
pub fn is_counter(field: &Field) -> bool {
    field.facts.counted_by.is_some()
}

pub enum Style<'a> {
    Unit,
    Newtype(Box<Field<'a>>),
    Struct(Vec<Field<'a>>),
    /// A tuple variant with more than one field (refused by the rules).
    Tuple,
}

pub struct Variant<'a> {
    pub ident: &'a syn::Ident,
    /// The name serde writes (tag value or key).
    pub name: String,
    pub name_tokens: TokenStream,
    pub attrs: attr::Variant,
    pub style: Style<'a>,
    pub doc: Option<String>,
    pub original: &'a syn::Variant,
}

impl<'a> Container<'a> {
    /// Builds the IR; `None` only for shapes no rule can recover from (unions), which are reported.
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput, derive: Derive) -> Option<Self> {
        let attrs = attr::Container::from_ast(cx, input);
        let rule = attrs.rename_all.as_ref().map_or(RenameRule::None, |r| r.value);
        let data = match &input.data {
            syn::Data::Struct(s) => match &s.fields {
                syn::Fields::Named(named) => {
                    let fields = fields_from_ast(cx, named.named.iter(), rule);
                    if attrs.transparent.is_some() && fields.len() == 1 {
                        Data::Newtype(Box::new(fields.into_iter().next().expect("one field")))
                    } else {
                        Data::Struct(fields)
                    }
                }
                syn::Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 && derive == Derive::Embedded => {
                    Data::Newtype(Box::new(fields_from_ast(cx, unnamed.unnamed.iter(), rule).remove(0)))
                }
                _ => {
                    let what = if derive == Derive::Model {
                        "`#[derive(Model)]` needs a struct with named fields (each field is a key of the stored \
                         document), or an internally tagged enum (`#[serde(tag = \"t\")]`) whose variants are the \
                         shapes of one polymorphic collection"
                    } else {
                        "`#[derive(Embedded)]` needs a struct with named fields, a newtype struct `struct Email(String);`, \
                         or an enum"
                    };
                    cx.error_spanned_by(input.ident.clone(), rules::MODEL_SHAPE, what);
                    return None;
                }
            },
            syn::Data::Enum(e) => {
                // On a model, a polymorphic collection: the `poly-*` rules check the enum's shape.
                let fields_rule = attrs.rename_all_fields.as_ref().map(|r| r.value);
                Data::Enum(e.variants.iter().map(|v| variant_from_ast(cx, v, rule, fields_rule)).collect())
            }
            syn::Data::Union(u) => {
                cx.error_spanned_by(
                    u.union_token,
                    rules::MODEL_SHAPE,
                    "odm derives do not support unions: a union has no stored shape",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            attrs,
            data,
            doc: attr::doc_comment(&input.attrs),
            derive,
            original: input,
        })
    }
}

fn fields_from_ast<'a>(cx: &Ctxt, fields: impl Iterator<Item = &'a syn::Field>, rule: RenameRule) -> Vec<Field<'a>> {
    let mut fields: Vec<Field<'a>> = fields
        .enumerate()
        .map(|(i, f)| {
            let attrs = attr::Field::from_ast(cx, &f.attrs);
            let rust_name = match &f.ident {
                Some(ident) => ident.unraw().to_string(),
                None => i.to_string(),
            };
            let (key, key_tokens) = match &attrs.rename {
                Some(Sp { value, tokens }) => (value.clone(), tokens.clone()),
                None => (
                    rule.apply_to_field(&rust_name),
                    f.ident.as_ref().map_or_else(|| f.ty.to_token_stream(), |i| i.to_token_stream()),
                ),
            };
            Field {
                rust_name,
                ident: f.ident.as_ref(),
                vis: &f.vis,
                ty: &f.ty,
                ty_span: std::cell::OnceCell::new(),
                ty_text: super::ty::certain_text(&f.ty),
                key,
                key_tokens,
                doc: attr::doc_comment(&f.attrs),
                facts: Facts::of(&attrs),
                attrs,
            }
        })
        .collect();
    let names: Vec<&str> = fields.iter().map(|f| f.rust_name.as_str()).collect();
    let counters: Vec<Option<&str>> =
        fields.iter().map(|f| f.attrs.counter.as_ref().map(|c| c.value.as_str())).collect();
    let links = field::link_counters(&names, &counters);
    for (f, (counter, counted_by)) in fields.iter_mut().zip(links) {
        f.facts.counter = counter;
        f.facts.counted_by = counted_by;
    }
    link_computed(&mut fields);
    fields
}

/// Links each computed field (`sum`/`min`/`max = "array.field"`) to the array it names, both ways; a name that is
/// no sibling stays unlinked, for `computed-source` to report.
fn link_computed(fields: &mut [Field]) {
    for target in 0..fields.len() {
        let Some((aggregate, path)) = fields[target].attrs.computed.first().map(|(a, p)| (*a, p.value.clone())) else {
            continue;
        };
        if path.contains(',') {
            // A sum of fields: each one it adds up carries the sum, for updates to follow.
            let inputs: Vec<usize> = path
                .split(',')
                .filter_map(|name| fields.iter().position(|f| f.rust_name == name.trim()))
                .filter(|&at| at != target)
                .collect();
            for &at in &inputs {
                fields[at].facts.computes.push(field::Computes { aggregate, of: String::new(), target, addend: true });
            }
            fields[target].facts.computed_from = inputs.first().copied();
            fields[target].facts.sums = inputs;
            continue;
        }
        let (array, of) = path.split_once('.').unwrap_or((&path, ""));
        let Some(at) = fields.iter().position(|f| f.rust_name == array) else { continue };
        fields[target].facts.computed_from = Some(at);
        if at != target {
            let of = of.to_owned();
            fields[at].facts.computes.push(field::Computes { aggregate, of, target, addend: false });
        }
    }
}

fn variant_from_ast<'a>(
    cx: &Ctxt,
    v: &'a syn::Variant,
    rule: RenameRule,
    fields_rule: Option<RenameRule>,
) -> Variant<'a> {
    let attrs = attr::Variant::from_ast(cx, &v.attrs);
    let (name, name_tokens) = match &attrs.rename {
        Some(Sp { value, tokens }) => (value.clone(), tokens.clone()),
        None => (rule.apply_to_variant(&v.ident.unraw().to_string()), v.ident.to_token_stream()),
    };
    let field_rule = attrs.rename_all.as_ref().map(|r| r.value).or(fields_rule).unwrap_or(RenameRule::None);
    let style = match &v.fields {
        syn::Fields::Unit => Style::Unit,
        syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => {
            Style::Newtype(Box::new(fields_from_ast(cx, u.unnamed.iter(), field_rule).remove(0)))
        }
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Named(n) => Style::Struct(fields_from_ast(cx, n.named.iter(), field_rule)),
    };
    Variant { ident: &v.ident, name, name_tokens, attrs, style, doc: attr::doc_comment(&v.attrs), original: v }
}
