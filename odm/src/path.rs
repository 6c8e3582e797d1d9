//! Typed field paths: each carries its stored key path (short keys included) and the Rust type of the value there.
//!
//! `#[derive(Model)]` generates `Order::fields()`, a tree of paths mirroring the struct. A path knows its root model
//! `R`, its value type `W` and an [`Access`] marker `A` that says which writes it accepts: `_id`, shard-key fields and
//! array counters have no setter at all, and counted arrays only offer operations whose effect on the length is known.
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

use bson::Bson;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use crate::meta::Marked;
use crate::schema::BsonSchema;

/// What a path lets you write. Markers are types so that a forbidden write is a compile error at the call.
pub trait Access: 'static {
    /// The marker of a field below this one whose own marker is `F` (immutability is inherited).
    type Child<F: Access>: Access;
    /// The marker of an element of an array at this path.
    type Elem: Access;
}

macro_rules! markers {
    ($($(#[$doc:meta])* $name:ident: child = $child:ty, elem = $elem:ty;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub enum $name {}
        impl Access for $name {
            type Child<F: Access> = $child;
            type Elem = $elem;
        }
    )*};
}

markers! {
    /// The document itself (`Order::fields()`): only its fields are paths.
    Root: child = F, elem = Plain;
    /// An ordinary field: every operator its type allows.
    Plain: child = F, elem = Plain;
    /// An array with a counter: only operations that keep the counter in step.
    Counted: child = F, elem = Plain;
    /// `_id` and everything under it: immutable (the server answers 66 `ImmutableField`).
    IdField: child = IdField, elem = IdField;
    /// A declared shard-key field: immutable once written (typed updates never move a document between shards).
    ShardKeyField: child = ShardKeyField, elem = ShardKeyField;
    /// An array counter: it changes only together with its array.
    CounterField: child = CounterField, elem = CounterField;
}

/// Paths that can be `$set`, `$min`/`$max`-ed, `$inc`-ed, …: plain fields, and counted arrays as a whole (the counter
/// is set to the new length in the same update).
#[diagnostic::on_unimplemented(
    message = "this field has no setter (`{Self}`) (rule `update-protected`)",
    label = "cannot be written by a typed update",
    note = "`_id` (IdField) and shard-key fields (ShardKeyField) never change once written; a counter (CounterField) \
            changes only together with its array: push to the array and odm updates the counter in the same update; \
            the whole document (Root) is written with `replace_one`"
)]
pub trait Settable: Access {}
impl Settable for Plain {}
impl Settable for Counted {}

/// Paths a scalar-only operator (`$inc`, `$unset`, `$currentDate`, …) may target: not a counted array.
#[diagnostic::on_unimplemented(
    message = "this operator cannot write this field (`{Self}`) (rule `update-protected`)",
    label = "not writable by this operator",
    note = "`_id` (IdField) and shard-key fields (ShardKeyField) never change once written; a counter (CounterField) \
            changes only together with its array: push to the array and odm updates the counter in the same update; \
            a counted array (Counted) takes `set` of the whole array and the array operators (`push`, `add_to_set`, \
            `pop_first`, …), which keep its counter in step"
)]
pub trait Writable: Access {}
impl Writable for Plain {}

/// Arrays whose length may change in ways the update cannot know (`$pull`, `$push` with `$slice`): only arrays
/// without a counter.
#[diagnostic::on_unimplemented(
    message = "this operation is not offered on a counted or immutable array (`{Self}`) (rule `update-protected`)",
    label = "its effect on the array's length cannot be known, so a counter could not be kept in step",
    note = "counted arrays (Counted) take `push`, `push_each`, `add_to_set` (guarded), `pop_first`/`pop_last` \
            (guarded) and `set` of the whole array; drop the `counter` to use this operation. Arrays under `_id` \
            (IdField) or a shard key (ShardKeyField) never change once written"
)]
pub trait Uncounted: Access {}
impl Uncounted for Plain {}

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

