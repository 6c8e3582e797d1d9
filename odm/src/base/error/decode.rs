//! Decode failures: a stored document that does not decode into its model, named by Rust path.

use crate::base::meta::TypeMeta;
use bson::Bson;
use std::fmt;

/// A stored document that does not decode into its model.
#[derive(Debug)]
pub struct DecodeError {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The `_id` of the document, when it has one.
    pub id: Option<Bson>,
    /// The Rust path of the value that failed, or of the required field that is missing (`Order.items[0].quantity`);
    /// empty when the document itself failed.
    pub path: String,
    /// The stored key path of the value that failed, or of the missing field (`it.0.q`); empty when the document
    /// itself failed.
    pub stored_path: String,
    /// The decoder's error.
    pub source: bson::error::Error,
}

impl DecodeError {
    /// Names where decoding failed through `meta`, as validation errors name fields: the decoder reports the stored
    /// path (in `source.key`, filled in by odm's decode, see [`crate::failing_path`]).
    pub(crate) fn new(
        model: &'static str,
        meta: Option<&'static TypeMeta>,
        id: Option<Bson>,
        source: bson::error::Error,
    ) -> Self {
        let stored_path = source.key.clone().unwrap_or_default();
        let path = crate::base::meta::rust_name(meta, &stored_path).unwrap_or_else(|| stored_path.clone());
        DecodeError { model, id, path, stored_path, source }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(f, "{}: cannot decode document with _id {id}: ", self.model)?,
            None => write!(f, "{}: cannot decode document without _id: ", self.model)?,
        }
        if !self.stored_path.is_empty() {
            let rust = (self.path != self.stored_path).then_some(self.path.as_str());
            write!(f, "{}: ", crate::base::meta::named(rust, &self.stored_path))?;
        }
        // The decoder's own text repeats the stored path; its message alone says what was wrong.
        match self.source.message.as_deref() {
            // The path already ends with the missing field's key.
            Some(m) if !self.stored_path.is_empty() && crate::base::failing_path::missing_field(m).is_some() => {
                f.write_str("missing, but the field is required")
            }
            Some(message) => f.write_str(message),
            None => write!(f, "{}", self.source.kind),
        }
    }
}
