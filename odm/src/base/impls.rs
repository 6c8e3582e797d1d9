//! [`BsonSchema`] for the std and `bson` types odm stores faithfully. Above [`crate::schema`], [`crate::path`] and
//! [`crate::diff`] in the layering: their `diff` items call the walks of [`crate::diff`], which themselves need the
//! trait.

use crate::base::diff::{Diff, DiffPath};
use crate::base::meta::TypeMeta;
use crate::base::path::{Access, ArrayNode, MapNode, Path};
use crate::base::schema::diffs as diff;
use crate::base::schema::{array_counter_checks, BsonKind, BsonSchema, CounterCheck, MAP_KEY_PATTERN};
use crate::base::size::{Reason, Size};
use bson::{doc, Bson, Document};
use indexmap::IndexMap;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// A scalar's size: that of its BSON type ([`Size::of_kind`]), unless the impl says otherwise.
macro_rules! size_or_kind {
    ($kind:ident) => {
        Size::of_kind(BsonKind::$kind)
    };
    ($kind:ident $size:expr) => {
        $size
    };
}

macro_rules! scalar {
    ($($ty:ty => $alias:literal, $kind:ident $([$size:expr])? $(, |$v:ident| $conv:expr $(, owned |$o:ident| $own:expr)?)?;)*) => {$(
        impl BsonSchema for $ty {
            const KIND: BsonKind = BsonKind::$kind;
            const SIZE: Size = size_or_kind!($kind $($size)?);
            type Node<R, W, A: Access> = Path<R, W, A>;
            fn bson_schema() -> Document {
                doc! { "bsonType": $alias }
            }
            fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
                diff::by_eq(old, new, at, out)
            }
            $(
                fn to_bson($v: &Self) -> Result<Bson, bson::error::Error> {
                    Ok($conv)
                }
                $(
                    fn into_bson($o: Self) -> Result<Bson, bson::error::Error> {
                        Ok($own)
                    }
                )?
            )?
        }
    )*};
}

// The conversions are what bson's serializer writes for each type (`u32` as `long`, `f32` widened), without the
// serde round trip (an ObjectId goes through hex text there).
scalar! {
    i8 => "int", Int, |v| Bson::Int32(i32::from(*v));
    i16 => "int", Int, |v| Bson::Int32(i32::from(*v));
    i32 => "int", Int, |v| Bson::Int32(*v);
    u8 => "int", Int, |v| Bson::Int32(i32::from(*v));
    u16 => "int", Int, |v| Bson::Int32(i32::from(*v));
    i64 => "long", Long, |v| Bson::Int64(*v);
    u32 => "long", Long, |v| Bson::Int64(i64::from(*v));
    f32 => "double", Double, |v| Bson::Double(f64::from(*v));
    f64 => "double", Double, |v| Bson::Double(*v);
    bool => "bool", Bool, |v| Bson::Boolean(*v);
    // An owned string (an operand) is moved into the BSON string, not copied.
    String => "string", String, |v| Bson::String(v.clone()), owned |v| Bson::String(v);
    bson::oid::ObjectId => "objectId", ObjectId, |v| Bson::ObjectId(*v);
    bson::DateTime => "date", Date, |v| Bson::DateTime(*v);
    bson::Decimal128 => "decimal", Decimal, |v| Bson::Decimal128(*v);
    bson::Binary => "binData", Binary;
    // Length, subtype, 16 bytes.
    bson::Uuid => "binData", Binary [Size::AtMost(4 + 1 + 16)];
    bson::Timestamp => "timestamp", Timestamp, |v| Bson::Timestamp(*v);
}

/// A free-form document: its keys are chosen at run time.
impl BsonSchema for bson::Document {
    const KIND: BsonKind = BsonKind::Map;
    const SIZE: Size = Size::unbounded(Reason::Free);
    type Node<R, W, A: Access> = Path<R, W, A>;
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
        diff::by_eq(old, new, at, out)
    }
    fn bson_schema() -> Document {
        doc! { "bsonType": "object" }
    }
    fn dynamic_keys(_depth: u8) -> bool {
        true
    }
}

impl BsonSchema for char {
    const KIND: BsonKind = BsonKind::String;
    const SIZE: Size = Size::AtMost(crate::base::size::string_bytes(1));
    type Node<R, W, A: Access> = Path<R, W, A>;
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
        diff::by_eq(old, new, at, out)
    }
    fn bson_schema() -> Document {
        doc! { "bsonType": "string", "minLength": 1, "maxLength": 1 }
    }
}

/// The items a wrapper stored as its `T` forwards to `T` (schema, kind, node, metadata, key walk, counter checks),
/// inside its impl.
macro_rules! forwarded_items {
    () => {
        const KIND: BsonKind = T::KIND;
        const ITEM_KIND: Option<BsonKind> = T::ITEM_KIND;
        const BOUNDED: bool = T::BOUNDED;
        const SIZE: Size = T::SIZE;
        type Node<R, W, A: Access> = T::Node<R, W, A>;
        fn bson_schema() -> Document {
            T::bson_schema()
        }
        fn bson_schema_within(closed: bool) -> Document {
            T::bson_schema_within(closed)
        }
        fn type_meta() -> Option<&'static TypeMeta> {
            T::type_meta()
        }
        fn dynamic_keys(depth: u8) -> bool {
            depth == 0 || T::dynamic_keys(depth - 1)
        }
        fn counter_checks(value: &str, depth: usize, out: &mut Vec<CounterCheck>) {
            T::counter_checks(value, depth, out)
        }
    };
}

