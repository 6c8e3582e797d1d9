//! `$group` into a declared output type: the key and accumulator builders ([`Group`]) and [`Pipeline::group`].

use super::parts::{missing_where, named_key_of, reference, source, stage};
use super::pipeline::Pipeline;
use super::shape::{Averageable, AvgOf, CountField, ExtremeOf, GathersInto, Holds, Shape, SumOf};
use crate::base::error::{Clause, Invalid, NamedPath};
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
    pub fn group<O: Shape>(mut self, build: impl FnOnce(Group<D, O>) -> Group<D, O>) -> Pipeline<O, S> {
        // `_id` first: the accumulators go after it, into the stage's own body.
        let g = build(Group { keys: Vec::new(), accumulators: Vec::new(), error: None, _types: PhantomData });
        if let Some(e) = g.error {
            self.fail(e);
            return self.into_shape();
        }
        let out_has_id = O::type_meta().is_some_and(|m| m.field_by_key("_id").is_some());
        let single_id = matches!(g.keys.as_slice(), [(out, _)] if out == "_id");
        if !single_id && g.keys.iter().any(|(out, _)| out == "_id") {
            self.fail(Invalid::IdAmongKeys);
            return self.into_shape();
        }
        let filled =
            |key: &str| (key == "_id" && (!out_has_id || !g.keys.is_empty())) || (key != "_id" && g.fills(key));
        if let Err(e) = missing_where::<O>(filled, "$group") {
            self.fail(e);
            return self.into_shape();
        }
        let Group { keys, accumulators, .. } = g;
        // The key's parts move into the stage (no copy of their references); a compound key's fields are copied
        // out of `_id` by a `$set` after it.
        let (id, copy_out) = match keys.len() {
            0 => (Bson::Null, None),
            1 if single_id => (keys.into_iter().next().map_or(Bson::Null, |(_, src)| src), None),
            _ => {
                let set: Document =
                    keys.iter().map(|(out, _)| (out.clone(), Bson::String(format!("$_id.{out}")))).collect();
                (Bson::Document(keys.into_iter().collect()), Some(set))
            }
        };
        let mut body = Document::new();
        body.insert("_id", id);
        for (key, accumulator) in accumulators {
            body.insert(key, accumulator);
        }
        self = self.push(stage("$group", body));
        if let Some(set) = copy_out {
            self = self.push(stage("$set", set));
        }
        if !out_has_id {
            self = self.push(stage("$unset", "_id"));
        }
        self.into_shape()
    }
}

/// The builder of a `$group` into `O` from documents of type `D` ([`Pipeline::group`]).
pub struct Group<D, O> {
    /// `(output key, source reference)` of the group key's parts (`("cu", "$cu")`).
    keys: Vec<(String, Bson)>,
    /// `(output key, accumulator)`, in order; the stage's body puts `_id` before them.
    accumulators: Vec<(String, Bson)>,
    error: Option<Invalid>,
    _types: PhantomData<fn() -> (D, O)>,
}

impl<D: Shape, O: Shape> Group<D, O> {
    /// True when a key or an accumulator already fills `key`.
    fn fills(&self, key: &str) -> bool {
        self.accumulators.iter().any(|(k, _)| k == key) || self.keys.iter().any(|(k, _)| k == key)
    }

    fn accumulate<P: AsPath<O>>(mut self, out: &P, op: &str, value: std::result::Result<Bson, Invalid>) -> Self {
        let to = named_key_of(out.as_path()).and_then(|to| {
            if to.contains('.') || to == "_id" {
                Err(Invalid::AccumulatorTarget { path: NamedPath::at(to) }.named(O::type_meta()))
            } else {
                Ok(to)
            }
        });
        match (to, value) {
            (Ok(to), Ok(value)) => {
                if to == "_id" || self.fills(to) {
                    let path = NamedPath::at(to);
                    self.error.get_or_insert(Invalid::Repeated { path, clause: Clause::Group }.named(O::type_meta()));
                }
                self.accumulators.push((to.to_owned(), Bson::Document(stage(op, value))));
            }
            (Err(e), _) | (_, Err(e)) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// Groups by the value at `from`, kept in `O`'s field `out` (call again for a compound key).
    pub fn key<P, Q>(mut self, out: P, from: Q) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        Q: AsPath<D>,
        Q::Access: Queryable,
        P::Value: Holds<Q::Value>,
    {
        let to = named_key_of(out.as_path());
        let from = named_key_of(from.as_path());
        match (to, from) {
            (Ok(to), Ok(_)) if to.contains('.') => {
                let e = Invalid::GroupKeyTarget { path: NamedPath::at(to) };
                self.error.get_or_insert(e.named(O::type_meta()));
            }
            (Ok(to), Ok(from)) => self.keys.push((to.to_owned(), reference(from))),
            (Err(e), _) | (_, Err(e)) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// `$sum` of the values at `from` (`null` and missing skipped; `0` for none).
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
    pub fn count<P>(self, out: P) -> Self
    where
        P: AsPath<O>,
        P::Access: Queryable,
        P::Value: CountField,
    {
        self.accumulate(&out, "$sum", Ok(Bson::Int32(1)))
    }
}
