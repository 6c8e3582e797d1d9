//! How odm-mongo puts an entry into a BSON document, compiled here, in a crate of its own. Use it through
//! [odm-mongo](https://docs.rs/odm-mongo); it is released with it, in lock-step.
//!
//! bson's `Document::insert` is generic over its key and value types, and indexmap's insertion below it is generic
//! too, so every crate that calls it compiles its own copy, and in a crate as large as odm-mongo how much of that
//! copy the compiler inlines depends on how rustc happens to split the crate into codegen units: a change anywhere in
//! odm-mongo moved one pipeline's insertions by hundreds of instructions, either way. Here the insertion is the whole
//! crate, compiled in one unit with everything inlined, and odm-mongo calls it (not inlinable across crates, so the
//! same code in every program): measured, an insertion then costs less than the same `Document::insert` written by
//! hand in a small program.

use bson::{Bson, Document};

/// `doc.insert(key, value)`: the value `key` held before, if any.
///
/// ```
/// use bson::{doc, Bson, Document};
/// let mut d = Document::new();
/// assert_eq!(odm_document::put(&mut d, "a".to_owned(), Bson::Int32(1)), None);
/// assert_eq!(odm_document::put(&mut d, "a".to_owned(), Bson::Int32(2)), Some(Bson::Int32(1)));
/// assert_eq!(d, doc! { "a": 2 });
/// ```
pub fn put(doc: &mut Document, key: String, value: Bson) -> Option<Bson> {
    doc.insert(key, value)
}
