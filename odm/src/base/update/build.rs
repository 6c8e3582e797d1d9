//! Building an update: the operator groups as one document, refusing conflicting paths (code 40), and
//! [`Update::build`](crate::Update::build) / [`Update::has_guard`](crate::Update::has_guard).

use super::value::{conflict, BuiltUpdate, Conditions, Extra, PullOnce, Update};
use crate::base::error::{Error, Invalid};
use crate::base::filter::overlaps;
use crate::base::model::Model;
use crate::base::operator::Operator;
use bson::{doc, Bson, Document};

impl<R> Update<R> {
    /// [`Update::build`] with the paths of the cause not named yet, for the collection to name them. The built update
    /// carries the exact pulls from counted sets of documents its guard holds (for telling why it matched nothing).
    pub(crate) fn build_marked(self) -> Result<BuiltUpdate, Invalid> {
        let Update { mut groups, may_overlap, extra, .. } = self;
        // Most updates have no guard, array filter, variant or computed field: nothing to take apart.
        let conditions = match extra {
            None => None,
            Some(extra) => conditions(*extra, &mut groups)?,
        };
        if groups.is_empty() {
            return Err(Invalid::EmptyUpdate);
        }
        if may_overlap {
            check_conflicts(&groups)?;
        }
        if !groups.is_sorted_by_key(|(op, _)| *op) {
            groups.sort_by_key(|(op, _)| *op);
        }
        let mut update = Document::new();
        for (op, doc) in groups {
            crate::base::document::put(&mut update, op.name().to_owned(), Bson::Document(doc));
        }
        Ok(BuiltUpdate::new(update, conditions))
    }
}

/// The conditions an update's rare parts add (`None` when they add none), after the computed fields it writes are
/// followed into `groups`; the problem it kept, if any.
#[inline(never)]
fn conditions(extra: Extra, groups: &mut Vec<(Operator, Document)>) -> Result<Option<Box<Conditions>>, Invalid> {
    let Extra { error, guard, array_filters, variant, computed, pulled, once, .. } = extra;
    if let Some(e) = error {
        return Err(e);
    }
    if !computed.is_empty() {
        super::computed::follow(groups, computed, &pulled)?;
    }
    let conditions = Conditions {
        guard: sent_guard(guard, &once),
        array_filters: array_filters.into_iter().map(|f| f.condition).collect(),
        variant: variant.map(|(tag, value)| bson::doc! { tag: value }),
        once,
    };
    Ok((conditions != Conditions::default()).then(|| Box::new(conditions)))
}

/// The guard as sent: the conditions on fields, and an `$expr` requiring each exact pull to find exactly one element
/// (the one place the guard gets an `$expr`).
fn sent_guard(mut guard: Document, once: &[PullOnce]) -> Option<Document> {
    if !once.is_empty() {
        let all: Vec<Bson> = once.iter().map(|p| Bson::Document(doc! { "$eq": [p.count.clone(), 1] })).collect();
        guard.insert("$expr", doc! { "$and": all });
    }
    (!guard.is_empty()).then_some(guard)
}

/// Refuses a path and its prefix, or one path under two operators. (One path twice under one operator was refused
/// as it was added.)
fn check_conflicts(groups: &[(Operator, Document)]) -> Result<(), Invalid> {
    for (i, (a_op, a_doc)) in groups.iter().enumerate() {
        for (j, a) in a_doc.keys().enumerate() {
            for b in a_doc.keys().skip(j + 1) {
                if overlaps(a, b) {
                    return Err(conflict(a, *a_op, b, *a_op));
                }
            }
            for (b_op, b_doc) in &groups[i + 1..] {
                for b in b_doc.keys() {
                    if overlaps(a, b) {
                        return Err(conflict(a, *a_op, b, *b_op));
                    }
                }
            }
        }
    }
    Ok(())
}

impl<M: Model> Update<M> {
    /// Checks the update (an error kept while building; two operators on one path or on a path and its prefix, which
    /// MongoDB refuses with code 40) and assembles the documents to send; a refusal is [`Error::InvalidOperation`]
    /// with Rust paths beside stored ones.
    pub fn build(self) -> crate::base::error::Result<BuiltUpdate> {
        self.build_marked().map_err(Error::invalid_operation::<M>)
    }
}

impl<R> Update<R> {
    /// True when the update carries guard conditions (which an upsert cannot honour).
    pub fn has_guard(&self) -> bool {
        self.extra.as_ref().is_some_and(|e| !e.guard.is_empty() || !e.once.is_empty())
    }
}
