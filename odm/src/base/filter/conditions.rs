//! Conditions on a path: comparisons, membership and existence on any field, array conditions (`contains`,
//! `len_is`, `any`, array-filtered paths), and a variant's discriminator.

use super::elements::{element_condition, Element};
use super::value::Filter;
use crate::base::document::put;
use crate::base::error::Result;
use crate::base::error::{Invalid, NamedPath};
use crate::base::path::{Access, ArrayFilter, ArrayNode, AsPath, EncoderInput, Path, Queryable, RawPath};
use crate::base::schema::paths::{ArrayLike, ElemNode};
use bson::{Bson, Document};

fn op(name: &str, value: Bson) -> Bson {
    let mut d = Document::new();
    put(&mut d, name.to_owned(), value);
    Bson::Document(d)
}

impl<R, W, A> Path<R, W, A> {
    #[inline]
    fn encode_into(&self, value: impl Into<W>) -> Result<Bson, Invalid> {
        self.encode(value.into())
    }

    fn encode_all(&self, values: impl IntoIterator<Item = impl Into<W>>) -> Result<Bson, Invalid> {
        values.into_iter().map(|v| self.encode_into(v)).collect::<Result<Vec<_>, _>>().map(Bson::Array)
    }

    /// Equal to `value` (`{k: v}`; `{k: {$eq: v}}` for document values, so their keys stay data).
    #[inline(always)]
    pub fn eq(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        match self.encode_into(value) {
            // The common case, the value moved once into the filter.
            Ok(v) if !matches!(v, Bson::Document(_)) && self.raw.is_plain() => Filter::single(&self.raw.key, v),
            encoded => Filter::on(self, encoded.map(|v| if matches!(v, Bson::Document(_)) { op("$eq", v) } else { v })),
        }
    }

    /// Not equal to `value` (also matches documents without the field).
    pub fn ne(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$ne", v)))
    }

    /// Equal to one of `values` (`$in`).
    pub fn is_in(&self, values: impl IntoIterator<Item = impl Into<W>>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_all(values).map(|v| op("$in", v)))
    }

    /// Equal to none of `values` (`$nin`).
    pub fn not_in(&self, values: impl IntoIterator<Item = impl Into<W>>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_all(values).map(|v| op("$nin", v)))
    }

    /// Greater than `value` (`$gt`).
    pub fn gt(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$gt", v)))
    }

    /// Greater than or equal to `value` (`$gte`).
    pub fn gte(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$gte", v)))
    }

    /// Less than `value` (`$lt`).
    pub fn lt(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$lt", v)))
    }

    /// Less than or equal to `value` (`$lte`).
    pub fn lte(&self, value: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, self.encode_into(value).map(|v| op("$lte", v)))
    }

    /// Within `[low, high]` (`$gte` and `$lte` in one condition).
    pub fn between(&self, low: impl Into<W>, high: impl Into<W>) -> Filter<R>
    where
        A: Queryable,
    {
        let cond = self
            .encode_into(low)
            .and_then(|l| self.encode_into(high).map(|h| Bson::Document(bson::doc! { "$gte": l, "$lte": h })));
        Filter::on(self, cond)
    }

    /// The field is present (`true`) or absent (`false`).
    pub fn exists(&self, present: bool) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, Ok(op("$exists", Bson::Boolean(present))))
    }
}

impl<R, W: ArrayLike, A> ArrayNode<R, W, A> {
    fn encode_item(&self, value: impl Into<W::Item>) -> Result<Bson, Invalid> {
        crate::base::schema::paths::encode_schema(EncoderInput::Owned(value.into()), self.key())
    }

    /// The array holds an element equal to `value`.
    pub fn contains(&self, value: impl Into<W::Item>) -> Filter<R>
    where
        A: Queryable,
    {
        // `{k: {$eq: doc}}` matches an array holding `doc`; scalars match bare.
        let cond = self.encode_item(value).map(|v| if matches!(v, Bson::Document(_)) { op("$eq", v) } else { v });
        Filter::on(self, cond)
    }

