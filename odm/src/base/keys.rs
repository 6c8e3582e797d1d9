//! Which keys MongoDB cannot take: one rule for inserts, path entries, updates and diffs.

/// Why a key chosen at run time (a map key) cannot be stored, if it cannot.
pub(crate) fn defect(key: &str) -> Option<&'static str> {
    if key.starts_with('$') {
        Some("keys starting with `$` are reserved for operators")
    } else if key.contains('.') {
        Some("`.` separates path segments, so the key could never be queried or updated")
    } else if key.contains('\0') {
        Some("BSON keys end at the first NUL, so the key would be cut short")
    } else {
        None
    }
}

/// Why a key cannot name a path segment: any storage defect, or being empty.
pub(crate) fn path_defect(key: &str) -> Option<&'static str> {
    if key.is_empty() {
        Some("an empty key cannot be addressed in a path")
    } else {
        defect(key)
    }
}

/// A key MongoDB cannot store, found in a value tree: its path below the value (`a.0.b`), the key itself, and why.
pub(crate) struct BadKey<'a> {
    pub(crate) path: String,
    pub(crate) key: &'a str,
    pub(crate) why: &'static str,
}

/// A BSON value whose keys can be walked: an owned [`Bson`](bson::Bson) (a value encoded for a path), or a raw
/// value as the encoder wrote it (a whole document). The one walk, [`first_bad`], runs over both.
pub(crate) trait Tree<'a>: Sized {
    /// A document's entries; `Err` when the encoded bytes are malformed.
    type Entries: Iterator<Item = Result<(&'a str, Self), ()>>;
    /// An array's elements.
    type Items: Iterator<Item = Result<Self, ()>>;
    /// The entries, if this is a document.
    fn entries(&self) -> Option<Self::Entries>;
    /// The elements, if this is an array.
    fn items(&self) -> Option<Self::Items>;
}

type OwnedEntry<'a> = (&'a String, &'a bson::Bson);

impl<'a> Tree<'a> for &'a bson::Bson {
    type Entries = std::iter::Map<bson::document::Iter<'a>, fn(OwnedEntry<'a>) -> Result<(&'a str, Self), ()>>;
    type Items = std::iter::Map<std::slice::Iter<'a, bson::Bson>, fn(&'a bson::Bson) -> Result<Self, ()>>;
    fn entries(&self) -> Option<Self::Entries> {
        match self {
            bson::Bson::Document(d) => Some(d.iter().map(|(k, v)| Ok((k.as_str(), v)))),
            _ => None,
        }
    }
    fn items(&self) -> Option<Self::Items> {
        match self {
            bson::Bson::Array(a) => Some(a.iter().map(Ok)),
            _ => None,
        }
    }
}

type RawEntry<'a> = bson::error::Result<bson::raw::RawElement<'a>>;

impl<'a> Tree<'a> for bson::RawBsonRef<'a> {
    type Entries = std::iter::Map<bson::raw::RawIter<'a>, fn(RawEntry<'a>) -> Result<(&'a str, Self), ()>>;
    type Items =
        std::iter::Map<bson::raw::RawArrayIter<'a>, fn(bson::error::Result<bson::RawBsonRef<'a>>) -> Result<Self, ()>>;
    fn entries(&self) -> Option<Self::Entries> {
        match self {
            bson::RawBsonRef::Document(d) => {
                Some(d.iter_elements().map(|e| e.and_then(|el| Ok((el.key().as_str(), el.value()?))).map_err(drop)))
            }
            _ => None,
        }
    }
    fn items(&self) -> Option<Self::Items> {
        match self {
            bson::RawBsonRef::Array(a) => Some(a.into_iter().map(|e| e.map_err(drop))),
            _ => None,
        }
    }
}

/// Why a value is refused when its encoded bytes cannot be read back.
const MALFORMED: &str = "the encoded document is malformed";

/// The first key in a value tree that MongoDB cannot store (see [`defect`]), walking documents and arrays in order.
/// The path is built in one buffer, and copied only when a bad key is found.
pub(crate) fn first_bad<'a, T: Tree<'a>>(value: T) -> Option<BadKey<'a>> {
    walk(value, &mut String::new())
}

fn walk<'a, T: Tree<'a>>(value: T, path: &mut String) -> Option<BadKey<'a>> {
    let len = path.len();
    let bad = if let Some(entries) = value.entries() {
        entries.into_iter().find_map(|entry| {
            let Ok((key, child)) = entry else {
                return Some(BadKey { path: path.clone(), key: "", why: MALFORMED });
            };
            path.truncate(len);
            if len > 0 {
                path.push('.');
            }
            path.push_str(key);
            match defect(key) {
                Some(why) => Some(BadKey { path: path.clone(), key, why }),
                None => walk(child, path),
            }
        })
    } else if let Some(items) = value.items() {
        items.enumerate().find_map(|(i, item)| {
            let Ok(child) = item else {
                return Some(BadKey { path: path.clone(), key: "", why: MALFORMED });
            };
            path.truncate(len);
            if len > 0 {
                path.push('.');
            }
            path.push_str(&i.to_string());
            walk(child, path)
        })
    } else {
        None
    };
    path.truncate(len);
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_operators_separators_and_nul() {
        for bad in ["$set", "a.b", "nul\0key"] {
            assert!(defect(bad).is_some(), "{bad:?}");
            assert!(path_defect(bad).is_some(), "{bad:?}");
        }
        assert_eq!(defect(""), None, "an empty key can be stored");
        assert!(path_defect("").is_some());
        assert_eq!(path_defect("price$usd"), None, "only a leading `$` is an operator");
    }

    #[test]
    fn first_bad_names_the_path_below_the_value() {
        let v = bson::bson!({ "ok": [{ "fine": 1 }, { "a.b": 2 }] });
        let found = |bad: Option<BadKey>| bad.map(|b| (b.path, b.key.to_owned()));
        assert_eq!(found(first_bad(&v)), Some(("ok.1.a.b".into(), "a.b".into())));
        assert_eq!(found(first_bad(&bson::bson!({ "ok": { "fine": [1, 2] } }))), None);
        // The same walk over the encoded bytes gives the same answer.
        let raw = bson::serialize_to_raw_document_buf(&bson::doc! { "ok": [{ "fine": 1 }, { "$x": 2 }] }).unwrap();
        let top = bson::RawBsonRef::Document(&raw);
        assert_eq!(found(first_bad(top)), Some(("ok.1.$x".into(), "$x".into())));
    }
}
