//! The `Pipeline` type and its stage builders that keep or narrow the documents' type (`$match`, `$sort`,
//! `$skip`, `$limit`, `$set`, `$unwind`, `$lookup`, `$count`), and the stages as sent.

use super::lint::lint;
use super::optimize::reorder;
use super::parts::{key_of, named_key_of, narrowed, reference, stage, type_name};
use super::shape::{CountField, Detached, Holds, Joins, Shape};
use crate::base::error::{Error, Invalid, NamedPath, Result};
use crate::base::filter::{Filter, Sort};
use crate::base::model::Model;
use crate::base::path::{AsPath, Queryable};
use crate::base::schema::paths::ArrayLike;
use bson::{Bson, Document};
use std::any::TypeId;
use std::fmt;
use std::marker::PhantomData;

/// An aggregation pipeline whose documents are of type `D` at this point, bound to a collection (`S` = `On`, with
/// the `driver` feature) or not ([`Detached`]). See the [module docs](crate::aggregate).
#[must_use = "a pipeline does nothing until run"]
pub struct Pipeline<D, S = Detached> {
    pub(crate) source: S,
    pub(crate) stages: Vec<Document>,
    /// The first problem a stage's builder found, named; none when every stage came through intact.
    pub(crate) error: Option<Box<Invalid>>,
    /// True when a stage may move earlier (a `$match` after another stage, a `$project` after a `$sort`): the
    /// stage-order pass runs only then.
    pub(crate) moves: bool,
    /// The Rust name of the pipeline's first document type, for errors.
    pub(crate) origin: &'static str,
    pub(crate) _doc: PhantomData<fn() -> D>,
}

impl<D, S: fmt::Debug> fmt::Debug for Pipeline<D, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipeline").field("source", &self.source).field("stages", &self.stages).finish()
    }
}

impl<M: Shape> Pipeline<M, Detached> {
    /// An empty pipeline over `M` documents, not bound to a collection: read its stages with
    /// [`Pipeline::stages`], or use it as a `$facet` branch.
    pub fn new() -> Self {
        Pipeline {
            source: Detached,
            stages: Vec::with_capacity(8),
            error: None,
            moves: false,
            origin: type_name::<M>(),
            _doc: PhantomData,
        }
    }
}

impl<M: Shape> Default for Pipeline<M, Detached> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D: Shape, S> Pipeline<D, S> {
    #[inline]
    pub(crate) fn push(mut self, stage: Document) -> Self {
        self.stages.push(stage);
        self
    }

    /// Records a problem (paths of `D` not named yet are named here), keeping the first.
    pub(crate) fn fail(&mut self, problem: Invalid) {
        if self.error.is_none() {
            let at = self.stages.len() + 1;
            self.error = Some(Box::new(problem.named(D::type_meta()).at_stage(at)));
        }
    }

    #[inline]
    pub(crate) fn checked(mut self, built: std::result::Result<Document, Invalid>) -> Self {
        match built {
            Ok(stage) => self.push(stage),
            Err(problem) => {
                self.fail(problem);
                self
            }
        }
    }

    /// The same stages, now over documents of type `O`.
    #[inline]
    pub(crate) fn into_shape<O>(self) -> Pipeline<O, S> {
        Pipeline {
            source: self.source,
            stages: self.stages,
            error: self.error,
            moves: self.moves,
            origin: self.origin,
            _doc: PhantomData,
        }
    }

    /// Keeps the documents matching `filter` (`$match`), built from paths of the current type.
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// let p = Pipeline::<Order>::new().filter(Order::fields().amount().gte(100));
    /// assert_eq!(p.stages().unwrap(), [doc! { "$match": { "am": { "$gte": 100_i64 } } }]);
    /// ```
    pub fn filter(mut self, filter: Filter<D>) -> Self {
        let built = filter.into_marked().map(|f| stage("$match", f));
        self.moves |= !self.stages.is_empty();
        self.checked(built)
    }

    /// Orders the documents (`$sort`).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// let p = Pipeline::<Order>::new().sort(Order::fields().amount().desc());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$sort": { "am": -1 } }]);
    /// ```
    pub fn sort(self, sort: Sort<D>) -> Self {
        let built =
            sort.into_marked().and_then(|s| if s.is_empty() { Err(Invalid::EmptySort) } else { Ok(stage("$sort", s)) });
        self.checked(built)
    }

    /// Skips the first `n` documents (`$skip`).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId }
    /// assert_eq!(Pipeline::<Order>::new().skip(20).stages().unwrap(), [doc! { "$skip": 20_i64 }]);
    /// ```
    pub fn skip(self, n: u64) -> Self {
        let built = i64::try_from(n).map(|n| stage("$skip", n)).map_err(|_| Invalid::Skip { n });
        self.checked(built)
    }

