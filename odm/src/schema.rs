//! The `$jsonSchema` side of a type: what serialization writes, as a validator fragment.
//!
//! [`BsonSchema`] is implemented here for every type odm can store faithfully and by `#[derive(Model)]` /
//! `#[derive(Embedded)]` for user types. A type without an impl cannot be a field, and the compiler says so at the
//! field. The mapping follows what `bson`'s serializer writes: `i8`–`i32`, `u8`, `u16` → `int`; `i64`, `u32` →
//! `long`; `f32`, `f64` → `double` (rule [`type-faithful`](crate::rules#type-faithful)).

use crate::diff::{Diff, DiffPath};
use crate::meta::TypeMeta;
use crate::path::{Access, ArrayNode, MapNode, Path, PathNode};
use bson::{doc, Bson, Document};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// The BSON type family of a Rust type, available in `const` context so the derive can assert on it
/// (e.g. "a counter is an integer", "an array declares its bound") even through type aliases.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BsonKind {
    /// `int` (32-bit).
    Int,
    /// `long` (64-bit).
    Long,
    /// `double`.
    Double,
    /// `decimal`.
    Decimal,
    /// `string`.
    String,
    /// `bool`.
    Bool,
    /// `objectId`.
    ObjectId,
    /// `date`.
    Date,
    /// `timestamp`.
    Timestamp,
    /// `binData`.
    Binary,
    /// A document with known fields (embedded structs, tagged enums).
    Object,
    /// A document with dynamic keys (maps).
    Map,
    /// `array`.
    Array,
    /// Anything else.
    Other,
}

impl BsonKind {
    /// True for `array`.
    pub const fn is_array(self) -> bool {
        matches!(self, BsonKind::Array)
    }

    /// True for a document with keys chosen at run time (maps, `bson::Document`).
    pub const fn is_map(self) -> bool {
        matches!(self, BsonKind::Map)
    }

    /// True for `int` and `long`, the types a counter may have.
    pub const fn is_integer(self) -> bool {
        matches!(self, BsonKind::Int | BsonKind::Long)
    }
}

/// How deep [`BsonSchema::dynamic_keys`] looks before answering `true`. Small on purpose: a type with two
/// recursive fields costs `2^depth` calls, and answering `true` only means a key walk that finds nothing.
pub(crate) const KEY_DEPTH: u8 = 8;

/// A type whose stored form has one BSON type, described as a `$jsonSchema` fragment.
///
/// Implemented by the derives; implement it by hand only for a type whose `Serialize` impl you control.
///
/// ```
/// use odm::BsonSchema;
/// assert_eq!(u32::bson_schema(), odm::bson::doc! { "bsonType": "long" });
/// assert_eq!(Option::<i16>::bson_schema(), odm::bson::doc! { "bsonType": "int" });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as one faithful BSON type (rule `type-faithful`)",
    label = "odm cannot generate a validator for `{Self}`",
    note = "derive `odm::Embedded` for your own structs and enums; use `bson::DateTime` for dates, `i64` instead of \
            `u64`, and `#[odm(mixed)]` only for fields that really hold several types"
)]
pub trait BsonSchema {
    /// The type family, for compile-time assertions.
    const KIND: BsonKind;

    /// For an array, the kind of its elements (a TTL index may expire on an array of dates); `None` otherwise.
    const ITEM_KIND: Option<BsonKind> = None;

    /// True when an array type carries its own bound decision, so a field of this type needs no `max_items`: a
    /// fixed-size array, or a derived newtype whose array field declares `max_items` (or `unbounded`).
    const BOUNDED: bool = false;

    /// The typed-path node of a field of this type inside model `R`, holding a `W` with access `A`: a [`Path`] for
    /// plain values, an [`ArrayNode`] for arrays, a [`MapNode`] for maps, the generated `…Fields` struct for derived
    /// structs. A hand-written impl uses `odm::Path<R, W, A>`.
    type Node<R, W, A: Access>: PathNode<R, W, A>;

    /// The `$jsonSchema` fragment a stored value of this type satisfies.
    fn bson_schema() -> Document;

    /// The fragment of this type inside a document that is `closed` (or not). A closed document closes every
    /// level it owns: a derived struct or enum variant without `#[odm(open)]` inside it gets
    /// `additionalProperties: false` too, through options, boxes, arrays and map values. Free-form values
    /// (`bson::Document`, `#[odm(mixed)]`) stay open. The default ignores the context (scalars have no keys).
    fn bson_schema_within(closed: bool) -> Document {
        let _ = closed;
        Self::bson_schema()
    }

