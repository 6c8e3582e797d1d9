//! The `Update` value and what building one yields (`BuiltUpdate`): the operator groups, the rarely present parts
//! (guard, array filters, a kept error, the variant), and the shared steps every operator method goes through
//! (adding a path under an operator, refusing a second write, guards, counters).

use crate::base::computed::Computed;
use crate::base::error::{Invalid, NamedPath};
use crate::base::operator::Operator;
use crate::base::path::{ArrayFilter, RawPath};
use crate::base::schema::BsonSchema;
use bson::document::Entry;
use bson::{Bson, Document};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// A targeted update of documents of model `R`. Build it with the typed methods, then run it with
/// [`crate::Collection::update_one`] (or its [`upsert`](crate::collection::UpdateOne::upsert)),
/// [`crate::Collection::update_many`] or [`crate::Collection::find_one_and_update`]. Problems (two operators on one path, a value that does not encode)
/// are kept and reported before anything is sent.
pub struct Update<R> {
    /// One document per operator (`$set` → `{path: value, …}`), filled as operators are added, in first-use order.
    pub(crate) groups: Vec<(Operator, Document)>,
    /// One bit per first path segment written (hashed): two paths can only conflict when their first segments are
    /// equal, so `build` compares paths only when a bit was hit twice.
    pub(crate) segments: u64,
    /// True when a segment bit was hit twice: paths may overlap.
    pub(crate) may_overlap: bool,
    /// Guards, array filters and the first problem, boxed: most updates have none, and every builder call moves the
    /// update.
    pub(crate) extra: Option<Box<Extra>>,
    pub(crate) _root: PhantomData<fn() -> R>,
}

/// The rarely present parts of an [`Update`].
#[derive(Clone, Debug)]
pub(crate) struct Extra {
    pub(crate) guard: Document,
    pub(crate) array_filters: Vec<ArrayFilter>,
    pub(crate) error: Option<Invalid>,
    /// For updates of a variant's fields (polymorphic models): the discriminator and the variant's value, which the
    /// filter must hold too.
    pub(crate) variant: Option<(&'static str, &'static str)>,
    /// True for the update [`crate::subset::PushKeeping`] builds, the one allowed to push to an overflow array.
    pub(crate) keeps_overflow: bool,
    /// The arrays with computed fields the update writes (stored key, what is computed), followed when it is built.
    pub(crate) computed: Vec<(String, &'static [Computed])>,
    /// The element each exact `pull` of one value of a counted set removes, by the array's stored key: what a
    /// computed field of the array loses.
    pub(crate) pulled: Vec<(String, Bson)>,
    /// The exact pulls of a document from a counted set: the array's stored key, its counter's, and the aggregation
    /// expression counting the elements equal to the pulled one in any key order. The guard requires each count to be
    /// 1 (added when the update is built); a pull that matched nothing is checked again with them.
    pub(crate) once: Vec<PullOnce>,
}

/// One exact pull of a document from a counted set (see [`Extra::once`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PullOnce {
    /// The array's stored path (named by the collection when the set holds the element twice: driver only).
    #[cfg_attr(not(feature = "driver"), allow(dead_code))]
    pub(crate) key: String,
    /// Its counter's stored path (likewise).
    #[cfg_attr(not(feature = "driver"), allow(dead_code))]
    pub(crate) counter: String,
    /// The aggregation expression counting the stored elements equal to the pulled one.
    pub(crate) count: Bson,
}

impl<R> Clone for Update<R> {
    fn clone(&self) -> Self {
        Update {
            groups: self.groups.clone(),
            segments: self.segments,
            may_overlap: self.may_overlap,
            extra: self.extra.clone(),
            _root: PhantomData,
        }
    }
}

impl<R> fmt::Debug for Update<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let extra = self.extra.as_deref();
        f.debug_struct("Update")
            .field("operators", &self.groups)
            .field("guard", &extra.map(|e| &e.guard))
            .field("error", &extra.and_then(|e| e.error.as_ref()).map(ToString::to_string))
            .finish()
    }
}

impl<R> Default for Update<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// An update ready to send: the update document and, when the update has them, the conditions it adds to the filter
/// (guards that make a counter's change known, the variant of a polymorphic model's fields) and its `arrayFilters`.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltUpdate {
    /// The update document (`{$set: …, $push: …, $inc: …}`).
    pub update: Document,
    /// The rarely present parts, boxed: most updates have none, and a built update is moved to the collection.
    pub(crate) conditions: Option<Box<Conditions>>,
}