/// Paths a filter, sort or projection may name: every field (not the document root).
#[diagnostic::on_unimplemented(
    message = "the document root is not a field path (rule `path-model`)",
    label = "name one of its fields"
)]
pub trait Queryable: Access {}
impl Queryable for Plain {}
impl Queryable for Counted {}
impl Queryable for IdField {}
impl Queryable for ShardKeyField {}
impl Queryable for CounterField {}

/// An `arrayFilters` entry contributed by a filtered positional path (`$[id]`).
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayFilter {
    /// The identifier (`id` in `$[id]`).
    pub identifier: &'static str,
    /// The condition document (`{"id.p": {"$gt": 5}}`).
    pub condition: bson::Document,
}

/// The untyped part of a path: stored key path and what typed operations need to know about it.
#[derive(Clone, Debug, Default)]
pub struct RawPath {
    pub(crate) key: Cow<'static, str>,
    /// For a counted array: the counter's stored key, a sibling of the array's last segment (see
    /// [`RawPath::counter_key`]).
    pub(crate) counter: Option<&'static str>,
    /// True when the counter is a `long` (its `$set` must write a long, or the validator refuses it).
    pub(crate) counter_long: bool,
    /// For an array declared `keep_last`: how many elements pushes keep.
    pub(crate) keep_last: Option<u32>,
    /// True when `None` is written as an absent key (so setting `None` means `$unset`).
    pub(crate) none_is_absent: bool,
    /// True when the path goes through a positional segment (`$`, `$[]`, `$[id]`).
    pub(crate) positional: bool,
    /// Array filters and defects, boxed: most paths have neither, and paths are moved often.
    extra: Option<Box<PathExtra>>,
}

/// The rarely present parts of a [`RawPath`].
#[derive(Clone, Debug, Default)]
struct PathExtra {
    array_filters: Vec<ArrayFilter>,
    /// A problem found while building the path (bad map key, bad identifier), reported when it is used.
    defect: Option<String>,
}

impl RawPath {
    /// The stored key path, dot-separated (`it.$[].p`).
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Appends `segment` (already a valid stored segment) to this path.
    fn join(&self, segment: &str) -> Cow<'static, str> {
        if self.key.is_empty() {
            Cow::Owned(segment.to_owned())
        } else {
            let mut s = String::with_capacity(self.key.len() + 1 + segment.len());
            s.push_str(&self.key);
            s.push('.');
            s.push_str(segment);
            Cow::Owned(s)
        }
    }

    fn join_static(&self, segment: &'static str) -> Cow<'static, str> {
        if self.key.is_empty() {
            Cow::Borrowed(segment)
        } else {
            self.join(segment)
        }
    }

    fn descend(&self, key: Cow<'static, str>, positional: bool) -> RawPath {
        RawPath {
            key,
            counter: None,
            counter_long: false,
            keep_last: None,
            none_is_absent: false,
            positional: self.positional || positional,
            extra: self.extra.clone(),
        }
    }

    /// For a counted array: the counter's stored path, beside the array (`a.b.it` → `a.b.ic`). Computed when
    /// needed, so paths to nested counted arrays cost no allocation until a write uses the counter.
    pub(crate) fn counter_key(&self) -> Option<Cow<'static, str>> {
        let counter = self.counter?;
        let parent = match &self.key {
            // Static keys are a model's own fields (joined paths are owned): no parent to prefix.
            Cow::Borrowed(key) => {
                debug_assert!(!key.contains('.'), "static keys are single segments");
                None
            }
            Cow::Owned(key) => key.rfind('.').map(|dot| &key[..=dot]),
        };
        Some(match parent {
            None => Cow::Borrowed(counter),
            Some(parent) => Cow::Owned(format!("{parent}{counter}")),
        })
    }

    /// The path's problem, if building it found one (bad map key, bad identifier).
    #[inline]
    pub(crate) fn check(&self) -> Result<(), String> {
        match self.extra.as_ref().and_then(|e| e.defect.as_ref()) {
            Some(d) => Err(d.clone()),
            None => Ok(()),
        }
    }

    /// Records a problem, keeping the first one.
    fn set_defect(&mut self, why: impl FnOnce() -> String) {
        let extra = self.extra.get_or_insert_with(Box::default);
        if extra.defect.is_none() {
            extra.defect = Some(why());
        }
    }

    /// The `arrayFilters` entries of the filtered positional segments on this path.
    pub(crate) fn array_filters(&self) -> &[ArrayFilter] {
        self.extra.as_ref().map_or(&[], |e| &e.array_filters)
    }
}

