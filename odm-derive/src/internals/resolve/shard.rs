//! The model's `shard_key = "region, customer:hashed"`: each entry's name, kind and field.

use super::field::FieldFacts;
use super::path::{resolve_path, unknown_field};
use crate::internals::ast::Field;
use crate::internals::lists::{entries, range_in, PartError};
use std::ops::Range;

/// The kind that makes a shard key field hashed (`customer:hashed`); without it a field is ranged.
pub const HASHED: &str = "hashed";

/// One entry of the shard key.
pub struct ShardEntry<'a> {
    /// The field name as written, as bytes of the value.
    pub name: Range<usize>,
    /// The kind after `:`, when one is written, as bytes of the value.
    pub kind: Option<Range<usize>>,
    /// `name:hashed`.
    pub hashed: bool,
    /// The top-level field it names, or the error saying it names none.
    pub field: Result<&'a Field<'a>, PartError>,
    /// The field is (syntactically) an array, as the index rules see it.
    pub array: bool,
}

/// The declared shard key, resolved.
pub struct ShardKey<'a> {
    /// The value as written: entries point into it.
    pub text: String,
    /// One per comma-separated entry, in order.
    pub entries: Vec<ShardEntry<'a>>,
}

impl<'a> ShardKey<'a> {
    /// The part of the value at `at`: a slice of it, so errors about it can point there.
    pub fn part(&self, at: &Range<usize>) -> &str {
        &self.text[at.clone()]
    }

    /// The shard key's fields, in order, with `hashed` marks; unknown names are left out (a rule reports them).
    pub fn fields(&self) -> Vec<(&'a Field<'a>, bool)> {
        self.entries.iter().filter_map(|e| Some((*e.field.as_ref().ok()?, e.hashed))).collect()
    }
}

/// Resolves `shard_key = "region, customer:hashed"`.
pub fn resolve_shard_key<'a>(fields: &'a [Field<'a>], facts: &FieldFacts, text: &str) -> ShardKey<'a> {
    let entries = entries(text)
        .into_iter()
        .map(|part| {
            let (name, kind) = match part.split_once(':') {
                Some((n, k)) => (n.trim(), Some(k.trim())),
                None => (part, None),
            };
            let field =
                fields.iter().find(|f| f.rust_name == name).ok_or_else(|| unknown_field(fields, text, name, ""));
            ShardEntry {
                name: range_in(text, name),
                kind: kind.map(|k| range_in(text, k)),
                hashed: kind == Some(HASHED),
                field,
                array: resolve_path(fields, facts, name).is_ok_and(|(_, _, array)| array),
            }
        })
        .collect();
    ShardKey { text: text.to_owned(), entries }
}
