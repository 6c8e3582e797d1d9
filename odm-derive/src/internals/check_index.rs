//! Rules 7 and 10 (design.md): indexes and capped/TTL settings declared on a model, resolved to stored key paths
//! (seed 002 §3 naming `idx_<keys>`, seed 004 §3.1 index types and the parallel-arrays limit, seed 000 "删除旧数据").

use super::ast::{Container, Data, Derive, Field};
use super::ctxt::Ctxt;
use super::index_attr::IndexAttr;
use super::ty::{self, TyKind};
use quote::ToTokens;

/// Indexes per collection the seed recommends at most (002 §3: "索引的数量不宜过多，建议控制在3个以内").
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
            TyKind::Other if matches!(t, syn::Type::Path(_)) => return (Some(t), through_array),
            _ => return (None, through_array),
        }
    }
}

fn is_array_field(f: &Field) -> bool {
    let mut t = ty::unwrap_option(f.ty);
    while let TyKind::Boxed(inner) = ty::classify(t) {
        t = inner;
    }
    matches!(ty::classify(t), TyKind::Array { .. })
}

/// Resolves one path (`a` or `a.b`) against the struct's fields.
pub fn resolve_path<'a>(fields: &'a [Field<'a>], path: &str) -> Result<(Option<&'a Field<'a>>, Option<(String, &'a syn::Type)>, bool), String> {
    let segments: Vec<&str> = path.split('.').collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(format!("`{path}` is not a field path: write `field` or `field.nested`"));
    }
    if segments.len() > 2 {
        return Err(format!("`{path}`: index paths deeper than `field.nested` are not supported yet"));
    }
    let Some(field) = fields.iter().find(|f| f.rust_name == segments[0]) else {
        let names: Vec<String> = fields.iter().filter(|f| f.is_stored()).map(|f| format!("`{}`", f.rust_name)).collect();
        return Err(format!("unknown field `{}`: index keys are Rust field names (fields here: {})", segments[0], names.join(", ")));
    };
    if !field.is_stored() {
        return Err(format!("field `{}` is skipped when serializing, so it cannot be indexed", field.rust_name));
    }
    let first_is_array = is_array_field(field);
    if segments.len() == 1 {
        return Ok((Some(field), None, first_is_array));
    }
    match embedded_type(field.ty) {
        (Some(inner), _) => Ok((Some(field), Some((segments[1].to_owned(), inner)), first_is_array)),
        (None, _) => Err(format!("field `{}` is not an embedded document, so `{path}` has nothing to index", field.rust_name)),
    }
}

/// Parses `keys = "merchant, status, -created_at, title:text"`.
pub fn resolve_keys<'a>(fields: &'a [Field<'a>], keys: &str) -> Result<Vec<Key<'a>>, String> {
    let mut out = Vec::new();
    for raw in keys.split(',').map(str::trim) {
        if raw.is_empty() {
            return Err("empty key in `keys`: write `keys = \"a, -b\"`".into());
        }
        if raw == "$**" {
            out.push(Key { field: None, nested: None, first_is_array: false, kind: KeyKind::Wildcard });
            continue;
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
                        return Err(format!(
                            "unknown index type `{other}` for `{}`: expected `text`, `hashed`, `2dsphere`, `1` or `-1`",
                            p.trim()
                        ))
                    }
                };
                (p.trim(), kind)
            }
            None => match raw.strip_prefix('-') {
                Some(p) => (p.trim(), KeyKind::Desc),
                None => (raw, KeyKind::Asc),
            },
        };
        let (path, kind) = match path.strip_suffix(".$**") {
            Some(p) => (p, KeyKind::Wildcard),
            None => (path, kind),
        };
        let (field, nested, first_is_array) = resolve_path(fields, path)?;
        out.push(Key { field, nested, first_is_array, kind });
    }
    Ok(out)
}

