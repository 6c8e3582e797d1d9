//! Naming the value a decode (or an encode) failed at.
//!
//! Reads are many and failures rare, so a document is decoded once by bson's own deserializer with nothing tracked
//! (tracking the path costs a `String` per key read: twice the instructions of a plain typed read). Only when that
//! fails are the same bytes decoded again through [`serde_path_to_error`], wrapped around the same raw deserializer,
//! to find the stored path of the failing value; decoding is deterministic, so the second pass fails at the same
//! place. Encoding failures are located the same way, by a second, tracked encode.
//!
//! The stored path travels in the error's [`key`](bson::error::Error::key) (`it.1.q`): odm fills it in, and
//! [`DecodeError`](crate::error::DecodeError) names it through the model's fields. A missing field is named by its
//! own key (`l`), not by the document that lacks it.

use serde::de::{Deserialize, DeserializeOwned, Deserializer};
use serde::ser::{Serialize, Serializer};
use std::cell::RefCell;
use std::marker::PhantomData;

/// Decodes BSON `bytes` as `T`; on failure the error's `key` holds the stored path of the failing value (absent
/// when the document itself failed, e.g. its bytes are not BSON).
pub(crate) fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, bson::error::Error> {
    bson::deserialize_from_slice(bytes).map_err(|mut error| {
        if error.key.is_none() {
            let mut path = locate::<T>(bytes);
            // A missing field fails at the struct that lacks it; the path ends with the field itself.
            if let (Some(path), Some(field)) = (&mut path, error.message.as_deref().and_then(missing_field)) {
                path.push(field.to_owned());
            }
            error.key = path.filter(|p| !p.is_empty()).map(|p| p.join("."));
        }
        error
    })
}

/// The stored path (its segments) where decoding `bytes` as `T` fails; `None` if it does not fail this time, or
/// fails before `T` is reached (the bytes are not a document).
fn locate<T: DeserializeOwned>(bytes: &[u8]) -> Option<Vec<String>> {
    match bson::deserialize_from_slice::<Located<T>>(bytes) {
        Ok(Located { path, .. }) => path,
        Err(_) => None,
    }
}

/// Decodes a `T` through [`serde_path_to_error`] and keeps where it failed, not the value: it is handed the raw
/// deserializer bson uses itself (which bson does not export), so the tracked pass reads exactly as the first did.
struct Located<T> {
    /// The stored path of the failing value; `None` when `T` decoded.
    path: Option<Vec<String>>,
    _value: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Located<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let path = match serde_path_to_error::deserialize::<_, T>(deserializer) {
            Ok(_) => None,
            Err(error) => Some(segments(error.path())),
        };
        Ok(Located { path, _value: PhantomData })
    }
}

/// The stored keys and indexes of `path` (variants by name; segments serde does not name are left out).
fn segments(path: &serde_path_to_error::Path) -> Vec<String> {
    path.iter()
        .filter_map(|segment| match segment {
            serde_path_to_error::Segment::Seq { index } => Some(index.to_string()),
            serde_path_to_error::Segment::Map { key } => Some(key.clone()),
            serde_path_to_error::Segment::Enum { variant } => Some(variant.clone()),
            serde_path_to_error::Segment::Unknown => None,
        })
        .collect()
}

/// `error` (from encoding `value` to a raw document) with its `key` set to the stored path of the value that
/// failed, found by encoding `value` again with path tracking.
pub(crate) fn locate_encode<T: Serialize>(value: &T, mut error: bson::error::Error) -> bson::error::Error {
    if error.key.is_none() {
        let tracked = Tracked { value, path: RefCell::new(None) };
        if bson::serialize_to_raw_document_buf(&tracked).is_err() {
            error.key = tracked.path.into_inner().filter(|p| !p.is_empty()).map(|p| p.join("."));
        }
    }
    error
}

/// Encodes `value` through [`serde_path_to_error`] around the serializer it is given (bson's raw one, which bson
/// does not export), and keeps where it failed.
struct Tracked<'a, T> {
    value: &'a T,
    /// The stored path of the failing value, once an encode failed.
    path: RefCell<Option<Vec<String>>>,
}

impl<T: Serialize> Serialize for Tracked<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_path_to_error::serialize(self.value, serializer).map_err(|error| {
            *self.path.borrow_mut() = Some(segments(error.path()));
            error.into_inner()
        })
    }
}

/// The field named by serde's "missing field" message (``missing field `l` ``, the whole message), as derived
/// `Deserialize` impls report it.
pub(crate) fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.strip_suffix('`')
}

#[cfg(test)]
mod tests {
    use super::{from_slice, locate_encode, missing_field};
    use bson::{doc, RawDocumentBuf};
    use serde::{Deserialize, Serialize};

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Line {
        #[serde(rename = "q")]
        quantity: i32,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Order {
        #[serde(rename = "it")]
        items: Vec<Line>,
        #[serde(rename = "l")]
        lines: Vec<Line>,
    }

    fn path_of(doc: bson::Document) -> Option<String> {
        let raw = RawDocumentBuf::try_from(&doc).unwrap();
        from_slice::<Order>(raw.as_bytes()).expect_err("does not decode").key
    }

    #[test]
    fn wrong_types_and_missing_fields_are_located() {
        assert_eq!(path_of(doc! { "it": [{ "q": 1 }, { "q": "two" }], "l": [] }).as_deref(), Some("it.1.q"));
        assert_eq!(path_of(doc! { "it": [] }).as_deref(), Some("l"));
        assert_eq!(path_of(doc! { "it": [{ "q": 1 }, {}], "l": [] }).as_deref(), Some("it.1.q"));
        // The document itself is not an `Order`'s: no path.
        assert_eq!(from_slice::<Order>(&[5, 0, 0, 0]).expect_err("truncated").key, None);
    }

    #[test]
    fn the_first_pass_error_is_kept() {
        let raw = RawDocumentBuf::try_from(&doc! { "it": [{ "q": "two" }], "l": [] }).unwrap();
        let error = from_slice::<Order>(raw.as_bytes()).expect_err("wrong type");
        assert_eq!(error.message.as_deref(), Some("invalid type: string \"two\", expected i32"));
    }

    #[derive(Serialize)]
    struct Counts {
        #[serde(rename = "it")]
        items: Vec<Count>,
    }

    #[derive(Serialize)]
    struct Count {
        #[serde(rename = "n")]
        n: u64,
    }

    #[test]
    fn encode_failures_are_located() {
        // A u64 over i64::MAX has no BSON type.
        let value = Counts { items: vec![Count { n: 1 }, Count { n: u64::MAX }] };
        let error = bson::serialize_to_raw_document_buf(&value).expect_err("u64::MAX");
        assert_eq!(error.key, None);
        assert_eq!(locate_encode(&value, error).key.as_deref(), Some("it.1.n"));
    }

    #[test]
    fn missing_field_reads_serde_text() {
        assert_eq!(missing_field("missing field `l`"), Some("l"));
        // A stored string quoting the same words is not a missing field.
        assert_eq!(missing_field("invalid type: string \"missing field `x`\", expected i32"), None);
        assert_eq!(missing_field("invalid length 2"), None);
    }
}
