//! Computed fields (`#[odm(sum = "…")]`, `min`, `max`): the array's table entry naming them (`.computes(&[…])`,
//! read by the validator and by typed updates), and one assertion per computed field, evaluated by the compiler
//! over the element type's table, that the aggregate fits the values (rule `computed-type`).

use super::text::Code;
use crate::internals::ast::{Container, Data, Field, Style};
use crate::internals::resolve::field::Computes;
use crate::internals::resolve::Resolved;
use crate::internals::rules;
use crate::internals::symbol::{MAX, MIN};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// The `Aggregate` variant a symbol names.
fn aggregate(symbol: crate::internals::symbol::Symbol) -> &'static str {
    if symbol == MIN {
        "Min"
    } else if symbol == MAX {
        "Max"
    } else {
        "Sum"
    }
}

/// The element type of `array`'s type, as generated code names it.
fn element(array: &Field) -> TokenStream {
    let ty = array.ty;
    quote!(<#ty as __odm::path::ArrayLike>::Item)
}

/// Writes the builder call after `array`'s table entry naming the fields computed from it; nothing without any.
/// `fields` are its siblings (a computed field is named by its index among the stored ones, as the table holds
/// them).
pub fn entry_call(code: &mut Code, array: &Field, fields: &[Field], resolved: &Resolved) {
    let computes = &resolved.facts(array).computes;
    if computes.is_empty() {
        return;
    }
    let each: Vec<String> = computes
        .iter()
        .filter(|c| fields[c.target].is_stored())
        .map(|c| {
            let target = &fields[c.target];
            let index = fields[..c.target].iter().filter(|s| s.is_stored()).count();
            if c.addend {
                return format!("__odm::computed::Computed::addend({:?}, {index}usize)", target.key);
            }
            entry(array, c, target, index)
        })
        .collect();
    code.push(&format!(".computes(&[{}])", each.join(", ")));
}

/// One field computed from `array`'s elements, as generated code builds it (a constant expression).
fn entry(array: &Field, c: &Computes, target: &Field, index: usize) -> String {
    let elem = element(array).to_string();
    let long = aggregate(c.aggregate) == "Sum";
    format!(
        "__odm::computed::Computed::new(__odm::computed::Aggregate::{}, \
         __odm::computed::element_key(<{elem} as __OdmSchema>::OBJECT, {:?}), {:?}, {index}usize, {long})",
        aggregate(c.aggregate),
        c.of,
        target.key,
    )
}

/// Writes the diff's calls keeping each field computed from an array in step when the array only grew (see
/// `Diff::computed_step`).
pub fn diff_steps(code: &mut Code, fields: &[Field], resolved: &Resolved) {
    for array in fields.iter().filter(|f| f.is_stored()) {
        for c in resolved.facts(array).computes.iter().filter(|c| !c.addend) {
            let target = &fields[c.target];
            let Some(ident) = target.ident.filter(|_| target.is_stored()) else { continue };
            let index = fields[..c.target].iter().filter(|s| s.is_stored()).count();
            let entry = entry(array, c, target, index);
            code.push(&format!("__out.computed_step(__at, {:?}, &{entry}, &__old.{ident}); ", array.key));
        }
    }
}

/// Writes the builder call after a sum of fields' table entry naming the stored keys of the fields it adds up;
/// nothing for any other field.
pub fn sums_call(code: &mut Code, target: &Field, fields: &[Field], resolved: &Resolved) {
    let sums = &resolved.facts(target).sums;
    if sums.is_empty() {
        return;
    }
    let keys: Vec<String> = sums.iter().map(|&i| format!("{:?}", fields[i].key)).collect();
    code.push(&format!(".sums(&[{}])", keys.join(", ")));
}

/// Writes the assertions of a struct's (or its variants') computed fields.
pub fn expand(code: &mut Code, cont: &Container, resolved: &Resolved) {
    let mut out = TokenStream::new();
    match &cont.data {
        Data::Struct(fields) => assertions(fields, resolved, &mut out),
        Data::Enum(variants) => {
            for v in variants {
                if let Style::Struct(fields) = &v.style {
                    assertions(fields, resolved, &mut out);
                }
            }
        }
        Data::Newtype(_) => {}
    }
    code.tokens(out);
}

fn assertions(fields: &[Field], resolved: &Resolved, out: &mut TokenStream) {
    for array in fields {
        for c in resolved.facts(array).computes.iter().filter(|c| !c.addend) {
            let target = &fields[c.target];
            let Some((_, path)) = target.attrs.computed.first() else { continue };
            let (elem, ty) = (element(array), target.ty);
            let agg = syn::Ident::new(aggregate(c.aggregate), proc_macro2::Span::call_site());
            let of = &c.of;
            let at = format!("`{}` holds the {} of `{}`", target.rust_name, c.aggregate.as_str(), path.value);
            let element_name = if of.is_empty() {
                format!("the elements of `{}`", array.rust_name)
            } else {
                format!("`{}[].{of}`", array.rust_name)
            };
            let missing = rules::COMPUTED_TYPE.message(format_args!(
                "{at}, but the elements of `{}` have no stored field `{of}`: name a field of the element type",
                array.rust_name
            ));
            let absent = rules::COMPUTED_TYPE.message(format_args!(
                "{at}, but {element_name} may be absent or `null`, and then the value would not count: make it a \
                 required field"
            ));
            let integer = rules::COMPUTED_TYPE.message(format_args!(
                "{at}, but {element_name} are not integers (`i32`, `i64`): a sum of doubles cannot be kept exactly \
                 (the server sums an array with more precision than one `$inc` after another); store integer units \
                 (cents, tenths), or hold the maximum or minimum instead"
            ));
            let ordered = rules::COMPUTED_TYPE.message(format_args!(
                "{at}, but {element_name} are not numbers, strings or dates, whose order odm follows as the server \
                 does; aggregate a field of one of those types"
            ));
            let kind = rules::COMPUTED_TYPE.message(format_args!(
                "{at}, but is not stored as the same BSON type as {element_name}: make it an `Option` of the values' \
                 type"
            ));
            out.extend(quote_spanned! {path.span()=>
                const _: () = match __odm::computed::computed_fits(
                    <#elem as __OdmSchema>::OBJECT,
                    <#elem as __OdmSchema>::KIND,
                    #of,
                    __odm::computed::Aggregate::#agg,
                    <#ty as __OdmSchema>::KIND,
                ) {
                    __odm::computed::misfit::NONE => {}
                    __odm::computed::misfit::MISSING => ::core::panic!("{}", #missing),
                    __odm::computed::misfit::ABSENT => ::core::panic!("{}", #absent),
                    __odm::computed::misfit::NOT_INTEGER => ::core::panic!("{}", #integer),
                    __odm::computed::misfit::NOT_ORDERED => ::core::panic!("{}", #ordered),
                    _ => ::core::panic!("{}", #kind),
                };
            });
        }
    }
}
