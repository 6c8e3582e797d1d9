//! The `BsonSchema` trait (a type's `$jsonSchema` fragment), `MAP_KEY_PATTERN`, the builders the derives call
//! (`build`), and the walks that need the trait: comparing values for diffs (`diffs`) and paths by stored type
//! (`paths`). Users read the docs at `odm::schema` (src/schema.rs).

use crate::base::validator::object;

pub(crate) mod diffs;
pub(crate) mod paths;

#[cfg(test)]
use crate::base::counters::counter_pairs;
pub use crate::base::counters::CounterCheck;
pub use crate::base::kind::BsonKind;
pub(crate) use crate::base::validator::object::checks_under;

use crate::base::diff::{Diff, DiffPath};
use crate::base::meta::{FieldType, TypeMeta};
use crate::base::path::{Access, PathNode};
use crate::base::size::Size;
use bson::{doc, Bson, Document};
use serde::Serialize;

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
    /// The type family, for compile-time assertions. Provided for a derived struct (a document, read from
    /// [`Self::OBJECT`]); every other implementation sets it, and a build that evaluates the provided one on a type
    /// without a field table fails.
    const KIND: BsonKind = match Self::OBJECT {
        Some(_) => BsonKind::Object,
        None => panic!(
            "a hand-written `BsonSchema` impl without a field table (`OBJECT`) must set `KIND`, the BSON type family \
             of its values (e.g. `const KIND: odm::schema::BsonKind = odm::schema::BsonKind::Double;`)"
        ),
    };

    /// For an array, the kind of its elements (a TTL index may expire on an array of dates); `None` otherwise.
    const ITEM_KIND: Option<BsonKind> = None;

    /// True when an array type carries its own bound decision, so a field of this type needs no `max_items`: a
    /// fixed-size array, or a derived newtype whose array field declares `max_items` (or `unbounded`).
    const BOUNDED: bool = false;

    /// What the type says about the stored size of its values, for the document-size budget ([`crate::size`]):
    /// a number of bytes, a string or an array whose field declares the bound, or no bound. Provided for a derived
    /// struct (its document, read from [`Self::OBJECT`]); every other type without its own is unbounded
    /// ([`Reason::Undeclared`](crate::size::Reason::Undeclared)), so a hand-written impl compiles without it.
    const SIZE: Size = match Self::OBJECT {
        Some(meta) => crate::base::meta::tables::of_table(meta),
        None => Size::unbounded(crate::base::size::Reason::Undeclared),
    };

    /// The typed-path node of a field of this type inside model `R`, holding a `W` with access `A`: a
    /// [`Path`](crate::path::Path) for plain values, an [`ArrayNode`](crate::path::ArrayNode) for arrays, a
    /// [`MapNode`](crate::path::MapNode) for maps, the generated `…Fields` struct for derived structs. A hand-written impl
    /// uses `odm::path::Path<R, W, A>`.
    type Node<R, W, A: Access>: PathNode<R, W, A>;

    /// The `$jsonSchema` fragment a stored value of this type satisfies. Provided for a derived struct (built from
    /// [`Self::OBJECT`]); every other implementation writes it, and a build that uses the provided one on a type
    /// without a field table fails.
    fn bson_schema() -> Document {
        const {
            assert!(
                Self::OBJECT.is_some(),
                "a hand-written `BsonSchema` impl without a field table (`OBJECT`) must write `bson_schema`"
            )
        };
        match Self::OBJECT {
            Some(meta) => object::object(meta, false),
            None => Document::new(),
        }
    }

    /// The field table of a derived struct (its own fields, not those of a type it wraps); the provided items
    /// below read it. `None` for every other type.
    const OBJECT: Option<&'static TypeMeta> = None;

    /// The fragment of this type inside a document that is `closed` (or not). A closed document closes every
    /// level it owns: a derived struct or enum variant without `#[odm(open)]` inside it gets
    /// `additionalProperties: false` too, through options, boxes, arrays and map values. Free-form values
    /// (`bson::Document`, `#[odm(mixed)]`) stay open. The default builds a struct's fragment from [`Self::OBJECT`]
    /// and otherwise ignores the context (scalars have no keys).
    fn bson_schema_within(closed: bool) -> Document {
        match Self::OBJECT {
            Some(meta) => object::object(meta, closed),
            None => Self::bson_schema(),
        }
    }

    /// Field names of an embedded type, to translate stored key paths back to Rust paths in errors.
    fn type_meta() -> Option<&'static TypeMeta> {
        Self::OBJECT
    }

    /// True when values of this type may carry keys chosen at run time (maps, `bson::Document`, `mixed` fields),
    /// which must then be checked before sending. `depth` bounds the walk through recursive types (`0` answers
    /// `true`, the safe side).
    fn dynamic_keys(depth: u8) -> bool {
        Self::OBJECT.is_some_and(|meta| object::dynamic_keys(meta, depth))
    }

    /// Server-side checks (`$expr`) that keep array counters equal to array sizes. `value` is the aggregation
    /// expression of this value (`"$it"`, `"$$e0.v"`); `depth` names `$map` variables uniquely.
    fn counter_checks(value: &str, depth: usize, out: &mut Vec<CounterCheck>) {
        if let Some(meta) = Self::OBJECT {
            object::counter_checks(meta, value, depth, out);
        }
    }

    /// What a field table needs of this type: the items above, as one value a table entry can point to.
    const FIELD_TYPE: FieldType = FieldType {
        kind: Self::KIND,
        item: Self::ITEM_KIND,
        meta: Self::type_meta,
        schema: Self::bson_schema_within,
        dynamic_keys: Self::dynamic_keys,
        counter_checks: Self::counter_checks,
        size: Self::SIZE,
    };

    /// Encodes a value exactly as `bson`'s serializer writes it. Scalars convert directly; the default serializes.
    fn to_bson(value: &Self) -> Result<Bson, bson::error::Error>
    where
        Self: Serialize + Sized,
    {
        bson::serialize_to_bson(value)
    }

    /// [`BsonSchema::to_bson`] of a value the caller gives up (a filter's or update's operand): a type that owns its
    /// stored form (a `String`) moves it rather than copying it.
    fn into_bson(value: Self) -> Result<Bson, bson::error::Error>
    where
        Self: Serialize + Sized,
    {
        Self::to_bson(&value)
    }

    /// Records in `out` the targeted operators that turn `old` into `new` at stored path `at` (see
    /// [`crate::Update::diff`]). The default compares the serialized forms and writes the whole new value.
    fn diff(old: &Self, new: &Self, at: &mut DiffPath, out: &mut Diff)
    where
        Self: Serialize + Sized,
    {
        crate::base::diff::by_value(old, new, at, out)
    }
}

