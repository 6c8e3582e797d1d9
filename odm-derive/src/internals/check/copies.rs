//! `#[odm(copies(…))]` (rule `copy-source`): on an embedded struct, naming the copied model and a stored field for
//! its `_id`, with something left to copy. Whether each copy fits its source is asserted by the generated code
//! (rule `copy-bounds`), since only the source's field table knows its fields.

use crate::internals::ast::{Container, Data, Derive};
use crate::internals::attr::did_you_mean;
use crate::internals::ctxt::Ctxt;
use crate::internals::rules;

pub fn check(cx: &Ctxt, cont: &Container) {
    let Some(copies) = &cont.attrs.copies else { return };
    let Data::Struct(fields) = &cont.data else {
        cx.error_spanned_by(
            &copies.tokens,
            rules::COPY_SOURCE,
            "`copies` declares a struct that copies another model's fields: use it on a `#[derive(Embedded)]` struct \
             with named fields",
        );
        return;
    };
    if cont.derive != Derive::Embedded {
        cx.error_spanned_by(
            &copies.tokens,
            rules::COPY_SOURCE,
            "`copies` declares an embedded struct that copies another model's fields, not a model: derive `Embedded` \
             for the copy, and embed it in the models that refer to the source",
        );
    }
    if copies.model.is_none() {
        cx.error_spanned_by(
            &copies.tokens,
            rules::COPY_SOURCE,
            "name the copied model: `copies(model = \"Employee\", by = \"id\")`",
        );
    }
    let stored: Vec<&str> = fields.iter().filter(|f| f.is_stored()).map(|f| f.rust_name.as_str()).collect();
    let Some(by) = &copies.by else {
        cx.error_spanned_by(
            &copies.tokens,
            rules::COPY_SOURCE,
            "name the field holding the copied document's `_id`: `copies(model = \"Employee\", by = \"id\")`",
        );
        return;
    };
    if !stored.contains(&by.value().as_str()) {
        let hint = did_you_mean(&by.value(), stored.iter().copied());
        cx.error_spanned_by(
            by,
            rules::COPY_SOURCE,
            format!(
                "`{}` is not a stored field of this struct: `by` names the field holding the copied document's \
                 `_id`{hint}",
                by.value()
            ),
        );
    } else if stored.len() == 1 {
        cx.error_spanned_by(
            by,
            rules::COPY_SOURCE,
            "the struct copies nothing besides the `_id`: add the fields it copies (named as in the source model), or \
             store a plain id instead",
        );
    }
}