    /// Keeps the first `n` documents (`$limit`; `0` is refused: the server requires a positive limit).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId }
    /// assert_eq!(Pipeline::<Order>::new().limit(5).stages().unwrap(), [doc! { "$limit": 5_i64 }]);
    /// assert!(Pipeline::<Order>::new().limit(0).stages().is_err());
    /// ```
    pub fn limit(self, n: u64) -> Self {
        let built = match i64::try_from(n) {
            Ok(0) => Err(Invalid::Limit { n }),
            Ok(n) => Ok(stage("$limit", n)),
            Err(_) => Err(Invalid::Limit { n }),
        };
        self.checked(built)
    }

    /// Sets a field of the current type to `value` (`$set`, the value as data: `{$literal: …}`, encoded as the
    /// field stores it).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "st")] status: String }
    /// let p = Pipeline::<Order>::new().set(Order::fields().status(), "$archived");
    /// assert_eq!(p.stages().unwrap(), [doc! { "$set": { "st": { "$literal": "$archived" } } }]);
    /// ```
    pub fn set<P>(self, path: P, value: impl Into<P::Value>) -> Self
    where
        P: AsPath<D>,
        P::Access: Queryable,
    {
        let path = path.as_path();
        let built = key_of(path).and_then(|key| {
            let v = path.encode(value.into())?;
            Ok(stage("$set", bson::doc! { key: { "$literal": v } }))
        });
        self.checked(built)
    }

