//! Rules that shape typed updates: declared shard keys (the `shard-key-*` rules: indexed, always present, never
//! null, never changed) and `keep_last` arrays (the one case where a push may cut elements).

use crate::internals::ast::{Container, Data, Derive, Field};
use crate::internals::ctxt::Ctxt;
use crate::internals::index_keys::KeyKind;
use crate::internals::lists::{PartError, SHARD_KEY};
use crate::internals::resolve::{Resolved, HASHED};
use crate::internals::rules;
use crate::internals::ty::{self, TyKind};

pub fn check(cx: &Ctxt, cont: &Container, resolved: &Resolved) {
    if let Data::Struct(fields) = &cont.data {
        check_keep_last(cx, fields);
    }
    let Some(sk) = &cont.attrs.shard_key else {
        if let Some(scatter) = &cont.attrs.scatter {
            cx.error_spanned_by(
                scatter,
                rules::SHARD_SCATTER,
                "`scatter` says what operations that would reach every shard do, and this type declares no shard key; \
                 remove it, or declare `shard_key = \"…\"`",
            );
        }
        return;
    };
    if cont.derive == Derive::Embedded {
        cx.error_spanned_by(
            sk,
            rules::MODEL_ONLY,
            "`shard_key` belongs on a `#[derive(Model)]` collection model; declare it there, naming top-level fields",
        );
        return;
    }
    let (Data::Struct(fields), Some(shard_key)) = (&cont.data, &resolved.shard_key) else { return };
    let mut names = Vec::new();
    let text = &shard_key.text;
    let report = |part: &str, msg: String| {
        PartError::quoting(rules::SHARD_KEY_FIELDS, text, part, msg).report(cx, sk, &SHARD_KEY)
    };
    for entry in &shard_key.entries {
        let name = shard_key.part(&entry.name);
        let kind = entry.kind.as_ref().map(|k| shard_key.part(k));
        if let Some(k) = kind.filter(|k| *k != HASHED && *k != "1") {
            report(k, format!("shard key `{name}:{k}`: a shard key field is ranged (`{name}`) or `{name}:hashed`"));
        }
        if name.is_empty() {
            report(name, "empty field in `shard_key`: write `shard_key = \"region, customer\"`".to_owned());
            continue;
        }
        if name.contains('.') {
            report(
                name,
                format!(
                    "shard key `{name}`: odm supports top-level shard key fields; store the value in a top-level field"
                ),
            );
            continue;
        }
        let field = match &entry.field {
            Ok(field) => field,
            Err(e) => {
                e.report(cx, sk, &SHARD_KEY);
                continue;
            }
        };
        if names.contains(&name) {
            report(name, format!("`{name}` appears twice in the shard key; keep one"));
        }
        names.push(name);
        let optional = matches!(ty::classify(field.ty), TyKind::Option(_));
        if optional || field.attrs.skip_serializing_if.is_some() || !field.is_stored() || field.attrs.nullable.is_some()
        {
            cx.error_spanned_by(
                field.ty,
                rules::SHARD_KEY_REQUIRED,
                format!(
                    "field `{name}` is in the shard key, so every document must hold it, never null; \
                     make it a required field: no `Option`, `nullable`, `skip` or `skip_serializing_if`"
                ),
            );
        }
        // Syntactically an array (as index rules see it), or declared like one (an alias hides the shape).
        let a = &field.attrs;
        let array = entry.array
            || a.max_items.is_some()
            || a.min_items.is_some()
            || a.unbounded.is_some()
            || a.counter.is_some();
        if array && !optional {
            cx.error_spanned_by(
                field.ty,
                rules::SHARD_KEY_SCALAR,
                format!(
                    "field `{name}` is in the shard key, but it is an array: MongoDB refuses arrays in a shard key \
                     (its index cannot be multikey); shard on scalar fields"
                ),
            );
        }
        if let Some(counted) = resolved.field_facts.counted_array(field, fields) {
            cx.error_spanned_by(
                field.ty, rules::SHARD_KEY_IMMUTABLE,
                format!(
                    "field `{name}` is in the shard key, but it counts the array `{}`, so every push or pop changes it; \
                     a shard key never changes once written: shard on other fields",
                    counted.rust_name
                ),
            );
        }
    }
    // Indexed: `_id` alone, or a declared index whose keys start with the shard key's.
    let wanted: Vec<(&str, bool)> = shard_key.entries.iter().map(|e| (shard_key.part(&e.name), e.hashed)).collect();
    // The implicit `_id` index is ascending: it serves a ranged `_id` shard key, not `_id:hashed`.
    let is_id =
        wanted.len() == 1 && !wanted[0].1 && fields.iter().any(|f| f.rust_name == wanted[0].0 && f.key == "_id");
    let served = resolved.indexes.iter().any(|idx| {
        let Some(Ok(keys)) = &idx.keys else { return false };
        if idx.attr.partial.is_some() || idx.attr.collation.is_some() {
            return false;
        }
        keys.len() >= wanted.len()
            && wanted.iter().zip(keys).all(|((name, hashed), k)| {
                k.nested.is_none()
                    && k.field.is_some_and(|f| f.rust_name == *name)
                    && if *hashed { k.kind == KeyKind::Hashed } else { k.kind == KeyKind::Asc }
            })
    });
    if !is_id && !served && names.len() == wanted.len() {
        let keys = wanted
            .iter()
            .map(|(n, h)| if *h { format!("{n}:hashed") } else { (*n).to_owned() })
            .collect::<Vec<_>>()
            .join(", ");
        cx.error_spanned_by(
            sk,
            rules::SHARD_KEY_INDEXED,
            format!(
                "shard key `{keys}` has no index, and a shard key must be indexed; declare \
                 `#[odm(index(keys = \"{keys}\"))]`, or an index whose keys start with the shard key's, not partial \
                 and without collation"
            ),
        );
    }
}

fn check_keep_last(cx: &Ctxt, fields: &[Field]) {
    for f in fields {
        let Some(k) = &f.attrs.keep_last else { continue };
        if f.attrs.max_items.is_none() {
            cx.error_spanned_by(
                k,
                rules::ARRAY_KEEP_LAST,
                format!(
                    "field `{}`: `keep_last` keeps the last `max_items` elements; add `max_items = N`",
                    f.rust_name
                ),
            );
        }
        if f.attrs.counter.is_some() {
            cx.error_spanned_by(
                k,
                rules::ARRAY_KEEP_LAST,
                format!(
                    "field `{}`: `keep_last` cuts elements on push, so the counter could not follow the array's size; \
                     drop `keep_last` or the `counter`",
                    f.rust_name
                ),
            );
        }
        if f.attrs.unique_items.is_some() {
            cx.error_spanned_by(
                k,
                rules::ARRAY_KEEP_LAST,
                format!(
                    "field `{}`: `keep_last` applies to pushes, and an array declared `unique_items` takes no push \
                     (`add_to_set` never cuts); drop `keep_last` or `unique_items`",
                    f.rust_name
                ),
            );
        }
    }
}
