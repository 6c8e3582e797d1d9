//! `$project` into a declared output type: [`Project`] and [`Pipeline::project`].

use super::optimize::name;
use super::parts::{has_key, keep_first, missing_in, reference, stage, stage_key_of, StageKey};
use super::pipeline::Pipeline;
use super::shape::{Holds, Shape};
use crate::base::document::put;
use crate::base::error::{Invalid, NamedPath};
use crate::base::filter::overlaps;
use crate::base::meta::TypeMeta;
use crate::base::path::{AsPath, Queryable};
use bson::{Bson, Document};
use std::marker::PhantomData;

impl<D: Shape, S> Pipeline<D, S> {
    /// Reshapes every document into `O` (`$project`): each field of `O` from a path of the current type, of a type
    /// the field holds. Every field of `O` serde always writes must be given (`_id` may also come through from a
    /// current type that has one); a missing one is refused before sending, named. Fields kept under the same key
    /// are written `key: 1`, so later `$match` stages on them can move before the projection.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "cu")] customer: String, #[serde(rename = "am")] amount: i64 }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct Slim {
    ///     #[serde(rename = "cu")]
    ///     customer: String,
    ///     #[serde(rename = "v")]
    ///     value: i64,
    /// }
    /// let (f, out) = (Order::fields(), aggregate::fields::<Slim>());
    /// let p = Pipeline::<Order>::new().project(|p| p.field(out.customer(), f.customer()).field(out.value(), f.amount()));
    /// assert_eq!(p.stages().unwrap(), [doc! { "$project": { "cu": 1, "v": "$am", "_id": 0 } }]);
    /// ```
    pub fn project<O: Shape>(
        mut self,
        build: impl for<'b> FnOnce(Project<'b, D, O>) -> Project<'b, D, O>,
    ) -> Pipeline<O, S> {
        let mut body = ProjectBody { doc: Document::new(), top: 0, error: None };
        build(Project { body: &mut body, _types: PhantomData });
        self.moves |= self.stages.last().is_some_and(|last| name(last) == "$sort");
        self.checked(body.into_stage(D::type_meta(), O::type_meta())).into_shape()
    }
}

/// The builder of a `$project` into `O` from documents of type `D` ([`Pipeline::project`]). It refers to the body
/// [`Pipeline::project`] holds, so that each call moves a reference rather than the body.
pub struct Project<'b, D, O> {
    body: &'b mut ProjectBody,
    _types: PhantomData<fn() -> (D, O)>,
}

/// What a [`Project`] has built, apart from its types (see the group's builder for why the work is done here).
struct ProjectBody {
    doc: Document,
    /// How many top-level fields of the output are given (each once: a field given twice overlaps, refused).
    top: usize,
    /// The first problem, boxed: most projections have none.
    error: Option<Box<Invalid>>,
}

impl ProjectBody {
    /// The output's field at `to` takes the value at `from` (paths named by `out`).
    fn field(&mut self, to: StageKey<'_>, from: StageKey<'_>, out: Option<&'static TypeMeta>) {
        match (to, from) {
            (Ok(to), Ok(from)) => {
                if let Some(clash) = self.doc.keys().find(|k| overlaps(k, to)) {
                    let e = Invalid::Overlap { first: NamedPath::at(to), second: NamedPath::at(clash.as_str()) };
                    self.fail(e.named(out));
                }
                let value = if to == from { Bson::Int32(1) } else { reference(from) };
                self.top += usize::from(!to.contains('.'));
                put(&mut self.doc, to.to_owned(), value);
            }
            (Err(e), _) | (_, Err(e)) => self.fail(e),
        }
    }

    /// Keeps the first problem.
    fn fail(&mut self, problem: impl Into<Box<Invalid>>) {
        keep_first(&mut self.error, problem);
    }

    /// The `$project` stage from documents whose field table is `source` into the output whose table is `out`, or
    /// why it cannot be sent.
    fn into_stage(
        self,
        source: Option<&'static TypeMeta>,
        out: Option<&'static TypeMeta>,
    ) -> std::result::Result<Document, Invalid> {
        if let Some(e) = self.error {
            return Err(*e);
        }
        let mut doc = self.doc;
        let source_has_id = source.is_some_and(|m| m.implicit_id || m.has_id());
        let out_has_id = out.is_some_and(|m| m.has_id());
        if !has_key(&doc, "_id") && (!out_has_id || !source_has_id) {
            put(&mut doc, "_id".to_owned(), Bson::Int32(0));
        }
        missing_in(out, Some(self.top), |key| has_key(&doc, key) || (source_has_id && key == "_id"), "$project")?;
        Ok(stage("$project", doc))
    }
}

impl<D: Shape, O: Shape> Project<'_, D, O> {
    /// `O`'s field `out` takes the value at `from` (`out: "$from"`, or `out: 1` when the keys are equal).
    #[inline]
    pub fn field<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        self.body.field(stage_key_of(out.as_path()), stage_key_of(from.as_path()), O::type_meta());
        self
    }
}