/// The parts of a [`BuiltUpdate`] beside its document.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Conditions {
    pub(crate) guard: Option<Document>,
    pub(crate) array_filters: Vec<Document>,
    pub(crate) variant: Option<Document>,
    /// The exact pulls from counted sets of documents the guard holds (for telling why the update matched nothing).
    pub(crate) once: Vec<PullOnce>,
}

impl BuiltUpdate {
    pub(crate) fn new(update: Document, conditions: Option<Box<Conditions>>) -> Self {
        BuiltUpdate { update, conditions }
    }

    /// Conditions to add to the filter, if any: what makes a counter's change known (`{vi: {$ne: voter}}` for a
    /// counted set's `add_to_set`).
    pub fn guard(&self) -> Option<&Document> {
        self.conditions.as_ref()?.guard.as_ref()
    }

    /// `arrayFilters` for filtered positional paths (`$[id]`); empty when the update has none.
    pub fn array_filters(&self) -> &[Document] {
        self.conditions.as_ref().map_or(&[], |c| &c.array_filters)
    }

    /// For an update of a variant's fields (a polymorphic model): `{tag: value}`, added to the filter so that only
    /// documents of that variant are written (an upsert inserts one of that variant).
    pub fn variant(&self) -> Option<&Document> {
        self.conditions.as_ref()?.variant.as_ref()
    }
}

impl<R> Update<R> {
    /// An empty update.
    pub fn new() -> Self {
        // Most updates use a few operators: one allocation up front, no growth on the first ones.
        Update { groups: Vec::with_capacity(4), segments: 0, may_overlap: false, extra: None, _root: PhantomData }
    }