/// Encodes a value for the stored path `at` the way the field's serializer writes it (through a serde converter when
/// the field has one), refusing run-time keys that could be read as operators or paths. The error marks `at` for the
/// collection to name in Rust terms; [`crate::Update::build`] and the collection show it.
pub type Encoder<W> = fn(&W, &str) -> Result<Bson, String>;

/// Serializes with `W`'s own `Serialize` impl (mixed fields, serde converters), then checks every key: such values
/// may carry keys chosen at run time.
pub fn encode_value<W: Serialize>(value: &W, at: &str) -> Result<Bson, String> {
    let v = bson::serialize_to_bson(value).map_err(|e| unencodable(at, e))?;
    check_dynamic_keys(&v, at)?;
    Ok(v)
}

/// Encodes through [`BsonSchema::to_bson`], which converts scalars directly; keys are walked only when the type
/// can carry run-time keys (maps, free-form documents).
#[inline]
pub fn encode_schema<W: BsonSchema + Serialize>(value: &W, at: &str) -> Result<Bson, String> {
    let v = W::to_bson(value).map_err(|e| unencodable(at, e))?;
    // A bounded depth: a recursive type answers `true` (walk) rather than recurse without end.
    if W::dynamic_keys(crate::schema::KEY_DEPTH) {
        check_dynamic_keys(&v, at)?;
    }
    Ok(v)
}

/// Checks a value a serde converter wrote for the stored path `at` (its keys are not known to the type).
#[doc(hidden)]
pub fn encode_converted(value: Result<Bson, bson::error::Error>, at: &str) -> Result<Bson, String> {
    let v = value.map_err(|e| unencodable(at, e))?;
    check_dynamic_keys(&v, at)?;
    Ok(v)
}

/// The error of a value that does not encode at stored path `at`.
pub(crate) fn unencodable(at: &str, e: bson::error::Error) -> String {
    format!("{}: cannot serialize the value: {e}", Marked(at))
}

/// Refuses values whose run-time keys (maps, free-form documents) could be read as operators or paths.
pub(crate) fn check_dynamic_keys(value: &Bson, at: &str) -> Result<(), String> {
    match crate::keys::first_bad(value) {
        Some((_, k, why)) => Err(format!("{}: key {k:?} in the value cannot be stored: {why}", Marked(at))),
        None => Ok(()),
    }
}

/// A typed path to a value of type `W` inside documents of model `R`, writable as allowed by `A`.
pub struct Path<R, W, A> {
    pub(crate) raw: RawPath,
    pub(crate) enc: Encoder<W>,
    _marker: PhantomData<fn() -> (R, A)>,
}

impl<R, W, A> Clone for Path<R, W, A> {
    fn clone(&self) -> Self {
        Path { raw: self.raw.clone(), enc: self.enc, _marker: PhantomData }
    }
}

impl<R, W, A> fmt::Debug for Path<R, W, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({:?})", self.raw.key)
    }
}

impl<R, W, A> Path<R, W, A> {
    /// The stored key path, dot-separated, as the server sees it (`it.$[].p`).
    pub fn key(&self) -> &str {
        &self.raw.key
    }

    /// The untyped part of the path.
    pub fn raw(&self) -> &RawPath {
        &self.raw
    }

