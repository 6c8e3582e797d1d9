//! The `index-*` and `capped-*` rules: indexes and capped/TTL settings declared on a model, resolved to stored key
//! paths (names `idx_<keys>`, index types and the parallel-arrays limit, ways to remove old data).

use super::ast::{Container, Data, Derive, Field};
use super::attr::{closest, did_you_mean};
use super::check::{source, Source};
use super::ctxt::Ctxt;
use super::index_attr::IndexAttr;
use super::lists::{entries, PartError, KEYS, PARTIAL, WEIGHTS};
use super::names::charset_error;
use super::rules;
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
const BSON_SCALARS: &[&str] = &[
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
fn embedded_type(ty: &syn::Type) -> (Option<&syn::Type>, bool) {
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

fn is_array_field(f: &Field) -> bool {
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
fn field_list(fields: &[Field]) -> String {
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
fn field_is_date(f: &Field) -> Option<bool> {
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
fn type_is_date(t: &syn::Type) -> Option<bool> {
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
const PARTIAL_OPS: &str = "`exists`, `type`, `=`, `>`, `>=`, `<`, `<=`";

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
                if !super::check::BSON_TYPES.contains(&value) {
                    let types: Vec<String> = super::check::BSON_TYPES.iter().map(|t| format!("`{t}`")).collect();
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

/// The problem with an explicit index name, if any.
fn index_name_problem(name: &str) -> Option<String> {
    let fix = |s: String| {
        let prefixed = (!s.starts_with("idx_")).then(|| format!("idx_{s}"));
        [Some(s), prefixed].into_iter().flatten().find(|c| index_name_problem(c).is_none())
    };
    charset_error("index", name, &fix).or_else(|| {
        (!name.starts_with("idx_") || name.len() <= 4)
            .then(|| format!("index name `{name}` must follow the naming rule `idx_<fields>`, e.g. `idx_order_no`"))
    })
}

fn check_name(cx: &Ctxt, lit: &syn::LitStr) -> bool {
    let problem = index_name_problem(&lit.value());
    if let Some(msg) = &problem {
        cx.error_spanned_by(lit, rules::INDEX_NAME, msg);
    }
    problem.is_none()
}

/// The options that tell two indexes on the same keys apart, as text.
fn identity(idx: &IndexAttr) -> (bool, bool, Option<String>, Option<String>) {
    let collation = idx.collation.as_ref().map(|(fields, _)| {
        let mut f: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={}", v.to_token_stream())).collect();
        f.sort();
        f.join(",")
    });
    (idx.unique.is_some(), idx.sparse.is_some(), idx.partial.as_ref().map(|p| p.value().replace(' ', "")), collation)
}

/// Rules for the `weights` of a text index.
fn check_weights(cx: &Ctxt, w: &syn::LitStr, keys: &[Key], labels: &[String]) {
    let text_fields: Vec<&str> =
        keys.iter().zip(labels).filter(|(k, _)| k.kind == KeyKind::Text).map(|(_, l)| l.as_str()).collect();
    let listed: Vec<String> = text_fields.iter().map(|l| format!("`{l}`")).collect();
    let text = w.value();
    for entry in entries(&text) {
        let Some((field, weight)) = entry.split_once(':').map(|(f, n)| (f.trim(), n.trim())) else {
            let msg = format!("`{entry}`: weights are `text_field:weight`, e.g. `weights = \"title:10, body:2\"`");
            PartError::quoting(rules::INDEX_TEXT, &text, entry, msg).report(cx, w, &WEIGHTS);
            continue;
        };
        if !weight.parse::<i32>().is_ok_and(|n| (1..=99_999).contains(&n)) {
            let msg = format!("`{entry}`: a weight is an integer from 1 to 99999");
            PartError::quoting(rules::INDEX_TEXT, &text, weight, msg).report(cx, w, &WEIGHTS);
        } else if !text_fields.contains(&field) {
            let hint = did_you_mean(field, text_fields.iter().copied());
            let detail = format!(
                " is not a text key of this index{hint}: weights apply to its `:text` keys ({})",
                listed.join(", ")
            );
            PartError::at(rules::INDEX_TEXT, &text, field, format!("`{field}`"), detail).report(cx, w, &WEIGHTS);
        }
    }
}

/// Rules for a TTL index (`expireAfterSeconds`).
fn check_ttl(cx: &Ctxt, idx: &IndexAttr, keys: &[Key]) {
    let (Some((ttl, lit)), Some(tokens)) = (&idx.ttl, &idx.ttl_tokens) else { return };
    if keys.len() != 1 {
        cx.error_spanned_by(
            tokens,
            rules::INDEX_TTL,
            "a TTL index has exactly one key, a date field: the server ignores `expireAfterSeconds` on compound \
             indexes; declare the TTL on its own index, e.g. `index(keys = \"created_at\", ttl = 2592000)`",
        );
    } else if keys[0].kind != KeyKind::Asc && keys[0].kind != KeyKind::Desc {
        cx.error_spanned_by(tokens, rules::INDEX_TTL, "a TTL index must be an ascending or descending index on a date field, not a text, hashed, geo or wildcard index");
    } else if let (Some(f), None) = (keys[0].field, &keys[0].nested) {
        if field_is_date(f) == Some(false) {
            cx.error_spanned_by(
                tokens,
                rules::INDEX_TTL,
                format!(
                    "TTL index on `{}` (`{}`), which is not a date: documents would never expire; index a \
                     `bson::DateTime` field (or an array of them)",
                    f.rust_name,
                    ty::display(f.ty)
                ),
            );
        }
    }
    if *ttl > i64::from(i32::MAX) {
        cx.error_spanned_by(lit, rules::INDEX_TTL, "`ttl` is at most 2147483647 seconds");
    }
}

pub fn check(cx: &Ctxt, cont: &Container) {
    let a = &cont.attrs;
    if cont.derive == Derive::Embedded {
        for idx in &a.indexes {
            cx.error_spanned_by(&idx.span_tokens, rules::MODEL_ONLY, "indexes belong on a `#[derive(Model)]` collection model; declare them there with nested paths (`field.nested`)");
        }
        if let Some(c) = &a.capped {
            cx.error_spanned_by(
                &c.tokens,
                rules::MODEL_ONLY,
                "`capped` belongs on a `#[derive(Model)]` collection model",
            );
        }
        return;
    }
    let Data::Struct(fields) = &cont.data else { return };
    let limit = a.max_indexes.as_ref().map_or(DEFAULT_MAX_INDEXES, |m| m.value);
    if let Some(m) = &a.max_indexes {
        if m.value > SERVER_MAX_INDEXES {
            cx.error_spanned_by(m, rules::INDEX_CEILING, format!("MongoDB allows at most 64 indexes per collection, `_id` included; `max_indexes` can be at most {SERVER_MAX_INDEXES}"));
        }
    }
    // (name, exact, the keys of an index named by default): see `default_name`.
    let mut names: Vec<(String, bool, Option<String>)> = Vec::new();
    let mut patterns: Vec<(Vec<(String, KeyKind)>, &IndexAttr)> = Vec::new();
    let mut text_index: Option<&IndexAttr> = None;
    let mut has_ttl = false;
    for (i, idx) in a.indexes.iter().enumerate() {
        if i == limit {
            let how = if a.max_indexes.is_some() {
                "; drop an index, or raise `max_indexes` if the workload really needs it".to_owned()
            } else {
                format!("; raise the ceiling with `#[odm(max_indexes = {})]` if the workload needs it", a.indexes.len())
            };
            cx.error_spanned_by(
                &idx.span_tokens,
                rules::INDEX_CEILING,
                format!(
                    "{} indexes declared, over the ceiling of {limit} per collection (every index slows writes){how}",
                    a.indexes.len()
                ),
            );
        }
        has_ttl |= idx.ttl.is_some();
        let Some(keys_lit) = &idx.keys else { continue };
        let keys = match resolve_keys(fields, &keys_lit.value()) {
            Ok(k) => k,
            Err(e) => {
                e.report(cx, keys_lit, &KEYS);
                continue;
            }
        };
        let labels: Vec<String> = keys.iter().map(key_label).collect();
        for (j, l) in labels.iter().enumerate() {
            if labels[..j].contains(l) {
                cx.error_spanned_by(keys_lit, rules::INDEX_KEYS, format!("`{l}` appears twice in one index; keep one"));
            }
        }
        let count = |k: KeyKind| keys.iter().filter(|x| x.kind == k).count();
        let is_text = count(KeyKind::Text) > 0;
        if is_text {
            if text_index.is_some() {
                cx.error_spanned_by(keys_lit, rules::INDEX_TEXT, "a collection can have only one text index; put all text fields in one index (`keys = \"title:text, body:text\"`)");
            }
            text_index = Some(idx);
        }
        if count(KeyKind::Hashed) > 1 {
            cx.error_spanned_by(
                keys_lit,
                rules::INDEX_HASHED,
                "an index can hash only one field; keep one `:hashed` key",
            );
        }
        if count(KeyKind::Wildcard) > 0 && keys.len() > 1 {
            cx.error_spanned_by(
                keys_lit,
                rules::INDEX_WILDCARD,
                "a wildcard index (`$**`) stands alone in this version of odm; declare it as its own index",
            );
        }
        // Parallel arrays: keys may reach through one array only. Keys under the same array field
        // (`items.name, items.quantity`) share it; nested arrays are checked by the generated const assertions.
        let mut array_fields: Vec<&str> = Vec::new();
        for k in keys.iter().filter(|k| k.first_is_array) {
            let name = k.field.map_or("", |f| f.rust_name.as_str());
            if !array_fields.contains(&name) {
                array_fields.push(name);
            }
        }
        if array_fields.len() > 1 {
            cx.error_spanned_by(
                keys_lit,
                rules::INDEX_PARALLEL_ARRAYS,
                format!(
                    "`{}` and `{}` are both arrays: MongoDB cannot index two arrays in one compound index (parallel \
                     arrays); index them separately",
                    array_fields[0], array_fields[1]
                ),
            );
        }
        for (k, l) in keys.iter().zip(&labels) {
            if k.kind == KeyKind::Hashed && k.first_is_array {
                cx.error_spanned_by(
                    keys_lit,
                    rules::INDEX_HASHED,
                    format!("`{l}` reaches into an array: hashed indexes cannot hold arrays; hash a scalar field"),
                );
            }
        }
        check_ttl(cx, idx, &keys);
        if let (Some(s), Some(_)) = (&idx.sparse, &idx.partial) {
            cx.error_spanned_by(s, rules::INDEX_PARTIAL, "`sparse` and `partial` cannot go together (the server refuses the index); keep `partial`, e.g. `partial = \"email exists\"`");
        }
        if let Some(u) = &idx.unique {
            if count(KeyKind::Hashed) > 0 {
                cx.error_spanned_by(
                    u,
                    rules::INDEX_HASHED,
                    "a hashed index cannot be unique; put `unique` on an ascending index of the same field",
                );
            } else if count(KeyKind::Wildcard) > 0 {
                cx.error_spanned_by(
                    u,
                    rules::INDEX_WILDCARD,
                    "a wildcard index cannot be unique; remove `unique`, or declare a unique index on the field itself",
                );
            }
        }
        if let Some(w) = &idx.weights {
            if is_text {
                check_weights(cx, w, &keys, &labels);
            } else {
                cx.error_spanned_by(
                    w,
                    rules::INDEX_TEXT,
                    "`weights` applies to text indexes only (keys like `title:text`)",
                );
            }
        }
        if let (Some(l), false) = (&idx.default_language, is_text) {
            cx.error_spanned_by(
                l,
                rules::INDEX_TEXT,
                "`default_language` applies to text indexes only (keys like `title:text`)",
            );
        }
        if let (Some((_, c)), true) = (&idx.collation, is_text) {
            cx.error_spanned_by(c, rules::INDEX_COLLATION, "text indexes do not support a collation (they compare by simple binary comparison); remove `collation`");
        }
        if let Some(p) = &idx.partial {
            if let Err(e) = parse_partial(fields, &p.value()) {
                e.report(cx, p, &PARTIAL);
            }
        }
        let name_ok = idx.name.as_ref().is_none_or(|lit| check_name(cx, lit));
        if idx.malformed || !name_ok {
            continue;
        }
        // The same keys with the same options: a duplicate, whatever the names.
        let pattern: Vec<(String, KeyKind)> = labels.iter().cloned().zip(keys.iter().map(|k| k.kind)).collect();
        if patterns.iter().any(|(p, o)| *p == pattern && identity(o) == identity(idx)) {
            cx.error_spanned_by(
                keys_lit,
                rules::INDEX_DUPLICATE,
                "the same keys are already indexed with the same options; remove the duplicate index",
            );
            continue;
        }
        patterns.push((pattern, idx));
        // Names: explicit ones follow the rule; defaults are `idx_<stored keys>` (exact comparisons here, the others
        // by const assertions in the generated code).
        let (name, exact) = match &idx.name {
            Some(lit) => (lit.value(), true),
            None => default_name(&keys),
        };
        let by_default = idx.name.is_none().then(|| keys_lit.value());
        if let Some((_, _, other)) = names.iter().find(|(n, e, _)| *n == name && *e == exact) {
            let (at, why) = match (&idx.name, other) {
                (Some(n), Some(keys)) => (n.to_token_stream(), format!("it is the default name of index `{keys}` (`idx_` and its stored keys); choose another `name`")),
                (Some(n), None) => (n.to_token_stream(), "give one of them another `name`".to_owned()),
                (None, Some(keys)) if !exact => {
                    cx.error_spanned_by(
                        keys_lit, rules::INDEX_NAME,
                        format!("this index gets the same default name as index `{keys}` (`idx_` and the stored keys); give one of them a `name`"),
                    );
                    continue;
                }
                (None, _) => (keys_lit.to_token_stream(), format!("`{name}` is the default name of these keys (`idx_` and the stored keys); give one of the indexes a `name`")),
            };
            cx.error_spanned_by(at, rules::INDEX_NAME, format!("two indexes are named `{name}`: {why}"));
        }
        names.push((name, exact, by_default));
    }
    if let Some(capped) = &a.capped {
        if has_ttl {
            cx.error_spanned_by(
                &capped.tokens,
                rules::CAPPED_TTL,
                "a capped collection cannot have a TTL index: choose one way to remove old data",
            );
        }
    }
    if let Some(coll) = &a.collection {
        if coll.value.starts_with("log_") && a.capped.is_none() && !has_ttl {
            cx.error_spanned_by(
                coll, rules::CAPPED_LOG,
                format!(
                    "log collection `{}` keeps growing: declare `#[odm(capped(size = <bytes>, max = <docs>))]` or a TTL index \
                     `#[odm(index(keys = \"created_at\", ttl = <seconds>))]`",
                    coll.value
                ),
            );
        }
    }
}