    /// True when no operator has been added.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    pub(crate) fn extra(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(|| {
            Box::new(Extra {
                guard: Document::new(),
                array_filters: Vec::new(),
                error: None,
                variant: None,
                keeps_overflow: false,
                computed: Vec::new(),
                pulled: Vec::new(),
                once: Vec::new(),
            })
        })
    }

    pub(crate) fn fail(&mut self, why: Invalid) {
        self.extra().error.get_or_insert(why);
    }

    /// Refuses (and records) a write adding elements to an array whose cut elements an overflow collection keeps,
    /// unless this is the update [`crate::subset::PushKeeping`] builds: a plain push would cut without keeping.
    pub(crate) fn refuses_overflow(&mut self, raw: &RawPath) -> bool {
        if !raw.overflows() || self.extra.as_ref().is_some_and(|e| e.keeps_overflow) {
            return false;
        }
        self.fail(Invalid::OverflowPush { path: crate::base::error::NamedPath::at(&raw.key) });
        true
    }

    /// This update, allowed to push to an overflow array: what [`crate::subset::PushKeeping`] sends beside its
    /// insert into the overflow collection. Used by generated code.
    #[doc(hidden)]
    pub fn keeping_overflow(mut self) -> Self {
        self.extra().keeps_overflow = true;
        self
    }

    /// Records an operator on `raw`, checking the path first. Inlined where the builders call it: the common case (a
    /// plain path of a field without an overflow collection or computed fields, a value that encoded) is a few tests
    /// and the insert; the rest is [`Update::add_checked`].
    #[inline(always)]
    pub(crate) fn add(&mut self, raw: &RawPath, op: Operator, value: Result<Bson, Invalid>) {
        match value {
            Ok(value) if !raw.overflows() && raw.computes().is_empty() && raw.is_bare() => self.insert(raw, op, value),
            value => self.add_checked(raw, op, value),
        }
    }

    /// [`Update::add`] of a path that may be refused or carries parts beyond its key, or of a value that failed.
    #[inline(never)]
    fn add_checked(&mut self, raw: &RawPath, op: Operator, value: Result<Bson, Invalid>) {
        // Every write adding elements to an array passes here: one place refuses it on an overflow array.
        if raw.overflows() && matches!(op, Operator::Push | Operator::AddToSet) && self.refuses_overflow(raw) {
            return;
        }
        if !raw.computes().is_empty() {
            self.note_computed(raw);
        }
        // Most paths have no defect, variant or array filter: nothing to record but the value.
        if !raw.is_bare() && !self.add_path_parts(raw, value.is_ok()) {
            return;
        }
        match value {
            Ok(value) => self.insert(raw, op, value),
            Err(e) => self.fail(e),
        }
    }

    /// Records `value` under `op` at `raw`'s key; a second write of the same key under the same operator conflicts.
    fn insert(&mut self, raw: &RawPath, op: Operator, value: Bson) {
        self.note_path(&raw.key);
        if crate::base::document::put(self.group(op), raw.key.clone().into_owned(), value).is_some() {
            self.fail_twice(&raw.key, op);
        }
    }

    /// Records that `key` is written twice under `op` (out of line: the insert that finds it is hot).
    #[cold]
    #[inline(never)]
    fn fail_twice(&mut self, key: &str, op: Operator) {
        self.fail(conflict(key, op, key, op));
    }

    /// The parts of `raw` beyond its key, for [`Update::add`]: its defect (refused), its variant (one per update) and,
    /// when the value encoded, its array filters (one condition per identifier). False when the update failed here.
    #[inline(never)]
    fn add_path_parts(&mut self, raw: &RawPath, encoded: bool) -> bool {
        if let Err(e) = raw.check() {
            self.fail(e);
            return false;
        }
        if self.refuses_computed_source(raw) {
            return false;
        }
        if let Some((tag, value)) = raw.variant() {
            if !self.note_variant(tag, value, raw.key.as_ref()) {
                return false;
            }
        }
        if encoded && !raw.array_filters().iter().all(|f| self.note_array_filter(f)) {
            return false;
        }
        true
    }

    /// Records that the update writes fields of the variant `value` (discriminator `tag`), refusing a second variant
    /// (named at the stored path `at`). False when the update failed here.
    pub(crate) fn note_variant(&mut self, tag: &'static str, value: &'static str, at: &str) -> bool {
        match self.extra().variant {
            Some((_, first)) if first != value => {
                let path = NamedPath::at(at);
                self.fail(Invalid::MixedVariants { path, variant: value, other: first, tag });
                false
            }
            _ => {
                self.extra().variant = Some((tag, value));
                true
            }
        }
    }

    /// Records an array filter, refusing a second condition for its identifier. False when the update failed here.
    pub(crate) fn note_array_filter(&mut self, f: &ArrayFilter) -> bool {
        let known = &mut self.extra().array_filters;
        match known.iter().find(|g| g.identifier == f.identifier) {
            Some(g) if g.condition != f.condition => {
                self.fail(Invalid::ArrayFilterConflict { identifier: f.identifier });
                false
            }
            Some(_) => true,
            None => {
                known.push(f.clone());
                true
            }
        }
    }

    /// Records the first segment of a written path (see `segments`).
    pub(crate) fn note_path(&mut self, key: &str) {
        self.note_segment(segment_bit(key));
    }

    /// Records a first segment's bit (from [`segment_bit`]).
    fn note_segment(&mut self, bit: u64) {
        self.may_overlap |= self.segments & bit != 0;
        self.segments |= bit;
    }

    /// The document of `op`, created on first use.
    #[inline]
    pub(crate) fn group(&mut self, op: Operator) -> &mut Document {
        let at = match self.groups.iter().position(|(o, _)| *o == op) {
            Some(at) => at,
            None => {
                self.groups.push((op, Document::new()));
                self.groups.len() - 1
            }
        };
        &mut self.groups[at].1
    }

    /// The document of `op`, if the update uses it.
    #[inline]
    pub(crate) fn existing(&mut self, op: Operator) -> Option<&mut Document> {
        self.groups.iter_mut().find(|(o, _)| *o == op).map(|(_, d)| d)
    }

    /// Records an operator on a stored path whose value is already encoded (a counter's, a diff's).
    pub(crate) fn add_raw(&mut self, op: Operator, key: Cow<'static, str>, value: Bson) {
        self.note_path(&key);
        // One lookup: the entry tells a path written twice from a new one.
        let entry = self.group(op).entry(key.into_owned());
        if let Entry::Occupied(taken) = &entry {
            let why = conflict(taken.key(), op, taken.key(), op);
            return self.fail(why);
        }
        entry.or_insert(value);
    }

    /// Adds `by` to the `$inc` of `key` (a counter's stored path), creating it with `first()` (the operand in the
    /// counter's own type) when the update does not increment it yet. False when `key` is already incremented by
    /// something other than an integer (a conflict for the caller to report).
    pub(crate) fn inc_counter(&mut self, key: Cow<'static, str>, by: i32, first: impl FnOnce() -> Bson) -> bool {
        let bit = segment_bit(&key);
        let group = self.group(Operator::Inc);
        let key = match key {
            // A model's own counter: one plain insert, the key still at hand to put a sum back in the rare case the
            // update already increments it (a second push).
            Cow::Borrowed(key) => match crate::base::document::put(group, key.to_owned(), first()) {
                None => {
                    self.note_segment(bit);
                    return true;
                }
                Some(before) => return add_to_counter(group, key, before, by),
            },
            Cow::Owned(key) => key,
        };
        // A nested counter's owned path: one lookup through the entry, without copying the path.
        let mut created = false;
        let value = group.entry(key).or_insert_with(|| {
            created = true;
            first()
        });
        match value {
            _ if created => self.note_segment(bit),
            Bson::Int32(k) => *k += by,
            Bson::Int64(k) => *k += i64::from(by),
            _ => return false,
        }
        true
    }

    pub(crate) fn encode_item<T: BsonSchema + serde::Serialize>(raw: &RawPath, item: &T) -> Result<Bson, Invalid> {
        crate::base::schema::paths::encode_schema(crate::base::path::EncoderInput::Borrowed(item), &raw.key)
    }

    /// `item` encoded for `raw`'s elements, or `None` with the problem recorded (the update then fails).
    pub(crate) fn encoded_item<T: BsonSchema + serde::Serialize>(&mut self, raw: &RawPath, item: &T) -> Option<Bson> {
        Self::encode_item(raw, item).map_err(|e| self.fail(e)).ok()
    }

    pub(crate) fn counter_value(raw: &RawPath, len: usize) -> Bson {
        if raw.counter_long() {
            Bson::Int64(len as i64)
        } else {
            Bson::Int32(len as i32)
        }
    }

    /// Adds a filter condition on `key` that makes the change to a counted array's length known.
    pub(crate) fn guard(&mut self, raw: &RawPath, what: &'static str, key: String, cond: Bson) {
        if raw.positional {
            return self.fail(Invalid::CountedPositional { path: NamedPath::at(raw.key.as_ref()), operation: what });
        }
        let guard = &mut self.extra().guard;
        match guard.get_mut(&key) {
            Some(Bson::Document(existing)) => {
                if let Bson::Document(c) = cond {
                    existing.extend(c);
                }
            }
            _ => {
                guard.insert(key, cond);
            }
        }
    }
}

