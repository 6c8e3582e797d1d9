//! `#[odm(overflow(model = "…", owner = "…"))]` (rule `array-overflow`): the subset pattern. Declared on an array of a
//! model, with `max_items` and `keep_last` (the array keeps the latest elements, and the overflow model keeps them
//! all), naming the model and its owner field. Whether the overflow model stores the element's fields alike and
//! the owner's `_id` as the owner does is asserted by the generated code, since only the overflow model's field table
//! knows its fields.

use crate::internals::ast::{Container, Data, Derive, Field, Style};
use crate::internals::ctxt::Ctxt;
use crate::internals::rules;
use crate::internals::ty::{classify, TyKind};

pub fn check(cx: &Ctxt, cont: &Container) {
    match &cont.data {
        Data::Struct(fields) => fields.iter().for_each(|f| check_field(cx, cont, f, true)),
        Data::Newtype(f) => check_field(cx, cont, f, false),
        Data::Enum(variants) => {
            for v in variants {
                match &v.style {
                    Style::Struct(fields) => fields.iter().for_each(|f| check_field(cx, cont, f, false)),
                    Style::Newtype(f) => check_field(cx, cont, f, false),
                    Style::Unit | Style::Tuple => {}
                }
            }
        }
    }
}

fn check_field(cx: &Ctxt, cont: &Container, f: &Field, top_level: bool) {
    let Some(overflow) = &f.attrs.overflow else { return };
    let name = &f.rust_name;
    let error = |msg: String| cx.error_spanned_by(&overflow.tokens, rules::ARRAY_OVERFLOW, msg);
    if cont.derive != Derive::Model || !top_level {
        error(format!(
            "field `{name}`: `overflow` moves the elements a push cuts into documents that refer to their owner by its \
             `_id`, so it goes on a top-level array of a `#[derive(Model)]` struct; move the array to the model"
        ));
    }
    if !matches!(classify(f.ty), TyKind::Array { fixed: None, .. }) {
        error(format!("field `{name}`: `overflow` goes on an array of elements: declare the field `Vec<T>`"));
    } else if f.attrs.max_items.is_none() || f.attrs.keep_last.is_none() {
        error(format!(
            "field `{name}`: `overflow` keeps the latest `max_items` elements in the array and every element in the \
             overflow model, so pushes must cut the array: add `max_items = N` and `keep_last`"
        ));
    }
    if overflow.model.is_none() {
        error("name the overflow model: `overflow(model = \"Review\", owner = \"product_id\")`".to_owned());
    }
    if overflow.by.is_none() {
        error(
            "name the overflow model's field holding the owner's `_id`: `overflow(model = \"Review\", owner = \
             \"product_id\")`"
                .to_owned(),
        );
    }
}
