//! `$group` into a declared output type: the key and accumulator builders ([`Group`]) and [`Pipeline::group`].

use super::parts::{keep_first, missing_in, reference, source, stage, stage_key_of, StageKey};
use super::pipeline::Pipeline;
use super::shape::{Averageable, AvgOf, CountField, ExtremeOf, GathersInto, Holds, Shape, SumOf};
use crate::base::document::put;
use crate::base::error::{Clause, Invalid, NamedPath};
use crate::base::meta::TypeMeta;
use crate::base::path::{AsPath, Queryable};
use bson::{Bson, Document};
use std::marker::PhantomData;

impl<D: Shape, S> Pipeline<D, S> {
    /// Groups the documents into `O` (`$group`): the group key into fields of `O` ([`Group::key`]; none: one group
    /// of every document), and typed accumulators into the others. A single key into `O`'s `_id` is the group's
    /// `_id`; keys into other fields are copied out of a compound `_id`, which is then dropped when `O` has no `_id`.
    ///
    /// ```
    /// # use odm::{aggregate::{self, Pipeline}, Embedded, Model, bson::{doc, oid::ObjectId}};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "order_header")]
    /// # struct Order { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "cu")] customer: String, #[serde(rename = "am")] amount: i64 }
    /// #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// struct PerCustomer {
    ///     #[serde(rename = "cu")]
    ///     customer: String,
    ///     #[serde(rename = "a")]
    ///     average: f64,
    ///     #[serde(rename = "all")]
    ///     #[odm(max_items = 100)]
    ///     amounts: Vec<i64>,
    /// }
    /// let (f, out) = (Order::fields(), aggregate::fields::<PerCustomer>());
    /// let p = Pipeline::<Order>::new()
    ///     .group(|g| g.key(out.customer(), f.customer()).avg(out.average(), f.amount()).push(out.amounts(), f.amount()));
    /// assert_eq!(p.stages().unwrap(), [
    ///     doc! { "$group": { "_id": { "cu": "$cu" }, "a": { "$avg": "$am" }, "all": { "$push": "$am" } } },
    ///     doc! { "$set": { "cu": "$_id.cu" } },
    ///     doc! { "$unset": "_id" },
    /// ]);
    /// ```
    pub fn group<O: Shape>(mut self, build: impl for<'b> FnOnce(Group<'b, D, O>) -> Group<'b, D, O>) -> Pipeline<O, S> {
        let mut g = GroupBody::new();
        build(Group { body: &mut g, _types: PhantomData });
        if let Err(e) = g.into_stages(O::type_meta(), &mut self.stages) {
            self.fail(e);
        }
        self.into_shape()
    }
}

impl GroupBody {
    /// Appends to `stages` the `$group` stage, the `$set` copying a compound key's fields out of `_id`, and the
    /// `$unset` of `_id` when the output `out` has none; or says why the group cannot be sent (appending nothing).
    fn into_stages(
        self,
        out: Option<&'static TypeMeta>,
        stages: &mut Vec<Document>,
    ) -> std::result::Result<(), Invalid> {
        if let Some(e) = self.error {
            return Err(*e);
        }
        let out_has_id = out.is_some_and(|m| m.has_id());
        if self.id && !self.keys.is_empty() {
            return Err(Invalid::IdAmongKeys);
        }
        let keyed = self.id || !self.keys.is_empty();
        let filled = |key: &str| (key == "_id" && (!out_has_id || keyed)) || (key != "_id" && self.fills(key));
        // Each accumulator and key part fills one top-level field (a dotted target and a field filled twice are
        // refused as they are given); a key into `_id` fills that one.
        let given = self.body.len() - 1 + self.keys.len() + usize::from(self.id);
        missing_in(out, Some(given), filled, "$group")?;
        let GroupBody { mut body, keys, .. } = self;
        if keys.is_empty() {
            stages.push(stage("$group", body));
        } else {
            // A compound key's fields are copied out of `_id` by a `$set` after the group.
            let set: Document =
                keys.iter().map(|(out, _)| (out.clone(), Bson::String(format!("$_id.{out}")))).collect();
            if let Some((_, slot)) = body.iter_mut().next() {
                *slot = Bson::Document(keys.into_iter().collect());
            }
            stages.push(stage("$group", body));
            stages.push(stage("$set", set));
        }
        if !out_has_id {
            stages.push(stage("$unset", "_id"));
        }
        Ok(())
    }
}

/// The builder of a `$group` into `O` from documents of type `D` ([`Pipeline::group`]). It refers to the body
/// [`Pipeline::group`] holds, so that each call moves a reference rather than the body.
pub struct Group<'b, D, O> {
    body: &'b mut GroupBody,
    _types: PhantomData<fn() -> (D, O)>,
}

/// What a [`Group`] has built, apart from its types: the typed methods are inlined wrappers that name the output
/// type, and the work is done here once, by reference, rather than in a copy per document type that moves the
/// builder through every call.
struct GroupBody {
    /// The stage's body as it is sent: `_id` first (`null` until a key fills it), then the accumulators, in order.
    /// Built in place: collecting the parts first and copying them into a body costs an allocation each.
    body: Document,
    /// True when a key into the output's `_id` is given (its reference is the body's `_id` then).
    id: bool,
    /// `(output key, source reference)` of the key's parts into the output's other fields (`("cu", "$cu")`), which
    /// a compound `_id` holds.
    keys: Vec<(String, Bson)>,
    /// The first problem, boxed: most groups have none.
    error: Option<Box<Invalid>>,
}

impl GroupBody {
    fn new() -> Self {
        let mut body = Document::new();
        put(&mut body, "_id".to_owned(), Bson::Null);
        GroupBody { body, id: false, keys: Vec::new(), error: None }
    }