    /// Field names of an embedded type, to translate stored key paths back to Rust paths in errors.
    fn type_meta() -> Option<&'static TypeMeta> {
        None
    }

    /// True when values of this type may carry keys chosen at run time (maps, `bson::Document`, `mixed` fields),
    /// which must then be checked before sending. `depth` bounds the walk through recursive types (`0` answers
    /// `true`, the safe side).
    fn dynamic_keys(depth: u8) -> bool {
        let _ = depth;
        false
    }

    /// Server-side checks (`$expr`) that keep array counters equal to array sizes. `value` is the aggregation
    /// expression of this value (`"$it"`, `"$$e0.v"`); `depth` names `$map` variables uniquely.
    fn counter_checks(value: &str, depth: usize, out: &mut Vec<Bson>) {
        let _ = (value, depth, out);
    }

    /// Encodes a value exactly as `bson`'s serializer writes it. Scalars convert directly; the default serializes.
    fn to_bson(value: &Self) -> Result<Bson, bson::error::Error>
    where
        Self: Serialize + Sized,
    {
        bson::serialize_to_bson(value)
    }

    /// Records in `out` the targeted operators that turn `old` into `new` at stored path `at` (see
    /// [`crate::Update::diff`]). The default compares the serialized forms and writes the whole new value.
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff)
    where
        Self: Serialize + Sized,
    {
        crate::diff::by_value(old, new, at, out)
    }
}

