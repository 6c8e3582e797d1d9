//! Typed field paths: the path types and access markers (`types`), paths to the fields a polymorphic model's variants
//! share (`shared`), and the traits that say which writes a marker accepts (`Settable`, `Pushable`, …). What needs a
//! stored type's `BsonSchema` is `crate::base::schema::paths`. Users read the docs at `odm::path` (src/path.rs).

#[doc(hidden)]
pub mod shared;
pub(crate) mod types;

pub(crate) use self::types::{beside, check_dynamic_keys, unencodable};
pub use self::types::{
    Access, ArrayFilter, ArrayNode, AsPath, ComputedField, Counted, CountedSet, CounterField, Encoder, EncoderInput,
    Fields, IdField, InArray, IsPath, MapNode, Object, Path, PathNode, Plain, RawPath, RevisionField, Root, Set,
    ShardKeyField, Variant,
};

/// Paths that can be `$set`, `$min`/`$max`-ed, `$inc`-ed, …: plain fields, and counted arrays as a whole (the counter
/// is set to the new length in the same update).
#[diagnostic::on_unimplemented(
    message = "this field has no setter (`{Self}`) (rule `update-protected`)",
    label = "cannot be written by a typed update",
    note = "`_id` (IdField) and shard-key fields (ShardKeyField) never change once written; a counter (CounterField) \
            or computed field (ComputedField) changes only together with its array: push to the array and odm \
            updates it in the same update; \
            the revision (RevisionField) is bumped by one by every typed write, never set; the whole document (Root) \
            is written with `replace_one`"
)]
pub trait Settable: Access {}
impl Settable for Plain {}
impl Settable for Counted {}
impl Settable for Set {}
impl Settable for CountedSet {}
// Not listed among the markers a message names: an element path is reported by its own marker.
#[diagnostic::do_not_recommend]
impl<A: Settable> Settable for InArray<A> {}

/// Paths a scalar-only operator (`$inc`, `$unset`, `$currentDate`, …) may target: not a counted array.
#[diagnostic::on_unimplemented(
    message = "this operator cannot write this field (`{Self}`) (rule `update-protected`)",
    label = "not writable by this operator",
    note = "`_id` (IdField) and shard-key fields (ShardKeyField) never change once written; a counter (CounterField) \
            or computed field (ComputedField) changes only together with its array: push to the array and odm \
            updates it in the same update; \
            the revision (RevisionField) is bumped by one by every typed write, never written otherwise; a counted \
            array (Counted, CountedSet) takes `set` of the whole array and the array operators (`push`, \
            `add_to_set`, `pop_first`, …), which keep its counter in step"
)]
pub trait Writable: Access {}
impl Writable for Plain {}
impl Writable for Set {}
#[diagnostic::do_not_recommend]
impl<A: Writable> Writable for InArray<A> {}

/// Arrays whose length may change in ways the update cannot know (`$pull` with a condition, `$addToSet` with
/// `$each`): only arrays without a counter.
#[diagnostic::on_unimplemented(
    message = "this operation is not offered on a counted or immutable array (`{Self}`) (rule `update-protected`)",
    label = "how many elements it adds or removes cannot be known, so a counter could not be kept in step",
    note = "counted arrays (Counted, CountedSet) take `push`, `push_each`, `add_to_set` (guarded), \
            `pop_first`/`pop_last` (guarded) and `set` of the whole array, and a counted set (CountedSet) takes \
            `pull` of one value (guarded), which removes exactly one element: declare a counted array a set \
            (`#[odm(unique_items)]`) to take values out one by one, or drop the `counter` to use this operation. \
            Arrays under `_id` (IdField) or a shard key (ShardKeyField) never change once written"
)]
pub trait Uncounted: Access {}
impl Uncounted for Plain {}
impl Uncounted for Set {}
#[diagnostic::do_not_recommend]
impl<A: Uncounted> Uncounted for InArray<A> {}

