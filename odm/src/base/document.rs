//! Putting an entry into a `Document`, through one function the statement builders share.
//!
//! bson's `Document::insert` is generic over its key and value types, and indexmap's insertion below it is generic
//! too, so each program compiles its own copies and its compiler decides, from everything else the program holds,
//! how much of indexmap's insertion to inline into each: a change elsewhere in odm moved a pipeline's insertions by 800
//! instructions in one bench. Built here, in odm's own code, the insertion is compiled once, the same in every
//! program. (A lone filter and an update's operators keep bson's own call: measured, it costs them less inlined.)

use bson::{Bson, Document};

/// `doc.insert(key, value)`, compiled in odm (see the module docs); the value the key held before, if any.
#[inline(never)]
pub(crate) fn put(doc: &mut Document, key: String, value: Bson) -> Option<Bson> {
    doc.insert(key, value)
}
