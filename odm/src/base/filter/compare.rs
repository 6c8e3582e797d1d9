//! Field-to-field conditions: one path of a document compared with another path of the same document
//! (`f.shipped_qty().lt_field(f.ordered_qty())`), sent as `$expr`.
//!
//! The methods are the value comparisons' names with `_field` appended (`lt` takes a value, `lt_field` a path), so
//! a value condition keeps its `impl Into<W>` argument and its literal inference, and the call says which of the two
//! it compares with. Both paths must be rooted at the same model and hold values of comparable types
//! ([`Comparable`]), each naming one value per document ([`OneValue`]), or the call does not compile (rule
//! [`filter-field-compare`](crate::rules#filter-field-compare)).

use super::value::Filter;
use crate::base::error::{Clause, Invalid, NamedPath};
use crate::base::path::{
    AsPath, ComputedField, Counted, CounterField, IdField, Path, Plain, RawPath, RevisionField, ShardKeyField,
};
use bson::{Bson, Document};

/// `(L, R)`: a field holding `L` can be compared with a field holding `R` — the same type, an `Option` of it on
/// either side (absent and `null` read as `None`, below every value), or two numbers (integers, floats and
/// `bson::Decimal128`, which the server compares by value).
#[diagnostic::on_unimplemented(
    message = "the two fields hold values of different types, `{Self}`, which cannot be compared with each other \
               (rule `filter-field-compare`)",
    label = "not comparable with the other field",
    note = "compare fields of the same Rust type (an `Option` of it on either side counts as that type), or two \
            numeric fields (integers, floats and `bson::Decimal128` compare by value); to compare a field with a \
            fixed value, use `eq`, `lt`, … with the value"
)]
pub trait Comparable {}
impl<T> Comparable for (T, T) {}
impl<T> Comparable for (Option<T>, T) {}
impl<T> Comparable for (T, Option<T>) {}

/// Two different numeric types, `$a` against each of `$b`, with either side optional. Not listed in the message of
/// a mismatch: the note says which numbers compare, where ninety pairs would bury it.
macro_rules! numbers {
    ($($a:ty: $($b:ty),*;)*) => {$($(
        #[diagnostic::do_not_recommend]
        impl Comparable for ($a, $b) {}
        #[diagnostic::do_not_recommend]
        impl Comparable for (Option<$a>, $b) {}
        #[diagnostic::do_not_recommend]
        impl Comparable for ($a, Option<$b>) {}
        #[diagnostic::do_not_recommend]
        impl Comparable for (Option<$a>, Option<$b>) {}
    )*)*};
}
numbers! {
    i8: i16, i32, i64, u8, u16, u32, f32, f64, bson::Decimal128;
    i16: i8, i32, i64, u8, u16, u32, f32, f64, bson::Decimal128;
    i32: i8, i16, i64, u8, u16, u32, f32, f64, bson::Decimal128;
    i64: i8, i16, i32, u8, u16, u32, f32, f64, bson::Decimal128;
    u8: i8, i16, i32, i64, u16, u32, f32, f64, bson::Decimal128;
    u16: i8, i16, i32, i64, u8, u32, f32, f64, bson::Decimal128;
    u32: i8, i16, i32, i64, u8, u16, f32, f64, bson::Decimal128;
    f32: i8, i16, i32, i64, u8, u16, u32, f64, bson::Decimal128;
    f64: i8, i16, i32, i64, u8, u16, u32, f32, bson::Decimal128;
    bson::Decimal128: i8, i16, i32, i64, u8, u16, u32, f32, f64;
}

/// Paths that name one value per document, which `$expr` reads as `"$key"`: every field path except those through
/// an array element ([`InArray`](crate::path::InArray)), which name a value in each element, and the document
/// root.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not name one value per document, so it cannot be compared with another field (rule \
               `filter-field-compare`)",
    label = "a path through an array element (or the document root)",
    note = "a field-to-field condition compares one value of each document with another; a path through an array \
            element (`each()`, `at(i)`, the element of `any`) names a value in every element. Compare a field \
            outside the array, or the whole array (`f.items()`); for a condition on elements, compare them with \
            values inside `any`"
)]
pub trait OneValue {}
impl OneValue for Plain {}
impl OneValue for Counted {}
impl OneValue for IdField {}
impl OneValue for ShardKeyField {}
impl OneValue for CounterField {}
impl OneValue for ComputedField {}
impl OneValue for RevisionField {}

