//! `$push` modifiers: `$position`, `$sort`, `$slice` ([`Modifiers`], for
//! [`Update::push_with`](crate::Update::push_with)).

use super::markers::{Sliced, Unsliced};
use crate::base::error::Invalid;
use crate::base::filter::Sort;
use crate::base::path::{Access, RawPath};
use crate::base::schema::paths::{ArrayLike, ElemNode};
use bson::Bson;
use std::marker::PhantomData;

/// The types a [`Modifiers`] is about: root model, array type, access, slice state.
type ModifierTypes<R, W, A, S> = PhantomData<fn() -> (R, W, A, S)>;

/// `$push` modifiers: `$position`, `$sort`, `$slice` (see [`Update::push_with`](crate::Update::push_with)).
pub struct Modifiers<R, W, A, S = Unsliced> {
    pub(super) position: Option<i32>,
    pub(super) sort: Option<Result<Bson, Invalid>>,
    pub(super) slice: Option<i32>,
    pub(super) _marker: ModifierTypes<R, W, A, S>,
}

impl<R, W: ArrayLike, A: Access, S> Modifiers<R, W, A, S> {
    /// Insert at `index` (negative counts from the end).
    pub fn position(mut self, index: i32) -> Self {
        self.position = Some(index);
        self
    }

    /// Sort the whole array ascending afterwards (scalar elements).
    pub fn sort_asc(mut self) -> Self {
        self.sort = Some(Ok(Bson::Int32(1)));
        self
    }

    /// Sort the whole array descending afterwards (scalar elements).
    pub fn sort_desc(mut self) -> Self {
        self.sort = Some(Ok(Bson::Int32(-1)));
        self
    }

    /// Sort the array by fields of its elements afterwards: `|e| e.price().desc()`.
    pub fn sort_by(mut self, order: impl FnOnce(ElemNode<R, W, A>) -> Sort<R>) -> Self {
        let root = crate::base::path::Path::<R, W::Item, A::Elem>::with_raw(RawPath::default());
        self.sort = Some(order(root.into()).into_marked().map(Bson::Document));
        self
    }

    /// Keep the first `n` (positive) or last `-n` (negative) elements afterwards. Not offered on counted arrays.
    pub fn slice(self, n: i32) -> Modifiers<R, W, A, Sliced> {
        Modifiers { position: self.position, sort: self.sort, slice: Some(n), _marker: PhantomData }
    }
}