    /// Encodes a value for this path, refusing run-time keys that could be read as operators or paths.
    #[inline]
    pub(crate) fn encode(&self, value: &W) -> Result<Bson, String> {
        (self.enc)(value, &self.raw.key)
    }

    /// The root of `R`'s paths. Used by generated code.
    #[doc(hidden)]
    pub fn __root() -> Self
    where
        W: Serialize,
    {
        Path { raw: RawPath::default(), enc: encode_value::<W>, _marker: PhantomData }
    }

    /// A field below this path. Used by generated code.
    #[doc(hidden)]
    #[inline]
    pub fn __field<F, FA: Access>(
        &self,
        key: &'static str,
        enc: Encoder<F>,
        counter: Option<(&'static str, crate::schema::BsonKind)>,
        keep_last: Option<u32>,
        none_is_absent: bool,
    ) -> Path<R, F, A::Child<FA>>
    where
        A: Access,
    {
        let counter_long = counter.is_some_and(|(_, kind)| kind == crate::schema::BsonKind::Long);
        let raw = if self.raw.key.is_empty() && self.raw.extra.is_none() {
            // A model's own field: every part is static, nothing to copy from the parent.
            RawPath {
                key: Cow::Borrowed(key),
                counter: counter.map(|(c, _)| c),
                counter_long,
                keep_last,
                none_is_absent,
                positional: false,
                extra: None,
            }
        } else {
            let mut raw = self.raw.descend(self.raw.join(key), false);
            raw.counter = counter.map(|(c, _)| c);
            raw.counter_long = counter_long;
            raw.keep_last = keep_last;
            raw.none_is_absent = none_is_absent;
            raw
        };
        Path { raw, enc, _marker: PhantomData }
    }

    fn retyped<W2: BsonSchema + Serialize, A2>(&self, raw: RawPath) -> Path<R, W2, A2> {
        Path::with_raw(raw)
    }

    pub(crate) fn with_raw(raw: RawPath) -> Self
    where
        W: BsonSchema + Serialize,
    {
        Path { raw, enc: encode_schema::<W>, _marker: PhantomData }
    }
}

/// Converts a path node (a plain path, an array or map node, an embedded struct's fields) into its [`Path`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a path into `{R}` documents (rule `path-model`)",
    label = "expected a path from `{R}::fields()`",
    note = "a path belongs to the model whose `fields()` it was taken from; updates and projections of `{R}` take \
            only paths rooted at `{R}`"
)]
pub trait AsPath<R> {
    /// The value type at the path.
    type Value;
    /// The access marker.
    type Access: Access;
    /// The typed path.
    fn as_path(&self) -> &Path<R, Self::Value, Self::Access>;
}

impl<R, T: AsPath<R>> AsPath<R> for &T {
    type Value = T::Value;
    type Access = T::Access;
    fn as_path(&self) -> &Path<R, T::Value, T::Access> {
        (**self).as_path()
    }
}

impl<R, W, A: Access> AsPath<R> for Path<R, W, A> {
    type Value = W;
    type Access = A;
    fn as_path(&self) -> &Path<R, W, A> {
        self
    }
}

/// The node of a type's paths: plain types give a [`Path`], arrays an [`ArrayNode`], maps a [`MapNode`], derived
/// structs their generated `…Fields` struct. Every node dereferences to its [`Path`].
pub trait PathNode<R, W, A: Access>: AsPath<R, Value = W, Access = A> + From<Path<R, W, A>> {}
impl<R, W, A: Access, T: AsPath<R, Value = W, Access = A> + From<Path<R, W, A>>> PathNode<R, W, A> for T {}

