//! The stored keys an extended reference pairs (each copy with its source's field, and the `_id` field), and the
//! update that sets copies from a source document: what [`super::Repair`] and [`super::Propagate`] share.

use crate::base::reference::traits::Copies;
use bson::Document;

/// The stored key of each copied field and of its source, paired by Rust name (the `by` field is no copy).
pub(super) fn copied_pairs<R: Copies>() -> Vec<(String, String)> {
    let (Some(copy), Some(source)) = (R::type_meta(), <R::Source as crate::base::schema::BsonSchema>::type_meta())
    else {
        return Vec::new();
    };
    copy.fields
        .iter()
        .filter(|f| f.name != R::BY)
        .filter_map(|f| {
            let s = source.fields.iter().find(|s| s.name == f.name)?;
            Some((f.key.to_owned(), s.key.to_owned()))
        })
        .collect()
}

/// The stored key of the field holding the source's `_id`.
pub(super) fn by_key<R: Copies>() -> String {
    R::type_meta()
        .and_then(|m| m.fields.iter().find(|f| f.name == R::BY))
        .map_or_else(|| R::BY.to_owned(), |f| f.key.to_owned())
}

/// `$set` (and `$unset`, for a source field left absent) of each pair's copy under `prefix` (`l`, `m.$[e]`) to the
/// value the source document holds.
pub(super) fn set_copies<'p>(
    prefix: &str,
    pairs: impl Iterator<Item = &'p (String, String)>,
    source: &Document,
) -> Document {
    let (mut set, mut unset) = (Document::new(), Document::new());
    for (copy, from) in pairs {
        match source.get(from) {
            Some(v) => set.insert(format!("{prefix}.{copy}"), v.clone()),
            None => unset.insert(format!("{prefix}.{copy}"), ""),
        };
    }
    let mut update = Document::new();
    if !set.is_empty() {
        update.insert("$set", set);
    }
    if !unset.is_empty() {
        update.insert("$unset", unset);
    }
    update
}
