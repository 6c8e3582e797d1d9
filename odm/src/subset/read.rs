//! [`overflow_of`]: the overflow documents of one owner, newest first.

use super::declared::Subset;
use crate::collection::{Collection, Find};
use crate::filter::{Filter, Sort};
use crate::model::Model;
use crate::reference::fit::by_name;
use bson::{doc, Bson, Document};

/// The documents of `overflow` that hold the elements pushed onto the subset array of the owner whose `_id` is
/// `owner`, newest first (by `_id`, see the [module](crate::subset) docs), as a [`Find`] to configure further
/// (`.limit(20)`, `.skip(…)`) and await or stream. Name the owner model: `overflow_of::<Product, _>(&reviews, id)`.
///
/// The filter is on the overflow model's owner field, which an index of the overflow model starts with (the derive
/// checks it: rule [`array-overflow`](crate::rules#array-overflow)).
pub fn overflow_of<M: Subset<O>, O: Model>(overflow: &Collection<O>, owner: impl Into<Bson>) -> Find<'_, O, O> {
    let mut by_owner = Document::new();
    by_owner.insert(owner_key::<M, O>(), owner.into());
    let filter = Filter::from_document(by_owner);
    overflow.find(filter).sort(Sort::from_document(doc! { "_id": -1 }))
}

/// The stored key of `O`'s owner field: the Rust name [`Subset::OWNER`] gives, as `O`'s field table stores it.
pub(super) fn owner_key<M: Subset<O>, O: Model>() -> &'static str {
    O::type_meta().and_then(|t| by_name(t, M::OWNER)).map_or(M::OWNER, |f| f.key)
}
