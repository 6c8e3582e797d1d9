//! Computed fields kept in step: what an update does to an array with computed fields (`#[odm(sum = "…")]`, `min`,
//! `max`) decides, once the update is complete, the `$inc`, `$min`, `$max`, `$set` or `$unset` of each computed
//! field in the same statement; what would leave one unknown is refused before sending.

use super::value::Update;
use crate::base::computed::{Aggregate, Computed};
use crate::base::error::{Invalid, NamedPath};
use crate::base::operator::Operator;
use crate::base::path::{beside, RawPath};
use bson::{Bson, Document};
use std::borrow::Cow;

impl<R> Update<R> {
    /// Notes that the update writes `raw`, an array with computed fields, to follow them when it is built.
    pub(super) fn note_computed(&mut self, raw: &RawPath) {
        let known = &mut self.extra().computed;
        if !known.iter().any(|(key, _)| *key == raw.key) {
            known.push((raw.key.clone().into_owned(), raw.computes()));
        }
    }

    /// Refuses a write below an array with computed fields that changes a value they aggregate (an element whole, or
    /// its summarized field), which no statement could follow. True when the update failed here.
    pub(super) fn refuses_computed_source(&mut self, raw: &RawPath) -> bool {
        let Some((array, computes)) = raw.computed_above() else { return false };
        // Below the array: one segment naming the element (`$`, `$[]`, `$[id]`, an index), then its fields.
        let mut below = raw.key[array.len()..].trim_start_matches('.').splitn(3, '.').skip(1);
        let hit = match below.next() {
            None => computes.first(),
            Some(field) => computes.iter().find(|c| c.of.is_none_or(|of| of == field)),
        };
        let Some(c) = hit else { return false };
        self.fail(Invalid::ComputedUnknown {
            path: NamedPath::at(&raw.key),
            computed: NamedPath::at(&beside(array, c.key)),
            why: "it changes a value the field aggregates in place; take the element out and put the new one in",
        });
        true
    }
}

/// Adds to `groups` what keeps the computed fields of each array in `arrays` in step with what the groups do to it.
///
/// `pulled` holds the element each exact `pull` of one value of a counted set removes, by the array's stored key:
/// its `$pull` operand is a condition (matching the element in any key order), which says nothing of the values a
/// sum loses, so the element itself is what the step reads. Any other `$pull` removes elements the update does not
/// know.
pub(crate) fn follow(
    groups: &mut Vec<(Operator, Document)>,
    arrays: Vec<(String, &'static [Computed])>,
    pulled: &[(String, Bson)],
) -> Result<(), Invalid> {
    for (array, computes) in arrays {
        let ops: Vec<(Operator, Bson)> = groups
            .iter()
            .filter_map(|(op, d)| {
                let value = d.get(&array)?;
                Some(match op {
                    Operator::Pull => match pulled.iter().find(|(key, _)| *key == array) {
                        Some((_, element)) => (*op, Bson::Document(bson::doc! { "$eq": element.clone() })),
                        None => (*op, Bson::Null),
                    },
                    _ => (*op, value.clone()),
                })
            })
            .collect();
        for c in computes {
            let target = beside(&array, c.key);
            for (op, value) in &ops {
                let unknown = |why: &'static str| Invalid::ComputedUnknown {
                    path: NamedPath::at(&array),
                    computed: NamedPath::at(&target),
                    why,
                };
                let (write, operand) = step(c, *op, value).map_err(unknown)?;
                let Some(operand) = operand else { continue };
                put(groups, write, target.clone(), operand, c)
                    .map_err(|()| unknown("two writes to the array in one update change it twice"))?;
            }
        }
    }
    Ok(())
}

