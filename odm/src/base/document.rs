//! Putting an entry into a `Document`, through one function the statement builders share.
//!
//! bson's `Document::insert` is generic over its key and value types, and indexmap's insertion below it is generic
//! too, so each program compiles its own copies, and how much of indexmap's insertion the compiler inlines into a
//! caller depends on whether the two land in the same codegen unit: rustc puts a generic method of a type from
//! another crate in a unit named after that type's module, and merges the smallest units until there are sixteen,
//! so a change anywhere in odm moved a pipeline's insertions by 800 instructions in one bench. [`put`] is therefore
//! a method of an impl for indexmap's own map type: rustc places an impl's methods by their self type, so `put`
//! always shares its unit with indexmap's `insert_full`, and compiles the same in every program. (A lone filter and
//! an update's operators keep bson's own call: measured, it costs them less inlined.)

use bson::{Bson, Document};

/// Where [`put`] is compiled (see the module docs): the impl exists for its self type alone.
trait Placed {
    fn put(doc: &mut Document, key: String, value: Bson) -> Option<Bson>;
}

impl Placed for indexmap::IndexMap<(), (), ()> {
    #[inline(never)]
    fn put(doc: &mut Document, key: String, value: Bson) -> Option<Bson> {
        doc.insert(key, value)
    }
}

/// `doc.insert(key, value)`, compiled in odm beside indexmap's insertion (see the module docs); the value the key
/// held before, if any.
#[inline(always)]
pub(crate) fn put(doc: &mut Document, key: String, value: Bson) -> Option<Bson> {
    <indexmap::IndexMap<(), (), ()> as Placed>::put(doc, key, value)
}