/// A key MongoDB can store as data and address in a path: empty, or not starting with `$` and without `.` (NUL
/// cannot occur in a BSON key). The server's half of the check odm makes before sending (rule
/// [`key-map`](crate::rules#key-map)).
pub const MAP_KEY_PATTERN: &str = "^([^$.][^.]*)?$";

/// The checks of the elements' counted arrays, each over every element. One check per counted array, never an `$and`
/// of several: the server reports which clause of the validator failed but not which part of an expression, so a
/// check that holds one pair lets a refused write name that pair (see [`counter_pairs`]).
pub(crate) fn array_counter_checks<T: BsonSchema>(value: &str, depth: usize, out: &mut Vec<CounterCheck>) {
    let var = format!("e{depth}");
    let mut inner = Vec::new();
    T::counter_checks(&format!("$${var}"), depth + 1, &mut inner);
    out.extend(inner.into_iter().map(|check| check.over_elements(value, &var)));
}

/// Builders the derives call; reachable through `odm::__private` only.
pub(crate) mod build {
    use super::*;
    pub use crate::base::validator::object::{adjacent_variant, nullable, object, tagged_variant, ObjectSchema};

    /// The table entry of a field `name` stored under `key`, of type `T` ([`FieldMeta::new`] with `T`'s
    /// [`FieldType`]). Shorter to write than `FieldMeta::new(name, key, &<T as BsonSchema>::FIELD_TYPE)`, which
    /// generated code keeps for types whose missing impl an error must point at.
    ///
    /// [`FieldMeta::new`]: crate::meta::FieldMeta::new
    pub const fn field_of<T: BsonSchema + ?Sized>(
        name: &'static str,
        key: &'static str,
    ) -> crate::base::meta::FieldMeta {
        crate::base::meta::FieldMeta::new(name, key, const { &T::FIELD_TYPE })
    }

