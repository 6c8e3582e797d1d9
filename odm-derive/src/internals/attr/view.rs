//! Attributes of a view (`#[derive(View)]`): `#[odm(of = "…")]` and `#[odm(crate = "…")]` on the struct, none on its
//! fields, and no `#[serde(...)]` anywhere: a view's keys and decoding are the model's (rule `view-serde`).

use super::common::{skip_rest, Sp};
use super::values::{each_nested, lit_str, unknown, Attr};
use crate::internals::ctxt::Ctxt;
use crate::internals::rules;
use crate::internals::symbol::{Name, Symbol, CRATE, ODM, OF, SERDE};
use quote::ToTokens;

/// The odm attributes a view's struct takes.
const ODM_VIEW: &[Symbol] = &[OF, CRATE];

/// Attributes on a view's struct.
pub struct ViewAttrs {
    /// `of = "Model"`: the type whose fields the view reads.
    pub of: Option<Sp<syn::Path>>,
    /// `crate = "…"`: the path to the `odm` crate.
    pub crate_path: Option<syn::Path>,
}

impl ViewAttrs {
    /// Reads the struct's attributes, reporting unknown and serde ones.
    pub fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut of = Attr::none(cx, OF);
        let mut crate_path = Attr::none(cx, CRATE);
        each_nested(cx, attrs, ODM, |meta| {
            let (p, k) = (&meta.path, Name::of(&meta.path));
            if k == OF || k == CRATE {
                let Some(l) = lit_str(cx, if k == OF { OF } else { CRATE }, meta) else { return };
                match (l.parse::<syn::Path>(), k == OF) {
                    (Ok(path), true) => of.set_at(p, &l, path),
                    (Ok(path), false) => crate_path.set_at(p, &l, path),
                    (Err(_), true) => cx.error_spanned_by(
                        &l,
                        rules::ATTR_SYNTAX,
                        "expected the path of a struct deriving `Model` or `Embedded`: `of = \"Order\"`",
                    ),
                    (Err(_), false) => {
                        cx.error_spanned_by(&l, rules::ATTR_SYNTAX, "expected a path: `crate = \"::odm\"`")
                    }
                }
            } else {
                unknown(cx, meta, "odm view", ODM_VIEW);
            }
        });
        refuse_serde(cx, attrs, "on a view");
        ViewAttrs { of: of.get(), crate_path: crate_path.get().map(|s| s.value) }
    }
}

/// Reports the attributes of a view's field: it takes none of odm's and none of serde's.
pub fn field(cx: &Ctxt, attrs: &[syn::Attribute]) {
    each_nested(cx, attrs, ODM, |meta| {
        cx.error_spanned_by(
            &meta.path,
            rules::ATTR_UNKNOWN,
            "a view's field takes no odm attributes: what the field stores is declared once, on the model's field",
        );
        skip_rest(meta);
    });
    refuse_serde(cx, attrs, "on a view's field");
}

/// `#[serde(...)]` in `attrs`, refused: the derive writes the view's `Deserialize` from the model's keys.
fn refuse_serde(cx: &Ctxt, attrs: &[syn::Attribute], place: &str) {
    for attr in attrs.iter().filter(|a| a.path() == SERDE) {
        cx.error_spanned_by(
            attr.meta.path().to_token_stream(),
            rules::VIEW_SERDE,
            format!(
                "`#[serde(...)]` {place} has no effect: a view reads each field under the key the model stores it \
                 with, decoded as the model's type decodes it; remove it (rename or convert in the model)"
            ),
        );
    }
}
