//! Typed field paths: each carries its stored key path (short keys included) and the Rust type of the value there.
//!
//! `#[derive(Model)]` generates `Order::fields()`, a tree of paths mirroring the struct. A path knows its root model
//! `R`, its value type `W` and an [`Access`] marker `A` that says which writes it accepts: `_id`, shard-key fields,
//! array counters and the revision have no setter at all, and counted arrays only offer operations whose effect on
//! the length is known.
//!
//! The path types themselves know stored keys only, so the schema can name them; what needs a stored type's
//! [`BsonSchema`] (encoding by type, paths to elements and entries) is added here, and filtered elements (`$[id]`,
//! whose condition is a filter) in [`crate::filter`].
//!
//! ```
//! use odm::{Model, Embedded, bson::oid::ObjectId};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Embedded, Serialize, Deserialize)]
//! struct Line {
//!     #[serde(rename = "p")]
//!     price: i64,
//! }
//!
//! #[derive(Model, Serialize, Deserialize)]
//! #[odm(collection = "order_header")]
//! struct Order {
//!     #[serde(rename = "_id")]
//!     id: ObjectId,
//!     #[serde(rename = "it")]
//!     #[odm(max_items = 100)]
//!     items: Vec<Line>,
//! }
//!
//! let f = Order::fields();
//! assert_eq!(f.items().key(), "it");
//! assert_eq!(f.items().each().price().key(), "it.$[].p");
//! assert_eq!(f.items().at(2).price().key(), "it.2.p");
//! ```

#[doc(hidden)]
pub mod shared;
pub(crate) mod types;

pub(crate) use self::types::{beside, check_dynamic_keys, unencodable};
pub use self::types::{
    Access, ArrayFilter, ArrayNode, AsPath, ComputedField, Counted, CountedSet, CounterField, Encoder, Fields, IdField,
    InArray, IsPath, MapNode, Object, Path, PathNode, Plain, RawPath, RevisionField, Root, Set, ShardKeyField, Variant,
};

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use crate::error::{Invalid, NamedPath};
use crate::schema::BsonSchema;

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

/// The encoder typed paths use by default; generated code reaches it through `odm::__private` only.
pub(crate) mod encode {
    use super::{check_dynamic_keys, unencodable, BsonSchema};
    use bson::Bson;
    use serde::Serialize;

    /// Encodes through [`BsonSchema::to_bson`], which converts scalars directly; keys are walked only when the type
    /// can carry run-time keys (maps, free-form documents).
    #[inline]
    pub fn encode_schema<W: BsonSchema + Serialize>(value: &W, at: &str) -> Result<Bson, crate::error::Invalid> {
        let v = W::to_bson(value).map_err(|e| unencodable(at, e))?;
        // A bounded depth: a recursive type answers `true` (walk) rather than recurse without end.
        if W::dynamic_keys(crate::schema::KEY_DEPTH) {
            check_dynamic_keys(&v, at)?;
        }
        Ok(v)
    }
}

pub(crate) use encode::encode_schema;

/// What generated path methods call; reachable only through `odm::__private`, so it is no part of the public API.
pub(crate) mod generated {
    use super::types::{IsPath, RootOf};
    use super::{encode_schema, AsPath, BsonSchema, Fields, Path};
    use serde::Serialize;

    /// The path of field `index` of `F::Struct` below the path `fields` stands for, encoded by its type, as the node
    /// the field's method returns: that return type alone fixes the field's type and access marker, so the generated
    /// body names neither.
    #[inline]
    pub fn at<F, N>(fields: &F, index: usize) -> N
    where
        F: Fields<Struct: BsonSchema>,
        N: AsPath<RootOf<F>> + From<Path<RootOf<F>, NodeValue<F, N>, <N as AsPath<RootOf<F>>>::Access>>,
        NodeValue<F, N>: BsonSchema + Serialize,
    {
        let meta = F::Struct::OBJECT.expect("a derived struct has a field table");
        IsPath::path(&**fields).field_at(meta, index, encode_schema::<NodeValue<F, N>>).into()
    }