    /// Fails the compile-time evaluation of model `T` at the generated call if its worst case is over the limit
    /// (rule [`model-size`](crate::rules#model-size)), through `tables::refuse`. Generic over the
    /// model, so the call names no constant: the cheaper statement for the compiler to check in every model.
    #[track_caller]
    pub const fn refuse<T: BsonSchema + ?Sized>() {
        crate::base::meta::tables::refuse(T::OBJECT)
    }

    /// [`refuse`] when the refusal points at the stored field (or variant) `at` of `T`.
    #[track_caller]
    pub const fn refuse_at<T: BsonSchema + ?Sized>(at: usize) {
        crate::base::meta::tables::refuse_at(T::OBJECT, at)
    }

    /// `{bsonType: <alias>}` for fields whose type a converter or `#[odm(bson_type)]` fixes.
    pub fn fixed(alias: &str) -> Document {
        doc! { "bsonType": alias }
    }

    /// `{}`: any value (`#[odm(mixed)]`).
    pub fn any() -> Document {
        Document::new()
    }

    /// An index key pattern of ascending (`1`) and descending (`-1`) keys, in order.
    pub fn index_keys(keys: &[(&str, i32)]) -> Document {
        crate::base::index::key_pattern(keys)
    }

    /// Sets a keyword (bounds, lengths) on a field schema.
    pub fn with(mut schema: Document, keyword: &str, value: i64) -> Document {
        schema.insert(keyword, value);
        schema
    }

    /// Declares an array a set: `uniqueItems: true`.
    pub fn unique_items(mut schema: Document) -> Document {
        schema.insert("uniqueItems", true);
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

    pub use crate::base::counters::counter_check;
}

#[cfg(test)]
mod counter_check_tests {
    use super::{build::counter_check, counter_pairs, BsonSchema, CounterCheck};
    use bson::Bson;

    #[derive(serde::Serialize)]
    struct Team;
    impl BsonSchema for Team {
        const KIND: super::BsonKind = super::BsonKind::Object;
        type Node<R, W, A: crate::base::path::Access> = crate::base::path::Path<R, W, A>;
        fn bson_schema() -> bson::Document {
            bson::Document::new()
        }
        fn counter_checks(value: &str, _depth: usize, out: &mut Vec<CounterCheck>) {
            out.push(CounterCheck::new(&format!("{value}.m"), &format!("{value}.mc")));
            out.push(CounterCheck::new(&format!("{value}.l"), &format!("{value}.lc")));
        }
    }

    /// Each counted array gets a check of its own, which names the pair it compares as stored paths; a check
    /// found as BSON reads back as the same pair.
    #[test]
    fn every_check_names_its_pair() {
        let mut typed = Vec::new();
        <Vec<Vec<Team>>>::counter_checks("$d", 0, &mut typed);
        let named: Vec<(&str, &str)> = typed.iter().map(|c| (c.array(), c.counter())).collect();
        assert_eq!(named, [("d.$[].$[].m", "d.$[].$[].mc"), ("d.$[].$[].l", "d.$[].$[].lc")]);
        let checks: Vec<Bson> = typed.iter().map(|c| c.expr().clone()).collect();
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

    fn same<T: BsonSchema + Serialize + Clone>(values: &[T]) {
        for v in values {
            let serialized = bson::serialize_to_bson(v).unwrap();
            assert_eq!(T::to_bson(v).unwrap(), serialized, "{}", std::any::type_name::<T>());
            // An owned operand (moved where the type allows) is written the same way.
            assert_eq!(T::into_bson(v.clone()).unwrap(), serialized, "{} owned", std::any::type_name::<T>());
        }
    }

    /// The direct conversions write exactly what bson's serializer writes, borrowed or owned.
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
        same(&[Some("ünï".to_owned()), None]);
        same(&[Box::new(bson::oid::ObjectId::new())]);
        same(&[crate::base::text::Lowercase::from("MiXed")]);
    }
}