fn key_label(k: &Key) -> String {
    match (k.field, &k.nested) {
        (None, _) => "$**".into(),
        (Some(f), None) => f.rust_name.clone(),
        (Some(f), Some((n, _))) => format!("{}.{n}", f.rust_name),
    }
}

/// True when the top-level field is (syntactically) a date.
fn field_is_date(f: &Field) -> Option<bool> {
    if let Some(conv) = &f.attrs.converter {
        return Some(conv.value.contains("DateTime") || conv.value.contains("FromI64"));
    }
    if let Some(t) = &f.attrs.bson_type {
        return Some(t.value == "date");
    }
    let t = ty::unwrap_option(f.ty);
    match ty::classify(t) {
        TyKind::Str | TyKind::Int | TyKind::Array { .. } | TyKind::Map { .. } => Some(false),
        TyKind::Other => {
            let s = t.to_token_stream().to_string().replace(' ', "");
            if s.ends_with("DateTime") { Some(true) } else { None }
        }
        _ => None,
    }
}

/// Parses the partial filter DSL: `"email exists, amount > 0, kind type string, status = 'paid'"`.
pub fn parse_partial(fields: &[Field], text: &str) -> Result<Vec<(String, String, PartialValue)>, String> {
    let mut out = Vec::new();
    for entry in text.split(',').map(str::trim) {
        let mut parts = entry.splitn(3, ' ').map(str::trim);
        let (Some(path), Some(op)) = (parts.next(), parts.next()) else {
            return Err(format!("`{entry}`: expected `field exists`, `field type string` or `field >= 10`"));
        };
        resolve_path(fields, path)?;
        let value = parts.next().unwrap_or("");
        let (op, v) = match op {
            "exists" if value.is_empty() => ("$exists", PartialValue::Bool(true)),
            "type" => ("$type", PartialValue::Str(value.to_owned())),
            "=" | "==" => ("$eq", PartialValue::parse(value)?),
            ">" => ("$gt", PartialValue::parse(value)?),
            ">=" => ("$gte", PartialValue::parse(value)?),
            "<" => ("$lt", PartialValue::parse(value)?),
            "<=" => ("$lte", PartialValue::parse(value)?),
            other => {
                return Err(format!(
                    "`{other}` is not allowed in a partial index: the server accepts `exists`, `type`, `=`, `>`, `>=`, \
                     `<`, `<=` (no negations)"
                ))
            }
        };
        if op == "$type" && !super::check::BSON_TYPES.contains(&value) {
            return Err(format!("unknown BSON type `{value}` in partial filter"));
        }
        out.push((path.to_owned(), op.to_owned(), v));
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
    fn parse(v: &str) -> Result<Self, String> {
        if v == "true" || v == "false" {
            return Ok(PartialValue::Bool(v == "true"));
        }
        if let Ok(n) = v.parse::<i64>() {
            return Ok(PartialValue::Int(n));
        }
        if let Ok(f) = v.parse::<f64>() {
            return Ok(PartialValue::Double(f));
        }
        if v.len() >= 2 && v.starts_with('\'') && v.ends_with('\'') {
            return Ok(PartialValue::Str(v[1..v.len() - 1].to_owned()));
        }
        Err(format!("`{v}` is not a value: use a number, `true`/`false` or a 'quoted string'"))
    }
}

fn check_name(cx: &Ctxt, lit: &syn::LitStr) {
    let name = lit.value();
    if !name.starts_with("idx_") || name.len() <= 4 {
        cx.error_spanned_by(lit, format!("index name `{name}` must follow the naming rule `idx_<fields>` (seed 002 §3)"));
    } else if let Some(bad) = name.chars().find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')) {
        cx.error_spanned_by(lit, format!("index name `{name}` contains `{bad}`; use lowercase letters, digits and `_`"));
    }
}