macro_rules! scalar {
    ($($ty:ty => $alias:literal, $kind:ident $(, |$v:ident| $conv:expr)?;)*) => {$(
        impl BsonSchema for $ty {
            const KIND: BsonKind = BsonKind::$kind;
            type Node<R, W, A: Access> = Path<R, W, A>;
            fn bson_schema() -> Document {
                doc! { "bsonType": $alias }
            }
            fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
                crate::diff::by_eq(old, new, at, out)
            }
            $(
                fn to_bson($v: &Self) -> Result<Bson, bson::error::Error> {
                    Ok($conv)
                }
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
    String => "string", String, |v| Bson::String(v.clone());
    bson::oid::ObjectId => "objectId", ObjectId, |v| Bson::ObjectId(*v);
    bson::DateTime => "date", Date, |v| Bson::DateTime(*v);
    bson::Decimal128 => "decimal", Decimal, |v| Bson::Decimal128(*v);
    bson::Binary => "binData", Binary;
    bson::Uuid => "binData", Binary;
    bson::Timestamp => "timestamp", Timestamp, |v| Bson::Timestamp(*v);
}

/// A free-form document: its keys are chosen at run time.
impl BsonSchema for bson::Document {
    const KIND: BsonKind = BsonKind::Map;
    type Node<R, W, A: Access> = Path<R, W, A>;
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
        crate::diff::by_eq(old, new, at, out)
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
    type Node<R, W, A: Access> = Path<R, W, A>;
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
        crate::diff::by_eq(old, new, at, out)
    }
    fn bson_schema() -> Document {
        doc! { "bsonType": "string", "minLength": 1, "maxLength": 1 }
    }
}

/// `Option<T>` is stored as `T` when present; absence is expressed by the parent's `required` list.
impl<T: BsonSchema + Serialize> BsonSchema for Option<T> {
    const KIND: BsonKind = T::KIND;
    const ITEM_KIND: Option<BsonKind> = T::ITEM_KIND;
    const BOUNDED: bool = T::BOUNDED;
    type Node<R, W, A: Access> = T::Node<R, W, A>;
    /// `None` is written as `null` here; a field that is absent when `None` is handled by the parent's
    /// `skip_serializing_if`.
    fn to_bson(value: &Self) -> Result<Bson, bson::error::Error> {
        match value {
            Some(v) => T::to_bson(v),
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
    fn counter_checks(value: &str, depth: usize, out: &mut Vec<Bson>) {
        T::counter_checks(value, depth, out)
    }
}

macro_rules! transparent {
    ($($wrapper:ident),*) => {$(
        impl<T: BsonSchema + Serialize> BsonSchema for $wrapper<T> {
            const KIND: BsonKind = T::KIND;
            const ITEM_KIND: Option<BsonKind> = T::ITEM_KIND;
            const BOUNDED: bool = T::BOUNDED;
            type Node<R, W, A: Access> = T::Node<R, W, A>;
            fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) where Self: Serialize {
                T::diff(old, new, at, out)
            }
            fn to_bson(value: &Self) -> Result<Bson, bson::error::Error> where Self: Serialize {
                T::to_bson(value)
            }
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
            fn counter_checks(value: &str, depth: usize, out: &mut Vec<Bson>) {
                T::counter_checks(value, depth, out)
            }
        }
    )*};
}
transparent!(Box, Arc);

fn array_of<T: BsonSchema>(closed: bool) -> Document {
    doc! { "bsonType": "array", "items": T::bson_schema_within(closed) }
}

/// The checks of the elements' counted arrays, each over every element. One check per counted array, never an `$and`
/// of several: the server reports which clause of the validator failed but not which part of an expression, so a
/// check that holds one pair lets a refused write name that pair (see [`counter_pairs`]).
fn array_counter_checks<T: BsonSchema>(value: &str, depth: usize, out: &mut Vec<Bson>) {
    let var = format!("e{depth}");
    let mut inner = Vec::new();
    T::counter_checks(&format!("$${var}"), depth + 1, &mut inner);
    out.extend(inner.into_iter().map(|check| all_elements(value, &var, check)));
}

macro_rules! sequence {
    ($($ty:ident),*) => {$(
        impl<T: BsonSchema + Serialize> BsonSchema for $ty<T> {
            const KIND: BsonKind = BsonKind::Array;
            const ITEM_KIND: Option<BsonKind> = Some(T::KIND);
            type Node<R, W, A: Access> = ArrayNode<R, W, A>;
            fn bson_schema() -> Document {
                array_of::<T>(false)
            }
            fn bson_schema_within(closed: bool) -> Document {
                array_of::<T>(closed)
            }
            fn type_meta() -> Option<&'static TypeMeta> {
                T::type_meta()
            }
            fn dynamic_keys(depth: u8) -> bool {
                depth == 0 || T::dynamic_keys(depth - 1)
            }
            fn counter_checks(value: &str, depth: usize, out: &mut Vec<Bson>) {
                array_counter_checks::<T>(value, depth, out)
            }
            fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
                crate::diff::sequence(old.iter(), new.iter(), at, out)
            }
        }
    )*};
}
sequence!(Vec, VecDeque, BTreeSet);

impl<T: BsonSchema + Serialize, S> BsonSchema for HashSet<T, S> {
    const KIND: BsonKind = BsonKind::Array;
    const ITEM_KIND: Option<BsonKind> = Some(T::KIND);
    type Node<R, W, A: Access> = ArrayNode<R, W, A>;
    fn bson_schema() -> Document {
        array_of::<T>(false)
    }
    fn bson_schema_within(closed: bool) -> Document {
        array_of::<T>(closed)
    }
    fn type_meta() -> Option<&'static TypeMeta> {
        T::type_meta()
    }
    fn dynamic_keys(depth: u8) -> bool {
        depth == 0 || T::dynamic_keys(depth - 1)
    }
    fn counter_checks(value: &str, depth: usize, out: &mut Vec<Bson>) {
        array_counter_checks::<T>(value, depth, out)
    }
}

/// Fixed-size arrays carry their bound: `minItems == maxItems == N`.
impl<T: BsonSchema + Serialize, const N: usize> BsonSchema for [T; N] {
    const KIND: BsonKind = BsonKind::Array;
    const ITEM_KIND: Option<BsonKind> = Some(T::KIND);
    const BOUNDED: bool = true;
    type Node<R, W, A: Access> = ArrayNode<R, W, A>;
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff)
    where
        Self: Serialize,
    {
        crate::diff::sequence(old.iter(), new.iter(), at, out)
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
    fn type_meta() -> Option<&'static TypeMeta> {
        T::type_meta()
    }
    fn dynamic_keys(depth: u8) -> bool {
        depth == 0 || T::dynamic_keys(depth - 1)
    }
    fn counter_checks(value: &str, depth: usize, out: &mut Vec<Bson>) {
        array_counter_checks::<T>(value, depth, out)
    }
}

/// A key MongoDB can store as data and address in a path: empty, or not starting with `$` and without `.` (NUL
/// cannot occur in a BSON key). The server's half of the check odm makes before sending (rule
/// [`key-map`](crate::rules#key-map)).
pub const MAP_KEY_PATTERN: &str = "^([^$.][^.]*)?$";

