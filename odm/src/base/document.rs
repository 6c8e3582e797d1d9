//! Putting an entry into a `Document`, through one function every statement builder shares: compiled in a crate of
//! its own, `odm-mongo-document`, whose docs say why (its cost then is the same in every program, and lower than
//! bson's generic `insert` inlined into odm's code, for the lone filter and an update's operators too).

use bson::{Bson, Document};

/// `doc.insert(key, value)`, compiled in `odm-mongo-document`; the value the key held before, if any.
#[inline(always)]
pub(crate) fn put(doc: &mut Document, key: String, value: Bson) -> Option<Bson> {
    odm_document::put(doc, key, value)
}