pub fn check(cx: &Ctxt, cont: &Container) {
    let a = &cont.attrs;
    if cont.derive == Derive::Embedded {
        for idx in &a.indexes {
            cx.error_spanned_by(&idx.span_tokens, "indexes belong on a `#[derive(Model)]` collection model; declare them there with nested paths (`field.nested`)");
        }
        if let Some(c) = &a.capped {
            cx.error_spanned_by(&c.tokens, "`capped` belongs on a `#[derive(Model)]` collection model");
        }
        return;
    }
    let Data::Struct(fields) = &cont.data else { return };
    let limit = a.max_indexes.as_ref().map_or(DEFAULT_MAX_INDEXES, |m| m.value);
    if let Some(m) = &a.max_indexes {
        if m.value > SERVER_MAX_INDEXES {
            cx.error_spanned_by(m, format!("MongoDB allows at most 64 indexes per collection, `_id` included; `max_indexes` can be at most {SERVER_MAX_INDEXES}"));
        }
    }
    let mut names: Vec<(String, &IndexAttr)> = Vec::new();
    let mut patterns: Vec<(Vec<(String, KeyKind)>, &IndexAttr)> = Vec::new();
    let mut text_index: Option<&IndexAttr> = None;
    let mut has_ttl = false;
    for (i, idx) in a.indexes.iter().enumerate() {
        if i == limit {
            let how = if a.max_indexes.is_some() { "" } else { "; raise the ceiling with `#[odm(max_indexes = N)]` if the workload needs it" };
            cx.error_spanned_by(
                &idx.span_tokens,
                format!("{} indexes declared, over the ceiling of {limit} per collection (seed 002 §3: every index slows writes){how}", a.indexes.len()),
            );
        }
        let Some(keys_lit) = &idx.keys else { continue };
        let keys = match resolve_keys(fields, &keys_lit.value()) {
            Ok(k) => k,
            Err(msg) => {
                cx.error_spanned_by(keys_lit, msg);
                continue;
            }
        };
        let labels: Vec<String> = keys.iter().map(key_label).collect();
        for (j, l) in labels.iter().enumerate() {
            if labels[..j].contains(l) {
                cx.error_spanned_by(keys_lit, format!("`{l}` appears twice in one index"));
            }
        }
        let count = |k: KeyKind| keys.iter().filter(|x| x.kind == k).count();
        let is_text = count(KeyKind::Text) > 0;
        if is_text {
            if let Some(_first) = text_index {
                cx.error_spanned_by(keys_lit, "a collection can have only one text index; put all text fields in one index");
            }
            text_index = Some(idx);
        }
        if count(KeyKind::Hashed) > 1 {
            cx.error_spanned_by(keys_lit, "an index can hash only one field");
        }
        if count(KeyKind::Wildcard) > 0 && keys.len() > 1 {
            cx.error_spanned_by(keys_lit, "a wildcard index (`$**`) stands alone in this version of odm");
        }
        // Parallel arrays (seed 004 §3.1): at most one key may reach through an array.
        let array_keys: Vec<&String> = keys.iter().zip(&labels).filter(|(k, _)| k.first_is_array).map(|(_, l)| l).collect();
        if array_keys.len() > 1 {
            cx.error_spanned_by(
                keys_lit,
                format!(
                    "`{}` and `{}` are both arrays: MongoDB cannot build a compound index over two arrays (parallel arrays); \
                     index them separately",
                    array_keys[0], array_keys[1]
                ),
            );
        }
        if let Some((ttl, lit)) = &idx.ttl {
            has_ttl = true;
            if keys.len() != 1 {
                cx.error_spanned_by(lit, "a TTL index has exactly one key: the server ignores `expireAfterSeconds` on compound indexes");
            } else if keys[0].kind != KeyKind::Asc && keys[0].kind != KeyKind::Desc {
                cx.error_spanned_by(lit, "a TTL index must be an ascending or descending index on a date field");
            } else if let (Some(f), None) = (keys[0].field, &keys[0].nested) {
                if field_is_date(f) == Some(false) {
                    cx.error_spanned_by(
                        lit,
                        format!("TTL index on `{}`, which is not a date: documents would never expire; index a `bson::DateTime` field", f.rust_name),
                    );
                }
            }
            if *ttl > i64::from(i32::MAX) {
                cx.error_spanned_by(lit, "`ttl` is at most 2147483647 seconds");
            }
        }
        if let (Some(s), Some(_)) = (&idx.sparse, &idx.partial) {
            cx.error_spanned_by(s, "`sparse` and `partial` cannot go together (the server refuses the index); keep `partial`");
        }
        if let Some(u) = &idx.unique {
            if count(KeyKind::Hashed) > 0 || count(KeyKind::Wildcard) > 0 {
                cx.error_spanned_by(u, "hashed and wildcard indexes cannot be unique");
            }
        }
        if let Some(w) = &idx.weights {
            if !is_text {
                cx.error_spanned_by(w, "`weights` applies to text indexes only");
            } else {
                for entry in w.value().split(',').map(str::trim) {
                    let ok = entry.split_once(':').is_some_and(|(f, n)| {
                        n.trim().parse::<i64>().is_ok_and(|n| n > 0)
                            && keys.iter().zip(&labels).any(|(k, l)| k.kind == KeyKind::Text && l == f.trim())
                    });
                    if !ok {
                        cx.error_spanned_by(w, format!("`{entry}`: weights are `text_field:positive_integer`, for fields of this text index"));
                    }
                }
            }
        }
        if let (Some(l), false) = (&idx.default_language, is_text) {
            cx.error_spanned_by(l, "`default_language` applies to text indexes only");
        }
        if let Some(p) = &idx.partial {
            if let Err(msg) = parse_partial(fields, &p.value()) {
                cx.error_spanned_by(p, msg);
            }
        }
        // Names: explicit ones follow the rule; defaults are idx_<keys>.
        let name = match &idx.name {
            Some(lit) => {
                check_name(cx, lit);
                lit.value()
            }
            None => format!("idx_{}", labels.join("_").replace('.', "_")),
        };
        if let Some((_, _first)) = names.iter().find(|(n, _)| *n == name) {
            let at = idx.name.as_ref().map_or_else(|| keys_lit.to_token_stream(), |n| n.to_token_stream());
            cx.error_spanned_by(at, format!("two indexes are named `{name}`; give one of them another `name`"));
        } else {
            names.push((name, idx));
        }
        let pattern: Vec<(String, KeyKind)> = labels.iter().cloned().zip(keys.iter().map(|k| k.kind)).collect();
        let same_options = |o: &IndexAttr| {
            o.unique.is_some() == idx.unique.is_some()
                && o.sparse.is_some() == idx.sparse.is_some()
                && o.partial.as_ref().map(|p| p.value()) == idx.partial.as_ref().map(|p| p.value())
        };
        if patterns.iter().any(|(p, o)| *p == pattern && same_options(o)) {
            cx.error_spanned_by(keys_lit, "the same keys are already indexed with the same options; remove the duplicate index");
        } else {
            patterns.push((pattern, idx));
        }
    }
    if let Some(capped) = &a.capped {
        if has_ttl {
            cx.error_spanned_by(&capped.tokens, "a capped collection cannot have a TTL index: choose one way to remove old data");
        }
    }
    if let Some(coll) = &a.collection {
        if coll.value.starts_with("log_") && a.capped.is_none() && !has_ttl {
            cx.error_spanned_by(
                coll,
                format!(
                    "log collection `{}` keeps growing: declare `#[odm(capped(size = <bytes>, max = <docs>))]` or a TTL index \
                     `#[odm(index(keys = \"created_at\", ttl = <seconds>))]` (seed 000 \"删除旧数据\", seed 001 §2(5))",
                    coll.value
                ),
            );
        }
    }
}
