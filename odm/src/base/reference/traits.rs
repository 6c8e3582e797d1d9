//! What the derive implements for an extended reference, and what a field holding references is.

use crate::base::model::Model;
use crate::base::schema::BsonSchema;

/// An embedded struct that copies fields of model [`Copies::Source`], implemented by
/// `#[derive(Embedded)] #[odm(copies(model = "…", by = "…"))]`.
pub trait Copies: BsonSchema {
    /// The model whose fields are copied.
    type Source: Model;
    /// The Rust name of the field holding the source document's `_id`.
    const BY: &'static str;
}

/// A field type holding references: the copying struct itself (implemented by the derive), an `Option` of it
/// or a `Vec` of it. [`Repair`](crate::reference::Repair) reads the references of such a field.
pub trait HoldsReferences {
    /// The copying struct.
    type Copy: Copies;
    /// True for a `Vec`: the field holds many references.
    const MANY: bool;
}

impl<R: Copies> HoldsReferences for Option<R> {
    type Copy = R;
    const MANY: bool = false;
}

impl<R: Copies> HoldsReferences for Vec<R> {
    type Copy = R;
    const MANY: bool = true;
}