    /// The value type of node `N` below the fields `F`.
    type NodeValue<F, N> = <N as AsPath<RootOf<F>>>::Value;
}

impl<R, W, A> Path<R, W, A> {
    /// The field at `index` of the table of `S` below this path, encoded with `enc` (a serde converter, or a
    /// type's own serializer). Used by generated code.
    #[doc(hidden)]
    #[inline]
    pub fn __field_with<S: BsonSchema, F, FA: Access>(&self, index: usize, enc: Encoder<F>) -> Path<R, F, A::Child<FA>>
    where
        A: Access,
    {
        let meta = S::OBJECT.expect("a derived struct has a field table");
        self.field_at(meta, index, enc)
    }

    /// The root of the variant at `variant` of the polymorphic model `S`, as a value of type `W2` (the model, or
    /// the struct a newtype variant wraps): its fields' paths carry the discriminator. Used by generated code.
    #[doc(hidden)]
    pub fn __variant<S: BsonSchema, W2: BsonSchema + Serialize>(&self, variant: usize) -> Path<R, W2, A> {
        let mut raw = self.raw.clone();
        let meta = S::OBJECT.expect("a polymorphic model has a table");
        if let Some((tag, value)) = meta.variants[variant].tag {
            raw.set_variant(tag, value);
        }
        Path::with_raw(raw)
    }

    /// The field at `index` of the variant at `variant` of the polymorphic model `S` below this path, encoded by
    /// its type. Used by generated code.
    #[doc(hidden)]
    #[inline]
    pub fn __variant_field<S: BsonSchema, F: BsonSchema + Serialize, FA: Access>(
        &self,
        variant: usize,
        index: usize,
    ) -> FieldNode<R, F, A, FA>
    where
        A: Access,
    {
        self.__variant_field_with::<S, F, FA>(variant, index, encode_schema::<F>).into()
    }

    /// [`Path::__variant_field`] encoded with `enc`. Used by generated code.
    #[doc(hidden)]
    #[inline]
    pub fn __variant_field_with<S: BsonSchema, F, FA: Access>(
        &self,
        variant: usize,
        index: usize,
        enc: Encoder<F>,
    ) -> Path<R, F, A::Child<FA>>
    where
        A: Access,
    {
        let meta = S::OBJECT.expect("a polymorphic model has a table");
        self.field_at(&meta.variants[variant], index, enc)
    }

    fn retyped<W2: BsonSchema + Serialize, A2>(&self, raw: RawPath) -> Path<R, W2, A2> {
        Path::with_raw(raw)
    }

    pub(crate) fn with_raw(raw: RawPath) -> Self
    where
        W: BsonSchema + Serialize,
    {
        Path::from_raw(raw, encode_schema::<W>)
    }
}

impl<R, W, A: Access> AsPath<R> for Path<R, W, A> {
    type Value = W;
    type Access = A;
    fn as_path(&self) -> &Path<R, W, A> {
        self
    }
}

/// A stored array: `Vec`, `VecDeque`, sets, fixed-size arrays, and `Option`s of them.
pub trait ArrayLike {
    /// The element type.
    type Item: BsonSchema + Serialize;
}

impl<T: BsonSchema + Serialize> ArrayLike for Vec<T> {
    type Item = T;
}
impl<T: BsonSchema + Serialize> ArrayLike for VecDeque<T> {
    type Item = T;
}
impl<T: BsonSchema + Serialize> ArrayLike for BTreeSet<T> {
    type Item = T;
}
impl<T: BsonSchema + Serialize, S> ArrayLike for HashSet<T, S> {
    type Item = T;
}
impl<T: BsonSchema + Serialize, const N: usize> ArrayLike for [T; N] {
    type Item = T;
}
impl<T: ArrayLike> ArrayLike for Option<T> {
    type Item = T::Item;
}

