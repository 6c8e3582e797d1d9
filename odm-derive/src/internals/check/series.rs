//! The `bucket-shape` and `timeseries-fields` rules: a model declared a bucket of readings, or a time-series
//! collection, names fields that can play those parts.

use crate::internals::ast::{Container, Data, Derive, Field};
use crate::internals::attr::did_you_mean;
use crate::internals::attr::series::{BucketAttr, TimeseriesAttr};
use crate::internals::ctxt::Ctxt;
use crate::internals::index_keys::field_is_date;
use crate::internals::resolve::{Bucket, FieldFacts, Resolved, Timeseries};
use crate::internals::rules::{self, Rule};
use crate::internals::ty::{self, TyKind};
use syn::LitStr;

pub(super) fn check(cx: &Ctxt, cont: &Container, resolved: &Resolved) {
    let a = &cont.attrs;
    for (tokens, rule, name) in [
        (a.bucket.as_ref().map(|b| &b.tokens), rules::BUCKET_SHAPE, "bucket"),
        (a.timeseries.as_ref().map(|t| &t.tokens), rules::TIMESERIES_FIELDS, "timeseries"),
    ] {
        let Some(tokens) = tokens else { continue };
        if cont.derive != Derive::Model || !matches!(cont.data, Data::Struct(_)) {
            cx.error_spanned_by(
                tokens,
                rule,
                format!("`{name}` belongs on a `#[derive(Model)]` struct: its documents are the collection's"),
            );
            return;
        }
    }
    let Data::Struct(fields) = &cont.data else { return };
    if let (Some(b), Some(bucket)) = (&a.bucket, &resolved.bucket) {
        check_bucket(cx, cont, b, bucket, fields, &resolved.field_facts);
        check_bucket_shard_key(cx, cont, bucket, resolved);
    }
    if let (Some(t), Some(series)) = (&a.timeseries, &resolved.timeseries) {
        check_timeseries(cx, cont, t, series, fields, &resolved.field_facts);
    }
}

