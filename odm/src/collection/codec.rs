//! The codec: encoding a value (16 MiB checked before sending, `_id` first), decoding raw documents (older
//! versions migrated, variants, projections), and counting a document's encoded size without encoding it.

use crate::error::{model_name, DecodeError, Error, Result, VersionError, MAX_DOCUMENT_SIZE, MAX_STATEMENT_SIZE};
use crate::meta::TypeMeta;
use crate::model::{Model, VariantOf};
use bson::{Bson, Document, RawDocumentBuf};
use serde::de::DeserializeOwned;

/// Serializes `value`, refusing documents over 16 MiB before anything is sent.
pub fn encode<M: Model>(value: &M) -> Result<RawDocumentBuf> {
    let raw = bson::serialize_to_raw_document_buf(value).map_err(|source| {
        // BSON keys are C strings, so a NUL in a run-time key fails the raw encoder; find it to name its path.
        let bad_key = M::dynamic_keys(crate::schema::KEY_DEPTH)
            .then(|| bson::serialize_to_bson(value).ok())
            .flatten()
            .and_then(|tree| crate::keys::first_bad(&tree).map(|bad| (bad.path, bad.why)));
        match bad_key {
            Some((path, reason)) => Error::InvalidKey { model: model_name::<M>(), path, reason },
            None => {
                let source = crate::failing_path::locate_encode(value, source);
                Error::Serialize { model: model_name::<M>(), source: Box::new(source) }
            }
        }
    })?;
    // Keys fixed by the type were checked at compile time; only run-time keys (maps) need a walk.
    if M::dynamic_keys(crate::schema::KEY_DEPTH) {
        if let Some(bad) = crate::keys::first_bad(bson::RawBsonRef::Document(&raw)) {
            return Err(Error::InvalidKey { model: model_name::<M>(), path: bad.path, reason: bad.why });
        }
    }
    let size = raw.as_bytes().len();
    if size > MAX_DOCUMENT_SIZE {
        return Err(Error::DocumentTooLarge { model: model_name::<M>(), size, limit: MAX_DOCUMENT_SIZE });
    }
    id_first(raw).map_err(Error::serialize::<M>)
}

/// `raw` with `_id` first. The server stores `_id` first whatever order it was sent in, so odm writes it there
/// itself and what it sends is byte for byte what is stored (a tagged enum writes its tag first; a struct may declare
/// `_id` after other fields). The usual case, `_id` first or absent, costs one look at the first key.
fn id_first(raw: RawDocumentBuf) -> bson::error::Result<RawDocumentBuf> {
    let first = raw.iter().next().transpose()?;
    if first.is_none_or(|(k, _)| k.as_str() == "_id") {
        return Ok(raw);
    }
    let Some(id) = raw.get("_id")? else { return Ok(raw) };
    let mut out = RawDocumentBuf::new();
    for element in std::iter::once(Ok((bson::raw::cstr!("_id"), id)))
        .chain(raw.iter().filter(|e| !matches!(e, Ok((k, _)) if k.as_str() == "_id")))
    {
        let (k, v) = element?;
        out.append(k, v);
    }
    Ok(out)
}

/// `raw` with the value under `key` replaced by `value` (the revision of a guarded replacement), in place.
pub(super) fn with_element(raw: &RawDocumentBuf, key: &str, value: Bson) -> bson::error::Result<RawDocumentBuf> {
    let value = bson::RawBson::try_from(value)?;
    let mut out = RawDocumentBuf::new();
    for element in raw.iter() {
        let (k, v) = element?;
        if k.as_str() == key {
            out.append(k, value.as_raw_bson_ref());
        } else {
            out.append(k, v);
        }
    }
    Ok(out)
}

