//! Index keys resolved to fields: the `keys`, `partial` and key-kind languages, default index names and ceilings.
//! Facts the index, query and shard-key rules and the index generator all read.

use super::ast::Field;
use super::attr::closest;
use super::lists::{entries, PartError};
use super::rules;
use super::source::{source, Source};
use super::ty::{self, TyKind};
use quote::ToTokens;

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
                let syn::Type::Path(p) = t else { return (None, through_array) };
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

pub fn is_array_field(f: &Field) -> bool {
    if let Source::Fixed(alias) = source(f) {
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

/// A resolved path: the top-level field, the nested field name with the embedded type that declares it, and
/// whether the top-level field is (syntactically) an array.
pub type Resolved<'a> = (Option<&'a Field<'a>>, Option<(String, &'a syn::Type)>, bool);

/// Resolves one path (`a` or `a.b`) against the struct's fields. An error is about `path` or a part of it; the
/// caller places it in the whole string with [`PartError::within`].
pub fn resolve_path<'a>(fields: &'a [Field<'a>], path: &str) -> Result<Resolved<'a>, PartError> {
    let segments: Vec<&str> = path.split('.').collect();
    if segments.iter().any(|s| s.is_empty() || s.contains(char::is_whitespace)) {
        return Err(PartError::at(
            rules::PATH_FIELD,
            path,
            path,
            format!("`{path}`"),
            " is not a field path: write `field` or `field.nested`, with Rust field names",
        ));
    }
    if segments.len() > 2 {
        return Err(PartError::at(
            rules::PATH_FIELD,
            path,
            path,
            format!("`{path}`"),
            format!(
                ": paths deeper than `field.nested` are not supported yet; index `{}.{}` or flatten the embedded type",
                segments[0], segments[1]
            ),
        ));
    }
    let Some(field) = fields.iter().find(|f| f.rust_name == segments[0]) else {
        return Err(unknown_field(fields, path, segments[0], &path[segments[0].len()..]));
    };
    if !field.is_stored() {
        return Err(PartError::at(
            rules::PATH_FIELD,
            path,
            segments[0],
            format!("field `{}`", field.rust_name),
            " is skipped when serializing, so it is never stored and cannot be indexed or filtered on",
        ));
    }
    let first_is_array = is_array_field(field);
    if segments.len() == 1 {
        return Ok((Some(field), None, first_is_array));
    }
    let not_embedded = || {
        Err(PartError::at(
            rules::PATH_FIELD,
            path,
            path,
            format!("field `{}` (`{}`)", field.rust_name, ty::display(field.ty)),
            format!(
                " is not an embedded struct, so `{path}` names nothing; nested paths go into `#[derive(Embedded)]` \
                 structs"
            ),
        ))
    };
    if !matches!(source(field), Source::Trait) {
        return not_embedded();
    }
    match embedded_type(field.ty) {
        (Some(inner), _) => Ok((Some(field), Some((segments[1].to_owned(), inner)), first_is_array)),
        (None, _) => not_embedded(),
    }
}

/// `name` (a slice of `text`, followed there by `rest`, e.g. `.nested`) is no field of the struct: the error
/// suggests the field it most likely means, by Rust name or by stored key, with `rest` kept.
pub fn unknown_field(fields: &[Field], text: &str, name: &str, rest: &str) -> PartError {
    let stored = || fields.iter().filter(|f| f.is_stored());
    let guess = stored()
        .find(|f| f.key == name)
        .map(|f| f.rust_name.as_str())
        .or_else(|| closest(name, stored().map(|f| f.rust_name.as_str())));
    let hint = guess.map_or_else(String::new, |g| format!(" (did you mean `{g}{rest}`?)"));
    PartError::at(
        rules::PATH_FIELD,
        text,
        name,
        format!("unknown field `{name}`"),
        format!("{hint}: paths use Rust field names (fields here: {})", field_list(fields)),
    )
}

/// Parses `keys = "merchant, status, -created_at, title:text"`.
pub fn resolve_keys<'a>(fields: &'a [Field<'a>], keys: &str) -> Result<Vec<Key<'a>>, PartError> {
    let mut out = Vec::new();
    for raw in entries(keys) {
        let key = match parse_key(keys, raw)? {
            (None, kind) => Key { field: None, nested: None, first_is_array: false, kind },
            (Some(path), kind) => {
                let (field, nested, first_is_array) = resolve_path(fields, path).map_err(|e| e.within(keys, path))?;
                Key { field, nested, first_is_array, kind }
            }
        };
        out.push(key);
    }
    Ok(out)
}

/// One entry of `keys` (a slice of it): the path it indexes (`None` for `$**`), as a slice too, and its kind.
pub fn parse_key<'t>(keys: &str, raw: &'t str) -> Result<(Option<&'t str>, KeyKind), PartError> {
    if raw.is_empty() {
        return Err(PartError::quoting(rules::INDEX_KEYS, keys, raw, "empty key in `keys`: write `keys = \"a, -b\"`"));
    }
    if raw == "$**" {
        return Ok((None, KeyKind::Wildcard));
    }
    let (path, kind) = match raw.split_once(':') {
        Some((p, k)) => {
            let kind = match k.trim() {
                "text" => KeyKind::Text,
                "hashed" => KeyKind::Hashed,
                "2dsphere" => KeyKind::Sphere,
                "1" => KeyKind::Asc,
                "-1" => KeyKind::Desc,
                other => {
                    let msg = format!(
                        "unknown index type `{other}` for `{}`: expected `text`, `hashed`, `2dsphere`, `1` or `-1`",
                        p.trim()
                    );
                    return Err(PartError::quoting(rules::INDEX_KEYS, keys, other, msg));
                }
            };
            (p.trim(), kind)
        }
        None => match raw.strip_prefix('-') {
            Some(p) => (p.trim(), KeyKind::Desc),
            None => (raw, KeyKind::Asc),
        },
    };
    Ok(match path.strip_suffix(".$**") {
        Some(p) => (Some(p), KeyKind::Wildcard),
        None => (Some(path), kind),
    })
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

/// True when the top-level field is (syntactically) a date or an array of dates, what a TTL index can expire on;
/// `None` when only the type knows.
pub fn field_is_date(f: &Field) -> Option<bool> {
    match source(f) {
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

/// Operators a partial filter accepts, as written in the DSL.
pub const PARTIAL_OPS: &str = "`exists`, `type`, `=`, `>`, `>=`, `<`, `<=`";

/// Parses the partial filter DSL: `"email exists, amount > 0, kind type string, status = 'paid'"`, into each
/// condition's path (a slice of `text`), operator and value.
pub fn parse_partial<'t>(fields: &[Field], text: &'t str) -> Result<Vec<(&'t str, String, PartialValue)>, PartError> {
    let mut out = Vec::new();
    for entry in entries(text) {
        let mut parts = entry.splitn(3, ' ').map(str::trim);
        let (Some(path), Some(op)) = (parts.next(), parts.next()) else {
            return Err(PartError::quoting(
                rules::INDEX_PARTIAL,
                text,
                entry,
                format!(
                    "`{entry}` is not a condition: write `field exists`, `field type string` or `field >= 10`, with \
                     spaces around the operator"
                ),
            ));
        };
        resolve_path(fields, path).map_err(|e| e.within(text, path))?;
        let value = parts.next().unwrap_or("");
        let fail = |part: &str, msg: String| Err(PartError::quoting(rules::INDEX_PARTIAL, text, part, msg));
        let parse = |v: &str| {
            PartialValue::parse(entry, v).map_err(|msg| PartError::quoting(rules::INDEX_PARTIAL, text, v, msg))
        };
        let (op, v) = match op {
            "exists" if value.is_empty() => ("$exists", PartialValue::Bool(true)),
            "exists" => {
                return fail(
                    value,
                    format!(
                        "`{entry}`: write `{path} exists` alone; a partial index can only require that a field exists"
                    ),
                )
            }
            "type" => {
                if !super::source::BSON_TYPES.contains(&value) {
                    let types: Vec<String> = super::source::BSON_TYPES.iter().map(|t| format!("`{t}`")).collect();
                    return fail(
                        value,
                        format!("unknown BSON type `{value}` in `{entry}`: expected one of {}", types.join(", ")),
                    );
                }
                ("$type", PartialValue::Str(value.to_owned()))
            }
            "=" | "==" => ("$eq", parse(value)?),
            ">" => ("$gt", parse(value)?),
            ">=" => ("$gte", parse(value)?),
            "<" => ("$lt", parse(value)?),
            "<=" => ("$lte", parse(value)?),
            "!=" | "<>" | "not" | "ne" | "nin" | "$ne" | "$nin" | "$not" => {
                return fail(
                    op,
                    format!(
                        "`{entry}`: negations are not allowed in a partial index (the server refuses `$ne`, `$nin` \
                         and `$not` there); rewrite it as a positive condition with {PARTIAL_OPS}"
                    ),
                )
            }
            other => {
                return fail(
                    other,
                    format!("unknown operator `{other}` in `{entry}`: a partial index accepts {PARTIAL_OPS}"),
                )
            }
        };
        out.push((path, op.to_owned(), v));
    }
    Ok(out)
}

/// A literal in a partial filter.
pub enum PartialValue {
    Bool(bool),
    Int(i64),
    Double(f64),
    Str(String),
}

impl PartialValue {
    fn parse(entry: &str, v: &str) -> Result<Self, String> {
        if v == "true" || v == "false" {
            return Ok(PartialValue::Bool(v == "true"));
        }
        if let Ok(n) = v.parse::<i64>() {
            return Ok(PartialValue::Int(n));
        }
        if let Ok(f) = v.parse::<f64>() {
            if f.is_finite() {
                return Ok(PartialValue::Double(f));
            }
        }
        if v.len() >= 2 && v.starts_with('\'') && v.ends_with('\'') {
            return Ok(PartialValue::Str(v[1..v.len() - 1].to_owned()));
        }
        Err(format!("`{v}` in `{entry}` is not a value: use a number, `true`/`false` or a 'quoted string'"))
    }
}
