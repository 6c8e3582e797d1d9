//! A pipeline that ends with a view's `$project` ([`Pipeline::view`]): the results hold only the view's paths and
//! decode as the view.

use super::on::On;
use crate::base::aggregate::parts::{stage, type_name};
use crate::base::aggregate::pipeline::Pipeline;
use crate::base::aggregate::shape::Shape;
use crate::base::error::Result;
use crate::base::explain::Explain;
use crate::base::model::Model;
use crate::base::view::View;
use bson::RawDocument;
use std::marker::PhantomData;

impl<'a, M: Model, D: Shape> Pipeline<D, On<'a, M>> {
    /// Ends the pipeline with a `$project` of view `V`'s paths (see [`crate::view`]) and decodes each result as `V`:
    /// only what the view reads comes back. `V` is a view of the pipeline's current document type `D` (the model,
    /// or the output type of an earlier stage).
    ///
    /// ```no_run
    /// # use odm::{Collection, Model, View, bson::oid::ObjectId};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "st")] status: String, #[serde(rename = "am")] amount: i64 }
    /// #[derive(View)]
    /// #[odm(of = "Order")]
    /// struct Amount {
    ///     amount: i64,
    /// }
    /// # async fn demo(orders: Collection<Order>) -> odm::error::Result<()> {
    /// let f = Order::fields();
    /// let paid: Vec<Amount> = orders.aggregate().filter(f.status().eq("paid")).view::<Amount>().await?;
    /// # Ok(()) }
    /// ```
    pub fn view<V: View<Of = D> + Send + 'a>(self) -> ViewedPipeline<'a, M, D, V> {
        let mut pipeline = self;
        // The view's projection moves before a `$sort` it keeps the keys of.
        pipeline.moves = true;
        let pipeline = pipeline.push(stage("$project", V::projection()));
        ViewedPipeline { pipeline, _view: PhantomData }
    }
}

/// A pipeline ending with a view's `$project` ([`Pipeline::view`]): `.await` it for a `Vec<V>`, or call
/// [`ViewedPipeline::stream`].
#[must_use = "a pipeline does nothing until run"]
pub struct ViewedPipeline<'a, M: Model, D, V> {
    pipeline: Pipeline<D, On<'a, M>>,
    _view: PhantomData<fn() -> V>,
}

impl<'a, M: Model, D: Shape, V: View<Of = D> + Send + 'a> ViewedPipeline<'a, M, D, V> {
    /// The results as a stream, each decoded as `V` (a decode error names `D`'s field).
    pub async fn stream(self) -> Result<impl futures_util::Stream<Item = Result<V>> + Send + 'a> {
        self.pipeline.stream_as(decode::<D, V>).await
    }

    /// What the server plans for this pipeline, the view's `$project` included (see [`crate::explain`]).
    pub async fn explain(self) -> Result<Explain> {
        self.pipeline.explain().await
    }
}

/// Decodes a result as view `V` of `D`, naming `D`'s field on failure.
fn decode<D: Shape, V: View<Of = D>>(raw: &RawDocument) -> Result<V> {
    crate::base::codec::decode_as(type_name::<D>(), D::type_meta(), raw)
}

/// All results, each decoded as `V` as it arrives.
impl<'a, M: Model, D: Shape, V: View<Of = D> + Send + 'a> std::future::IntoFuture for ViewedPipeline<'a, M, D, V> {
    type Output = Result<Vec<V>>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<V>>> + Send + 'a>>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.pipeline.collect(decode::<D, V>))
    }
}