/// Decodes a stored document, naming its `_id` and the failing field (Rust path, stored path beside) on error.
///
/// A versioned model reads a document at an older version through its migration steps, and refuses one at a
/// version it does not read with [`Error::Version`] (see [`crate::version`]).
pub fn decode<M: Model>(raw: &RawDocumentBuf) -> Result<M> {
    if let Some(spec) = M::VERSION {
        let version = match raw.get(spec.key) {
            Ok(Some(bson::RawBsonRef::Int32(v))) => i64::from(v),
            Ok(Some(bson::RawBsonRef::Int64(v))) => v,
            // Not a version this model wrote: decoding as the current shape names the field.
            Ok(Some(_)) | Err(_) => i64::from(spec.current),
            // Written before the model had versions: the oldest shape it reads.
            Ok(None) => i64::from(spec.oldest),
        };
        if version != i64::from(spec.current) {
            let id = || raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
            let older = u32::try_from(version).ok().filter(|v| *v >= spec.oldest && *v < spec.current);
            return match older.and_then(|v| M::read_older(v, raw)) {
                Some(read) => read
                    .map_err(|source| Error::Decode(Box::new(DecodeError::new(model_name::<M>(), None, id(), source)))),
                None => Err(Error::Version(Box::new(VersionError {
                    model: model_name::<M>(),
                    id: id(),
                    found: version,
                    current: spec.current,
                    oldest: spec.oldest,
                }))),
            };
        }
    }
    decode_as(model_name::<M>(), M::type_meta(), raw)
}

/// Decodes a document of one variant of a polymorphic model as the struct the variant wraps.
pub(super) fn decode_variant<M: Model, V: VariantOf<M>>(raw: &RawDocumentBuf) -> Result<V> {
    let model = decode::<M>(raw)?;
    V::from_model(model).ok_or_else(|| {
        let (tag, value) = V::TAG;
        let id = raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        let why = format!("the document is not of variant `{value}` (its `{tag}` differs)");
        Error::Decode(Box::new(DecodeError::new(
            model_name::<M>(),
            None,
            id,
            <bson::error::Error as serde::de::Error>::custom(why),
        )))
    })
}

/// Decodes a projection of `M`'s documents as `Q` (no migration: a projection reads the stored keys as they are).
pub(super) fn decode_projection<M: Model, Q: DeserializeOwned>(raw: &RawDocumentBuf) -> Result<Q> {
    decode_as(model_name::<M>(), M::type_meta(), raw)
}

/// Decodes `raw` as `P`: the model itself, or a projection of it (which holds the model's stored keys, so the model's
/// fields name the failing path).
pub(crate) fn decode_as<P: DeserializeOwned>(
    model: &'static str,
    meta: Option<&'static TypeMeta>,
    raw: &RawDocumentBuf,
) -> Result<P> {
    crate::failing_path::from_slice(raw.as_bytes()).map_err(|source| {
        let id = raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        Error::Decode(Box::new(DecodeError::new(model, meta, id, source)))
    })
}

/// Refuses an update statement MongoDB would not take (over [`MAX_STATEMENT_SIZE`]) before it is sent, as inserts
/// are refused over 16 MiB: the server would answer with a bare driver error. `parts` are the encoded sizes of the
/// statement's documents (filter, update or replacement, sort, array filters).
pub(crate) fn check_statement<M: Model>(parts: impl IntoIterator<Item = usize>) -> Result<()> {
    let size: usize = parts.into_iter().sum();
    if size > MAX_STATEMENT_SIZE {
        return Err(Error::UpdateTooLarge { model: model_name::<M>(), size, limit: MAX_STATEMENT_SIZE });
    }
    Ok(())
}

/// Model `M`'s write concern as a command's `writeConcern` field, for the write commands odm sends itself (bulk
/// writes, migrations); `None` when the model sets none.
pub(crate) fn write_concern_document<M: Model>() -> Result<Option<RawDocumentBuf>> {
    let Some(wc) = M::WRITE_CONCERN else { return Ok(None) };
    let doc = bson::serialize_to_document(&wc.to_driver()).map_err(Error::serialize::<M>)?;
    RawDocumentBuf::try_from(&doc).map(Some).map_err(Error::serialize::<M>)
}

