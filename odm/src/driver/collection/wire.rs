//! What the collection's calls add to the codec: variants and projections decoded, the revision set in place, and
//! statement sizes counted and checked before anything is sent.

use crate::base::codec::{decode, decode_as};
use crate::base::error::{DecodeError, Error, Result, MAX_STATEMENT_SIZE};
use crate::base::filter::Projection;
use crate::base::model::model_name;
use crate::base::model::{Model, VariantOf};
use crate::base::view::View;
use bson::{Bson, Document, RawDocument, RawDocumentBuf};
use serde::de::DeserializeOwned;

/// Which documents a write statement reaches: the first that matches, or every one (`multi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    First,
    Every,
}

impl Reach {
    /// The statement's `multi`.
    pub(crate) fn multi(self) -> bool {
        self == Reach::Every
    }
}

/// What an update does when no document matches: nothing, or insert one (`upsert`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IfNone {
    Nothing,
    Insert,
}

impl IfNone {
    /// The statement's `upsert`.
    pub(crate) fn upsert(self) -> bool {
        self == IfNone::Insert
    }
}

/// `raw` with the value under `key` replaced by `value` (the revision of a guarded replacement), in place.
pub(crate) fn with_element(raw: &RawDocumentBuf, key: &str, value: Bson) -> bson::error::Result<RawDocumentBuf> {
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

/// Decodes a document of one variant of a polymorphic model as the struct the variant wraps.
pub(crate) fn decode_variant<M: Model, V: VariantOf<M>>(raw: &RawDocument) -> Result<V> {
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

/// The projection of view `V` of `M` (with `M`'s version key, when it has one).
pub(crate) fn view_projection<M: Model, V: View<Of = M>>() -> Projection<M> {
    Projection::of_view::<V>(M::VERSION.map(|spec| spec.key))
}

/// Decodes a projection of `M`'s documents as `Q` (no migration: a projection reads the stored keys as they are).
pub(crate) fn decode_projection<M: Model, Q: DeserializeOwned>(raw: &RawDocument) -> Result<Q> {
    decode_as(model_name::<M>(), M::type_meta(), raw)
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