/// `found`, the stored field the resolve stage found for `name` (a Rust name written in `lit`), or, when there is
/// none, an error at `lit` listing the fields there are.
fn named<'f, 'a>(
    cx: &Ctxt,
    rule: Rule,
    lit: &LitStr,
    name: &str,
    found: Option<&'f Field<'a>>,
    fields: &[Field<'a>],
) -> Option<&'f Field<'a>> {
    if found.is_none() {
        let names: Vec<_> = fields.iter().filter(|f| f.is_stored()).map(|f| format!("`{}`", f.rust_name)).collect();
        cx.error_spanned_by(
            lit,
            rule,
            format!(
                "`{name}` is not a stored field of this struct{}; name one of {}",
                did_you_mean(name, fields.iter().filter(|f| f.is_stored()).map(|f| f.rust_name.as_str())),
                names.join(", ")
            ),
        );
    }
    found
}

/// A field that must hold exactly one value in every document: always written, not an array, map or `Option`.
fn one_value(cx: &Ctxt, rule: Rule, at: &LitStr, f: &Field, part: &str) -> bool {
    let why = match ty::classify(f.ty) {
        TyKind::Option(_) => Some("an `Option`, but it is present in every document: make it a plain type"),
        TyKind::Array { .. } | TyKind::Map { .. } | TyKind::Tuple | TyKind::Multi { .. } => {
            Some("not a single value: use a scalar field (a string, a number, a date, an ObjectId)")
        }
        _ if !f.is_always_written() => {
            Some("not always written (`skip_serializing_if`), but it is present in every document: remove it")
        }
        _ => None,
    };
    if let Some(why) = why {
        cx.error_spanned_by(at, rule, format!("{part} `{}` is {why}", f.rust_name));
    }
    why.is_none()
}

fn check_bucket(cx: &Ctxt, cont: &Container, b: &BucketAttr, bucket: &Bucket, fields: &[Field], facts: &FieldFacts) {
    let rule = rules::BUCKET_SHAPE;
    let (Some(key), Some(items)) = (&b.key, &b.items) else {
        if b.malformed {
            return;
        }
        cx.error_spanned_by(
            &b.tokens,
            rule,
            "a bucket names its key fields and its counted array: `bucket(key = \"sensor, day\", items = \"readings\")`",
        );
        return;
    };
    if bucket.key.is_empty() {
        cx.error_spanned_by(key, rule, "name at least one key field: `key = \"sensor\"`");
    }
    let mut key_fields = Vec::new();
    for (name, found) in &bucket.key {
        let Some(f) = named(cx, rule, key, name, *found, fields) else { continue };
        if f.key == "_id" {
            cx.error_spanned_by(key, rule, "`_id` is each bucket's own: name the fields that tell buckets apart");
        } else if one_value(cx, rule, key, f, "key field") {
            key_fields.push(f);
        }
    }
    let Some(array) = named(cx, rule, items, &items.value(), bucket.items, fields) else { return };
    let counter = facts.of(array).counter.map(|i| &fields[i]);
    let (Some(_), Some(counter)) = (&array.attrs.max_items, counter) else {
        cx.error_spanned_by(
            items,
            rule,
            format!(
                "`{}` is the bucket's array, so it needs a size and a counter: declare \
                 `#[odm(max_items = 200, counter = \"count\")]` on it (`max_items` is the bucket size)",
                array.rust_name
            ),
        );
        return;
    };
    if let Some(set) = &array.attrs.unique_items {
        cx.error_spanned_by(
            set,
            rule,
            "a bucket's array takes every reading, two equal ones too, but `unique_items` makes the validator refuse \
             a repeated one; remove `unique_items`",
        );
    }
    // A bucket is opened by the upsert of its first reading: it holds the key, the array, the counter, what is
    // computed from the array and the version it is written at. (With a key name not found, which field was meant is unclear: that error alone is
    // shown.)
    let all_found = bucket.key_found();
    let computed = |f: &Field| facts.of(array).computes.iter().any(|c| std::ptr::eq(&fields[c.target], f));
    for f in fields.iter().filter(|_| all_found) {
        let part_of_bucket = f.key == "_id"
            || std::ptr::eq(f, array)
            || std::ptr::eq(f, counter)
            || computed(f)
            || bucket.key.iter().any(|(name, _)| *name == f.rust_name)
            || crate::internals::ty::version_arg(f.ty).is_some();
        if !part_of_bucket && f.is_always_written() {
            cx.error_spanned_by(
                &f.key_tokens,
                rule,
                format!(
                    "`{}` is always written, but a bucket is opened by adding its first reading, from its key alone, \
                     and would lack it: make it an `Option` with `skip_serializing_if`, or a key field",
                    f.rust_name
                ),
            );
        }
    }
    if key_fields.len() == bucket.key.len() && !bucket.key.is_empty() {
        let names: Vec<&str> = bucket.key.iter().map(|(name, _)| name.as_str()).collect();
        check_bucket_index(cx, cont, b, &names, &counter.rust_name);
    }
}

/// A sharded bucket's shard key lies within its key: each reading is added by an upsert filtered on the key alone,
/// which reaches one shard (and puts the shard key into a bucket it opens) only when the key holds every shard key
/// field.
fn check_bucket_shard_key(cx: &Ctxt, cont: &Container, bucket: &Bucket, resolved: &Resolved) {
    let (Some(shard_key), Some(declared)) = (&resolved.shard_key, &cont.attrs.shard_key) else {
        return;
    };
    for (field, _) in shard_key.fields() {
        if field.key == "_id" {
            cx.error_spanned_by(
                &declared.tokens,
                rules::BUCKET_SHAPE,
                format!(
                    "`{}` is in the shard key, but a bucket's `_id` is chosen when a reading opens it, so the upsert \
                     that adds a reading cannot name it and would reach every shard; shard on the bucket's key fields",
                    field.rust_name
                ),
            );
        } else if !bucket.key.iter().any(|(name, _)| *name == field.rust_name) {
            cx.error_spanned_by(
                &declared.tokens,
                rules::BUCKET_SHAPE,
                format!(
                    "`{}` is in the shard key but not in the bucket's key: a reading is added by an upsert filtered on \
                     the bucket's key alone, which must name the whole shard key to reach one shard and to store it \
                     in a bucket it opens; add `{}` to `bucket(key = ...)`, or shard on the bucket's key fields",
                    field.rust_name, field.rust_name
                ),
            );
        }
    }
}

/// An index on the key fields (in any order) followed by the counter: it finds a key's bucket with room.
fn check_bucket_index(cx: &Ctxt, cont: &Container, b: &BucketAttr, names: &[&str], counter: &str) {
    let serves = cont.attrs.indexes.iter().filter_map(|i| i.keys.as_ref()).any(|keys| {
        let keys: Vec<String> =
            keys.value().split(',').map(|k| k.trim().trim_start_matches(['-', '+']).to_owned()).collect();
        keys.len() > names.len()
            && names.iter().all(|n| keys[..names.len()].iter().any(|k| k == n))
            && keys[names.len()] == counter
    });
    if !serves {
        let keys = format!("{}, {counter}", names.join(", "));
        cx.error_spanned_by(
            &b.tokens,
            rules::BUCKET_SHAPE,
            format!(
                "no index finds a key's bucket with room: declare `#[odm(index(keys = \"{keys}\"))]` (the key fields, \
                 then the counter), so each reading added reads one index entry instead of every bucket"
            ),
        );
    }
}

fn check_timeseries(
    cx: &Ctxt,
    cont: &Container,
    t: &TimeseriesAttr,
    series: &Timeseries,
    fields: &[Field],
    facts: &FieldFacts,
) {
    let rule = rules::TIMESERIES_FIELDS;
    if let Some(c) = &cont.attrs.capped {
        cx.error_spanned_by(
            &c.tokens,
            rule,
            "a time-series collection cannot be capped: remove `capped`, and let `expire_after` remove old measurements",
        );
    }
    if let Some(b) = &cont.attrs.bucket {
        cx.error_spanned_by(
            &b.tokens,
            rule,
            "a time-series collection buckets its measurements itself and takes no upserts of buckets: declare \
             `bucket` (one document per key and period, filled by odm) or `timeseries`, not both",
        );
    }
    let Some(time) = &t.time else {
        if t.malformed {
            return;
        }
        cx.error_spanned_by(
            &t.tokens,
            rule,
            "a time-series collection names the date field of each measurement: `timeseries(time = \"at\")`",
        );
        return;
    };
    let time_field = named(cx, rule, time, &time.value(), series.time, fields);
    if let Some(f) = time_field {
        if f.key == "_id" {
            cx.error_spanned_by(time, rule, "the time field is a date field, not `_id`");
        } else if one_value(cx, rule, time, f, "time field") && field_is_date(f, &facts.of(f).source) == Some(false) {
            cx.error_spanned_by(
                time,
                rule,
                format!(
                    "time field `{}` is not stored as a date, and the server refuses measurements without a date \
                     there: make it `odm::bson::DateTime`",
                    f.rust_name
                ),
            );
        }
    }
    if let Some(meta) = &t.meta {
        let Some(f) = named(cx, rule, meta, &meta.value(), series.meta, fields) else { return };
        if f.key == "_id" || time_field.is_some_and(|t| std::ptr::eq(t, f)) {
            cx.error_spanned_by(
                meta,
                rule,
                "the meta field names the series (a sensor's id); it is neither `_id` nor the time field",
            );
        } else if matches!(ty::classify(f.ty), TyKind::Array { .. }) {
            cx.error_spanned_by(meta, rule, "the meta field names one series: it cannot be an array");
        }
    }
}
