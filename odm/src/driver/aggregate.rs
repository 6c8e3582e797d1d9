//! Running a pipeline bound to a collection: the binding ([`Collection::aggregate`], [`On`]), results (`all`,
//! `stream`, `.await`), `explain`, and writing them with `$out` / `$merge`. Building stages is driver-free (the rest
//! of [`crate::aggregate`]); running them needs the driver.

use crate::base::aggregate::lint::lint;
use crate::base::aggregate::parts::{stage, type_name};
use crate::base::aggregate::pipeline::Pipeline;
use crate::base::aggregate::shape::Shape;
use crate::base::error::{Error, Result};
use crate::base::explain::Explain;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::schema::BsonSchema;
use crate::driver::collection::Collection;
use crate::driver::observe::Op;
use crate::driver::session::Rows;
use bson::{Document, RawDocument, RawDocumentBuf};
use futures_util::{StreamExt, TryStreamExt};
use std::future::IntoFuture;
use std::marker::PhantomData;

mod on;
mod viewed;
pub use on::On;
pub use viewed::ViewedPipeline;

impl<M: Model> Collection<M> {
    /// An aggregation pipeline over this collection's documents (see [`crate::aggregate`]); it runs in the
    /// collection's session, if any.
    ///
    /// ```no_run
    /// # use odm::{aggregate, Collection, Embedded, Model, bson::oid::ObjectId};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "st")] status: String, #[serde(rename = "am")] amount: i64 }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Revenue {
    ///     #[serde(rename = "t")]
    ///     total: i64,
    /// }
    /// # async fn demo(orders: Collection<Order>) -> odm::error::Result<()> {
    /// let (f, out) = (Order::fields(), aggregate::fields::<Revenue>());
    /// let rows: Vec<Revenue> =
    ///     orders.aggregate().filter(f.status().eq("paid")).group(|g| g.sum(out.total(), f.amount())).await?;
    /// # Ok(()) }
    /// ```
    pub fn aggregate(&self) -> Pipeline<M, On<'_, M>> {
        Pipeline {
            source: On(std::borrow::Cow::Borrowed(self)),
            stages: Vec::with_capacity(8),
            error: None,
            moves: false,
            origin: type_name::<M>(),
            _doc: PhantomData,
        }
    }
}

impl<'a, M: Model, D: Shape> Pipeline<D, On<'a, M>> {
    /// Runs this pipeline in `session` (a transaction's, or one whose reads follow its writes), its results read and
    /// its `$out` / `$merge` written there. It wins over the session of a collection bound with
    /// [`Collection::with_session`].
    ///
    /// ```no_run
    /// # use odm::{aggregate, Collection, Embedded, Model, Session, bson::oid::ObjectId};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "st")] status: String, #[serde(rename = "am")] amount: i64 }
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// # struct Revenue { #[serde(rename = "t")] total: i64 }
    /// # async fn demo(orders: Collection<Order>, session: Session) -> odm::error::Result<()> {
    /// let (f, out) = (Order::fields(), aggregate::fields::<Revenue>());
    /// // What the session's transaction wrote, not committed yet, is counted too.
    /// let rows: Vec<Revenue> = orders.aggregate().session(&session).group(|g| g.sum(out.total(), f.amount())).await?;
    /// # Ok(()) }
    /// ```
    pub fn session(mut self, session: &crate::driver::session::Session) -> Self {
        self.source.0 = std::borrow::Cow::Owned(self.source.0.with_session(session));
        self
    }

    /// The stages to send, with the lint warnings logged (target `odm::aggregate`).
    fn prepared(&self) -> Result<Vec<Document>> {
        let stages = self.stages()?;
        for warning in lint(&stages, self.origin) {
            tracing::warn!(target: "odm::aggregate", collection = M::COLLECTION, "{warning}");
        }
        Ok(stages)
    }

    /// The results, read through the collection's session when it has one (locked until the stream is dropped).
    /// The span of the `aggregate` ([`Op`]) comes back with the rows, so a read to the end records its whole time.
    async fn rows(self) -> Result<(Op, Rows<'a>)> {
        let stages = self.prepared()?;
        let coll = self.source.0;
        let op = coll.op("aggregate").values(|| bson::doc! { "pipeline": &stages });
        let aggregate = coll.raw().aggregate(stages).with_type::<RawDocumentBuf>();
        let map_err = |e| Error::from_driver(e, model_name::<M>(), M::type_meta());
        let Some(session) = coll.session() else {
            let cursor = op.open(aggregate).await.map_err(map_err)?;
            return Ok((op, Rows::Cursor(Box::new(cursor))));
        };
        let mut guard = session.lock().await;
        let cursor = op.open(aggregate.session(&mut *guard).into_future()).await.map_err(map_err)?;
        let rows = futures_util::stream::unfold((cursor, guard), |(mut cursor, mut guard)| async move {
            let next = cursor.next(&mut guard).await?;
            Some((next.map_err(Error::from), (cursor, guard)))
        });
        Ok((op, Rows::Session(rows.boxed())))
    }

