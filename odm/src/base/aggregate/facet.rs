//! `$facet`: branches of detached pipelines, each into an array field of the output type ([`Facet`],
//! [`Pipeline::facet`]).

use super::optimize::reorder;
use super::parts::{keep_first, missing, named_key_of, stage, type_name};
use super::pipeline::Pipeline;
use super::shape::{Detached, Shape};
use crate::base::error::Invalid;
use crate::base::path::{AsPath, Queryable};
use bson::{Bson, Document};
use std::marker::PhantomData;

impl<D: Shape, S> Pipeline<D, S> {
    /// Runs several branches over the same documents into one document of the declared type `O` (`$facet`): each
    /// branch is a [`Pipeline`] from the current type, whose results fill an array field of `O`.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Count {
    ///     #[serde(rename = "n")]
    ///     n: i64,
    /// }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Report {
    ///     #[serde(rename = "big")]
    ///     #[odm(max_items = 1)]
    ///     big: Vec<Count>,
    ///     #[serde(rename = "all")]
    ///     #[odm(max_items = 1)]
    ///     all: Vec<Count>,
    /// }
    /// let (f, out, count) = (Order::fields(), aggregate::fields::<Report>(), aggregate::fields::<Count>());
    /// let p = Pipeline::<Order>::new().facet(|b| {
    ///     b.branch(out.big(), |p| p.filter(f.amount().gt(100)).count(count.n()))
    ///         .branch(out.all(), |p| p.count(count.n()))
    /// });
    /// assert_eq!(p.stages().unwrap(), [doc! { "$facet": {
    ///     "big": [{ "$match": { "am": { "$gt": 100_i64 } } }, { "$count": "n" }],
    ///     "all": [{ "$count": "n" }],
    /// } }]);
    /// ```
    pub fn facet<O: Shape>(mut self, build: impl for<'b> FnOnce(Facet<'b, D, O>) -> Facet<'b, D, O>) -> Pipeline<O, S> {
        let mut body = FacetBody { doc: Document::new(), error: None };
        build(Facet { body: &mut body, _types: PhantomData });
        let built = match body.error {
            Some(e) => Err(*e),
            None => missing::<O>(&body.doc, "$facet", false).map(|()| stage("$facet", body.doc)),
        };
        match built {
            Ok(s) => self = self.push(s),
            // Branch errors are named already (by the branch's types).
            Err(e) => self.fail(e),
        }
        self.into_shape()
    }
}

/// The builder of a `$facet` into `O` from documents of type `D` ([`Pipeline::facet`]). It refers to the body
/// [`Pipeline::facet`] holds, as the `$group` and `$project` builders do.
pub struct Facet<'b, D, O> {
    body: &'b mut FacetBody,
    _types: PhantomData<fn() -> (D, O)>,
}

/// What a [`Facet`] has built: the branches by output key, and the first problem (boxed: most facets have none).
struct FacetBody {
    doc: Document,
    error: Option<Box<Invalid>>,
}

impl<D: Shape, O: Shape> Facet<'_, D, O> {
    /// A branch: the pipeline `build` makes from the current documents, whose results fill `O`'s array `out`.
    pub fn branch<P, T>(self, out: P, build: impl FnOnce(Pipeline<D, Detached>) -> Pipeline<T, Detached>) -> Self
    where
        P: AsPath<O, Value = Vec<T>>,
        P::Access: Queryable,
        T: Shape,
    {
        let start = Pipeline::<D, Detached> {
            source: Detached,
            stages: Vec::new(),
            error: None,
            moves: false,
            origin: type_name::<D>(),
            _doc: PhantomData,
        };
        let branch = build(start);
        let to = named_key_of(out.as_path());
        match (to, branch.error) {
            (Ok(to), None) => {
                let mut stages = branch.stages;
                if branch.moves {
                    reorder(&mut stages);
                }
                self.body.doc.insert(to, stages.into_iter().map(Bson::Document).collect::<Vec<_>>());
            }
            (Ok(to), Some(e)) => keep_first(&mut self.body.error, Invalid::Branch { branch: to.to_owned(), cause: e }),
            (Err(e), _) => keep_first(&mut self.body.error, e),
        }
        self
    }
}
