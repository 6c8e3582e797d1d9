//! The declared shard key resolved to fields (with `hashed` marks), for the rules and the generators.

use super::ast::{Container, Data, Field};
use super::lists::entries;

/// The shard key's fields, in order, with `hashed` marks; unknown names are reported and left out.
pub fn shard_fields<'a>(cont: &'a Container<'a>) -> Vec<(&'a Field<'a>, bool)> {
    let (Some(sk), Data::Struct(fields)) = (&cont.attrs.shard_key, &cont.data) else { return Vec::new() };
    shard_entries(&sk.value)
        .into_iter()
        .filter_map(|(name, kind)| fields.iter().find(|f| f.rust_name == name).map(|f| (f, kind == Some("hashed"))))
        .collect()
}

/// The entries of `shard_key = "region, customer:hashed"`: each name, with its kind when one is written.
pub fn shard_entries(text: &str) -> Vec<(&str, Option<&str>)> {
    entries(text)
        .into_iter()
        .map(|part| match part.split_once(':') {
            Some((n, k)) => (n.trim(), Some(k.trim())),
            None => (part, None),
        })
        .collect()
}
