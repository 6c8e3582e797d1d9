//! The recorder a diff walk writes into: the stored path being compared and the changes found. It names no
//! stored type, so the schema's `diff` signature can use it; the walks over stored types are the parent module's,
//! and [`crate::Update`] turns the recorded changes into its operators.

use crate::base::counters::aggregate::{Aggregate, Computed};
use crate::base::error::Invalid;
use crate::base::path::unencodable;
use bson::Bson;
use serde::Serialize;

/// What a diff writes at a stored path. [`crate::Update::diff`] maps each to the update operator of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DiffOp {
    /// `$set` of the value.
    Set,
    /// `$unset`.
    Unset,
    /// `$inc` by the value (a counter that grew with its array).
    Inc,
    /// `$push` of every element of the value (a `Bson::Array`): elements appended to an array.
    PushEach,
    /// `$max` of the value (a computed maximum that grew with its array).
    Max,
    /// `$min` of the value (a computed minimum that fell with its array).
    Min,
}

/// One recorded change.
#[derive(Debug)]
pub(crate) struct Change {
    pub(crate) op: DiffOp,
    pub(crate) key: String,
    pub(crate) value: Bson,
}

/// The changes found so far, as operators on stored paths.
#[derive(Debug, Default)]
pub struct Diff {
    pub(crate) ops: Vec<Change>,
    pub(crate) error: Option<Invalid>,
}

/// The stored path being compared (`it.2.p`), grown and shrunk as the walk descends.
#[derive(Debug, Default)]
pub struct DiffPath(pub(crate) String);

impl DiffPath {
    /// Runs `f` with `segment` appended to the path.
    pub fn with<T>(&mut self, segment: &str, f: impl FnOnce(&mut DiffPath) -> T) -> T {
        let len = self.0.len();
        if !self.0.is_empty() {
            self.0.push('.');
        }
        self.0.push_str(segment);
        let out = f(self);
        self.0.truncate(len);
        out
    }

    /// The current stored path.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Diff {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty() && self.error.is_none()
    }

    pub(crate) fn op(&mut self, op: DiffOp, at: &DiffPath, value: Bson) {
        self.ops.push(Change { op, key: at.0.clone(), value });
    }

    /// Records `$set` of `value` at `at`.
    pub fn set<T: Serialize + ?Sized>(&mut self, at: &DiffPath, value: &T) {
        match bson::serialize_to_bson(value) {
            Ok(v) => self.op(DiffOp::Set, at, v),
            Err(e) => self.fail(unencodable(&at.0, e)),
        }
    }

    /// Records `$set` of an encoded value.
    pub fn set_bson(&mut self, at: &DiffPath, value: Bson) {
        self.op(DiffOp::Set, at, value);
    }

    /// Records `$unset` at `at`.
    pub fn unset(&mut self, at: &DiffPath) {
        self.op(DiffOp::Unset, at, Bson::String(String::new()));
    }

    /// Records an error (the update will be refused before sending).
    pub fn fail(&mut self, why: Invalid) {
        self.error.get_or_insert(why);
    }

    /// Turns `$set` of a counter into `$inc` when its array only grew by `$push` of exactly that many elements, so
    /// concurrent pushes stay counted. `old` is the counter's old value.
    pub fn counter_step<T: Serialize>(&mut self, at: &DiffPath, array: &str, counter: &str, old: &T) {
        if !self.ops.iter().any(|o| o.op == DiffOp::PushEach) {
            return;
        }
        let Some(old) = integer(old) else { return };
        let array_path = join(&at.0, array);
        let counter_path = join(&at.0, counter);
        let pushed = self.ops.iter().find_map(|o| match (&o.op, &o.value) {
            (DiffOp::PushEach, Bson::Array(each)) if o.key == array_path => Some(each.len() as i64),
            _ => None,
        });
        let Some(pushed) = pushed else { return };
        if let Some(op) = self.ops.iter_mut().find(|o| o.op == DiffOp::Set && o.key == counter_path) {
            let new = match op.value {
                Bson::Int32(n) => i64::from(n),
                Bson::Int64(n) => n,
                _ => return,
            };
            if new - old == pushed {
                op.op = DiffOp::Inc;
                // Keep the counter's type (an upsert's `$inc` creates the field with its operand's type).
                op.value = match op.value {
                    Bson::Int64(_) => Bson::Int64(pushed),
                    _ => Bson::Int32(pushed as i32),
                };
            }
        }
    }
}

impl Diff {
    /// Keeps the computed field `c` of the array stored under `array` in step when the array only grew by `$push`,
    /// so concurrent pushes stay counted: a `$set` of a sum that grew by exactly the pushed values becomes `$inc`, of
    /// a maximum or minimum `$max` or `$min`; a field the new value left as it was follows the pushed values (the
    /// update computes it, as a typed push does). `old` is the field's old value. Used by generated code.
    pub fn computed_step<T: Serialize>(&mut self, at: &DiffPath, array: &str, c: &Computed, old: &T) {
        let array_path = join(&at.0, array);
        let pushed = self.ops.iter().find_map(|o| match (&o.op, &o.value) {
            (DiffOp::PushEach, Bson::Array(each)) if o.key == array_path => Some(each),
            _ => None,
        });
        let Some(pushed) = pushed else { return };
        let Ok(Some(folded)) = c.fold(pushed.iter().filter_map(|e| c.value_in(e))) else { return };
        let (step, target) = (Self::step_of(c.aggregate), join(&at.0, c.key));
        match self.ops.iter_mut().find(|o| o.key == target) {
            Some(op) if op.op == DiffOp::Set => {
                let grew_by = match (&op.value, integer(old)) {
                    (Bson::Int64(new), Some(old)) => new.checked_sub(old).map(Bson::Int64),
                    _ => None,
                };
                match c.aggregate {
                    Aggregate::Sum if grew_by.as_ref() == Some(&folded) => (op.op, op.value) = (DiffOp::Inc, folded),
                    Aggregate::Sum => {}
                    _ => op.op = step,
                }
            }
            Some(_) => {}
            None => self.ops.push(Change { op: step, key: target, value: folded }),
        }
    }

    /// The operator that adds pushed values to a computed field.
    fn step_of(aggregate: Aggregate) -> DiffOp {
        match aggregate {
            Aggregate::Sum => DiffOp::Inc,
            Aggregate::Min => DiffOp::Min,
            Aggregate::Max => DiffOp::Max,
        }
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

/// A counter's value as an integer (`None` if it does not serialize as one; the derive refuses such counters).
fn integer<T: Serialize>(value: &T) -> Option<i64> {
    match bson::serialize_to_bson(value) {
        Ok(Bson::Int32(n)) => Some(i64::from(n)),
        Ok(Bson::Int64(n)) => Some(n),
        _ => None,
    }
}

/// Compares the serialized forms; writes the new one when they differ (types without `PartialEq`).
pub fn by_value<T: Serialize + ?Sized>(old: &T, new: &T, at: &mut DiffPath, out: &mut Diff) {
    match (bson::serialize_to_bson(old), bson::serialize_to_bson(new)) {
        (Ok(a), Ok(b)) if a == b => {}
        (_, Ok(b)) => out.set_bson(at, b),
        (_, Err(e)) => out.fail(unencodable(&at.0, e)),
    }
}
