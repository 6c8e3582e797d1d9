//! The intermediate representation: the input type with its attributes interpreted and stored keys computed, each
//! field numbered ([`Field::id`]) so the resolve stage can keep what it resolves about it. Every node keeps a
//! reference to the syntax it came from, so rules can point at the exact tokens.

use super::attr::{self, Sp};
use super::case::RenameRule;
use super::ctxt::Ctxt;
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
    /// The field's place among all fields of its container (struct fields, then each variant's, in declaration
    /// order): where the resolve stage keeps what it resolves about the field.
    pub id: usize,
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

/// The stored fields typed `odm::Version<…>`: a versioned model's version field (there must be one).
pub fn version_fields<'f, 'a>(fields: &'f [Field<'a>]) -> Vec<&'f Field<'a>> {
    fields.iter().filter(|f| f.is_stored() && super::ty::version_arg(f.ty).is_some()).collect()
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
        let mut next_id = 0;
        let data = match &input.data {
            syn::Data::Struct(s) => match &s.fields {
                syn::Fields::Named(named) => {
                    let fields = fields_from_ast(cx, named.named.iter(), rule, &mut next_id);
                    if attrs.transparent.is_some() && fields.len() == 1 {
                        Data::Newtype(Box::new(fields.into_iter().next().expect("one field")))
                    } else {
                        Data::Struct(fields)
                    }
                }
                syn::Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 && derive == Derive::Embedded => {
                    Data::Newtype(Box::new(fields_from_ast(cx, unnamed.unnamed.iter(), rule, &mut next_id).remove(0)))
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
                Data::Enum(
                    e.variants.iter().map(|v| variant_from_ast(cx, v, rule, fields_rule, &mut next_id)).collect(),
                )
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

/// The fields of one struct or variant; `next_id` numbers them on from the container's fields built before.
fn fields_from_ast<'a>(
    cx: &Ctxt,
    fields: impl Iterator<Item = &'a syn::Field>,
    rule: RenameRule,
    next_id: &mut usize,
) -> Vec<Field<'a>> {
    fields
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
                id: std::mem::replace(next_id, *next_id + 1),
                attrs,
            }
        })
        .collect()
}

fn variant_from_ast<'a>(
    cx: &Ctxt,
    v: &'a syn::Variant,
    rule: RenameRule,
    fields_rule: Option<RenameRule>,
    next_id: &mut usize,
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
            Style::Newtype(Box::new(fields_from_ast(cx, u.unnamed.iter(), field_rule, next_id).remove(0)))
        }
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Named(n) => Style::Struct(fields_from_ast(cx, n.named.iter(), field_rule, next_id)),
    };
    Variant { ident: &v.ident, name, name_tokens, attrs, style, doc: attr::doc_comment(&v.attrs), original: v }
}