/// `Option<T>` is stored as `T` when present; absence is expressed by the parent's `required` list.
impl<T: BsonSchema + Serialize> BsonSchema for Option<T> {
    forwarded_items!();
    /// `None` is written as `null` here; a field that is absent when `None` is handled by the parent's
    /// `skip_serializing_if`.
    fn to_bson(value: &Self) -> Result<Bson, bson::error::Error> {
        match value {
            Some(v) => T::to_bson(v),
            None => Ok(Bson::Null),
        }
    }
    fn into_bson(value: Self) -> Result<Bson, bson::error::Error> {
        match value {
            Some(v) => T::into_bson(v),
            None => Ok(Bson::Null),
        }
    }
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
        match (old, new) {
            (None, None) => {}
            (Some(a), Some(b)) => T::diff(a, b, at, out),
            (_, None) => out.set_bson(at, Bson::Null),
            (None, Some(b)) => out.set(at, b),
        }
    }
}

macro_rules! transparent {
    ($($wrapper:ident),*) => {$(
        impl<T: BsonSchema + Serialize> BsonSchema for $wrapper<T> {
            fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) where Self: Serialize {
                T::diff(old, new, at, out)
            }
            fn to_bson(value: &Self) -> Result<Bson, bson::error::Error> where Self: Serialize {
                T::to_bson(value)
            }
            forwarded_items!();
        }
    )*};
}
transparent!(Box, Arc);

fn array_of<T: BsonSchema>(closed: bool) -> Document {
    doc! { "bsonType": "array", "items": T::bson_schema_within(closed) }
}

/// The items every array of `T` shares (schema, element metadata, key walk, counter checks), inside its impl.
macro_rules! array_items {
    () => {
        const KIND: BsonKind = BsonKind::Array;
        const ITEM_KIND: Option<BsonKind> = Some(T::KIND);
        type Node<R, W, A: Access> = ArrayNode<R, W, A>;
        fn type_meta() -> Option<&'static TypeMeta> {
            T::type_meta()
        }
        fn dynamic_keys(depth: u8) -> bool {
            depth == 0 || T::dynamic_keys(depth - 1)
        }
        fn counter_checks(value: &str, depth: usize, out: &mut Vec<CounterCheck>) {
            array_counter_checks::<T>(value, depth, out)
        }
    };
}

/// Arrays without a bound of their own: the field declares it.
macro_rules! unbounded_array_schema {
    () => {
        const SIZE: Size = Size::array_of(T::SIZE);
        fn bson_schema() -> Document {
            array_of::<T>(false)
        }
        fn bson_schema_within(closed: bool) -> Document {
            array_of::<T>(closed)
        }
    };
}

macro_rules! sequence {
    ($($ty:ident),*) => {$(
        impl<T: BsonSchema + Serialize> BsonSchema for $ty<T> {
            array_items!();
            unbounded_array_schema!();
            fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
                diff::sequence(old.iter(), new.iter(), at, out)
            }
        }
    )*};
}
sequence!(Vec, VecDeque, BTreeSet);

/// Unordered: a change is written as the whole new set (the default diff).
impl<T: BsonSchema + Serialize, S> BsonSchema for HashSet<T, S> {
    array_items!();
    unbounded_array_schema!();
}

/// Fixed-size arrays carry their bound: `minItems == maxItems == N`.
impl<T: BsonSchema + Serialize, const N: usize> BsonSchema for [T; N] {
    array_items!();
    const BOUNDED: bool = true;
    const SIZE: Size = Size::fixed_array(T::SIZE, N as u64);
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff)
    where
        Self: Serialize,
    {
        diff::sequence(old.iter(), new.iter(), at, out)
    }
    fn bson_schema() -> Document {
        Self::bson_schema_within(false)
    }
    fn bson_schema_within(closed: bool) -> Document {
        let mut d = array_of::<T>(closed);
        d.insert("minItems", N as i64);
        d.insert("maxItems", N as i64);
        d
    }
}

/// A map: every key must match [`MAP_KEY_PATTERN`] (so a document written around odm with a key `a.b` or `$where`
/// is refused), every value must match `V`.
fn map_of<V: BsonSchema>(closed: bool) -> Document {
    doc! {
        "bsonType": "object",
        "patternProperties": { MAP_KEY_PATTERN: V::bson_schema_within(closed) },
        "additionalProperties": false,
    }
}

macro_rules! map {
    ($($ty:ident$(<$s:ident: $bound:path>)?),*) => {$(
        impl<V: BsonSchema + Serialize $(, $s: $bound)?> BsonSchema for $ty<String, V $(, $s)?> {
            const KIND: BsonKind = BsonKind::Map;
            const SIZE: Size = Size::unbounded(Reason::Map);
            type Node<R, W, A: Access> = MapNode<R, W, A>;
            fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
                diff::map(old.iter(), new.iter(), |k| old.get(k), |k| new.get(k), at, out)
            }
            fn bson_schema() -> Document {
                map_of::<V>(false)
            }
            fn bson_schema_within(closed: bool) -> Document {
                map_of::<V>(closed)
            }
            fn type_meta() -> Option<&'static TypeMeta> {
                V::type_meta()
            }
            fn dynamic_keys(_depth: u8) -> bool {
                true
            }
        }
    )*};
}
map!(HashMap<S: std::hash::BuildHasher>, BTreeMap, IndexMap<S: std::hash::BuildHasher>);