    /// The array holds all of `values` (`$all`).
    pub fn contains_all(&self, values: impl IntoIterator<Item = impl Into<W::Item>>) -> Filter<R>
    where
        A: Queryable,
    {
        let cond = values.into_iter().map(|v| self.encode_item(v)).collect::<Result<Vec<_>, _>>();
        Filter::on(self, cond.map(|v| op("$all", Bson::Array(v))))
    }

    /// The array has exactly `len` elements (`$size`; it cannot use an index: prefer a counter for queries by size).
    pub fn len_is(&self, len: u32) -> Filter<R>
    where
        A: Queryable,
    {
        Filter::on(self, Ok(op("$size", Bson::Int64(i64::from(len)))))
    }

    /// Some element satisfies `cond`, built from a path to the element (`$elemMatch`).
    pub fn any(&self, cond: impl FnOnce(ElemNode<R, W, A>) -> Filter<R>) -> Filter<R>
    where
        A: Queryable,
    {
        let inner = cond(self.element_root()).into_marked().and_then(|d| element_condition(d, self.key()));
        Filter::on(
            self,
            inner.map(|c| match c {
                Element::Itself(Bson::Document(ops)) => op("$elemMatch", Bson::Document(ops)),
                Element::Itself(v) => op("$elemMatch", op("$eq", v)),
                Element::Fields(d) => op("$elemMatch", Bson::Document(d)),
            }),
        )
    }

    // Defined beside the filters rather than with the other element paths: its condition is a filter, and paths
    // come before filters.
    /// The elements selected by an array filter (`$[identifier]`), whose condition `select` builds from a path to
    /// the element. The condition travels with the path into the update's `arrayFilters`.
    ///
    /// `identifier` must start with a lowercase ASCII letter and be alphanumeric; otherwise the update is refused
    /// before sending.
    pub fn filtered(
        &self,
        identifier: &'static str,
        select: impl FnOnce(ElemNode<R, W, A>) -> Filter<R>,
    ) -> ElemNode<R, W, A>
    where
        A: Access,
    {
        let segment = format!("$[{identifier}]");
        let mut raw = self.raw.descend_positional(self.raw.join(&segment));
        let valid = identifier.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && identifier.chars().all(|c| c.is_ascii_alphanumeric());
        if !valid {
            let path = NamedPath::at(raw.key.as_ref());
            raw.set_defect(|| Invalid::ArrayFilterIdentifier { path, identifier });
        }
        let root = RawPath::from_key(identifier);
        let filter = select(Path::<R, W::Item, A::Elem>::with_raw(root).into());
        // `arrayFilters` take no `$expr`.
        match filter.into_marked().and_then(|c| super::refuse_in_element(&c, self.key()).map(|()| c)) {
            Ok(condition) => raw.add_array_filter(ArrayFilter { identifier, condition }),
            Err(e) => raw.set_defect(|| e),
        }
        Path::<R, W::Item, A::Elem>::with_raw(raw).into()
    }
}

impl<N> crate::base::path::Variant<N> {
    /// The documents of this variant only: `{tag: value}` on the discriminator.
    ///
    /// ```
    /// use odm::{Model, bson::doc};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Model, Serialize, Deserialize)]
    /// #[odm(collection = "web_event")]
    /// #[serde(tag = "t", rename_all = "snake_case")]
    /// enum Event {
    ///     Click { x: i32 },
    ///     Purchase { #[serde(rename = "amt")] amount: i64 },
    /// }
    ///
    /// let f = Event::fields();
    /// assert_eq!(f.purchase().only().into_document().unwrap(), doc! { "t": "purchase" });
    /// assert_eq!(f.purchase().amount().gt(10).into_document().unwrap(), doc! { "t": "purchase", "amt": { "$gt": 10_i64 } });
    /// ```
    pub fn only<R>(&self) -> Filter<R>
    where
        N: AsPath<R>,
    {
        match self.as_path().raw.variant() {
            Some((tag, value)) => Filter::from_document(bson::doc! { tag: value }),
            None => Filter::everything(),
        }
    }
}