impl<R, W, A> Path<R, W, A> {
    /// Equal to the field at `other` in the same document (`{$expr: {$eq: [a, b]}}`).
    ///
    /// Each side is read as `{$ifNull: ["$key", null]}`: an absent field and `null` are both `None`, equal to each
    /// other and below every value, as Rust orders `Option` (the server alone would order a missing field below
    /// `null`, so two `None`s, one absent and one stored as `null`, would differ). Numbers compare by value across
    /// types (`2` equals `2.0`), strings by the collection's collation (binary by default), arrays and embedded
    /// documents as whole values.
    ///
    /// `$expr` comparing two fields cannot use an index: the server reads every document the filter's other
    /// conditions select (through an index when one serves them, or the whole collection) and evaluates the
    /// comparison on each. Pair it with an indexed equality condition on large collections.
    ///
    /// A path into a variant of a polymorphic model adds the variant's discriminator, as its value conditions do;
    /// two paths into different variants are refused before sending. Inside `any` (`$elemMatch`) and array filters,
    /// where the server does not take `$expr`, the condition is refused before sending.
    ///
    /// ```
    /// use odm::{Model, bson::{doc, oid::ObjectId}};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Model, Serialize, Deserialize)]
    /// #[odm(collection = "shop_order")]
    /// struct Order {
    ///     #[serde(rename = "_id")]
    ///     id: ObjectId,
    ///     #[serde(rename = "st")]
    ///     status: String,
    ///     #[serde(rename = "oq")]
    ///     ordered_qty: i32,
    ///     #[serde(rename = "sq")]
    ///     shipped_qty: i64,
    /// }
    ///
    /// let f = Order::fields();
    /// let short = f.status().eq("open").and(f.shipped_qty().lt_field(f.ordered_qty()));
    /// assert_eq!(
    ///     short.into_document().unwrap(),
    ///     doc! { "st": "open", "$expr": { "$lt": [{ "$ifNull": ["$sq", null] }, { "$ifNull": ["$oq", null] }] } }
    /// );
    /// ```
    pub fn eq_field<P>(&self, other: P) -> Filter<R>
    where
        A: OneValue,
        P: AsPath<R, Access: OneValue>,
        (W, P::Value): Comparable,
    {
        Filter::from_result(compare(&self.raw, "$eq", &other.as_path().raw))
    }

    /// Not equal to the field at `other` (`$ne`); see [`eq_field`](Self::eq_field) for how values compare.
    pub fn ne_field<P>(&self, other: P) -> Filter<R>
    where
        A: OneValue,
        P: AsPath<R, Access: OneValue>,
        (W, P::Value): Comparable,
    {
        Filter::from_result(compare(&self.raw, "$ne", &other.as_path().raw))
    }

    /// Less than the field at `other` (`$lt`); `None` is below every value (see [`eq_field`](Self::eq_field)).
    pub fn lt_field<P>(&self, other: P) -> Filter<R>
    where
        A: OneValue,
        P: AsPath<R, Access: OneValue>,
        (W, P::Value): Comparable,
    {
        Filter::from_result(compare(&self.raw, "$lt", &other.as_path().raw))
    }

    /// Less than or equal to the field at `other` (`$lte`); see [`eq_field`](Self::eq_field).
    pub fn lte_field<P>(&self, other: P) -> Filter<R>
    where
        A: OneValue,
        P: AsPath<R, Access: OneValue>,
        (W, P::Value): Comparable,
    {
        Filter::from_result(compare(&self.raw, "$lte", &other.as_path().raw))
    }

    /// Greater than the field at `other` (`$gt`); see [`eq_field`](Self::eq_field).
    pub fn gt_field<P>(&self, other: P) -> Filter<R>
    where
        A: OneValue,
        P: AsPath<R, Access: OneValue>,
        (W, P::Value): Comparable,
    {
        Filter::from_result(compare(&self.raw, "$gt", &other.as_path().raw))
    }

    /// Greater than or equal to the field at `other` (`$gte`); see [`eq_field`](Self::eq_field).
    pub fn gte_field<P>(&self, other: P) -> Filter<R>
    where
        A: OneValue,
        P: AsPath<R, Access: OneValue>,
        (W, P::Value): Comparable,
    {
        Filter::from_result(compare(&self.raw, "$gte", &other.as_path().raw))
    }
}

/// `{tag: variant, $expr: {op: [left, right]}}`, one untyped body for every pair of types.
fn compare(left: &RawPath, op: &str, right: &RawPath) -> Result<Document, Invalid> {
    left.check()?;
    right.check()?;
    for raw in [left, right] {
        // Unreachable through typed paths (positional ones are inside an array), kept so that `"$it.$[].p"` can
        // never reach the server.
        if raw.positional {
            return Err(Invalid::Positional { path: NamedPath::at(raw.key()), clause: Clause::Filter });
        }
    }
    let mut doc = Document::new();
    match (left.variant(), right.variant()) {
        (Some(l), Some(r)) if l != r => {
            return Err(Invalid::FieldCompareVariants { path: NamedPath::at(right.key()), variant: r.1, other: l.1 });
        }
        (Some((tag, value)), _) | (None, Some((tag, value))) => {
            doc.insert(tag, value);
        }
        (None, None) => {}
    }
    let read = |raw: &RawPath| bson::doc! { "$ifNull": [format!("${}", raw.key()), Bson::Null] };
    let mut expr = Document::new();
    expr.insert(op, vec![Bson::Document(read(left)), Bson::Document(read(right))]);
    doc.insert("$expr", expr);
    Ok(doc)
}

/// Refuses a field-to-field condition (`$expr`) in a condition on the elements of the array at `at` (`any`,
/// `pull_where`, an array filter): the server evaluates `$expr` on whole documents only.
pub(crate) fn refuse_in_element(d: &Document, at: &str) -> Result<(), Invalid> {
    fn has_expr(d: &Document) -> bool {
        d.iter().any(|(k, v)| match (k.as_str(), v) {
            ("$expr", _) => true,
            ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
                clauses.iter().filter_map(Bson::as_document).any(has_expr)
            }
            _ => false,
        })
    }
    if has_expr(d) {
        return Err(Invalid::FieldCompareInElement { path: NamedPath::at(at) });
    }
    Ok(())
}