/// What `op` with `value` on the array does to the computed field `c`: the operator and operand that follow it
/// (`None`: nothing to do), or why it cannot be followed.
fn step(c: &Computed, op: Operator, value: &Bson) -> Result<(Operator, Option<Bson>), &'static str> {
    if c.addend {
        return match op {
            // What the field gains, the sum gains: one `$inc` of each.
            Operator::Inc => Ok((Operator::Inc, c.fold(std::iter::once(value))?.map(|v| operand(c, v)))),
            _ => Err("a field a sum adds up changes by `inc` only: any other write leaves the sum unknown"),
        };
    }
    let values_of = |elements: &[Bson]| -> Result<Vec<Bson>, &'static str> {
        elements
            .iter()
            .map(|e| c.value_in(e).cloned().ok_or("an element lacks the value the field aggregates"))
            .collect()
    };
    match op {
        Operator::Push => {
            let elements = match value.as_document() {
                Some(spec) if spec.keys().next().is_some_and(|k| k == "$each") => {
                    if spec.contains_key("$slice") {
                        return Err("`$slice` cuts elements the update does not know");
                    }
                    spec.get_array("$each").map_err(|_| "a malformed `$each`")?.clone()
                }
                _ => vec![value.clone()],
            };
            let values = values_of(&elements)?;
            let folded = c.fold(&values)?;
            Ok(match c.aggregate {
                Aggregate::Sum => (Operator::Inc, folded.map(|v| operand(c, v))),
                Aggregate::Min => (Operator::Min, folded),
                Aggregate::Max => (Operator::Max, folded),
            })
        }
        // An uncounted `$addToSet` may add nothing: a maximum or minimum holds either way, a sum would not.
        Operator::AddToSet if c.aggregate != Aggregate::Sum => {
            let elements = match value.as_document().and_then(|d| d.get_array("$each").ok()) {
                Some(each) => each.clone(),
                None => vec![value.clone()],
            };
            let folded = c.fold(&values_of(&elements)?)?;
            Ok((if c.aggregate == Aggregate::Max { Operator::Max } else { Operator::Min }, folded))
        }
        Operator::AddToSet => {
            Err("an `add_to_set` may add nothing, so what it adds to a sum is unknown; count the set \
                                   (`counter = \"…\"`), whose `add_to_set` is guarded")
        }
        // The exact pull of one value of a counted set, guarded on its presence: it removes exactly that element.
        Operator::Pull if c.aggregate == Aggregate::Sum => {
            let removed = value.as_document().and_then(|d| d.get("$eq")).ok_or(
                "a `pull` removes elements the update does not know; a counted set's `pull` of one value is exact",
            )?;
            let v = c.value_in(removed).ok_or("an element lacks the value the field aggregates")?;
            let folded = c.fold(std::iter::once(v))?.ok_or("no value")?;
            let negated = match folded {
                Bson::Int64(n) => n.checked_neg().ok_or("the sum leaves the range of an i64")?,
                _ => return Err("an element's value is not an integer"),
            };
            Ok((Operator::Inc, Some(operand(c, Bson::Int64(negated)))))
        }
        Operator::Pull | Operator::Pop => Err(match c.aggregate {
            Aggregate::Sum => "removing elements whose values the update does not know leaves the sum unknown",
            _ => "removing an element may remove the minimum or maximum, and the next one is not known to the update",
        }),
        Operator::Set => {
            let elements = value.as_array().ok_or("the array is set to a value that is not an array")?;
            let folded = c.fold(&values_of(elements)?)?;
            Ok(match folded {
                Some(v) if c.aggregate == Aggregate::Sum => (Operator::Set, Some(operand(c, v))),
                Some(v) => (Operator::Set, Some(v)),
                None => (Operator::Unset, Some(Bson::String(String::new()))),
            })
        }
        Operator::Unset => Ok(match c.aggregate {
            Aggregate::Sum => (Operator::Set, Some(operand(c, Bson::Int64(0)))),
            _ => (Operator::Unset, Some(Bson::String(String::new()))),
        }),
        _ => Err("this operator changes the array in a way the computed field cannot follow"),
    }
}

/// A sum's operand in the field's own type (a `long`; an upsert's `$inc` creates the field with the operand's type).
fn operand(c: &Computed, v: Bson) -> Bson {
    match v {
        Bson::Int64(n) if !c.long => i32::try_from(n).map_or(Bson::Int64(n), Bson::Int32),
        v => v,
    }
}

/// Puts `operand` under `op` at `key`, combining it with what the update already writes there under the same
/// operator (two pushes: one `$inc` of both sums, one `$max` of both maxima). `Err` when another operator writes it.
fn put(
    groups: &mut Vec<(Operator, Document)>,
    op: Operator,
    key: Cow<'static, str>,
    operand: Bson,
    c: &Computed,
) -> Result<(), ()> {
    if groups.iter().any(|(o, d)| *o != op && d.contains_key(&*key)) {
        return Err(());
    }
    let at = match groups.iter().position(|(o, _)| *o == op) {
        Some(at) => at,
        None => {
            groups.push((op, Document::new()));
            groups.len() - 1
        }
    };
    let group = &mut groups[at].1;
    let combined = match group.get(&*key) {
        None => operand,
        Some(before) => match c.fold([before, &operand]) {
            Ok(Some(v)) if c.aggregate == Aggregate::Sum => self::operand(c, v),
            Ok(Some(v)) => v,
            _ => return Err(()),
        },
    };
    group.insert(key.into_owned(), combined);
    Ok(())
}
