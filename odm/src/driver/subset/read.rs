//! [`overflow_of`]: the overflow documents of one owner, newest first.

use crate::base::filter::{Filter, Sort};
use crate::base::model::Model;
use crate::base::reference::fit::by_name;
use crate::base::subset::Subset;
use crate::driver::collection::{Collection, Find};
use bson::{doc, Bson, Document};
use std::marker::PhantomData;

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
    overflow.find(filter).sort(newest_first())
}

/// Newest first: by `_id`, a key every document has, so the sort needs none of the checks a typed one gets.
fn newest_first<O>() -> Sort<O> {
    Sort { doc: doc! { "_id": -1 }, error: None, _root: PhantomData }
}

/// The stored key of `O`'s owner field: the Rust name [`Subset::OWNER`] gives, as `O`'s field table stores it.
pub(super) fn owner_key<M: Subset<O>, O: Model>() -> &'static str {
    O::type_meta().and_then(|t| by_name(t, M::OWNER)).map_or(M::OWNER, |f| f.key)
}