    /// The results as a stream, each decoded as `D` (a decode error names `D`'s field).
    pub async fn stream(self) -> Result<impl futures_util::Stream<Item = Result<D>> + Send + 'a> {
        self.stream_as(decode::<D>).await
    }

    /// The results as a stream, each decoded by `decode`.
    async fn stream_as<P: Send + 'a>(
        self,
        decode: fn(&RawDocument) -> Result<P>,
    ) -> Result<impl futures_util::Stream<Item = Result<P>> + Send + 'a> {
        let (op, rows) = self.rows().await?;
        op.end();
        Ok(rows.decoded(decode))
    }

    /// Every result, each decoded by `decode` as it arrives.
    async fn collect<P>(self, decode: fn(&RawDocument) -> Result<P>) -> Result<Vec<P>> {
        let (op, mut rows) = self.rows().await?;
        op.run(async {
            let mut out = Vec::new();
            while let Some(value) = rows.next(decode).await {
                out.push(value?);
            }
            Ok(out)
        })
        .await
    }

    /// What the server plans for this pipeline, with execution statistics (see [`crate::explain`]):
    /// [`Explain::pipeline`] lists the stages after the first.
    pub async fn explain(self) -> Result<Explain> {
        let stages = self.stages()?;
        let coll = self.source.0;
        coll.explain(bson::doc! { "aggregate": coll.raw().name(), "pipeline": stages, "cursor": {} }).await
    }

    async fn write(self, last: Document) -> Result<()> {
        let mut stages = self.prepared()?;
        stages.push(last);
        let coll = self.source.0;
        let map_err = |e| Error::from_driver(e, model_name_of::<D>(), D::type_meta());
        let op = coll.op("aggregate").values(|| bson::doc! { "pipeline": &stages });
        let aggregate = coll.raw().aggregate(stages);
        op.run(async {
            match coll.session() {
                Some(session) => {
                    let mut guard = session.lock().await;
                    let mut cursor = aggregate.session(&mut *guard).await.map_err(map_err)?;
                    while cursor.next(&mut guard).await.transpose().map_err(map_err)?.is_some() {}
                }
                None => {
                    let mut cursor = aggregate.await.map_err(map_err)?;
                    while cursor.try_next().await.map_err(map_err)?.is_some() {}
                }
            }
            Ok(())
        })
        .await
    }
}

impl<'a, M: Model, D: Model> Pipeline<D, On<'a, M>> {
    /// Replaces the documents of `D`'s collection with the results (`$out`), checked by its validator: a refused
    /// document fails the whole write with a [`crate::error::ValidationError`] naming `D`'s field, and the collection is
    /// left as it was. The collection must be in the pipeline's database.
    ///
    /// `D`'s collection must be named once: for a model named at run time the build fails (rule
    /// [`name-template`](crate::rules#name-template)).
    pub async fn out(self) -> Result<()> {
        const { assert!(D::TEMPLATE.is_none(), "`$out` names one collection, and this model's is named at run time") };
        self.write(stage("$out", D::COLLECTION)).await
    }

    /// Writes the results into `D`'s collection by `_id` (`$merge`): a result whose `_id` is not there is inserted,
    /// one whose `_id` is there replaces the stored document ([`WhenMatched::Replace`]) or is merged into it
    /// ([`WhenMatched::Merge`]: its fields set, the others kept). MongoDB checks the results with the collection's
    /// validator.
    ///
    /// `D`'s collection must be named once, as for [`out`](Self::out).
    pub async fn merge(self, when_matched: WhenMatched) -> Result<()> {
        const { assert!(D::TEMPLATE.is_none(), "`$merge` names one collection, and this model's is named at run time") };
        let when = match when_matched {
            WhenMatched::Replace => "replace",
            WhenMatched::Merge => "merge",
        };
        let body = bson::doc! { "into": D::COLLECTION, "on": "_id", "whenMatched": when, "whenNotMatched": "insert" };
        self.write(stage("$merge", body)).await
    }
}

/// What [`Pipeline::merge`] does with a result whose `_id` is already stored (`$merge`'s `whenMatched`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenMatched {
    /// The result replaces the stored document.
    Replace,
    /// The result's fields are set on the stored document; its other fields are kept.
    Merge,
}

fn model_name_of<D: BsonSchema>() -> &'static str {
    type_name::<D>()
}

/// Decodes a result as `D`, naming `D`'s field on failure.
fn decode<D: Shape>(raw: &RawDocument) -> Result<D> {
    crate::base::codec::decode_as(type_name::<D>(), D::type_meta(), raw)
}

/// All results, each decoded as `D` as it arrives (a decode error names `D`'s field: `CustomerTotal.total`).
impl<'a, M: Model, D: Shape> std::future::IntoFuture for Pipeline<D, On<'a, M>> {
    type Output = Result<Vec<D>>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<D>>> + Send + 'a>>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.collect(decode::<D>))
    }
}