/// The encoded size of `doc` in bytes, computed without encoding it (updates are encoded again by the driver).
pub(crate) fn document_len(doc: &Document) -> usize {
    // Length, elements (type byte, key, NUL, value), terminating NUL.
    4 + doc.iter().map(|(k, v)| 2 + k.len() + value_len(v)).sum::<usize>() + 1
}

fn value_len(value: &Bson) -> usize {
    let string = |s: &str| 4 + s.len() + 1;
    match value {
        Bson::Double(_) | Bson::Int64(_) | Bson::DateTime(_) | Bson::Timestamp(_) => 8,
        Bson::Int32(_) => 4,
        Bson::Boolean(_) => 1,
        Bson::Null | Bson::Undefined | Bson::MaxKey | Bson::MinKey => 0,
        Bson::ObjectId(_) => 12,
        Bson::Decimal128(_) => 16,
        Bson::String(s) | Bson::JavaScriptCode(s) | Bson::Symbol(s) => string(s),
        Bson::Document(d) => document_len(d),
        Bson::Array(items) => {
            4 + items.iter().enumerate().map(|(i, v)| 2 + decimal_digits(i) + value_len(v)).sum::<usize>() + 1
        }
        Bson::Binary(b) => {
            // The old binary subtype repeats the length inside the payload.
            let old = if b.subtype == bson::spec::BinarySubtype::BinaryOld { 4 } else { 0 };
            4 + 1 + old + b.bytes.len()
        }
        Bson::RegularExpression(r) => r.pattern.as_str().len() + 1 + r.options.as_str().len() + 1,
        Bson::JavaScriptCodeWithScope(c) => 4 + string(&c.code) + document_len(&c.scope),
        // Its fields are private: measure the encoding of a one-element document holding it.
        Bson::DbPointer(_) => {
            let doc = bson::doc! { "": value.clone() };
            RawDocumentBuf::try_from(&doc).map_or(0, |raw| raw.as_bytes().len() - 7)
        }
    }
}

/// The number of decimal digits of `n` (array keys are indexes written in decimal).
fn decimal_digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::document_len;
    use bson::spec::BinarySubtype;
    use bson::{doc, Binary, Bson, JavaScriptCodeWithScope, RawDocumentBuf, Regex, Timestamp};

    /// The computed size is the encoder's, for every BSON type and for array keys of one, two and three digits.
    #[test]
    fn document_len_is_the_encoded_size() {
        let re = Regex { pattern: "^a.*".to_owned().try_into().unwrap(), options: "im".to_owned().try_into().unwrap() };
        let doc = doc! {
            "d": 1.5, "s": "ünï", "o": { "n": { "deep": [1, 2] } }, "a": (0..120).map(Bson::Int32).collect::<Vec<_>>(),
            "b": true, "nil": Bson::Null, "re": re, "js": Bson::JavaScriptCode("f()".into()),
            "jss": JavaScriptCodeWithScope { code: "g()".into(), scope: doc! { "x": 1 } },
            "i": 7, "l": 7_i64, "ts": Timestamp { time: 1, increment: 2 },
            "bin": Binary { subtype: BinarySubtype::Generic, bytes: vec![1, 2, 3] },
            "old": Binary { subtype: BinarySubtype::BinaryOld, bytes: vec![4, 5] },
            "oid": bson::oid::ObjectId::new(), "at": bson::DateTime::now(), "sym": Bson::Symbol("sy".into()),
            "dec": "1.5".parse::<bson::Decimal128>().unwrap(), "u": Bson::Undefined, "max": Bson::MaxKey,
            "min": Bson::MinKey, "$set": { "a.b.$[x]": [] },
        };
        assert_eq!(document_len(&doc), RawDocumentBuf::try_from(&doc).unwrap().as_bytes().len());
        assert_eq!(document_len(&doc! {}), 5);
    }
}
