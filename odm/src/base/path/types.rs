//! The path types every layer names: access markers, raw and typed paths, and the node wrappers of arrays and maps.
//! They know stored keys and encoders only; navigating by a stored type ([`BsonSchema`](crate::BsonSchema)'s
//! `Node`) is the parent module's part, so the schema can name these types without importing it.
//!
//! One file, over the usual length: [`RawPath`] and the typed [`Path`] over it are built and descended together (a
//! field, an element, a map value), and splitting them would make each half reach into the other's private parts.

use bson::Bson;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::Deref;

use crate::base::computed::Computed;
use crate::base::error::{Invalid, NamedPath};
use crate::base::kind::BsonKind;
use crate::base::meta::{FieldMeta, TypeMeta};

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
    Plain: child = F, elem = InArray<Plain>;
    /// An array with a counter: only operations that keep the counter in step.
    Counted: child = F, elem = InArray<Plain>;
    /// An array declared a set (`#[odm(unique_items)]`): the validator refuses duplicates, so it takes
    /// `add_to_set`, never `push`.
    Set: child = F, elem = InArray<Plain>;
    /// A set with a counter (`#[odm(counter = "…", unique_items)]`): as [`Counted`], and since it holds each value
    /// at most once, `pull` of one value removes exactly one element, so the counter can follow it too.
    CountedSet: child = F, elem = InArray<Plain>;
    /// `_id` and everything under it: immutable (the server answers 66 `ImmutableField`).
    IdField: child = IdField, elem = IdField;
    /// A declared shard-key field: immutable once written (typed updates never move a document between shards).
    ShardKeyField: child = ShardKeyField, elem = ShardKeyField;
    /// An array counter: it changes only together with its array.
    CounterField: child = CounterField, elem = CounterField;
    /// A computed field (`#[odm(sum = "…")]`, `min`, `max`): it changes only together with its array.
    ComputedField: child = ComputedField, elem = ComputedField;
    /// The model's revision (`#[odm(revision)]`): every typed write bumps it by one, so no update sets it.
    RevisionField: child = RevisionField, elem = RevisionField;
}

/// A path through an element of an array (`items().each().price()`, `items().at(2)`, the element `any` and
/// `filtered` name), whose marker outside an array would be `A`: it allows the writes `A` allows, but it names a
/// value in each element rather than one value per document, so a field-to-field condition, which reads one value
/// per document (`$expr`), refuses it at compile time (rule
/// [`filter-field-compare`](crate::rules#filter-field-compare)).
pub struct InArray<A>(std::convert::Infallible, PhantomData<fn() -> A>);

impl<A: Access> Access for InArray<A> {
    // A field of an element, however deep, is still inside the array. An array inside an element is `Plain` or
    // `Counted` (`_id`, shard keys and the revision are top-level fields; a counter is an integer), whose `Elem`
    // is already `InArray<Plain>`: the marker never nests.
    type Child<F: Access> = InArray<A::Child<F>>;
    type Elem = A::Elem;
}

impl<A> fmt::Debug for InArray<A> {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {}
    }
}

impl<A> Clone for InArray<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for InArray<A> {}

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
    /// The field's entry in its type's table, for a path that ends at a declared field: what typed writes to it need
    /// to know (its `keep_last`, overflow, computed fields, whether `None` is written as an absent key). A reference
    /// rather than copies of each part: paths are built and moved for every statement, and most parts are unset.
    pub(crate) field: Option<&'static FieldMeta>,
    /// For a counted array: its counter's entry, a sibling of the array's last segment (see
    /// [`RawPath::counter_key`]).
    pub(crate) counter: Option<&'static FieldMeta>,
    /// True when the path goes through a positional segment (`$`, `$[]`, `$[id]`).
    pub(crate) positional: bool,
    /// Array filters and defects, boxed: most paths have neither, and paths are moved often.
    extra: Rare,
}

/// The boxed [`PathExtra`] of a [`RawPath`], if any. Every typed filter and update drops its paths; dropping one
/// without extra parts is a test of the pointer here, not a call into `Box`'s drop glue.
#[derive(Clone, Debug, Default)]
struct Rare(ManuallyDrop<Option<Box<PathExtra>>>);