macro_rules! node {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<R, W, A> {
            path: Path<R, W, A>,
        }

        impl<R, W, A> From<Path<R, W, A>> for $name<R, W, A> {
            fn from(path: Path<R, W, A>) -> Self {
                $name { path }
            }
        }

        impl<R, W, A> Deref for $name<R, W, A> {
            type Target = Path<R, W, A>;
            fn deref(&self) -> &Path<R, W, A> {
                &self.path
            }
        }

        impl<R, W, A: Access> AsPath<R> for $name<R, W, A> {
            type Value = W;
            type Access = A;
            fn as_path(&self) -> &Path<R, W, A> {
                &self.path
            }
        }

        impl<R, W, A> Clone for $name<R, W, A> {
            fn clone(&self) -> Self {
                $name { path: self.path.clone() }
            }
        }

        impl<R, W, A> fmt::Debug for $name<R, W, A> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.path.fmt(f)
            }
        }
    };
}

node! {
    /// The path of an array, with paths to its elements: all of them (`$[]`), the one the filter matched (`$`), the
    /// ones an array filter selects (`$[id]`), or one by index.
    ArrayNode
}

node! {
    /// The path of a map (dynamic keys), with paths to its entries.
    MapNode
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

/// The node type of an array's elements.
pub type ElemNode<R, W, A> =
    <<W as ArrayLike>::Item as BsonSchema>::Node<R, <W as ArrayLike>::Item, <A as Access>::Elem>;

impl<R, W: ArrayLike, A: Access> ArrayNode<R, W, A> {
    /// Every element (`$[]`).
    pub fn each(&self) -> ElemNode<R, W, A> {
        let raw = self.path.raw.descend(self.path.raw.join_static("$[]"), true);
        self.path.retyped::<W::Item, A::Elem>(raw).into()
    }

    /// The first element the update's filter matched (`$`). The filter must name this array.
    pub fn matched(&self) -> ElemNode<R, W, A> {
        let raw = self.path.raw.descend(self.path.raw.join_static("$"), true);
        self.path.retyped::<W::Item, A::Elem>(raw).into()
    }

    /// The element at `index`.
    pub fn at(&self, index: usize) -> ElemNode<R, W, A> {
        let raw = self.path.raw.descend(self.path.raw.join(&index.to_string()), false);
        self.path.retyped::<W::Item, A::Elem>(raw).into()
    }

    /// The elements selected by an array filter (`$[identifier]`), whose condition `select` builds from a path to
    /// the element. The condition travels with the path into the update's `arrayFilters`.
    ///
    /// `identifier` must start with a lowercase ASCII letter and be alphanumeric; otherwise the update is refused
    /// before sending.
    pub fn filtered(
        &self,
        identifier: &'static str,
        select: impl FnOnce(ElemNode<R, W, A>) -> crate::filter::Filter<R>,
    ) -> ElemNode<R, W, A> {
        let segment = format!("$[{identifier}]");
        let mut raw = self.path.raw.descend(self.path.raw.join(&segment), true);
        let valid = identifier.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && identifier.chars().all(|c| c.is_ascii_alphanumeric());
        if !valid {
            let key = raw.key.clone();
            raw.set_defect(|| {
                format!(
                    "array filter identifier `{identifier}` in {}: it must start with a lowercase letter and be \
                     alphanumeric",
                    Marked(&key)
                )
            });
        }
        let root = RawPath { key: Cow::Borrowed(identifier), ..RawPath::default() };
        let filter = select(self.path.retyped::<W::Item, A::Elem>(root).into());
        match filter.into_marked() {
            Ok(condition) => {
                raw.extra.get_or_insert_with(Box::default).array_filters.push(ArrayFilter { identifier, condition })
            }
            Err(e) => raw.set_defect(|| e),
        }
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
    pub fn entry(&self, key: &str) -> <W::Value as BsonSchema>::Node<R, W::Value, A::Elem> {
        let mut raw = self.path.raw.descend(self.path.raw.join(key), false);
        let problem = crate::keys::path_defect(key);
        if let Some(p) = problem {
            raw.set_defect(|| format!("map key {key:?} under {} cannot be addressed: {p}", Marked(&self.path.raw.key)));
        }
        self.path.retyped::<W::Value, A::Elem>(raw).into()
    }
}