/// A map: every key must match [`MAP_KEY_PATTERN`] (so a document written around odm with a key `a.b` or `$where`
/// is refused), every value must match `V`.
fn map_of<V: BsonSchema>(closed: bool) -> Document {
    doc! {
        "bsonType": "object",
        "patternProperties": { MAP_KEY_PATTERN: V::bson_schema_within(closed) },
        "additionalProperties": false,
    }
}

impl<V: BsonSchema + Serialize, S: std::hash::BuildHasher> BsonSchema for HashMap<String, V, S> {
    const KIND: BsonKind = BsonKind::Map;
    type Node<R, W, A: Access> = MapNode<R, W, A>;
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
        crate::diff::map(old.iter(), new.iter(), |k| old.get(k), |k| new.get(k), at, out)
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

impl<V: BsonSchema + Serialize> BsonSchema for BTreeMap<String, V> {
    const KIND: BsonKind = BsonKind::Map;
    type Node<R, W, A: Access> = MapNode<R, W, A>;
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff) {
        crate::diff::map(old.iter(), new.iter(), |k| old.get(k), |k| new.get(k), at, out)
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

/// `$allElementsTrue` over an array, with `$map` binding each element to `var`; a non-array value yields `true`
/// (its type is the `$jsonSchema`'s business, and `$map` over a non-array would abort the validation).
fn all_elements(value: &str, var: &str, check: Bson) -> Bson {
    Bson::from(doc! {
        "$allElementsTrue": [{
            "$map": {
                "input": { "$cond": [{ "$isArray": [value] }, value, []] },
                "as": var,
                "in": check,
            }
        }]
    })
}

/// The `(array, counter)` pairs a counter check compares, as stored paths from the document root with `$[]` for
/// every element of an enclosing array (`("d.$[].m", "d.$[].mc")`): the reading of what [`build::counter_check`] and
/// `all_elements` write, so that a failed check can be named. A check of today's validators holds one pair; an
/// `$and` of several (validators written by earlier versions) yields them all.
pub(crate) fn counter_pairs(check: &Bson) -> Vec<(String, String)> {
    let mut out = Vec::new();
    read_pairs(check, &mut Vec::new(), &mut out);
    out
}

/// `bindings` holds the `$map` variables in scope, each with the stored path of the elements it stands for.
fn read_pairs(check: &Bson, bindings: &mut Vec<(String, String)>, out: &mut Vec<(String, String)>) {
    let Some(d) = check.as_document() else { return };
    let resolve = |expr: &str, bindings: &[(String, String)]| -> Option<String> {
        match expr.strip_prefix("$$") {
            Some(var_path) => {
                let (var, rest) = var_path.split_once('.').map_or((var_path, None), |(v, r)| (v, Some(r)));
                let (_, base) = bindings.iter().rev().find(|(v, _)| v == var)?;
                Some(rest.map_or_else(|| base.clone(), |rest| format!("{base}.{rest}")))
            }
            None => expr.strip_prefix('$').map(str::to_owned),
        }
    };
    // The second argument of `$cond` (`{$size: array}`, or the array itself as `$map`'s input).
    let cond_arg = |v: Option<&Bson>| v?.as_document()?.get_array("$cond").ok()?.get(1).cloned();
    if let Ok(and) = d.get_array("$and") {
        and.iter().for_each(|c| read_pairs(c, bindings, out));
    } else if let Ok([size, count]) = d.get_array("$eq").map(Vec::as_slice) {
        let array = cond_arg(Some(size)).and_then(|s| s.as_document()?.get_str("$size").ok().map(str::to_owned));
        let counter = count.as_document().and_then(|c| c.get_array("$ifNull").ok()?.first()?.as_str());
        if let (Some(array), Some(counter)) = (array, counter) {
            if let (Some(a), Some(c)) = (resolve(&array, bindings), resolve(counter, bindings)) {
                out.push((a, c));
            }
        }
    } else if let Some(map) =
        d.get_array("$allElementsTrue").ok().and_then(|a| a.first()?.as_document()?.get_document("$map").ok())
    {
        let input = cond_arg(map.get("input"));
        let elements = input.as_ref().and_then(|i| resolve(i.as_str()?, bindings));
        if let (Some(elements), Ok(var), Some(inner)) = (elements, map.get_str("as"), map.get("in")) {
            bindings.push((var.to_owned(), format!("{elements}.$[]")));
            read_pairs(inner, bindings, out);
            bindings.pop();
        }
    }
}

/// Builders the derives call; public for generated code only.
#[doc(hidden)]
pub mod build {
    use super::*;

    /// An object schema under construction (field order is preserved, as serialization writes it).
    pub struct ObjectSchema {
        properties: Document,
        required: Vec<Bson>,
    }

    impl Default for ObjectSchema {
        fn default() -> Self {
            Self::new()
        }
    }

    impl ObjectSchema {
        /// An empty object schema.
        pub fn new() -> Self {
            ObjectSchema { properties: Document::new(), required: Vec::new() }
        }

        /// Adds a property; `required` when serialization always writes it.
        pub fn field(&mut self, key: &str, schema: Document, required: bool) -> &mut Self {
            self.properties.insert(key, schema);
            if required {
                self.required.push(Bson::String(key.to_owned()));
            }
            self
        }

        /// Adds `_id: objectId` unless the model declares its own `_id` field (every stored document has one; rule
        /// [`id-objectid`](crate::rules#id-objectid)).
        pub fn implicit_id(&mut self) -> &mut Self {
            if !self.properties.contains_key("_id") {
                let mut props = doc! { "_id": { "bsonType": "objectId" } };
                props.extend(std::mem::take(&mut self.properties));
                self.properties = props;
            }
            self
        }

        /// The finished `{bsonType: "object", …}` document.
        pub fn finish(&mut self, closed: bool, description: Option<&str>) -> Document {
            let mut d = doc! { "bsonType": "object" };
            if let Some(desc) = description {
                d.insert("description", desc);
            }
            if !self.required.is_empty() {
                d.insert("required", std::mem::take(&mut self.required));
            }
            d.insert("properties", std::mem::take(&mut self.properties));
            if closed {
                d.insert("additionalProperties", false);
            }
            d
        }
    }

    /// `{bsonType: <alias>}` for fields whose type a converter or `#[odm(bson_type)]` fixes.
    pub fn fixed(alias: &str) -> Document {
        doc! { "bsonType": alias }
    }

    /// `{}`: any value (`#[odm(mixed)]`).
    pub fn any() -> Document {
        Document::new()
    }

    /// Adds `null` as an accepted value (`#[odm(nullable)]`, rule [`type-option-absent`](crate::rules#type-option-absent)).
    pub fn nullable(mut schema: Document) -> Document {
        if let Ok(list) = schema.get_array_mut("enum") {
            list.push(Bson::Null);
            return schema;
        }
        if schema.contains_key("oneOf") {
            return doc! { "anyOf": [schema, { "bsonType": "null" }] };
        }
        match schema.get("bsonType").cloned() {
            Some(Bson::String(t)) => {
                schema.insert("bsonType", vec![Bson::String(t), Bson::String("null".into())]);
            }
            Some(Bson::Array(mut ts)) => {
                ts.push(Bson::String("null".into()));
                schema.insert("bsonType", ts);
            }
            _ => {}
        }
        schema
    }

    /// Sets a keyword (bounds, lengths) on a field schema.
    pub fn with(mut schema: Document, keyword: &str, value: i64) -> Document {
        schema.insert(keyword, value);
        schema
    }

    /// Sets the `description` (from doc comments).
    pub fn describe(mut schema: Document, description: &str) -> Document {
        schema.insert("description", description);
        schema
    }

    /// `{bsonType: "string", enum: [...]}` for enums of unit variants.
    pub fn string_enum(values: &[&str], description: Option<&str>) -> Document {
        let mut d = doc! { "bsonType": "string", "enum": values.to_vec() };
        if let Some(desc) = description {
            d.insert("description", desc);
        }
        d
    }

    /// Adds the tag property of an internally tagged enum to a variant's object schema.
    pub fn tag_into(mut schema: Document, tag: &str, value: &str) -> Document {
        let mut props = doc! { tag: { "enum": [value] } };
        if let Ok(existing) = schema.get_document("properties") {
            props.extend(existing.clone());
        }
        let mut required = vec![Bson::String(tag.to_owned())];
        if let Ok(existing) = schema.get_array("required") {
            required.extend(existing.iter().filter(|k| k.as_str() != Some(tag)).cloned());
        }
        schema.insert("bsonType", "object");
        schema.insert("required", required);
        schema.insert("properties", props);
        schema
    }

    /// The schema of a tagged enum: the tag must name a variant, and exactly one variant's shape must match.
    pub fn tagged_enum(tag: &str, names: &[&str], variants: Vec<Document>, description: Option<&str>) -> Document {
        let mut d = doc! {
            "bsonType": "object",
            "required": [tag],
            "properties": { tag: { "enum": names.to_vec() } },
        };
        if let Some(desc) = description {
            d.insert("description", desc);
        }
        if variants.len() == 1 {
            d.insert("allOf", variants);
        } else {
            d.insert("oneOf", variants);
        }
        d
    }

    /// Adds `path: {op: value}` to a partial filter, merging operators on the same path.
    pub fn partial_condition(filter: &mut Document, path: String, op: &str, value: Bson) {
        match filter.get_document_mut(&path) {
            Ok(ops) => {
                ops.insert(op, value);
            }
            Err(_) => {
                filter.insert(path, doc! { op: value });
            }
        }
    }

    /// `size(array) == counter`, tolerant of absence (both count as 0) and of wrong types (left to `$jsonSchema`);
    /// rule [`counter-in-step`](crate::rules#counter-in-step).
    pub fn counter_check(array: &str, counter: &str) -> Bson {
        Bson::from(doc! {
            "$eq": [
                { "$cond": [{ "$isArray": [array] }, { "$size": array }, 0] },
                { "$ifNull": [counter, 0] },
            ]
        })
    }
}

#[cfg(test)]
mod counter_check_tests {
    use super::{build::counter_check, counter_pairs, BsonSchema};
    use bson::Bson;

    #[derive(serde::Serialize)]
    struct Team;
    impl BsonSchema for Team {
        const KIND: super::BsonKind = super::BsonKind::Object;
        type Node<R, W, A: crate::path::Access> = crate::path::Path<R, W, A>;
        fn bson_schema() -> bson::Document {
            bson::Document::new()
        }
        fn counter_checks(value: &str, _depth: usize, out: &mut Vec<Bson>) {
            out.push(counter_check(&format!("{value}.m"), &format!("{value}.mc")));
            out.push(counter_check(&format!("{value}.l"), &format!("{value}.lc")));
        }
    }

    /// Each counted array gets a check of its own, and each check reads back as the pair it compares.
    #[test]
    fn every_check_names_its_pair() {
        let mut checks = Vec::new();
        <Vec<Vec<Team>>>::counter_checks("$d", 0, &mut checks);
        let pairs: Vec<Vec<(String, String)>> = checks.iter().map(counter_pairs).collect();
        assert_eq!(
            pairs,
            [
                [("d.$[].$[].m".to_owned(), "d.$[].$[].mc".to_owned())],
                [("d.$[].$[].l".to_owned(), "d.$[].$[].lc".to_owned())],
            ]
        );
        assert_eq!(counter_pairs(&counter_check("$it", "$ic")), [("it".to_owned(), "ic".to_owned())]);
        // An `$and` of several (as earlier versions wrote) yields them all.
        let both = Bson::from(bson::doc! { "$and": [checks[0].clone(), counter_check("$it", "$ic")] });
        assert_eq!(counter_pairs(&both).len(), 2);
        assert!(counter_pairs(&Bson::from(bson::doc! { "$gt": [1, 0] })).is_empty());
    }
}

#[cfg(test)]
mod to_bson_tests {
    use super::BsonSchema;
    use serde::Serialize;

    fn same<T: BsonSchema + Serialize>(values: &[T]) {
        for v in values {
            assert_eq!(T::to_bson(v).unwrap(), bson::serialize_to_bson(v).unwrap(), "{}", std::any::type_name::<T>());
        }
    }

    /// The direct conversions write exactly what bson's serializer writes.
    #[test]
    fn direct_conversions_match_the_serializer() {
        same(&[i8::MIN, 0, i8::MAX]);
        same(&[i16::MIN, -1, i16::MAX]);
        same(&[i32::MIN, 7, i32::MAX]);
        same(&[0u8, u8::MAX]);
        same(&[0u16, u16::MAX]);
        same(&[i64::MIN, 3, i64::MAX]);
        same(&[0u32, u32::MAX]);
        same(&[f32::MIN, -0.5, f32::MAX, f32::INFINITY]);
        same(&[f64::MIN_POSITIVE, -1e300, f64::NEG_INFINITY]);
        same(&[true, false]);
        same(&[String::new(), "ünï".to_owned()]);
        same(&[bson::oid::ObjectId::new()]);
        same(&[bson::DateTime::from_millis(-5), bson::DateTime::now()]);
        same(&["1.50".parse::<bson::Decimal128>().unwrap()]);
        same(&[bson::Timestamp { time: 5, increment: 9 }]);
        same(&[Some(5i32), None]);
        same(&[Box::new(bson::oid::ObjectId::new())]);
        same(&[crate::Lowercase::from("MiXed")]);
    }
}
