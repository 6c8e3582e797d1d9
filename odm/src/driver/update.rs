//! What of an update only writes ask: whether building it found a problem, one update joined to another, for a
//! builder that sends its own write with the caller's in one statement ([`crate::subset::PushKeeping::also`]): the
//! caller's operators go in beside the builder's, checked as if written on one update; and the parts of a built
//! update a statement takes apart (its guard and variant into the filter, its array filters beside the document).

use crate::base::error::Invalid;
use crate::base::update::value::{BuiltUpdate, PullOnce, Update};
use bson::Document;
use std::borrow::Cow;

impl<R> Update<R> {
    /// True when building found a problem (reported by [`Update::build`]). Asked only by the collection's writes.
    pub(crate) fn has_error(&self) -> bool {
        self.extra.as_ref().is_some_and(|e| e.error.is_some())
    }

    /// This update with every operator of `other` added. A problem `other` kept, a guard in it (where the guard did
    /// not hold, this update would not apply either: `operation` names the builder), a path both write (the
    /// builder's own array, its counter) or a path and its prefix is refused, as [`Update::build`] reports it.
    pub(crate) fn along_with(mut self, other: Update<R>, operation: &'static str) -> Self {
        let Update { groups, extra, .. } = other;
        if let Some(extra) = extra {
            if let Some(e) = extra.error {
                self.fail(e);
                return self;
            }
            if !extra.guard.is_empty() || !extra.once.is_empty() {
                self.fail(Invalid::GuardedAlongside { operation });
                return self;
            }
            if let Some((tag, value)) = extra.variant {
                if !self.note_variant(tag, value, tag) {
                    return self;
                }
            }
            if !extra.array_filters.iter().all(|f| self.note_array_filter(f)) {
                return self;
            }
            self.extra().pulled.extend(extra.pulled);
            for (key, computes) in extra.computed {
                let known = &mut self.extra().computed;
                if !known.iter().any(|(k, _)| *k == key) {
                    known.push((key, computes));
                }
            }
        }
        for (op, fields) in groups {
            for (key, value) in fields {
                // Refused when this update writes the key too; noted as written, so that a path and its prefix written by the two are found when built.
                self.add_raw(op, Cow::Owned(key), value);
            }
        }
        self
    }
}

/// What the collection's writes take out of a built update.
impl BuiltUpdate {
    /// The guard, taken out (for the filter).
    pub(crate) fn take_guard(&mut self) -> Option<Document> {
        self.conditions.as_mut()?.guard.take()
    }

    /// The variant's condition, taken out (for the filter).
    pub(crate) fn take_variant(&mut self) -> Option<Document> {
        self.conditions.as_mut()?.variant.take()
    }

    /// The exact pulls from counted sets of documents the guard holds, taken out.
    pub(crate) fn take_once(&mut self) -> Vec<PullOnce> {
        self.conditions.as_mut().map(|c| std::mem::take(&mut c.once)).unwrap_or_default()
    }

    /// The update document and its `arrayFilters`, as a statement sends them.
    pub(crate) fn into_statement(self) -> (Document, Vec<Document>) {
        (self.update, self.conditions.map(|c| c.array_filters).unwrap_or_default())
    }
}
