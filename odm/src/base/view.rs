//! Typed views (`#[derive(View)]`): a struct holding some of a model's fields, read under the model's stored keys,
//! each field's type checked against the model's at compile time. What the derive's output stands on: the
//! [`View`] trait (a view's projection), [`Reads`] (which view field types read which model field types), the
//! const lookups of a field's stored key in the model's field table, and the pieces of a view's `Deserialize`.

use crate::base::meta::TypeMeta;
use crate::base::path::shared::same_str;
use crate::base::schema::BsonSchema;
use bson::Document;
use serde::de::{self, Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, Visitor};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::marker::PhantomData;

/// A struct reading some of the fields of [`View::Of`] (a model, or a struct deriving `Embedded`), each under the
/// stored key the model gives it. Derived with `#[derive(View)]` and `#[odm(of = "Model")]`: the derive checks at
/// compile time that every field is one the model stores (rule [`view-field`](crate::rules#view-field)) and that
/// its type reads the model's (rule [`view-type`](crate::rules#view-type)), and writes the `Deserialize` impl.
///
/// ```
/// use odm::{Model, View, bson::oid::ObjectId};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Model, Serialize, Deserialize)]
/// #[odm(collection = "shop_order")]
/// struct Order {
///     #[serde(rename = "_id")]
///     id: ObjectId,
///     #[serde(rename = "st")]
///     status: String,
///     #[serde(rename = "tot")]
///     total: i64,
///     #[serde(rename = "nt")]
///     note: String,
/// }
///
/// /// What a list of orders shows.
/// #[derive(View)]
/// #[odm(of = "Order")]
/// struct OrderLine {
///     status: String,
///     total: Option<i64>,
/// }
///
/// assert_eq!(OrderLine::projection(), odm::bson::doc! { "st": 1, "tot": 1 });
/// ```
pub trait View: DeserializeOwned {
    /// The model (or embedded struct) whose fields this view reads.
    type Of: BsonSchema;

    /// Adds the stored paths this view reads below `prefix` (`""` at the top of a document) to `out`. Generated.
    #[doc(hidden)]
    fn __project(prefix: &str, out: &mut Document);

    /// The projection that returns what the view reads: each field's stored key, a nested view's fields as dotted
    /// paths. The server adds `_id`, as to any projection that does not leave it out, and reads keep it: a document
    /// that does not decode is named by its `_id` in the error.
    fn projection() -> Document {
        let mut out = Document::new();
        Self::__project("", &mut out);
        out
    }
}

/// A view's field of type `Self` reads what the model stores in a field of type `T`, as `H` says (a marker the
/// derive spells from the view's type, with holes the compiler fills): the same type; an `Option` of it (a field
/// the model always stores, read as maybe absent); an `Option` of what the model's `Option` holds; a view of an
/// embedded struct ([`View`]); and these inside `Vec`s, fixed arrays, sets, `Box`es and map values.
#[diagnostic::on_unimplemented(
    message = "a view's field of type `{Self}` cannot read the model's field of type `{T}` (rule `view-type`)",
    label = "the model stores this field as `{T}`",
    note = "a view's field has the model's type, an `Option` of it, or a view of the embedded struct it holds (a \
            struct deriving `View` with `#[odm(of = \"…\")]`), also inside `Vec`, `Option`, `Box` and map values"
)]
pub trait Reads<T, H> {}

/// [`Reads`]: the same type.
pub enum Same {}
/// [`Reads`]: a view of the embedded struct `V` is of.
pub struct AsView<V>(PhantomData<V>);
/// [`Reads`]: a view's `Option`, over a model field the model always stores (`W` = [`OptionAdded`]) or over the
/// model's own `Option` (`W` = [`OptionKept`]), reading the inner type as `H` says.
pub struct Opt<W, H>(PhantomData<(W, H)>);
/// [`Opt`]: the model's field is not an `Option`.
pub enum OptionAdded {}
/// [`Opt`]: the model's field is an `Option` too.
pub enum OptionKept {}
/// [`Reads`]: each element of an array or set, as `H` says.
pub struct Each<H>(PhantomData<H>);
/// [`Reads`]: the value in a `Box`, as `H` says.
pub struct Boxed<H>(PhantomData<H>);
/// [`Reads`]: each value of a map, as `H` says.
pub struct Values<H>(PhantomData<H>);

