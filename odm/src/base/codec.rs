//! `encode` (16 MiB checked, `_id` first) and `decode` (older versions migrated, failing fields named), `decode_view`
//! for a view, and `decode_as` for a projection. Driver-free, so a document can be encoded and checked with no database reachable. Users read the
//! docs at `odm::codec` (src/codec.rs).

use crate::base::error::{DecodeError, Error, Result, VersionError, MAX_DOCUMENT_SIZE};
use crate::base::meta::TypeMeta;
use crate::base::model::model_name;
use crate::base::model::{Model, VersionSpec};
use crate::base::view::View;
use bson::{Bson, RawDocument, RawDocumentBuf};
use serde::de::DeserializeOwned;

/// Serializes `value`, refusing documents over 16 MiB before anything is sent.
pub fn encode<M: Model>(value: &M) -> Result<RawDocumentBuf> {
    let raw = bson::serialize_to_raw_document_buf(value).map_err(|source| {
        // BSON keys are C strings, so a NUL in a run-time key fails the raw encoder; find it to name its path.
        let bad_key = M::dynamic_keys(crate::base::schema::KEY_DEPTH)
            .then(|| bson::serialize_to_bson(value).ok())
            .flatten()
            .and_then(|tree| crate::base::keys::first_bad(&tree).map(|bad| (bad.path, bad.why)));
        match bad_key {
            Some((path, reason)) => Error::InvalidKey { model: model_name::<M>(), path, reason },
            None => {
                let source = crate::base::failing_path::locate_encode(value, source);
                Error::Serialize { model: model_name::<M>(), source: Box::new(source) }
            }
        }
    })?;
    // Keys fixed by the type were checked at compile time; only run-time keys (maps) need a walk.
    if M::dynamic_keys(crate::base::schema::KEY_DEPTH) {
        if let Some(bad) = crate::base::keys::first_bad(bson::RawBsonRef::Document(&raw)) {
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

/// Decodes a stored document, naming its `_id` and the failing field (Rust path, stored path beside) on error.
///
/// A versioned model reads a document at an older version through its migration steps, and refuses one at a
/// version it does not read with [`Error::Version`] (see [`crate::version`]).
pub fn decode<M: Model>(raw: &RawDocument) -> Result<M> {
    if let Some(spec) = M::VERSION {
        // Written before the model had versions: the oldest shape it reads.
        let version = stored_version(raw, &spec).unwrap_or(i64::from(spec.oldest));
        if version != i64::from(spec.current) {
            let older = u32::try_from(version).ok().filter(|v| *v >= spec.oldest && *v < spec.current);
            return match older.and_then(|v| M::read_older(v, raw)) {
                Some(read) => read.map_err(|source| {
                    Error::Decode(Box::new(DecodeError::new(model_name::<M>(), None, id_of(raw), source)))
                }),
                None => Err(version_error::<M>(raw, &spec, version)),
            };
        }
    }
    decode_as(model_name::<M>(), M::type_meta(), raw)
}

/// Decodes a document of model `M` as view `V` (see [`crate::view`]), naming its `_id` and the failing field as
/// [`decode`] does. A versioned model's document is read at the current version only: one stored at an older
/// version fails with [`Error::Decode`] saying so (a view reads the stored keys as they are, and an older shape's
/// may differ), one at a version the model does not read with [`Error::Version`]. To tell, `raw` must hold the
/// version key: [`Find::view`](crate::collection::Find::view) projects it.
pub fn decode_view<M: Model, V: View<Of = M>>(raw: &RawDocument) -> Result<V> {
    if let Some(spec) = M::VERSION {
        let version = stored_version(raw, &spec);
        let found = version.unwrap_or(i64::from(spec.oldest));
        if found != i64::from(spec.current) {
            if found < i64::from(spec.oldest) || found > i64::from(spec.current) {
                return Err(version_error::<M>(raw, &spec, found));
            }
            let at = version.map_or_else(|| "without a version key".to_owned(), |v| format!("at version {v}"));
            let why = format!(
                "the document is stored {at}, and view `{}` reads documents at version {} only (a view reads the \
                 stored keys as they are, and an older version's may differ): migrate the collection first (see \
                 `odm::migrate`), or read it as the model, which migrates each document it reads",
                std::any::type_name::<V>().rsplit("::").next().unwrap_or_default(),
                spec.current
            );
            let source = <bson::error::Error as serde::de::Error>::custom(why);
            return Err(Error::Decode(Box::new(DecodeError::new(model_name::<M>(), None, id_of(raw), source))));
        }
    }
    decode_as(model_name::<M>(), M::type_meta(), raw)
}

/// The version a versioned model's document is stored at: its version key's number, `None` without the key. A key
/// of another type is taken as the current version, so that decoding as the current shape names the field.
fn stored_version(raw: &RawDocument, spec: &VersionSpec) -> Option<i64> {
    match raw.get(spec.key) {
        Ok(Some(bson::RawBsonRef::Int32(v))) => Some(i64::from(v)),
        Ok(Some(bson::RawBsonRef::Int64(v))) => Some(v),
        Ok(Some(_)) | Err(_) => Some(i64::from(spec.current)),
        Ok(None) => None,
    }
}

/// The document's `_id`, for an error naming it.
fn id_of(raw: &RawDocument) -> Option<Bson> {
    raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok())
}

/// A document stored at `found`, a version model `M` does not read.
fn version_error<M: Model>(raw: &RawDocument, spec: &VersionSpec, found: i64) -> Error {
    Error::Version(Box::new(VersionError {
        model: model_name::<M>(),
        id: id_of(raw),
        found,
        current: spec.current,
        oldest: spec.oldest,
    }))
}

/// Decodes `raw` as `P`: the model itself, or a projection of it (which holds the model's stored keys, so the model's
/// fields name the failing path).
pub(crate) fn decode_as<P: DeserializeOwned>(
    model: &'static str,
    meta: Option<&'static TypeMeta>,
    raw: &RawDocument,
) -> Result<P> {
    crate::base::failing_path::from_slice(raw.as_bytes())
        .map_err(|source| Error::Decode(Box::new(DecodeError::new(model, meta, id_of(raw), source))))
}
