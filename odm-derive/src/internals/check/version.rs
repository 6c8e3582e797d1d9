//! `version-field`: a versioned model declares a sane version and keeps it in exactly one `odm::Version<N>` field.
//! (`version-step`, each older shape upgrading to the next, is checked by the compiler on generated trait bounds.)

use crate::internals::ast::{version_fields, Container, Data, Derive};
use crate::internals::ctxt::Ctxt;
use crate::internals::rules;
use crate::internals::symbol::{OLDER, VERSION};
use crate::internals::ty;

pub fn check(cx: &Ctxt, cont: &Container) {
    let a = &cont.attrs;
    if cont.derive == Derive::Embedded {
        return; // `version` and `older` are reported as model-only
    }
    let Some(version) = &a.version else {
        if let Some(older) = &a.older {
            cx.error_spanned_by(
                &older.tokens,
                rules::VERSION_FIELD,
                format!("`{OLDER}(…)` lists the older shapes of a versioned model: add `{VERSION} = N` with the current version"),
            );
        }
        return;
    };
    let n = version.value;
    if n == 0 {
        cx.error_spanned_by(
            &version.tokens,
            rules::VERSION_FIELD,
            "versions start at 1: write `version = 1` or higher",
        );
        return;
    }
    if let Some(older) = &a.older {
        if older.value.len() >= n {
            cx.error_spanned_by(
                &older.tokens,
                rules::VERSION_FIELD,
                format!(
                    "`{OLDER}(…)` lists {} older shape(s), but version {n} has only {} older version(s); list the \
                     shapes of versions {} to {}, oldest first",
                    older.value.len(),
                    n - 1,
                    (n + 1).saturating_sub(older.value.len() + 1).max(1),
                    n - 1
                ),
            );
        }
    }
    let Data::Struct(fields) = &cont.data else { return };
    match version_fields(fields)[..] {
        [] => cx.error_spanned_by(
            &version.tokens,
            rules::VERSION_FIELD,
            format!(
                "a versioned model keeps its version in a field: add `#[serde(rename = \"_v\")] v: odm::Version<{n}>`"
            ),
        ),
        [field] => {
            if let Some(Some(found)) = ty::version_arg(field.ty) {
                if found != n as u64 {
                    cx.error_spanned_by(
                        field.ty,
                        rules::VERSION_FIELD,
                        format!("the model is at `{VERSION} = {n}`, but field `{}` holds version {found}; write `odm::Version<{n}>`", field.rust_name),
                    );
                }
            }
        }
        [_, second, ..] => cx.error_spanned_by(
            second.ty,
            rules::VERSION_FIELD,
            format!("field `{}` is a second version field; a model keeps its version in one field", second.rust_name),
        ),
    }
}
