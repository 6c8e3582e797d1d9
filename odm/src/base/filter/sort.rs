//! Sort orders: [`Sort`], built from a path's `asc` / `desc` and chained with `then`.

use crate::base::error::{Clause, Error, Invalid, NamedPath, Result};
use crate::base::model::Model;
use crate::base::path::{Path, Queryable};
use bson::Document;
use std::fmt;
use std::marker::PhantomData;

impl<R, W, A> Path<R, W, A> {
    /// Ascending sort on this path.
    pub fn asc(&self) -> Sort<R>
    where
        A: Queryable,
    {
        Sort::by(self, 1)
    }

    /// Descending sort on this path.
    pub fn desc(&self) -> Sort<R>
    where
        A: Queryable,
    {
        Sort::by(self, -1)
    }
}

/// A sort order over documents of model `R`: `f.stars().desc().then(f.id().asc())`.
pub struct Sort<R> {
    pub(crate) doc: Document,
    pub(crate) error: Option<Box<Invalid>>,
    pub(crate) _root: PhantomData<fn() -> R>,
}

impl<R> Clone for Sort<R> {
    fn clone(&self) -> Self {
        Sort { doc: self.doc.clone(), error: self.error.clone(), _root: PhantomData }
    }
}

impl<R> fmt::Debug for Sort<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sort({})", self.doc)
    }
}

impl<R> Sort<R> {
    fn by<W, A>(path: &Path<R, W, A>, dir: i32) -> Self {
        let mut s = Sort { doc: Document::new(), error: None, _root: PhantomData };
        s.push(path, dir);
        s
    }

    fn push<W, A>(&mut self, path: &Path<R, W, A>, dir: i32) {
        if self.error.is_none() {
            let at = || NamedPath::at(path.key());
            let problem = match path.raw.check() {
                Err(e) => Some(e),
                Ok(()) if path.raw.positional => Some(Invalid::Positional { path: at(), clause: Clause::Sort }),
                Ok(()) if self.doc.contains_key(path.key()) => {
                    Some(Invalid::Repeated { path: at(), clause: Clause::Sort })
                }
                Ok(()) => None,
            };
            self.error = problem.map(Box::new);
        }
        self.doc.insert(path.key().to_owned(), dir);
    }

    /// Then by `next` (ties of this order).
    pub fn then(mut self, next: Sort<R>) -> Self {
        if let Some(e) = next.error {
            self.error.get_or_insert(e);
        }
        for (k, v) in next.doc {
            if self.doc.contains_key(&k) && self.error.is_none() {
                let path = NamedPath::at(k.as_str());
                self.error = Some(Box::new(Invalid::Repeated { path, clause: Clause::Sort }));
            }
            self.doc.insert(k, v);
        }
        self
    }

    /// [`Sort::into_document`] with the paths of the cause not named yet, for the collection to name them.
    pub(crate) fn into_marked(self) -> Result<Document, Invalid> {
        match self.error {
            Some(e) => Err(*e),
            None => Ok(self.doc),
        }
    }
}

impl<M: Model> Sort<M> {
    /// The sort document, or [`Error::InvalidOperation`] saying why it cannot be sent.
    pub fn into_document(self) -> Result<Document> {
        self.into_marked().map_err(Error::invalid_operation::<M>)
    }
}