impl Drop for Rare {
    #[inline]
    fn drop(&mut self) {
        // `take` leaves `None`, which `ManuallyDrop` then never drops: nothing leaks, nothing is dropped twice.
        if let Some(extra) = self.0.take() {
            drop_extra(extra);
        }
    }
}

/// Drops the extra parts, out of line: the drop glue of [`PathExtra`] stays out of every path's inlined drop.
#[inline(never)]
fn drop_extra(extra: Box<PathExtra>) {
    drop(extra);
}

impl Deref for Rare {
    type Target = Option<Box<PathExtra>>;
    fn deref(&self) -> &Option<Box<PathExtra>> {
        &self.0
    }
}

impl std::ops::DerefMut for Rare {
    fn deref_mut(&mut self) -> &mut Option<Box<PathExtra>> {
        &mut self.0
    }
}

/// The rarely present parts of a [`RawPath`].
#[derive(Clone, Debug, Default)]
struct PathExtra {
    array_filters: Vec<ArrayFilter>,
    /// A problem found while building the path (bad map key, bad identifier), reported when it is used.
    defect: Option<Invalid>,
    /// For a path into one variant of a polymorphic model: the discriminator key and the variant's value, which a
    /// filter on the path adds (so it never matches another variant) and an update on it requires.
    variant: Option<(&'static str, &'static str)>,
    /// For a path below an array with computed fields: the length of the array's own key and what is computed from
    /// its elements, so that a write to an element's summarized value is refused.
    computed_above: Option<(usize, &'static [Computed])>,
}

impl RawPath {
    /// The stored key path, dot-separated (`it.$[].p`).
    pub fn key(&self) -> &str {
        &self.key
    }

    /// A path of one static segment and nothing else (an array filter's identifier, as its condition names it).
    pub(crate) fn from_key(key: &'static str) -> RawPath {
        RawPath { key: Cow::Borrowed(key), ..RawPath::default() }
    }

    /// Appends `segment` (already a valid stored segment) to this path.
    pub(crate) fn join(&self, segment: &str) -> Cow<'static, str> {
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

    pub(crate) fn join_static(&self, segment: &'static str) -> Cow<'static, str> {
        if self.key.is_empty() {
            Cow::Borrowed(segment)
        } else {
            self.join(segment)
        }
    }

    /// The path of a field below this one, at `key` (positional when this one is).
    pub(crate) fn descend(&self, key: Cow<'static, str>) -> RawPath {
        self.descend_to(key, self.positional)
    }

    /// The path below this one through a positional operator (`$`, `$[]`, `$[name]`): an update can name it, a
    /// filter cannot.
    pub(crate) fn descend_positional(&self, key: Cow<'static, str>) -> RawPath {
        self.descend_to(key, true)
    }

    fn descend_to(&self, key: Cow<'static, str>, positional: bool) -> RawPath {
        RawPath { key, field: None, counter: None, positional, extra: self.descended_extra() }
    }

    /// The extra parts a path below this one inherits, with the computed fields of this array when it has some.
    fn descended_extra(&self) -> Rare {
        let mut extra = self.extra.clone();
        let computes = self.computes();
        if !computes.is_empty() {
            extra.get_or_insert_with(Box::default).computed_above = Some((self.key.len(), computes));
        }
        extra
    }

    /// For a path below an array with computed fields: the array's stored key and what is computed from it.
    pub(crate) fn computed_above(&self) -> Option<(&str, &'static [Computed])> {
        let (len, computes) = self.extra.as_ref()?.computed_above?;
        Some((&self.key[..len], computes))
    }

    /// For a counted array: its counter's stored key (the last segment).
    #[inline]
    pub(crate) fn counter(&self) -> Option<&'static str> {
        self.counter.map(|c| c.key)
    }

    /// True when the counter is a `long` (its `$set` must write a long, or the validator refuses it).
    #[inline]
    pub(crate) fn counter_long(&self) -> bool {
        self.counter.is_some_and(|c| c.ty.kind == BsonKind::Long)
    }

