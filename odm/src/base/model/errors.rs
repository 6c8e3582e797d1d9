//! The errors that concern a model, named as the model is: they sit with the trait rather than in `error`, which
//! names no model so that every layer can name it.

use super::Model;
use crate::base::error::{Error, Invalid};

/// The name errors give model `M`: its Rust type name (the collection's for a model without field metadata).
pub(crate) fn model_name<M: Model>() -> &'static str {
    M::type_meta().map_or(M::COLLECTION, |m| m.name)
}

impl Error {
    /// A filter, sort, projection or update for `M` refused before sending, its paths named as `M`'s Rust paths.
    pub(crate) fn invalid_operation<M: Model>(cause: Invalid) -> Self {
        Error::InvalidOperation { model: model_name::<M>(), cause: cause.named(M::type_meta()) }
    }

    /// A value of `M` (or a document built for it) that does not encode to BSON; nothing was sent.
    pub(crate) fn serialize<M: Model>(source: bson::error::Error) -> Self {
        Error::Serialize { model: model_name::<M>(), source: Box::new(source) }
    }
}
