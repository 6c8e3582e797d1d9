//! What a computed field holds and how its value follows its array's elements: [`Aggregate`], [`Computed`] (as a
//! field table holds it), folding values as the server would, and the validator's check. Knows no field table, so
//! the tables can name it.

use bson::{doc, Bson};
use std::cmp::Ordering;

/// Which aggregate a computed field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregate {
    /// The sum of integers (`#[odm(sum = "…")]`).
    Sum,
    /// The smallest value (`#[odm(min = "…")]`).
    Min,
    /// The largest value (`#[odm(max = "…")]`).
    Max,
}

impl Aggregate {
    /// The attribute's name: `sum`, `min` or `max`.
    pub const fn name(self) -> &'static str {
        match self {
            Aggregate::Sum => "sum",
            Aggregate::Min => "min",
            Aggregate::Max => "max",
        }
    }

    /// The aggregation operator computing it over an array (`$sum`, `$min`, `$max`).
    pub const fn operator(self) -> &'static str {
        match self {
            Aggregate::Sum => "$sum",
            Aggregate::Min => "$min",
            Aggregate::Max => "$max",
        }
    }
}

/// One computed field of an array, as the array's entry in its struct's field table holds it (generated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Computed {
    /// What the field holds.
    pub aggregate: Aggregate,
    /// The stored key of the elements' field it aggregates; `None` for the elements themselves (an array of numbers).
    pub of: Option<&'static str>,
    /// The computed field's stored key, beside the array.
    pub key: &'static str,
    /// The computed field's index among the stored fields of the struct.
    pub field: usize,
    /// True when the field is a `long` (a sum), so its `$inc` operand is one too.
    pub long: bool,
    /// True on a field that a sum of fields adds up (`#[odm(sum = "subtotal, shipping")]`), rather than on an array.
    pub addend: bool,
}

impl Computed {
    /// A computed field: `of` is the element field's stored key, `""` for the elements themselves.
    pub const fn new(aggregate: Aggregate, of: &'static str, key: &'static str, field: usize, long: bool) -> Self {
        let of = if of.is_empty() { None } else { Some(of) };
        Computed { aggregate, of, key, field, long, addend: false }
    }

    /// On a field that the sum stored under `key` (the struct's stored field at `field`) adds up.
    pub const fn addend(key: &'static str, field: usize) -> Self {
        Computed { aggregate: Aggregate::Sum, of: None, key, field, long: true, addend: true }
    }

    /// The value this field aggregates in one element (the element itself, or its field), if it has one.
    pub(crate) fn value_in<'a>(&self, element: &'a Bson) -> Option<&'a Bson> {
        match self.of {
            None => Some(element),
            Some(key) => element.as_document()?.get(key),
        }
    }

    /// The aggregate of `values`: `None` for an empty min/max (the field is then absent), an error text for a sum
    /// that leaves `i64` or a value that is not an integer (the derive refuses both kinds of field).
    pub(crate) fn fold<'a>(&self, values: impl IntoIterator<Item = &'a Bson>) -> Result<Option<Bson>, &'static str> {
        let mut out: Option<Bson> = None;
        for v in values {
            out = Some(match (self.aggregate, out) {
                (Aggregate::Sum, acc) => {
                    let acc = acc.as_ref().map_or(Some(0), integer).unwrap_or(0);
                    let v = integer(v).ok_or("an element's value is not an integer")?;
                    Bson::Int64(acc.checked_add(v).ok_or("the sum leaves the range of an i64")?)
                }
                (_, None) => v.clone(),
                (aggregate, Some(acc)) => match (compare(v, &acc), aggregate) {
                    (Some(Ordering::Less), Aggregate::Min) | (Some(Ordering::Greater), Aggregate::Max) => v.clone(),
                    (Some(_), _) => acc,
                    (None, _) => return Err("the elements' values cannot be compared"),
                },
            });
        }
        match (self.aggregate, out) {
            (Aggregate::Sum, None) => Ok(Some(Bson::Int64(0))),
            (_, out) => Ok(out),
        }
    }
}