/// A stored map with string keys.
pub trait MapLike {
    /// The value type.
    type Value: BsonSchema + Serialize;
}
impl<V: BsonSchema + Serialize, S> MapLike for HashMap<String, V, S> {
    type Value = V;
}
impl<V: BsonSchema + Serialize> MapLike for BTreeMap<String, V> {
    type Value = V;
}
impl<T: MapLike> MapLike for Option<T> {
    type Value = T::Value;
}

/// The node of a field of type `T` with access marker `M`, below a path with access `A` (what a generated field
/// method returns).
pub type FieldNode<R, T, A, M> = <T as BsonSchema>::Node<R, T, <A as Access>::Child<M>>;

/// [`FieldNode`] below the path `P` (what a derived struct's field method returns: its `…Fields` struct is generic
/// over the one path type, not over the path's three parameters).
pub type FieldNodeOf<P, T, M> = FieldNode<<P as IsPath>::Root, T, <P as IsPath>::Access, M>;

/// The path of a field of type `T` with access marker `M` below the path `P` (what the field method of a field
/// stored through a converter returns).
pub type FieldPathOf<P, T, M> = Path<<P as IsPath>::Root, T, <<P as IsPath>::Access as Access>::Child<M>>;

/// The path `P` taken as holding `W`, with `P`'s access: the root of one variant of a polymorphic model (`W` the
/// model, or a unit or tuple variant), whose fields' paths carry the discriminator.
pub type VariantPathOf<P, W> = Path<<P as IsPath>::Root, W, <P as IsPath>::Access>;

/// The node of `T` at the path `P` taken as holding `T`: a newtype variant of a polymorphic model, wrapping `T`.
pub type VariantNodeOf<P, T> = <T as BsonSchema>::Node<<P as IsPath>::Root, T, <P as IsPath>::Access>;

/// The node type of an array's elements.
pub type ElemNode<R, W, A> =
    <<W as ArrayLike>::Item as BsonSchema>::Node<R, <W as ArrayLike>::Item, <A as Access>::Elem>;

impl<R, W: ArrayLike, A: Access> ArrayNode<R, W, A> {
    /// Every element (`$[]`).
    pub fn each(&self) -> ElemNode<R, W, A> {
        let raw = self.path.raw.descend_positional(self.path.raw.join_static("$[]"));
        self.path.retyped::<W::Item, A::Elem>(raw).into()
    }

    /// The first element the update's filter matched (`$`). The filter must name this array.
    pub fn matched(&self) -> ElemNode<R, W, A> {
        let raw = self.path.raw.descend_positional(self.path.raw.join_static("$"));
        self.path.retyped::<W::Item, A::Elem>(raw).into()
    }

    /// The element at `index`.
    pub fn at(&self, index: usize) -> ElemNode<R, W, A> {
        let raw = self.path.raw.descend(self.path.raw.join(&index.to_string()));
        self.path.retyped::<W::Item, A::Elem>(raw).into()
    }

    /// A path to the element itself, relative to `$elemMatch` (no key).
    pub(crate) fn element_root(&self) -> ElemNode<R, W, A> {
        self.path.retyped::<W::Item, A::Elem>(RawPath::default()).into()
    }
}

impl<R, W: MapLike, A: Access> MapNode<R, W, A> {
    /// The entry under `key`. A key MongoDB cannot address (empty, leading `$`, containing `.` or NUL) makes any
    /// filter or update using the path fail before sending.
    // An entry is a field with a run-time name, not an element: it takes the map's own marker as a field would.
    pub fn entry(&self, key: &str) -> <W::Value as BsonSchema>::Node<R, W::Value, A::Child<Plain>> {
        let mut raw = self.path.raw.descend(self.path.raw.join(key));
        let problem = crate::keys::path_defect(key);
        if let Some(p) = problem {
            let under = NamedPath::at(self.path.raw.key.as_ref());
            raw.set_defect(|| Invalid::PathKey { under, key: key.to_owned(), reason: p });
        }
        self.path.retyped::<W::Value, A::Child<Plain>>(raw).into()
    }
}