/// Arrays that can grow or shrink through typed updates.
#[diagnostic::on_unimplemented(
    message = "this array has no setter (`{Self}`) (rule `update-protected`)",
    label = "cannot be written by a typed update",
    note = "`_id` and shard-key fields never change once written"
)]
pub trait ArrayWritable: Access {
    /// True when the array has a counter to keep in step.
    const COUNTED: bool;
}
impl ArrayWritable for Plain {
    const COUNTED: bool = false;
}
impl ArrayWritable for Counted {
    const COUNTED: bool = true;
}
impl ArrayWritable for Set {
    const COUNTED: bool = false;
}
impl ArrayWritable for CountedSet {
    const COUNTED: bool = true;
}

/// Arrays `$push` may append to: every array but a set, whose validator would refuse a pushed duplicate at run
/// time. Implemented for the markers that are no arrays' too, so that an immutable array is reported once, by
/// [`ArrayWritable`].
#[diagnostic::on_unimplemented(
    message = "`push` is not offered on an array declared a set (`{Self}`) (rule `array-unique`)",
    label = "a pushed value the array already holds would be refused by the server's `uniqueItems`",
    note = "use `add_to_set`, which adds the value only when the array does not hold it yet (on a counted set, \
            guarded by the filter, with its counter); or remove `unique_items` if the array may hold duplicates"
)]
pub trait Pushable: Access {}
#[diagnostic::do_not_recommend]
impl Pushable for Root {}
impl Pushable for Plain {}
impl Pushable for Counted {}
#[diagnostic::do_not_recommend]
impl Pushable for IdField {}
#[diagnostic::do_not_recommend]
impl Pushable for ShardKeyField {}
#[diagnostic::do_not_recommend]
impl Pushable for CounterField {}
#[diagnostic::do_not_recommend]
impl Pushable for ComputedField {}
#[diagnostic::do_not_recommend]
impl Pushable for RevisionField {}
#[diagnostic::do_not_recommend]
impl<A: Pushable> Pushable for InArray<A> {}

/// Arrays `$pull` of one value may shrink: every array but a counted one that may hold duplicates, where `$pull`
/// removes an unknown number of equal elements. On a counted set ([`CountedSet`]) each value is held at most once,
/// so the pull removes one element and the counter drops by one. Implemented for the markers that are no arrays'
/// too, so that an immutable array is reported once, by [`ArrayWritable`].
#[diagnostic::on_unimplemented(
    message = "`pull` is not offered on a counted array that may hold duplicates (`{Self}`) (rule `update-protected`)",
    label = "`$pull` removes every equal element, so how far the counter should drop cannot be known",
    note = "declare the array a set, `#[odm(max_items = N, counter = \"…\", unique_items)]`: the server then refuses \
            duplicates, and `pull` removes exactly one element and decrements the counter by one; or drop the \
            `counter`"
)]
pub trait PullByValue: Access {}
#[diagnostic::do_not_recommend]
impl PullByValue for Root {}
impl PullByValue for Plain {}
impl PullByValue for Set {}
impl PullByValue for CountedSet {}
#[diagnostic::do_not_recommend]
impl PullByValue for IdField {}
#[diagnostic::do_not_recommend]
impl PullByValue for ShardKeyField {}
#[diagnostic::do_not_recommend]
impl PullByValue for CounterField {}
#[diagnostic::do_not_recommend]
impl PullByValue for ComputedField {}
#[diagnostic::do_not_recommend]
impl PullByValue for RevisionField {}
#[diagnostic::do_not_recommend]
impl<A: PullByValue> PullByValue for InArray<A> {}
#[diagnostic::do_not_recommend]
impl<A: ArrayWritable> ArrayWritable for InArray<A> {
    const COUNTED: bool = A::COUNTED;
}

/// Paths a filter, sort or projection may name: every field (not the document root).
#[diagnostic::on_unimplemented(
    message = "the document root is not a field path (rule `path-model`)",
    label = "name one of its fields"
)]
pub trait Queryable: Access {}
impl Queryable for Plain {}
impl Queryable for Counted {}
impl Queryable for Set {}
impl Queryable for CountedSet {}
impl Queryable for IdField {}
impl Queryable for ShardKeyField {}
impl Queryable for CounterField {}
impl Queryable for ComputedField {}
impl Queryable for RevisionField {}
#[diagnostic::do_not_recommend]
impl<A: Queryable> Queryable for InArray<A> {}