impl<R> Update<R> {
    /// Requires the counted set at `raw` to hold exactly one element `count` counts (an aggregation expression), so
    /// that its counter's change is known; built into the guard's `$expr` with the other pulls' (all hold).
    pub(crate) fn guard_once(&mut self, raw: &RawPath, count: Bson) {
        if raw.positional {
            return self.fail(Invalid::CountedPositional { path: NamedPath::at(raw.key.as_ref()), operation: "pull" });
        }
        let Some(counter) = raw.counter_key() else { return };
        let once = PullOnce { key: raw.key.clone().into_owned(), counter: counter.into_owned(), count };
        self.extra().once.push(once);
    }
}

/// Puts back under `key` in `group` the increment it held `before` plus `by`; false (and `before` put back as it was)
/// when that was not an integer.
fn add_to_counter(group: &mut Document, key: &'static str, before: Bson, by: i32) -> bool {
    let (sum, counted) = match before {
        Bson::Int32(k) => (Bson::Int32(k + by), true),
        Bson::Int64(k) => (Bson::Int64(k + i64::from(by)), true),
        other => (other, false),
    };
    group.insert(key, sum);
    counted
}

/// The bit of `key`'s first segment among [`Update`]'s `segments`: a hash of its first two bytes. Two segments
/// sharing them share a bit, which only makes `build` compare the paths (a false alarm costs a comparison, never a
/// missed conflict); scanning the whole segment cost more than the comparisons it saved.
fn segment_bit(key: &str) -> u64 {
    let (first, second) = match key.as_bytes() {
        [] => (0, 0),
        [a] | [a, b'.', ..] => (*a, 0),
        [a, b, ..] => (*a, *b),
    };
    1u64 << ((u32::from(first) * 31 + u32::from(second)) % 64)
}

/// Why operators on `a` and `b` cannot go in one update (MongoDB answers code 40).
pub(crate) fn conflict(a: &str, a_op: Operator, b: &str, b_op: Operator) -> Invalid {
    Invalid::PathConflict {
        first: NamedPath::at(a),
        first_operator: a_op,
        second: NamedPath::at(b),
        second_operator: b_op,
    }
}