    /// For an array declared `keep_last`: how many elements pushes keep.
    #[inline]
    pub(crate) fn keep_last(&self) -> Option<u32> {
        self.field.and_then(|f| f.keep_last)
    }

    /// True for an array whose cut elements an overflow collection keeps: only `PushKeeping` pushes to it.
    #[inline]
    pub(crate) fn overflows(&self) -> bool {
        self.field.is_some_and(|f| f.overflows)
    }

    /// For an array with computed fields (`#[odm(sum = "…")]`, `min`, `max`): what each holds, so writes to the
    /// array keep them in step.
    #[inline]
    pub(crate) fn computes(&self) -> &'static [Computed] {
        self.field.map_or(&[], |f| f.computes)
    }

    /// True when `None` is written as an absent key (so setting `None` means `$unset`).
    #[inline]
    pub(crate) fn none_is_absent(&self) -> bool {
        self.field.is_some_and(|f| f.optional)
    }

    /// For a counted array: the counter's stored path, beside the array (`a.b.it` → `a.b.ic`). Computed when
    /// needed, so paths to nested counted arrays cost no allocation until a write uses the counter.
    #[inline]
    pub(crate) fn counter_key(&self) -> Option<Cow<'static, str>> {
        let counter = self.counter()?;
        Some(match &self.key {
            // Static keys are a model's own fields (joined paths are owned): no parent to prefix.
            Cow::Borrowed(key) => {
                debug_assert!(!key.contains('.'), "static keys are single segments");
                Cow::Borrowed(counter)
            }
            Cow::Owned(key) => beside(key, counter),
        })
    }

    /// True when the path has no defect, variant, array filter or positional segment: a filter or update takes its
    /// key as it is.
    #[inline]
    pub(crate) fn is_plain(&self) -> bool {
        self.is_bare() && !self.positional
    }

    /// True when the path has no defect, variant or array filter (positional segments aside).
    #[inline]
    pub(crate) fn is_bare(&self) -> bool {
        self.extra.is_none()
    }

    /// The path's problem, if building it found one (bad map key, bad identifier).
    #[inline]
    pub(crate) fn check(&self) -> Result<(), Invalid> {
        match self.extra.as_ref().and_then(|e| e.defect.as_ref()) {
            Some(d) => Err(d.clone()),
            None => Ok(()),
        }
    }

    /// Records a problem, keeping the first one.
    pub(crate) fn set_defect(&mut self, why: impl FnOnce() -> Invalid) {
        let extra = self.extra.get_or_insert_with(Box::default);
        if extra.defect.is_none() {
            extra.defect = Some(why());
        }
    }

    /// The discriminator and value of the variant this path goes into, for a path into a polymorphic model.
    pub fn variant(&self) -> Option<(&'static str, &'static str)> {
        self.extra.as_ref()?.variant
    }

    /// Marks the path as going into the variant holding `value` under the discriminator `tag`.
    pub(crate) fn set_variant(&mut self, tag: &'static str, value: &'static str) {
        self.extra.get_or_insert_with(Box::default).variant = Some((tag, value));
    }

    /// Adds the `arrayFilters` entry of a filtered positional segment (`$[id]`) on this path.
    pub(crate) fn add_array_filter(&mut self, filter: ArrayFilter) {
        self.extra.get_or_insert_with(Box::default).array_filters.push(filter);
    }

    /// The `arrayFilters` entries of the filtered positional segments on this path.
    pub(crate) fn array_filters(&self) -> &[ArrayFilter] {
        self.extra.as_ref().map_or(&[], |e| &e.array_filters)
    }
}

