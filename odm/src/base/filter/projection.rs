//! Projections: which fields a read returns ([`Projection`]).

use super::overlap::overlaps;
use crate::base::error::{Clause, Error, Invalid, NamedPath, Result};
use crate::base::model::Model;
use crate::base::path::{AsPath, Queryable};
use bson::Document;
use std::fmt;
use std::marker::PhantomData;

/// Which fields a read returns (project early: only what is read crosses the network). Either an inclusion or an
/// exclusion list.
///
/// ```
/// # use odm::{Model, Projection, bson::{doc, oid::ObjectId}};
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "shop_review")]
/// # struct Review { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "s")] stars: i32 }
/// let f = Review::fields();
/// let p = Projection::only().field(f.stars()).without_id();
/// assert_eq!(p.into_document().unwrap(), doc! { "s": 1, "_id": 0 });
/// ```
pub struct Projection<R> {
    doc: Document,
    include: bool,
    error: Option<Box<Invalid>>,
    _root: PhantomData<fn() -> R>,
}

impl<R> fmt::Debug for Projection<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Projection({})", self.doc)
    }
}

impl<R> Clone for Projection<R> {
    fn clone(&self) -> Self {
        Projection { doc: self.doc.clone(), include: self.include, error: self.error.clone(), _root: PhantomData }
    }
}

impl<R> Projection<R> {
    /// Return only the fields listed with [`Projection::field`] (and `_id` unless [`Projection::without_id`]).
    pub fn only() -> Self {
        Projection { doc: Document::new(), include: true, error: None, _root: PhantomData }
    }

    /// Return every field except those listed with [`Projection::field`].
    pub fn except() -> Self {
        Projection { doc: Document::new(), include: false, error: None, _root: PhantomData }
    }

    /// Adds a field to the list.
    pub fn field<P: AsPath<R>>(mut self, path: P) -> Self
    where
        P::Access: Queryable,
    {
        let raw = &path.as_path().raw;
        if self.error.is_none() {
            let path = || NamedPath::at(raw.key.as_ref());
            let problem = match raw.check() {
                Err(e) => Some(e),
                Ok(()) if raw.positional => Some(Invalid::Positional { path: path(), clause: Clause::Projection }),
                Ok(()) => self
                    .doc
                    .keys()
                    .find(|k| overlaps(k, &raw.key))
                    .map(|clash| Invalid::Overlap { first: path(), second: NamedPath::at(clash.as_str()) }),
            };
            self.error = problem.map(Box::new);
        }
        self.doc.insert(raw.key.clone().into_owned(), if self.include { 1 } else { 0 });
        self
    }

    /// Leaves `_id` out of the result (the server includes it by default).
    pub fn without_id(mut self) -> Self {
        self.doc.insert("_id", 0);
        self
    }

    /// The projection of view `V`: exactly the stored paths it reads ([`View::projection`](crate::view::View)), and
    /// the version key of a versioned model, so a document not at the current version is told apart.
    #[cfg(feature = "driver")]
    pub(crate) fn of_view<V: crate::base::view::View>(version: Option<&str>) -> Self {
        let mut doc = V::projection();
        if let Some(key) = version {
            doc.insert(key, 1);
        }
        Projection { doc, include: true, error: None, _root: PhantomData }
    }

    /// [`Projection::into_document`] with the paths of the cause not named yet, for the collection to name them.
    pub(crate) fn into_marked(self) -> Result<Document, Invalid> {
        match self.error {
            Some(e) => Err(*e),
            None => Ok(self.doc),
        }
    }
}

impl<M: Model> Projection<M> {
    /// The projection document, or [`Error::InvalidOperation`] saying why it cannot be sent.
    pub fn into_document(self) -> Result<Document> {
        self.into_marked().map_err(Error::invalid_operation::<M>)
    }
}
