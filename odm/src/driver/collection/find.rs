//! The `Find` builder (sort, limit, skip, hint, projection) and its results (`Decoded` for reads that keep going
//! past undecodable documents).

use super::handle::Collection;
use super::wire::{decode_projection, view_projection};
use crate::base::codec::decode_view;
use crate::base::error::{DecodeError, Error, Result};
use crate::base::explain::Explain;
use crate::base::filter::{Filter, Projection, Sort};
use crate::base::model::Model;
use crate::base::view::View;
use crate::driver::observe::{Op, Returned};
use crate::driver::session::Rows;
use bson::{doc, RawDocument};
use mongodb::action::Action;
use serde::de::DeserializeOwned;
use std::borrow::Cow;
use std::future::IntoFuture;

/// A pending read: [`Collection::find`] with its sort, limit, skip and projection. `.await` it for a `Vec`, or call
/// [`Find::stream`] for a cursor.
#[must_use = "a `Find` does nothing until awaited or streamed"]
pub struct Find<'a, M: Model, P> {
    pub(super) coll: Cow<'a, Collection<M>>,
    pub(super) filter: Filter<M>,
    pub(super) sort: Option<Sort<M>>,
    pub(super) limit: Option<i64>,
    pub(super) skip: Option<u64>,
    pub(super) projection: Option<Projection<M>>,
    /// The index to use, by name.
    pub(super) hint: Option<String>,
    /// How results are decoded: as the model (older versions migrated), or as a projection.
    pub(super) decode: fn(&RawDocument) -> Result<P>,
}

impl<'a, M: Model, P> Find<'a, M, P> {
    /// A read of the documents matching `filter`, decoded by `decode`, with no options yet.
    pub(super) fn new(coll: &'a Collection<M>, filter: Filter<M>, decode: fn(&RawDocument) -> Result<P>) -> Self {
        Find {
            coll: Cow::Borrowed(coll),
            filter,
            sort: None,
            limit: None,
            skip: None,
            projection: None,
            hint: None,
            decode,
        }
    }
}