    /// True when a key or an accumulator already fills `key`.
    fn fills(&self, key: &str) -> bool {
        self.body.keys().skip(1).any(|k| k == key) || self.keys.iter().any(|(k, _)| k == key)
    }

    /// Keeps the first problem.
    fn fail(&mut self, problem: impl Into<Box<Invalid>>) {
        keep_first(&mut self.error, problem);
    }

    /// The accumulator `{op: value}` into the output's field at `to` (its paths named by `out`).
    fn accumulate(
        &mut self,
        to: StageKey<'_>,
        op: &str,
        value: std::result::Result<Bson, Box<Invalid>>,
        out: Option<&'static TypeMeta>,
    ) {
        // One step at a time rather than a match on the pair: the pair is a copy of the value.
        let to = match to {
            Ok(to) => to,
            Err(e) => return self.fail(e),
        };
        if to.contains('.') || to == "_id" {
            return self.fail(Invalid::AccumulatorTarget { path: NamedPath::at(to) }.named(out));
        }
        let value = match value {
            Ok(value) => value,
            Err(e) => return self.fail(e),
        };
        if self.fills(to) {
            return self.fail(Invalid::Repeated { path: NamedPath::at(to), clause: Clause::Group }.named(out));
        }
        put(&mut self.body, to.to_owned(), Bson::Document(stage(op, value)));
    }

    /// A part of the key: the value at `from` into the output's field at `to` (its paths named by `out`).
    fn key(&mut self, to: StageKey<'_>, from: StageKey<'_>, out: Option<&'static TypeMeta>) {
        match (to, from) {
            (Ok(to), Ok(_)) if to.contains('.') => {
                self.fail(Invalid::GroupKeyTarget { path: NamedPath::at(to) }.named(out));
            }
            // The one key into `_id`; a second one is kept among the parts, which refuses the group.
            (Ok("_id"), Ok(from)) if !self.id => {
                self.id = true;
                if let Some((_, slot)) = self.body.iter_mut().next() {
                    // The placeholder is a null, which owns nothing: replaced without a drop.
                    std::mem::forget(std::mem::replace(slot, reference(from)));
                }
            }
            (Ok(to), Ok(_)) if to != "_id" && self.fills(to) => {
                self.fail(Invalid::Repeated { path: NamedPath::at(to), clause: Clause::Group }.named(out));
            }
            (Ok(to), Ok(from)) => self.keys.push((to.to_owned(), reference(from))),
            (Err(e), _) | (_, Err(e)) => self.fail(e),
        }
    }
}

impl<D: Shape, O: Shape> Group<'_, D, O> {
    #[inline]
    fn accumulate<P: AsPath<O>>(self, out: &P, op: &str, value: std::result::Result<Bson, Box<Invalid>>) -> Self {
        self.body.accumulate(stage_key_of(out.as_path()), op, value, O::type_meta());
        self
    }

    /// Groups by the value at `from`, kept in `O`'s field `out` (call again for a compound key).
    #[inline]
    pub fn key<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        self.body.key(stage_key_of(out.as_path()), stage_key_of(from.as_path()), O::type_meta());
        self
    }

    /// `$sum` of the values at `from` (`null` and missing skipped; `0` for none).
    #[inline]
    pub fn sum<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: SumOf<Q::Value>,
    {
        self.accumulate(&out, "$sum", source::<D, Q>(&from))
    }

    /// `$avg` of the numbers at `from`: a double (a decimal of decimals). A group always has a document, so the
    /// average of a field serde always writes is a number; of an optional field it is `null` when no document of
    /// the group has one, so it goes into `Option<f64>` (declared `#[odm(nullable)]`) then. A non-`Option` field
    /// with `skip_serializing_if` may be missing too: declare its average an `Option` yourself.
    #[inline]
    pub fn avg<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        Q::Value: Averageable,
        P::Value: AvgOf<<Q::Value as Averageable>::Average>,
    {
        self.accumulate(&out, "$avg", source::<D, Q>(&from))
    }

    /// `$min` of the values at `from`, of their type (`null` when no document of the group has one: an optional
    /// source field goes into an `Option`).
    #[inline]
    pub fn min<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: ExtremeOf<Q::Value>,
    {
        self.accumulate(&out, "$min", source::<D, Q>(&from))
    }

    /// `$max` of the values at `from`, of their type (`null` when no document of the group has one: an optional
    /// source field goes into an `Option`).
    #[inline]
    pub fn max<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: ExtremeOf<Q::Value>,
    {
        self.accumulate(&out, "$max", source::<D, Q>(&from))
    }

    /// `$first`: the value at `from` of the group's first document (in the order of an earlier `$sort`).
    #[inline]
    pub fn first<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        self.accumulate(&out, "$first", source::<D, Q>(&from))
    }

    /// `$last`: the value at `from` of the group's last document.
    #[inline]
    pub fn last<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        self.accumulate(&out, "$last", source::<D, Q>(&from))
    }

    /// `$push`: every value at `from`, into an array of them.
    #[inline]
    pub fn push<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: GathersInto<Q::Value>,
    {
        self.accumulate(&out, "$push", source::<D, Q>(&from))
    }

    /// `$addToSet`: the distinct values at `from`, into an array (or set) of them.
    #[inline]
    pub fn add_to_set<P, Q>(self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: GathersInto<Q::Value>,
    {
        self.accumulate(&out, "$addToSet", source::<D, Q>(&from))
    }

    /// The number of documents in the group (`{$sum: 1}`), into an `i64` field (see [`CountField`]).
    #[inline]
    pub fn count<P>(self, out: P) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        P::Value: CountField,
    {
        self.accumulate(&out, "$sum", Ok(Bson::Int32(1)))
    }
}
