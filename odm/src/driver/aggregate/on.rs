//! The binding of a pipeline to the collection it runs on, apart from the running, so that the pipeline's endings
//! (`viewed`) name it without naming the module that runs them.

use crate::base::model::Model;
use crate::driver::collection::Collection;
use std::borrow::Cow;
use std::fmt;

/// A pipeline bound to the collection it runs on ([`crate::Collection::aggregate`]): borrowed, or a copy bound to the
/// session [`Pipeline::session`](crate::aggregate::Pipeline::session) gave it.
pub struct On<'a, M: Model>(pub(crate) Cow<'a, Collection<M>>);

impl<M: Model> fmt::Debug for On<'_, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "On({})", M::COLLECTION)
    }
}
