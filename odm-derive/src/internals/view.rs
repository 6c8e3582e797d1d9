//! A view's input (`#[derive(View)]`), parsed and checked in one pass: a view has nothing to resolve of its own. Its
//! fields' stored keys and types are the model's, which only the compiler sees, so the checks against the model
//! (rules `view-of`, `view-field`, `view-type`) are generated (`expand::view`); what the tokens alone show is
//! checked here.

use super::attr::view::{self as attrs, ViewAttrs};
use super::ctxt::Ctxt;
use super::rules;
use super::ty::{self, TyKind};
use quote::ToTokens;

/// A view that passed the checks its tokens allow.
pub struct View<'a> {
    pub ident: &'a syn::Ident,
    /// The struct whose fields it reads.
    pub of: syn::Path,
    pub crate_path: Option<syn::Path>,
    pub fields: Vec<ViewField<'a>>,
}

/// One field of a view: named as the model names the field it reads.
pub struct ViewField<'a> {
    pub ident: &'a syn::Ident,
    pub ty: &'a syn::Type,
}

impl<'a> View<'a> {
    /// The view in `input`, or `None` after reporting why it is not one.
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Self> {
        let attrs = ViewAttrs::from_ast(cx, &input.attrs);
        let ident = &input.ident;
        if !input.generics.params.is_empty() {
            cx.error_spanned_by(
                &input.generics,
                rules::VIEW_OF,
                format!("view `{ident}` has generic parameters: a view reads the fields of one type, so it has none"),
            );
        }
        let fields = match &input.data {
            syn::Data::Struct(syn::DataStruct { fields: syn::Fields::Named(named), .. }) => &named.named,
            _ => {
                cx.error_spanned_by(
                    ident,
                    rules::VIEW_OF,
                    format!(
                        "`{ident}` is not a struct with named fields: a view is a struct whose fields are named as \
                         the model names the fields it reads"
                    ),
                );
                return None;
            }
        };
        if fields.is_empty() {
            cx.error_spanned_by(
                ident,
                rules::VIEW_OF,
                format!("view `{ident}` has no fields, so it would read nothing; add the model's fields it reads"),
            );
        }
        let Some(of) = attrs.of else {
            cx.error_spanned_by(
                ident,
                rules::VIEW_OF,
                format!(
                    "view `{ident}` does not say what it is a view of; add `#[odm(of = \"Model\")]` naming the \
                     struct (deriving `Model` or `Embedded`) whose fields it reads"
                ),
            );
            return None;
        };
        let mut out = Vec::new();
        for f in fields {
            attrs::field(cx, &f.attrs);
            let Some(ident) = f.ident.as_ref() else { continue };
            double_option(cx, ident, &f.ty);
            out.push(ViewField { ident, ty: &f.ty });
        }
        Some(View { ident, of: of.value, crate_path: attrs.crate_path, fields: out })
    }
}

/// An `Option` directly inside an `Option` anywhere in a view's field type: a document has no third state to read
/// into it (absent and `null` both read as `None`), and the compiler could not tell which `Option` is the model's.
fn double_option(cx: &Ctxt, field: &syn::Ident, ty: &syn::Type) {
    let mut t = ty;
    loop {
        t = match ty::classify(t) {
            TyKind::Option(inner) => {
                if let TyKind::Option(_) = ty::classify(inner) {
                    cx.error_spanned_by(
                        t.to_token_stream(),
                        rules::VIEW_TYPE,
                        format!(
                            "field `{field}`: `{}` nests an `Option` in an `Option`, and a document has no third \
                             state to read into it; use one `Option`",
                            ty::display(t)
                        ),
                    );
                    return;
                }
                inner
            }
            TyKind::Array { elem, .. } => elem,
            TyKind::Map { value, .. } => value,
            TyKind::Boxed(inner) => inner,
            _ => return,
        };
    }
}
