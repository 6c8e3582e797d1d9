//! The `index-*` and `capped-*` rules: indexes and capped/TTL settings declared on a model, resolved to stored key
//! paths (names `idx_<keys>`, index types and the parallel-arrays limit, ways to remove old data).

use super::names::charset_error;
use crate::internals::ast::{stored_alike, Container, Data, Derive, Style, Variant};
use crate::internals::attr::did_you_mean;
use crate::internals::attr::index::IndexAttr;
use crate::internals::ctxt::Ctxt;
use crate::internals::index_keys::{
    default_name, field_is_date, key_label, Key, KeyKind, DEFAULT_MAX_INDEXES, SERVER_MAX_INDEXES,
};
use crate::internals::lists::{PartError, KEYS, PARTIAL, WEIGHTS};
use crate::internals::resolve::{variant_name, FieldFacts, Resolved, Weight};
use crate::internals::rules;
use crate::internals::symbol::INDEX;
use crate::internals::ty::{self};
use quote::ToTokens;

/// The problem with an explicit index name, if any.
fn index_name_problem(name: &str) -> Option<String> {
    let fix = |s: String| {
        let prefixed = (!s.starts_with("idx_")).then(|| format!("idx_{s}"));
        [Some(s), prefixed].into_iter().flatten().find(|c| index_name_problem(c).is_none())
    };
    charset_error(INDEX.as_str(), name, &fix).or_else(|| {
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

/// Rules for the `weights` of a text index: malformed entries (found by the resolve stage), and fields that are no
/// text key of the index.
fn check_weights(cx: &Ctxt, w: &syn::LitStr, weights: &[Result<Weight, PartError>], keys: &[Key], labels: &[String]) {
    let text_fields: Vec<&str> =
        keys.iter().zip(labels).filter(|(k, _)| k.kind == KeyKind::Text).map(|(_, l)| l.as_str()).collect();
    let listed: Vec<String> = text_fields.iter().map(|l| format!("`{l}`")).collect();
    let text = w.value();
    for weight in weights {
        let weight = match weight {
            Ok(weight) => weight,
            Err(e) => {
                e.report(cx, w, &WEIGHTS);
                continue;
            }
        };
        let field = &text[weight.field.clone()];
        if !text_fields.contains(&field) {
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
fn check_ttl(cx: &Ctxt, idx: &IndexAttr, keys: &[Key], facts: &FieldFacts) {
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
        if field_is_date(f, &facts.of(f).source) == Some(false) {
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

pub fn check(cx: &Ctxt, cont: &Container, resolved: &Resolved) {
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
    // A polymorphic model declares no indexes (rule `poly-attr`), but its capped and log rules hold.
    if !matches!(cont.data, Data::Struct(_)) && !cont.is_polymorphic() {
        return;
    }
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
    for resolved_index in &resolved.indexes {
        check_variant(cx, cont, resolved_index);
    }
    for (i, resolved_index) in resolved.indexes.iter().enumerate() {
        let idx: &IndexAttr = &resolved_index.attr;
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
        let (Some(keys_lit), Some(keys)) = (&idx.keys, &resolved_index.keys) else { continue };
        let keys = match keys {
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
        check_ttl(cx, idx, keys, &resolved.field_facts);
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
        if let (Some(w), Some(weights)) = (&idx.weights, &resolved_index.weights) {
            if is_text {
                check_weights(cx, w, weights, keys, &labels);
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
        if let (Some(p), Some(Err(e))) = (&idx.partial, &resolved_index.partial) {
            e.report(cx, p, &PARTIAL);
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
            None => default_name(keys),
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
        // A collection per period drops whole periods instead, once it says how many it keeps.
        let per_period = matches!(&resolved.template, Ok(Some(t)) if t.is_period()) && a.keep_periods.is_some();
        if coll.value.starts_with("log_") && a.capped.is_none() && !has_ttl && !per_period {
            cx.error_spanned_by(
                coll, rules::CAPPED_LOG,
                format!(
                    "log collection `{}` keeps growing: declare `#[odm(capped(size = <bytes>, max = <docs>))]`, a TTL index \
                     `#[odm(index(keys = \"created_at\", ttl = <seconds>))]`, or a collection per period that keeps the \
                     latest ones (`#[odm(collection = \"log_<module>_<table>_{{yyyymm}}\", keep_periods = <n>)]`)",
                    coll.value
                ),
            );
        }
    }
}

/// `variant = "…"` names a struct variant of a polymorphic model; without it, an index of a polymorphic model names
/// only fields every struct variant shares (rule `poly-attr`).
fn check_variant(cx: &Ctxt, cont: &Container, index: &crate::internals::resolve::Index) {
    let idx: &IndexAttr = &index.attr;
    let Data::Enum(variants) = &cont.data else {
        if let Some(v) = &idx.variant {
            cx.error_spanned_by(
                v,
                rules::POLY_ATTR,
                "`variant` names a variant of a polymorphic model (an internally tagged enum); this model is a \
                 struct: remove it",
            );
        }
        return;
    };
    let structs: Vec<(&Variant, &[crate::internals::ast::Field])> = variants
        .iter()
        .filter_map(|v| match &v.style {
            Style::Struct(fields) => Some((v, fields.as_slice())),
            _ => None,
        })
        .collect();
    if let Some(lit) = &idx.variant {
        if index.variant.is_none() {
            let names: Vec<String> = structs.iter().map(|(v, _)| variant_name(v)).collect();
            let hint = did_you_mean(&lit.value(), names.iter().map(String::as_str));
            cx.error_spanned_by(
                lit,
                rules::POLY_ATTR,
                format!(
                    "`{}` is no struct variant of `{}`{hint}: `variant` names one in snake case ({})",
                    lit.value(),
                    cont.ident,
                    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                ),
            );
        }
        return;
    }
    // Without `variant`, the keys were resolved against the first struct variant: each must be in every one.
    let keys = index.keys.iter().flatten().flatten().chain(index.partial.iter().flatten().flatten().map(|c| &c.key));
    for field in keys.filter_map(|k| k.field) {
        let missing =
            structs.iter().find(|(_, fields)| !fields.iter().any(|f| f.is_stored() && stored_alike(f, field)));
        if let (Some((v, _)), Some(lit)) = (missing, idx.keys.as_ref()) {
            let owner = structs.iter().find(|(_, fs)| fs.iter().any(|f| std::ptr::eq(f, field))).map(|(v, _)| *v);
            let owner = owner.map_or_else(String::new, |o| format!("`variant = \"{}\"`", variant_name(o)));
            cx.error_spanned_by(
                lit,
                rules::POLY_ATTR,
                format!(
                    "`{}` is not a field of variant `{}` (under the same key, with the same type): an index of a \
                     polymorphic model names fields every variant stores alike, or says which variant it indexes with \
                     {owner} (its documents only, by a partial filter on the discriminator)",
                    field.rust_name, v.ident,
                ),
            );
            return;
        }
    }
}
