//! Facts about index keys that the resolve stage, the rules and the index generator all read: what a resolved key
//! is, which types embed documents or hold dates, default index names and ceilings. The languages themselves are
//! parsed once, in [`super::resolve`].

use super::ast::Field;
use super::source::Source;
use super::ty::{self, TyKind};
use quote::ToTokens;
use std::ops::Range;

/// Indexes per collection by default: every index slows every write, so a few well-chosen ones are the norm.
pub const DEFAULT_MAX_INDEXES: usize = 3;
/// The server's hard limit, `_id` included.
pub const SERVER_MAX_INDEXES: usize = 63;

/// The kind of one index key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KeyKind {
    Asc,
    Desc,
    Text,
    Hashed,
    Sphere,
    Wildcard,
}

/// One resolved key of an index.
pub struct Key<'a> {
    /// The top-level field (`None` for `$**`).
    pub field: Option<&'a Field<'a>>,
    /// The nested field name and the embedded type that declares it (`a.b`).
    pub nested: Option<(String, &'a syn::Type)>,
    /// The path reaches through an array at the first level (syntactically known).
    pub first_is_array: bool,
    pub kind: KeyKind,
    /// The path's bytes in the value of the literal that names it, where errors about it point.
    pub at: Range<usize>,
}

/// BSON scalar types that look like user types to the tokens: never embedded documents.
pub const BSON_SCALARS: &[&str] = &[
    "DateTime",
    "ObjectId",
    "Decimal128",
    "Uuid",
    "Binary",
    "Timestamp",
    "Regex",
    "JavaScriptCode",
    "JavaScriptCodeWithScope",
    "Document",
    "RawDocumentBuf",
];

/// The innermost embedded type of a field type: through `Option`, `Box`, and arrays.
pub fn embedded_type(ty: &syn::Type) -> (Option<&syn::Type>, bool) {
    let mut t = ty;
    let mut through_array = false;
    loop {
        match ty::classify(t) {
            TyKind::Option(inner) | TyKind::Boxed(inner) => t = inner,
            TyKind::Array { elem, .. } => {
                through_array = true;
                t = elem;
            }
            TyKind::Other => {
                let syn::Type::Path(p) = t else {
                    return (None, through_array);
                };
                let last = p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                if BSON_SCALARS.contains(&last.as_str()) || p.path.is_ident("Self") {
                    return (None, through_array);
                }
                return (Some(t), through_array);
            }
            _ => return (None, through_array),
        }
    }
}

/// True when the field, whose validator learns its type from `source`, is stored as an array, by its converter or
/// (syntactically) its type: a key through it is multikey.
pub fn is_array_field(f: &Field, source: &Source) -> bool {
    if let Source::Fixed(alias) = source {
        return alias == "array";
    }
    let mut t = ty::unwrap_option(f.ty);
    while let TyKind::Boxed(inner) = ty::classify(t) {
        t = inner;
    }
    matches!(ty::classify(t), TyKind::Array { .. })
}

/// The stored fields of a struct, for messages: "`a`, `b`".
pub fn field_list(fields: &[Field]) -> String {
    let names: Vec<String> = fields.iter().filter(|f| f.is_stored()).map(|f| format!("`{}`", f.rust_name)).collect();
    names.join(", ")
}

/// `a`, `a.b` or `$**`: a key as the user wrote its path.
pub fn key_label(k: &Key) -> String {
    match (k.field, &k.nested) {
        (None, _) => "$**".into(),
        (Some(f), None) => f.rust_name.clone(),
        (Some(f), Some((n, _))) => format!("{}.{n}", f.rust_name),
    }
}

/// The default name of an index (`IndexSpec::default_name`: `idx_` and the stored key paths, dots as `_`), and
/// whether it is exact. Nested stored keys live in the embedded type, so those parts are spelt with the Rust name
/// here; the generated code compares the exact names at compile time.
pub fn default_name(keys: &[Key]) -> (String, bool) {
    let mut exact = true;
    let parts: Vec<String> = keys
        .iter()
        .map(|k| match (k.field, &k.nested) {
            (None, _) => "all".to_owned(),
            (Some(f), None) => f.key.clone(),
            (Some(f), Some((n, _))) => {
                exact = false;
                format!("{}_{n}", f.key)
            }
        })
        .collect();
    (format!("idx_{}", parts.join("_")), exact)
}

/// True when the top-level field, whose validator learns its type from `source`, is (syntactically) a date or an
/// array of dates, what a TTL index can expire on; `None` when only the type knows.
pub fn field_is_date(f: &Field, source: &Source) -> Option<bool> {
    match source {
        Source::Fixed(alias) => return Some(alias == "date"),
        // `mixed`, or a converter already reported: the const assertion decides.
        Source::Mixed => return None,
        Source::Trait => {}
    }
    let t = ty::unwrap_option(f.ty);
    match ty::classify(t) {
        TyKind::Array { elem, .. } => type_is_date(ty::unwrap_option(elem)),
        _ => type_is_date(t),
    }
}

/// True when `t` is (syntactically) a date; `None` when only the type knows.
pub fn type_is_date(t: &syn::Type) -> Option<bool> {
    match ty::classify(t) {
        TyKind::Str
        | TyKind::Int
        | TyKind::NonInteger
        | TyKind::Array { .. }
        | TyKind::Map { .. }
        | TyKind::Tuple
        | TyKind::Multi { .. } => Some(false),
        TyKind::Other => {
            let s = t.to_token_stream().to_string().replace(' ', "");
            let last = s.rsplit("::").next().unwrap_or_default();
            if last == "DateTime" {
                Some(true)
            } else if BSON_SCALARS.contains(&last) {
                Some(false)
            } else {
                None
            }
        }
        _ => None,
    }
}
