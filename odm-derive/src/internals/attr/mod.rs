//! Attribute parsing: `#[odm(...)]` (our own) and a read-only view of `#[serde(...)]` (mirrored so the stored keys
//! and presence rules match what serde writes).
//!
//! Like serde's `attr.rs`, nothing here returns `Result`: malformed, duplicate or unknown attributes are reported to
//! the [`Ctxt`] and skipped, so every problem of a type is shown in one build.

pub mod common;
pub mod concern;
mod container;
pub mod copies;
mod field;
pub mod index;
pub mod query;
pub mod series;
mod values;
mod variant;
pub mod view;

pub use common::{closest, did_you_mean, Sp};

pub use container::Container;
pub use field::Field;
pub use variant::Variant;

use crate::internals::symbol;
use symbol::DOC;

/// Doc comments joined into one description (for the validator's `description`).
pub fn doc_comment(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        // The shape first: comparing a path with a name is a round trip to the compiler, and most attributes of a
        // stored field are lists (`#[serde(…)]`, `#[odm(…)]`).
        let syn::Meta::NameValue(nv) = &attr.meta else { continue };
        if nv.path != DOC {
            continue;
        }
        if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value {
            lines.push(s.value().trim().to_owned());
        }
    }
    let text = lines.join(" ").trim().to_owned();
    (!text.is_empty()).then_some(text)
}
