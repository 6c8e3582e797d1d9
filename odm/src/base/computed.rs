//! Computed fields as declared: `Aggregate` and `Computed` (from `crate::base::counters::aggregate`, which knows no
//! field table, so the tables can name them), reading the validator's check back (`read`), and the const checks the
//! derive's assertions call (`computed_fits`, `element_key`, `misfit`). Updates keep them in step in
//! `crate::base::update::computed`. Users read the docs at `odm::computed` (src/computed.rs).

pub use crate::base::counters::aggregate::{Aggregate, Computed};

use crate::base::kind::BsonKind;
use crate::base::meta::TypeMeta;
use bson::Bson;

/// Reads back a check [`check`] wrote, wherever it sits in `expr` (over an array's elements, for a variant): what
/// it aggregates and the path of the values (`rv.s`: the array's key, then the element field's, if any), without the
/// `$` or the `$map` variable.
pub(crate) fn read(expr: &Bson) -> Option<(Aggregate, String)> {
    let d = expr.as_document()?;
    if let Ok([stored, over]) = d.get_array("$eq").map(Vec::as_slice) {
        stored.as_document()?.get_array("$ifNull").ok()?;
        let over = over.as_document()?;
        let (aggregate, values) = [Aggregate::Sum, Aggregate::Min, Aggregate::Max]
            .into_iter()
            .find_map(|a| Some((a, over.get(a.operator())?)))?;
        let (array, of) = match values {
            Bson::String(array) => (array.as_str(), None),
            // A sum of fields: their paths, as a counter check's array lists them.
            Bson::Array(fields) => {
                let paths: Vec<&str> = fields.iter().filter_map(|f| f.as_str()).map(unbound).collect();
                return Some((aggregate, paths.join(", ")));
            }
            other => {
                let map = other.as_document()?.get_document("$map").ok()?;
                let input = map.get_document("input").ok()?.get_array("$cond").ok()?.get(1)?.as_str()?;
                (input, map.get_str("in").ok()?.strip_prefix("$$this."))
            }
        };
        let path = unbound(array);
        return Some((aggregate, of.map_or_else(|| path.to_owned(), |of| format!("{path}.{of}"))));
    }
    let inner = |v: &Bson| -> Option<Vec<Bson>> {
        let d = v.as_document()?;
        if let Ok(list) = d.get_array("$or").or_else(|_| d.get_array("$and")) {
            return Some(list.clone());
        }
        let map = d.get_array("$allElementsTrue").ok()?.first()?.as_document()?.get_document("$map").ok()?;
        Some(vec![map.get("in")?.clone()])
    };
    inner(expr)?.iter().find_map(read)
}

/// A path of an aggregation expression without its `$`, or without the `$map` variable that starts it.
fn unbound(expr: &str) -> &str {
    let path = expr.trim_start_matches('$');
    if expr.starts_with("$$") {
        path.split_once('.').map_or("", |(_, p)| p)
    } else {
        path
    }
}

/// The element field's stored key in `values` (as [`read`] gives them) of the array whose stored path is `array`:
/// `None` when the values are the elements themselves.
pub(crate) fn element_field<'a>(values: &'a str, array: &str) -> Option<&'a str> {
    let last = array.rsplit('.').next().unwrap_or(array);
    let (head, of) = values.rsplit_once('.')?;
    (head.rsplit('.').next() == Some(last)).then_some(of)
}

/// True for the text a refused write's failure says a computed field expects (`the sum of …`).
pub(crate) fn describes(expected: &str) -> bool {
    [Aggregate::Sum, Aggregate::Min, Aggregate::Max]
        .iter()
        .any(|a| expected.starts_with(&format!("the {} of ", a.name())))
}

/// Ways a computed field may not fit what it aggregates, as [`computed_fits`] answers.
pub mod misfit {
    /// It fits.
    pub const NONE: u8 = 0;
    /// The element type has no stored field of that name.
    pub const MISSING: u8 = 1;
    /// The element field may be absent or `null`.
    pub const ABSENT: u8 = 2;
    /// A sum over values that are not integers.
    pub const NOT_INTEGER: u8 = 3;
    /// A minimum or maximum over values the server orders otherwise than odm can follow.
    pub const NOT_ORDERED: u8 = 4;
    /// A minimum or maximum of another BSON type than the values.
    pub const TYPE: u8 = 5;
}

/// Whether a computed field fits the values it aggregates, evaluated by the compiler for each declaration:
/// `element` is the element type's field table (`None` for scalars) and `element_kind` its kind, `of` the element
/// field's Rust name (`""` for the elements themselves), `target` the computed field's kind (an `Option`'s inner
/// kind). One of [`misfit`]'s codes.
pub const fn computed_fits(
    element: Option<&TypeMeta>,
    element_kind: BsonKind,
    of: &str,
    aggregate: Aggregate,
    target: BsonKind,
) -> u8 {
    let kind = if of.is_empty() {
        element_kind
    } else {
        let Some(meta) = element else { return misfit::MISSING };
        let Some(i) = field_index(meta, of) else { return misfit::MISSING };
        let f = &meta.fields[i];
        if f.optional || f.nullable {
            return misfit::ABSENT;
        }
        if f.fixed.is_some() {
            return misfit::NOT_ORDERED;
        }
        f.ty.kind
    };
    match aggregate {
        Aggregate::Sum => {
            if matches!(kind, BsonKind::Int | BsonKind::Long) {
                misfit::NONE
            } else {
                misfit::NOT_INTEGER
            }
        }
        Aggregate::Min | Aggregate::Max => {
            if !matches!(kind, BsonKind::Int | BsonKind::Long | BsonKind::Double | BsonKind::String | BsonKind::Date) {
                misfit::NOT_ORDERED
            } else if kind as u8 != target as u8 {
                misfit::TYPE
            } else {
                misfit::NONE
            }
        }
    }
}

/// The stored key of the element field named `of` in `element`'s table (`""` for the elements themselves, or when
/// there is no such field, which [`computed_fits`] reports).
pub const fn element_key(element: Option<&'static TypeMeta>, of: &str) -> &'static str {
    if of.is_empty() {
        return "";
    }
    let Some(meta) = element else { return "" };
    match field_index(meta, of) {
        Some(i) => meta.fields[i].key,
        None => "",
    }
}

/// The index of the field named `name` in `meta`, compared byte by byte (a `const fn` cannot call `==` on `str`).
const fn field_index(meta: &TypeMeta, name: &str) -> Option<usize> {
    let mut i = 0;
    while i < meta.fields.len() {
        let a = meta.fields[i].name.as_bytes();
        let b = name.as_bytes();
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}