    /// Sets a field of the current type to the value of another field of the same type (`$set: {to: "$from"}`).
    ///
    /// ```
    /// # use odm::{aggregate::Pipeline, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64, #[serde(rename = "pa")] paid: i64 }
    /// let f = Order::fields();
    /// let p = Pipeline::<Order>::new().set_from(f.paid(), f.amount());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$set": { "pa": "$am" } }]);
    /// ```
    pub fn set_from<P, Q>(self, path: P, from: Q) -> Self
    where
        P: AsPath<D>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        let built = key_of(path.as_path())
            .and_then(|to| key_of(from.as_path()).map(|from| stage("$set", bson::doc! { to: reference(from) })));
        self.checked(built)
    }

    /// One document per element of the array at `array` (`$unwind`), each holding that element at `element`, a
    /// field of the declared type `O` (the current type with the element in place of the array). When `element`'s
    /// key differs from the array's, the element is moved there (`$set`, then `$unset` of the array).
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// # struct Line { #[serde(rename = "p")] price: i64 }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "it")] #[odm(max_items = 50)] items: Vec<Line> }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct OrderLine {
    ///     #[serde(rename = "_id")]
    ///     order: ObjectId,
    ///     #[serde(rename = "it")]
    ///     item: Line,
    /// }
    /// let p = Pipeline::<Order>::new().unwind(Order::fields().items(), &aggregate::fields::<OrderLine>().item());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$unwind": "$it" }]);
    /// ```
    pub fn unwind<O, P, Q>(self, array: P, element: Q) -> Pipeline<O, S>
    where
        O: Shape,
        P: AsPath<D>,
        P::Access: Queryable,
        P::Value: ArrayLike,
        Q: AsPath<O>,
        Q::Access: Queryable,
        Q::Value: Holds<<P::Value as ArrayLike>::Item>,
    {
        let from = match key_of(array.as_path()) {
            Ok(k) => k,
            Err(e) => return self.checked(Err(e)).into_shape(),
        };
        let to = match key_of(element.as_path()) {
            Ok(k) => k,
            Err(e) => {
                let mut p = self.into_shape::<O>();
                p.fail(e);
                return p;
            }
        };
        let mut p = self.push(stage("$unwind", reference(from)));
        if to != from {
            p = p.push(stage("$set", bson::doc! { to: reference(from) })).push(stage("$unset", from));
        }
        p.into_shape()
    }

    /// Joins documents of model `F` whose `foreign` field equals this document's `local` field (`$lookup` from
    /// `F`'s collection, in the same database), into the array at `into`, a field of the declared type `O` (the
    /// current type plus that array). When the array's elements are not `F` itself but a narrower type, only its
    /// keys are read from `F` (a `$project` inside the join), which must all be `F`'s.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "crm_customer")]
    /// # struct Customer { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "n")] name: String, #[serde(rename = "e")] email: String }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "cu")] customer: ObjectId }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Name {
    ///     #[serde(rename = "n")]
    ///     name: String,
    /// }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct WithCustomer {
    ///     #[serde(rename = "cu")]
    ///     customer: ObjectId,
    ///     #[serde(rename = "c")]
    ///     #[odm(max_items = 1)]
    ///     customers: Vec<Name>,
    /// }
    /// let out = aggregate::fields::<WithCustomer>();
    /// let p = Pipeline::<Order>::new().lookup(Order::fields().customer(), Customer::fields().id(), out.customers());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$lookup": {
    ///     "from": "crm_customer", "localField": "cu", "foreignField": "_id",
    ///     "pipeline": [{ "$project": { "n": 1, "_id": 0 } }], "as": "c",
    /// } }]);
    /// ```
    pub fn lookup<F, O, L, R, A, E>(self, local: L, foreign: R, into: A) -> Pipeline<O, S>
    where
        F: Model,
        O: Shape,
        L: AsPath<D>,
        L::Access: Queryable,
        R: AsPath<F>,
        R::Access: Queryable,
        L::Value: Joins<R::Value>,
        A: AsPath<O, Value = Vec<E>>,
        A::Access: Queryable,
        E: Shape,
    {
        const {
            assert!(
                F::TEMPLATE.is_none(),
                "`$lookup` names one collection, and this model's is named at run time (rule `name-template`)"
            )
        };
        let built = (|| {
            let local = key_of(local.as_path())?;
            let foreign = named_key_of(foreign.as_path())?;
            let into = named_key_of(into.as_path())?;
            let mut body = bson::doc! { "from": F::COLLECTION, "localField": local, "foreignField": foreign };
            if TypeId::of::<E>() != TypeId::of::<F>() {
                body.insert("pipeline", [Bson::Document(stage("$project", narrowed::<F, E>()?))]);
            }
            body.insert("as", into);
            Ok(stage("$lookup", body))
        })();
        self.checked(built).into_shape()
    }

    /// Replaces the documents with one holding their number at `field` of the declared type `O` (`$count`; no
    /// document at all when none reach it).
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Count {
    ///     #[serde(rename = "n")]
    ///     n: i64,
    /// }
    /// let p = Pipeline::<Order>::new().count(&aggregate::fields::<Count>().n());
    /// assert_eq!(p.stages().unwrap(), [doc! { "$count": "n" }]);
    /// ```
    pub fn count<O, P>(self, field: P) -> Pipeline<O, S>
    where
        O: Shape,
        P: AsPath<O>,
        P::Access: Queryable,
        P::Value: CountField,
    {
        let built = named_key_of(field.as_path()).and_then(|k| {
            if k.contains('.') || k == "_id" {
                Err(Invalid::CountTarget { path: NamedPath::at(k) }.named(O::type_meta()))
            } else {
                Ok(stage("$count", k))
            }
        });
        self.checked(built).into_shape()
    }

    /// The stages in the order they are sent (`$match` and `$project` moved as early as allowed: see the
    /// [module docs](crate::aggregate#stage-order)), or why the pipeline cannot be sent, with Rust paths of the type each stage
    /// reads.
    pub fn stages(&self) -> Result<Vec<Document>> {
        if let Some(e) = &self.error {
            return Err(Error::InvalidOperation { model: self.origin, cause: (**e).clone() });
        }
        let mut stages = self.stages.clone();
        if self.moves {
            reorder(&mut stages);
        }
        Ok(stages)
    }

    /// [`Pipeline::stages`], consuming the pipeline (no copy of its stages).
    pub fn into_stages(self) -> Result<Vec<Document>> {
        if let Some(e) = self.error {
            return Err(Error::InvalidOperation { model: self.origin, cause: *e });
        }
        let mut stages = self.stages;
        if self.moves {
            reorder(&mut stages);
        }
        Ok(stages)
    }

    /// The stages that carry whole documents further than needed (see the
    /// [module docs](crate::aggregate#carrying-whole-documents)), one message each; empty when none do.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "am")] amount: i64 }
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// # struct Total { #[serde(rename = "t")] total: i64 }
    /// let (f, out) = (Order::fields(), aggregate::fields::<Total>());
    /// let sorted_first = Pipeline::<Order>::new().sort(f.amount().desc()).limit(3).group(|g| g.sum(out.total(), f.amount()));
    /// assert_eq!(sorted_first.lint().len(), 1);
    /// ```
    pub fn lint(&self) -> Vec<String> {
        let stages = match self.stages() {
            Ok(s) => s,
            Err(_) => return Vec::new(),
        };
        lint(&stages, self.origin)
    }
}