impl<'a, M: Model, P: DeserializeOwned + Send + 'a> Find<'a, M, P> {
    /// Order of the results.
    pub fn sort(mut self, sort: Sort<M>) -> Self {
        self.sort = Some(sort);
        self
    }

    /// At most `n` results (`0` sets no limit, as the server reads it). A count, as [`Pipeline::limit`]'s: the
    /// driver's negative limit (one batch, then close the cursor) is not offered.
    ///
    /// [`Pipeline::limit`]: crate::Pipeline::limit
    pub fn limit(mut self, n: u64) -> Self {
        // Past i64::MAX no collection holds that many documents: the same as no limit.
        self.limit = Some(i64::try_from(n).unwrap_or(i64::MAX));
        self
    }

    /// Skips the first `n` results.
    pub fn skip(mut self, n: u64) -> Self {
        self.skip = Some(n);
        self
    }

    /// Uses the index named `index` (see [`crate::explain`]); the server refuses the read when there is none.
    pub fn hint(mut self, index: impl Into<String>) -> Self {
        self.hint = Some(index.into());
        self
    }

    session_setter!();

    /// What the server plans for this read, with execution statistics, instead of the results (see
    /// [`crate::explain`]).
    pub async fn explain(self) -> Result<Explain> {
        let invalid = Collection::<M>::invalid;
        let mut find = bson::doc! {
            "find": self.coll.raw.name(),
            "filter": self.filter.into_marked().map_err(invalid)?,
        };
        if let Some(sort) = self.sort {
            find.insert("sort", sort.into_marked().map_err(invalid)?);
        }
        if let Some(projection) = self.projection {
            find.insert("projection", projection.into_marked().map_err(invalid)?);
        }
        if let Some(limit) = self.limit {
            find.insert("limit", limit);
        }
        if let Some(skip) = self.skip {
            find.insert("skip", skip as i64);
        }
        if let Some(hint) = self.hint {
            find.insert("hint", hint);
        }
        self.coll.explain(find).await
    }

    /// Returns only the projected fields, decoded as `Q` (a struct with the same stored keys, holding the projected
    /// fields): project early, so only what is read crosses the network.
    pub fn project<Q: DeserializeOwned + Send + 'a>(self, projection: Projection<M>) -> Find<'a, M, Q> {
        Find {
            coll: self.coll,
            filter: self.filter,
            sort: self.sort,
            limit: self.limit,
            skip: self.skip,
            projection: Some(projection),
            hint: self.hint,
            decode: decode_projection::<M, Q>,
        }
    }

    /// Returns only what view `V` reads, decoded as `V`: the server sends exactly the view's stored paths (see
    /// [`crate::view`]), checked against the model when the view was compiled.
    ///
    /// A versioned model's documents are read at the current version only: one stored at an older version fails
    /// with [`Error::Decode`](crate::Error::Decode) saying so, since a view reads the stored keys as they are
    /// (migrate first, see [`crate::migrate`]).
    pub fn view<V: View<Of = M> + Send + 'a>(self) -> Find<'a, M, V> {
        Find {
            coll: self.coll,
            filter: self.filter,
            sort: self.sort,
            limit: self.limit,
            skip: self.skip,
            projection: Some(view_projection::<M, V>()),
            hint: self.hint,
            decode: decode_view::<M, V>,
        }
    }

    /// The matching documents, read through the collection's session when it has one (locked for each batch read).
    /// The span of the `find` ([`Op`]) comes back with the rows, so a read to the end records its whole time in it.
    async fn rows(self) -> Result<(Op, Rows<'a>)> {
        let invalid = Collection::<M>::invalid;
        self.coll.check_older_shapes(&self.filter).await?;
        let filter = self.filter.into_marked().map_err(invalid)?;
        let sort = self.sort.map(|s| s.into_marked().map_err(invalid)).transpose()?;
        let projection = self.projection.map(|p| p.into_marked().map_err(invalid)).transpose()?;
        let op = self.coll.op("find").values(|| {
            let skip = self.skip.map(|n| n as i64);
            doc! { "filter": &filter, "sort": &sort, "projection": &projection, "limit": self.limit, "skip": skip }
        });
        let find = self
            .coll
            .raw
            .find(filter)
            .optional(sort, |a, s| a.sort(s))
            .optional(self.limit, |a, n| a.limit(n))
            .optional(self.skip, |a, n| a.skip(n))
            .optional(projection, |a, p| a.projection(p))
            .optional(self.hint, |a, h| a.hint(mongodb::options::Hint::Name(h)));
        let Some(session) = &self.coll.session else {
            let cursor = op.open(find).await?;
            return Ok((op, Rows::Cursor(Box::new(cursor))));
        };
        // Its future, not the action: the compiler cannot prove a generic future over the action `Send`.
        let cursor = op.open(find.session(&mut *session.lock().await).into_future()).await?;
        Ok((op, Rows::Session(crate::driver::session::rows(cursor, session.clone()))))
    }

    /// The results as a stream, decoded one by one (decode errors name the document's `_id`).
    pub async fn stream(self) -> Result<impl futures_util::Stream<Item = Result<P>> + Send + 'a> {
        let decode = self.decode;
        let (op, rows) = self.rows().await?;
        op.end();
        Ok(rows.decoded(decode))
    }

    async fn collect(self) -> Result<Vec<P>> {
        let decode = self.decode;
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

    /// Every result that decodes; a document that does not (written around odm, or by an older version) is skipped
    /// and reported in [`Decoded::skipped`] with its `_id` and the failing field, instead of failing the whole read.
    /// Server and network errors still fail the read.
    pub async fn all_valid(self) -> Result<Decoded<P>> {
        let decode = self.decode;
        let (op, mut rows) = self.rows().await?;
        let mut out = Decoded { values: Vec::new(), skipped: Vec::new() };
        op.run(async {
            while let Some(value) = rows.next(decode).await {
                match value {
                    Ok(value) => out.values.push(value),
                    Err(Error::Decode(e)) => out.skipped.push(*e),
                    Err(other) => return Err(other),
                }
            }
            Ok(Returned((out.values.len() + out.skipped.len()) as u64))
        })
        .await?;
        Ok(out)
    }
}

/// The results of [`Find::all_valid`]: the documents that decoded, and why the others did not.
#[derive(Debug)]
pub struct Decoded<P> {
    /// The decoded results, in the order the server returned them.
    pub values: Vec<P>,
    /// The documents that did not decode: each names its `_id` and the Rust path that failed.
    pub skipped: Vec<DecodeError>,
}

/// All results, each decoded as it arrives (only the decoded values are kept, as a typed `try_collect` of the driver
/// keeps them); the first document that does not decode fails the read, naming its `_id` and field.
impl<'a, M: Model, P: DeserializeOwned + Send + 'a> std::future::IntoFuture for Find<'a, M, P> {
    type Output = Result<Vec<P>>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<P>>> + Send + 'a>>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.collect())
    }
}