/// An integer value (`int` or `long`).
fn integer(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(n) => Some(i64::from(*n)),
        Bson::Int64(n) => Some(*n),
        _ => None,
    }
}

/// How the server orders two values of the kinds a minimum or maximum holds (numbers across `int`, `long` and
/// `double`; strings by their bytes, as without a collation; dates), `None` across other kinds.
pub(crate) fn compare(a: &Bson, b: &Bson) -> Option<Ordering> {
    match (a, b) {
        (Bson::String(a), Bson::String(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (Bson::DateTime(a), Bson::DateTime(b)) => Some(a.cmp(b)),
        (Bson::Double(a), b) => a.partial_cmp(&number(b)?),
        (a, Bson::Double(b)) => number(a)?.partial_cmp(b),
        (a, b) => Some(integer(a)?.cmp(&integer(b)?)),
    }
}

/// A number as a double.
fn number(v: &Bson) -> Option<f64> {
    match v {
        Bson::Double(d) => Some(*d),
        other => integer(other).map(|n| n as f64),
    }
}

/// The validator's `$expr` keeping a computed field at `target` (an aggregation expression, `"$st"`) equal to the
/// aggregate of the array at `array` (`"$rv"`), of its elements' field `of` or of the elements themselves; absence
/// counts as 0 for a sum and as no value for a minimum or maximum, the aggregate of an empty array.
pub(crate) fn check(aggregate: Aggregate, array: &str, of: Option<&str>, target: &str) -> Bson {
    // The one-operand form: over an array the operator takes its elements (a list operand would not). An element
    // field's values are mapped out of the elements rather than read as `$rv.s`, which not every server traverses.
    let values = match of {
        // A value that is not an array is the `$jsonSchema`'s to refuse; `$map` over it would abort the validation.
        Some(of) => {
            let input = doc! { "$cond": [{ "$isArray": [array] }, array, []] };
            Bson::from(doc! { "$map": { "input": input, "in": format!("$$this.{of}") } })
        }
        None => Bson::from(array),
    };
    let over = doc! { aggregate.operator(): values };
    let stored = match aggregate {
        Aggregate::Sum => doc! { "$ifNull": [target, 0] },
        _ => doc! { "$ifNull": [target, Bson::Null] },
    };
    Bson::from(doc! { "$eq": [stored, over] })
}

/// The validator's `$expr` keeping the field at `target` equal to the sum of the fields at `inputs` (aggregation
/// expressions); an absent field counts as 0 (a list operand of `$sum` adds its values, skipping what is missing).
pub(crate) fn sum_of_fields(inputs: &[String], target: &str) -> Bson {
    Bson::from(doc! { "$eq": [{ "$ifNull": [target, 0] }, { "$sum": inputs }] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_like_the_server() {
        let sum = Computed::new(Aggregate::Sum, "", "s", 0, true);
        let max = Computed::new(Aggregate::Max, "", "m", 0, false);
        let min = Computed::new(Aggregate::Min, "", "m", 0, false);
        let values = [Bson::Int32(3), Bson::Int64(9), Bson::Int32(-2)];
        assert_eq!(sum.fold(&values), Ok(Some(Bson::Int64(10))));
        assert_eq!(max.fold(&values), Ok(Some(Bson::Int64(9))));
        assert_eq!(min.fold(&values), Ok(Some(Bson::Int32(-2))));
        assert_eq!(sum.fold(&[]), Ok(Some(Bson::Int64(0))));
        assert_eq!(max.fold(&[]), Ok(None));
        assert!(sum.fold(&[Bson::Int64(i64::MAX), Bson::Int32(1)]).is_err());
        let words = [Bson::String("b".into()), Bson::String("B".into()), Bson::String("a".into())];
        assert_eq!(max.fold(&words), Ok(Some(Bson::String("b".into()))));
        assert_eq!(min.fold(&words), Ok(Some(Bson::String("B".into()))));
        assert_eq!(compare(&Bson::Double(2.5), &Bson::Int32(2)), Some(Ordering::Greater));
    }
}
