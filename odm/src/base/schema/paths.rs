//! What of typed paths needs [`BsonSchema`]: encoding a value by its type, the paths generated code builds field by
//! field, and the nodes of arrays' elements and maps' entries. Above the trait, which names the path types.

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use crate::base::error::{Invalid, NamedPath};
use crate::base::path::{
    check_dynamic_keys, unencodable, Access, ArrayNode, AsPath, Encoder, Fields, IsPath, MapNode, Path, Plain, RawPath,
};
use crate::base::schema::BsonSchema;

/// The encoder typed paths use by default; generated code reaches it through `odm::__private` only.
pub(crate) mod encode {
    use super::{check_dynamic_keys, unencodable, BsonSchema};
    use crate::base::path::EncoderInput;
    use bson::Bson;
    use serde::Serialize;

    /// Encodes through [`BsonSchema::into_bson`] (an owned value) or [`BsonSchema::to_bson`], which convert scalars
    /// directly; keys are walked only when the type can carry run-time keys (maps, free-form documents).
    #[inline]
    pub fn encode_schema<W: BsonSchema + Serialize>(
        value: EncoderInput<'_, W>,
        at: &str,
    ) -> Result<Bson, crate::base::error::Invalid> {
        let v = match value {
            EncoderInput::Owned(v) => W::into_bson(v),
            EncoderInput::Borrowed(v) => W::to_bson(v),
        }
        .map_err(|e| unencodable(at, e))?;
        // A bounded depth: a recursive type answers `true` (walk) rather than recurse without end.
        if W::dynamic_keys(crate::base::schema::KEY_DEPTH) {
            check_dynamic_keys(&v, at)?;
        }
        Ok(v)
    }
}

pub(crate) use encode::encode_schema;

/// What generated path methods call; reachable only through `odm::__private`, so it is no part of the public API.
pub(crate) mod generated {
    use super::{encode_schema, AsPath, BsonSchema, Fields, Path};
    use crate::base::path::types::{IsPath, RootOf};
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
impl<V: BsonSchema + Serialize, S> MapLike for indexmap::IndexMap<String, V, S> {
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
        let problem = crate::base::keys::path_defect(key);
        if let Some(p) = problem {
            let under = NamedPath::at(self.path.raw.key.as_ref());
            raw.set_defect(|| Invalid::PathKey { under, key: key.to_owned(), reason: p });
        }
        self.path.retyped::<W::Value, A::Child<Plain>>(raw).into()
    }
}