/// The path of `counter` beside the last segment of `key` (`a.b.it` → `a.b.ic`; `it` → `ic`).
pub(crate) fn beside(key: &str, counter: &'static str) -> Cow<'static, str> {
    match key.rfind('.') {
        None => Cow::Borrowed(counter),
        Some(dot) => Cow::Owned(format!("{}{counter}", &key[..=dot])),
    }
}

/// Encodes a value for the stored path `at` the way the field's serializer writes it (through a serde converter when
/// the field has one), refusing run-time keys that could be read as operators or paths. The error holds `at` for the
/// collection to name in Rust terms; [`crate::Update::build`] and the collection show it.
pub type Encoder<W> = fn(EncoderInput<'_, W>, &str) -> Result<Bson, Invalid>;

/// The value an [`Encoder`] encodes: a filter's or update's operand, owned, which encoding may move from (a `String`
/// becomes the BSON string without a copy), or a model's field, borrowed (what a diff compares).
pub enum EncoderInput<'a, W> {
    /// A value the encoding may consume.
    Owned(W),
    /// A value the encoding only reads.
    Borrowed(&'a W),
}

impl<W> EncoderInput<'_, W> {
    /// The value, read.
    #[inline]
    pub fn get(&self) -> &W {
        match self {
            EncoderInput::Owned(v) => v,
            EncoderInput::Borrowed(v) => v,
        }
    }
}

/// Serializes with `W`'s own `Serialize` impl (mixed fields, serde converters), then checks every key: such values
/// may carry keys chosen at run time.
pub fn encode_value<W: Serialize>(value: EncoderInput<'_, W>, at: &str) -> Result<Bson, Invalid> {
    let v = bson::serialize_to_bson(value.get()).map_err(|e| unencodable(at, e))?;
    check_dynamic_keys(&v, at)?;
    Ok(v)
}

/// Checks a value a serde converter wrote for the stored path `at` (its keys are not known to the type).
#[doc(hidden)]
pub fn encode_converted(value: Result<Bson, bson::error::Error>, at: &str) -> Result<Bson, Invalid> {
    let v = value.map_err(|e| unencodable(at, e))?;
    check_dynamic_keys(&v, at)?;
    Ok(v)
}

/// The error of a value that does not encode at stored path `at`.
pub(crate) fn unencodable(at: &str, e: bson::error::Error) -> Invalid {
    Invalid::Unencodable { path: NamedPath::at(at), source: Box::new(e) }
}

/// Refuses values whose run-time keys (maps, free-form documents) could be read as operators or paths.
pub(crate) fn check_dynamic_keys(value: &Bson, at: &str) -> Result<(), Invalid> {
    match crate::base::keys::first_bad(value) {
        Some(bad) => Err(Invalid::ValueKey { path: NamedPath::at(at), key: bad.key.to_owned(), reason: bad.why }),
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
    pub(crate) fn encode(&self, value: W) -> Result<Bson, Invalid> {
        (self.enc)(EncoderInput::Owned(value), &self.raw.key)
    }

    /// A path over `raw` that encodes with `enc`.
    pub(crate) fn from_raw(raw: RawPath, enc: Encoder<W>) -> Self {
        Path { raw, enc, _marker: PhantomData }
    }

    /// The root of `R`'s paths. Used by generated code.
    #[doc(hidden)]
    pub fn __root() -> Self
    where
        W: Serialize,
    {
        Path { raw: RawPath::default(), enc: encode_value::<W>, _marker: PhantomData }
    }

    /// The field at `index` of `meta` below this path, encoded with `enc`. The access marker `B` is the caller's to
    /// choose (the field's own marker below this path's access).
    #[inline]
    pub(crate) fn field_at<F, B>(&self, meta: &'static TypeMeta, index: usize, enc: Encoder<F>) -> Path<R, F, B> {
        let field = &meta.fields[index];
        let counter = field.counter.and_then(|c| meta.fields.get(c));
        let raw = if self.raw.key.is_empty() && self.raw.extra.is_none() {
            // A model's own field: every part is static, nothing to copy from the parent.
            RawPath {
                key: Cow::Borrowed(field.key),
                field: Some(field),
                counter,
                positional: false,
                extra: Rare::default(),
            }
        } else {
            let mut raw = self.raw.descend(self.raw.join(field.key));
            raw.field = Some(field);
            raw.counter = counter;
            raw
        };
        Path { raw, enc, _marker: PhantomData }
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

/// The node of a type's paths: plain types give a [`Path`], arrays an [`ArrayNode`], maps a [`MapNode`], derived
/// structs an [`Object`] of their generated `…Fields` struct. Every node dereferences to its [`Path`] (an
/// [`Object`] through its `…Fields`).
pub trait PathNode<R, W, A: Access>: AsPath<R, Value = W, Access = A> + From<Path<R, W, A>> {}
impl<R, W, A: Access, T: AsPath<R, Value = W, Access = A> + From<Path<R, W, A>>> PathNode<R, W, A> for T {}

macro_rules! node {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<R, W, A> {
            pub(crate) path: Path<R, W, A>,
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

/// A generated `…Fields` struct: one method per field of a derived struct, over the path of the struct itself (which
/// it dereferences to). Implemented by `#[derive(Model)]` and `#[derive(Embedded)]`.
pub trait Fields: Deref<Target: IsPath> + Sized {
    /// The derived type whose fields these are (its field table gives each field's key and options).
    type Struct;
    /// The fields over `path`.
    fn from_path(path: Self::Target) -> Self;
}

/// [`Path`] itself, with its type parameters as associated types (what [`Fields`] dereferences to). A derived
/// struct's `…Fields<P>` is generic over this one path type `P` rather than over its three parameters.
pub trait IsPath: Clone + fmt::Debug {
    /// The model the path starts from.
    type Root;
    /// The value type at the path.
    type Value;
    /// The access marker.
    type Access: Access;
    /// The path.
    fn path(&self) -> &Path<Self::Root, Self::Value, Self::Access>;
}

impl<R, W, A: Access> IsPath for Path<R, W, A> {
    type Root = R;
    type Value = W;
    type Access = A;
    fn path(&self) -> &Path<R, W, A> {
        self
    }
}

/// The path type under `F`, and its parts.
type PathOf<F> = <F as Deref>::Target;
pub(crate) type RootOf<F> = <PathOf<F> as IsPath>::Root;
type ValueOf<F> = <PathOf<F> as IsPath>::Value;
type AccessOf<F> = <PathOf<F> as IsPath>::Access;

/// The node of a derived struct below the root (`order.customer()`, `order.items().each()`): dereferences to the
/// struct's generated `…Fields`, so its field methods and, through them, its [`Path`]'s methods apply. The impls
/// every node needs are here once, not generated for each struct.
pub struct Object<F>(F);

impl<F: Fields> From<Path<RootOf<F>, ValueOf<F>, AccessOf<F>>> for Object<F>
where
    PathOf<F>: From<Path<RootOf<F>, ValueOf<F>, AccessOf<F>>>,
{
    fn from(path: Path<RootOf<F>, ValueOf<F>, AccessOf<F>>) -> Self {
        Object(F::from_path(path.into()))
    }
}

impl<F> Deref for Object<F> {
    type Target = F;
    fn deref(&self) -> &F {
        &self.0
    }
}

impl<F: Fields> AsPath<RootOf<F>> for Object<F> {
    type Value = ValueOf<F>;
    type Access = AccessOf<F>;
    fn as_path(&self) -> &Path<RootOf<F>, ValueOf<F>, AccessOf<F>> {
        (*self.0).path()
    }
}

impl<F: Fields> Clone for Object<F> {
    fn clone(&self) -> Self {
        Object(F::from_path((*self.0).clone()))
    }
}

impl<F: Fields> fmt::Debug for Object<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (*self.0).fmt(f)
    }
}

/// The paths into one variant of a polymorphic model (`Event::fields().purchase()`): dereferences to the variant's
/// fields (`.amount()`), each of which carries the discriminator. A filter on such a path adds `{tag: value}` itself,
/// so it never matches documents of another variant; an update on it applies only to documents of that variant.
/// [`Variant::only`] is the filter on the discriminator alone. A field every variant stores alike (same key and
/// type, declared by a struct variant or by the struct a newtype variant wraps) also has a path on the model itself
/// (`Event::fields().user()`), which carries no discriminator and so matches every variant's documents.
pub struct Variant<N>(N);

impl<N> Variant<N> {
    /// The variant's node. Used by generated code.
    #[doc(hidden)]
    pub fn __new(node: N) -> Self {
        Variant(node)
    }
}

impl<N> Deref for Variant<N> {
    type Target = N;
    fn deref(&self) -> &N {
        &self.0
    }
}

impl<N: fmt::Debug> fmt::Debug for Variant<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