#[diagnostic::do_not_recommend]
impl<T> Reads<T, Same> for T {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H> Reads<T, Opt<OptionAdded, H>> for Option<X> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H> Reads<Option<T>, Opt<OptionKept, H>> for Option<X> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H> Reads<Vec<T>, Each<H>> for Vec<X> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H, const N: usize> Reads<[T; N], Each<H>> for [X; N] {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H, const N: usize> Reads<[T; N], Each<H>> for Vec<X> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H, S, Z> Reads<HashSet<T, S>, Each<H>> for HashSet<X, Z> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H> Reads<BTreeSet<T>, Each<H>> for BTreeSet<X> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H> Reads<Box<T>, Boxed<H>> for Box<X> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H, S, Z> Reads<HashMap<String, T, S>, Values<H>> for HashMap<String, X, Z> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H> Reads<BTreeMap<String, T>, Values<H>> for BTreeMap<String, X> {}
#[diagnostic::do_not_recommend]
impl<X: Reads<T, H>, T, H, S, Z> Reads<indexmap::IndexMap<String, T, S>, Values<H>>
    for indexmap::IndexMap<String, X, Z>
{
}

/// How a field read as the [`Reads`] marker `Self` says is projected: whole, or (through a view of an embedded
/// struct) as the view's own paths below it.
#[doc(hidden)]
pub trait Project {
    /// Adds the field at `path` to `out`.
    fn project(path: String, out: &mut Document);
}

impl Project for Same {
    fn project(path: String, out: &mut Document) {
        out.insert(path, 1);
    }
}
impl<V: View> Project for AsView<V> {
    fn project(path: String, out: &mut Document) {
        V::__project(&path, out);
    }
}
impl<W, H: Project> Project for Opt<W, H> {
    fn project(path: String, out: &mut Document) {
        H::project(path, out);
    }
}
// A dotted path through an array projects that field of every element, as the view of each element reads.
impl<H: Project> Project for Each<H> {
    fn project(path: String, out: &mut Document) {
        H::project(path, out);
    }
}
impl<H: Project> Project for Boxed<H> {
    fn project(path: String, out: &mut Document) {
        H::project(path, out);
    }
}
// A map's keys are data: no path reaches into every value, so the map is read whole and each value decoded as
// the view says.
impl<H> Project for Values<H> {
    fn project(path: String, out: &mut Document) {
        out.insert(path, 1);
    }
}

/// The type of a model's field, taken from an accessor the compiler never calls (`|m: &Order| &m.status`): the
/// field's type without a value of the model. Used by generated code.
#[doc(hidden)]
pub struct Field<T>(PhantomData<fn() -> T>);

/// [`Field`] of the field `at` reaches. Used by generated code.
#[doc(hidden)]
pub fn field<M, T, F: Fn(&M) -> &T>(at: F) -> Field<T> {
    let _ = at;
    Field(PhantomData)
}

impl<T> Field<T> {
    /// Adds the view's field `V`, stored under `key` below `prefix`, to the projection `out`; requires that `V`
    /// reads `T` (the check the derive relies on, at the span of the view's field type).
    // `V` is the point: naming it is the check.
    #[allow(clippy::extra_unused_type_parameters)]
    pub fn project<V: Reads<T, H>, H: Project>(self, prefix: &str, key: &str, out: &mut Document) {
        let path = if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") };
        H::project(path, out);
    }
}

/// Whether `table` is one a view can be of: a struct's field table (a polymorphic model's has variants instead).
/// Used by generated code.
#[doc(hidden)]
pub const fn viewable(table: Option<&TypeMeta>) -> bool {
    matches!(table, Some(t) if t.variants.is_empty())
}

/// The stored key of the field named `name` in `table`, or `""` when it stores none. Used by generated code.
#[doc(hidden)]
pub const fn key(table: Option<&'static TypeMeta>, name: &str) -> &'static str {
    let Some(table) = table else { return "" };
    let mut i = 0;
    while i < table.fields.len() {
        if same_str(table.fields[i].name, name) {
            return table.fields[i].key;
        }
        i += 1;
    }
    ""
}

/// A field the document does not hold: `None` for an `Option`, else serde's "missing field" error naming its stored
/// key (as serde's own derive does). Used by generated code.
#[doc(hidden)]
pub fn missing<'de, T: Deserialize<'de>, E: de::Error>(key: &'static str) -> Result<T, E> {
    T::deserialize(Missing(key, PhantomData))
}

struct Missing<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Missing<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit unit_struct
        newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// Reads a document's key as the index `find` gives it (a view's field, or one past the last for a key the view
/// does not read), without allocating. Used by generated code.
#[doc(hidden)]
pub struct Keys<F>(pub F);

impl<'de, F: FnOnce(&str) -> usize> DeserializeSeed<'de> for Keys<F> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, F: FnOnce(&str) -> usize> Visitor<'de> for Keys<F> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        Ok((self.0)(key))
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<usize, E> {
        // A key that is not UTF-8 is none of the view's.
        Ok(std::str::from_utf8(key).map_or(usize::MAX, self.0))
    }
}

/// What a view's `Deserialize` expects, for its errors. Used by generated code.
#[doc(hidden)]
pub fn expecting(f: &mut fmt::Formatter<'_>, view: &str) -> fmt::Result {
    write!(f, "a document with the fields of view `{view}`")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::meta::FieldMeta;

    const STATUS: FieldMeta = FieldMeta::new("status", "st", &<String as BsonSchema>::FIELD_TYPE);
    const ORDER: TypeMeta = TypeMeta::new("Order", &[STATUS]).model();

    #[test]
    fn a_field_s_key_comes_from_the_table_and_an_unknown_field_has_none() {
        const KEY: &str = key(Some(&ORDER), "status");
        assert_eq!(KEY, "st");
        assert_eq!(key(Some(&ORDER), "total"), "");
        assert_eq!(key(None, "status"), "");
        assert!(viewable(Some(&ORDER)));
        assert!(!viewable(None));
    }

    #[test]
    fn a_missing_option_reads_as_none_and_anything_else_names_its_key() {
        let none: Result<Option<i64>, bson::error::Error> = missing("tot");
        assert_eq!(none.ok(), Some(None));
        let err = missing::<i64, bson::error::Error>("tot").unwrap_err();
        assert!(err.to_string().contains("missing field `tot`"), "{err}");
    }
}
