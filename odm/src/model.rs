//! The [`Model`] trait: a collection's document type, with its name, validator and validation settings.

#[doc(hidden)]
pub use crate::base::model::revision_of;
pub use crate::base::model::{
    Acknowledgment, Capped, Model, QuerySpec, ReadConcernLevel, ReadPreferenceMode, Scatter, ShardKey,
    ValidationAction, ValidationLevel, VariantOf, VersionSpec, WriteConcernSpec,
};
