//! The fields a bucket (`bucket(key = "sensor, day", items = "readings")`) or a time-series collection
//! (`timeseries(time = "at", meta = "sensor")`) names, looked up once among the struct's stored fields: the
//! `bucket-shape` and `timeseries-fields` rules report what is missing, the generators read what is found.

use super::super::ast::Field;
use super::super::attr::series::{BucketAttr, TimeseriesAttr};
use syn::LitStr;

/// A bucket's key fields and array.
pub struct Bucket<'a> {
    /// The key fields as `key = "…"` names them (trimmed, empty names dropped), each with the stored field of that
    /// name when there is one.
    pub key: Vec<(String, Option<&'a Field<'a>>)>,
    /// The array of readings `items = "…"` names, when it is a stored field.
    pub items: Option<&'a Field<'a>>,
}

impl Bucket<'_> {
    /// True when every key name is a stored field.
    pub fn key_found(&self) -> bool {
        self.key.iter().all(|(_, f)| f.is_some())
    }
}

/// A time-series collection's time and meta fields, when they are stored fields.
pub struct Timeseries<'a> {
    pub time: Option<&'a Field<'a>>,
    pub meta: Option<&'a Field<'a>>,
}

/// The stored field whose Rust name is `name`.
pub fn stored<'a>(fields: &'a [Field<'a>], name: &str) -> Option<&'a Field<'a>> {
    fields.iter().find(|f| f.rust_name == name && f.is_stored())
}

pub fn resolve_bucket<'a>(fields: &'a [Field<'a>], b: &BucketAttr) -> Bucket<'a> {
    let key = b.key.as_ref().map_or_else(String::new, LitStr::value);
    let key = key
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|name| (name.to_owned(), stored(fields, name)))
        .collect();
    Bucket { key, items: b.items.as_ref().and_then(|i| stored(fields, &i.value())) }
}

pub fn resolve_timeseries<'a>(fields: &'a [Field<'a>], t: &TimeseriesAttr) -> Timeseries<'a> {
    let field = |lit: &Option<LitStr>| lit.as_ref().and_then(|l| stored(fields, &l.value()));
    Timeseries { time: field(&t.time), meta: field(&t.meta) }
}
