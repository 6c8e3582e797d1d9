//! Typed change streams: `Watch` (`Collection::watch`) opens one, its filter applied to the changed document, and
//! decodes each event as a `ChangeEvent`. `UndecodableChange` is defined beside `Error` in `crate::base::error`, which
//! holds it. Users read the docs at `odm::watch` (src/watch.rs).

pub use crate::base::error::UndecodableChange;

use crate::base::codec::{decode, decode_view};
use crate::base::error::{Error, Result, Shown};
use crate::base::filter::Filter;
use crate::base::model::model_name;
use crate::base::model::Model;
use crate::base::view::View;
use crate::driver::collection::Collection;
use bson::{Bson, Document, RawDocument, RawDocumentBuf};
use futures_util::stream::BoxStream;
use futures_util::{Stream, StreamExt};
use mongodb::action::Action;
use mongodb::change_stream::event::{ChangeStreamEvent, OperationType, ResumeToken};
use mongodb::options::FullDocumentType;
use std::fmt;
use std::future::IntoFuture;
use std::sync::Arc;

/// What happened to one document.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Change<M> {
    /// A document was inserted.
    Insert {
        /// Its `_id`.
        id: Bson,
        /// The document.
        value: M,
    },
    /// A document was updated in place.
    Update {
        /// Its `_id`.
        id: Bson,
        /// The fields set, by stored path, with their new values.
        set: Document,
        /// The stored paths removed.
        unset: Vec<String>,
        /// The whole document after the update, when the stream asked for it ([`Watch::full_document`]) and it
        /// still exists (`None` otherwise); `Some(Err(_))` when it does not decode as the model, which leaves the
        /// `_id` and the changed paths above as readable as ever.
        value: Option<Result<M, Undecodable>>,
    },
    /// A document was replaced whole.
    Replace {
        /// Its `_id`.
        id: Bson,
        /// The new document.
        value: M,
    },
    /// A document was deleted.
    Delete {
        /// Its `_id`.
        id: Bson,
    },
    /// The collection was dropped or renamed, or the stream was invalidated: no events follow.
    Ended {
        /// The server's name for what happened (`drop`, `rename`, `invalidate`, …).
        kind: String,
    },
}

/// One event of a change stream: the change, and the token to resume after it.
#[derive(Debug, Clone)]
pub struct ChangeEvent<M> {
    /// What happened.
    pub change: Change<M>,
    /// Where to resume after this event ([`Watch::resume_after`]).
    pub token: ResumeToken,
}

/// A document a change event carried that does not decode as the model: the document as stored, and why.
#[derive(Clone)]
pub struct Undecodable {
    /// The document as the event carried it.
    pub raw: RawDocumentBuf,
    /// Why it does not decode: an [`Error::Decode`], or an [`Error::Version`] for a version this binary does not
    /// read (shared, so that events stay cheap to clone).
    pub error: Arc<Error>,
}

/// Two are equal when their documents are: the same bytes fail to decode as the same model the same way.
impl PartialEq for Undecodable {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}

/// The raw document shown as a document, not as its bytes.
impl fmt::Debug for Undecodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Undecodable").field("raw", &Shown(&self.raw)).field("error", &self.error).finish()
    }
}

/// Reads as its decode error, which names the model, the `_id` and the field.
impl fmt::Display for Undecodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

/// Transparent: its text is the decode error's, so its source is that error's source.
impl std::error::Error for Undecodable {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(self.error.as_ref())
    }
}

/// A change stream to open on a model's collection, its documents decoded as `P` (the model, or a view of it:
/// [`Watch::view`]); `.stream().await` opens it.
#[must_use = "a change stream is opened by `.stream().await`"]
pub struct Watch<'a, M: Model, P = M> {
    /// Borrowed, or a copy bound to the session [`Watch::session`] gave it.
    coll: std::borrow::Cow<'a, Collection<M>>,
    filter: Option<Filter<M>>,
    full_document: bool,
    resume_after: Option<ResumeToken>,
    /// The event fields a view keeps (`fullDocument` narrowed to its paths), or every field.
    projection: Option<Document>,
    decode: fn(&RawDocument) -> Result<P>,
}

impl<M: Model> Collection<M> {
    /// The changes of this collection from now on (see [`crate::watch`]).
    pub fn watch(&self) -> Watch<'_, M> {
        Watch {
            coll: std::borrow::Cow::Borrowed(self),
            filter: None,
            full_document: false,
            resume_after: None,
            projection: None,
            decode: decode::<M>,
        }
    }
}

/// The fields of a change event besides its document, kept whole by a view's projection.
const EVENT_FIELDS: &[&str] = &[
    "_id",
    "operationType",
    "documentKey",
    "updateDescription",
    "ns",
    "to",
    "clusterTime",
    "wallTime",
    "txnNumber",
    "lsid",
    "collectionUUID",
];

impl<'a, M: Model + Send + Sync + Unpin + 'a> Watch<'a, M> {
    /// Carries each event's document (inserted, replaced, or looked up after an update) narrowed to view `V`'s paths
    /// (see [`crate::view`]), decoded as `V`: a `$project` stage after the filter, so the server sends only what the
    /// view reads. The filter still applies to the whole document; an update's changed fields
    /// ([`Change::Update`]'s `set` and `unset`) are the server's, whole. A versioned model's document is read at
    /// the current version only, as [`Find::view`](crate::collection::Find::view) says.
    pub fn view<V: View<Of = M> + Send + 'a>(self) -> Watch<'a, M, V> {
        let mut projection: Document = EVENT_FIELDS.iter().map(|f| (f.to_string(), Bson::Int32(1))).collect();
        let paths = V::projection().into_iter().map(|(path, _)| path);
        for path in paths.chain(M::VERSION.map(|spec| spec.key.to_owned())) {
            projection.insert(format!("fullDocument.{path}"), 1);
        }
        // The `_id` a read keeps, so that an error names the document.
        projection.insert("fullDocument._id", 1);
        Watch {
            coll: self.coll,
            filter: self.filter,
            full_document: self.full_document,
            resume_after: self.resume_after,
            projection: Some(projection),
            decode: decode_view::<M, V>,
        }
    }
}

impl<'a, M: Model + Send + Sync + Unpin + 'a, P: Send + 'a> Watch<'a, M, P> {
    /// Only the changes of documents matching `filter` (applied to the inserted or replaced document, and to an
    /// updated one's whole document when [`Watch::full_document`] is on); deletions always pass, since a deleted
    /// document is no longer there to match.
    pub fn filter(mut self, filter: Filter<M>) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Updates come with the whole document as it is after the update (looked up when the event is read).
    pub fn full_document(mut self) -> Self {
        self.full_document = true;
        self
    }

    /// Starts after the event with this token, instead of from now (after a restart, say).
    pub fn resume_after(mut self, token: ResumeToken) -> Self {
        self.resume_after = Some(token);
        self
    }

    /// Opens the stream in `session` and reads its events there. Each wait for the next event locks the session for
    /// that read, so give a long-lived stream a session of its own. It wins over the session of a collection bound
    /// with [`Collection::with_session`].
    pub fn session(mut self, session: &crate::driver::session::Session) -> Self {
        self.coll = std::borrow::Cow::Owned(self.coll.with_session(session));
        self
    }

    /// Opens the stream.
    pub async fn stream(self) -> Result<impl Stream<Item = Result<ChangeEvent<P>>> + Send + 'a> {
        let mut pipeline = Vec::new();
        if let Some(filter) = self.filter {
            let filter = filter.into_document()?;
            let on_document = on_full_document(filter);
            pipeline.push(bson::doc! { "$match": { "$or": [on_document, { "operationType": "delete" }] } });
        }
        if let Some(projection) = self.projection {
            pipeline.push(bson::doc! { "$project": projection });
        }
        let decode = self.decode;
        let full = self.full_document.then_some(FullDocumentType::UpdateLookup);
        // A change stream is an `aggregate` whose first stage is `$changeStream`.
        let op = self.coll.op("aggregate").values(|| {
            let stages = std::iter::once(bson::doc! { "$changeStream": {} }).chain(pipeline.iter().cloned());
            bson::doc! { "pipeline": stages.collect::<Vec<_>>() }
        });
        let watch = self
            .coll
            .raw()
            .watch()
            .pipeline(pipeline)
            .optional(full, |w, f| w.full_document(f))
            .resume_after(self.resume_after);
        let events: BoxStream<'a, Result<ChangeStreamEvent<RawDocumentBuf>>> = match self.coll.session() {
            None => op.run(watch).await?.map(|e| e.map_err(Error::from)).boxed(),
            // In the collection's session: each wait for the next event locks it, for that read only.
            Some(session) => {
                let stream = op.run(watch.session(&mut *session.lock().await).into_future()).await?;
                futures_util::stream::unfold((stream, session.clone()), |(mut stream, session)| async move {
                    let next = {
                        let mut locked = session.lock().await;
                        stream.next(&mut locked).await
                    };
                    match next {
                        Ok(Some(event)) => Some((Ok(event), (stream, session))),
                        Ok(None) => None,
                        Err(e) => Some((Err(Error::from(e)), (stream, session))),
                    }
                })
                .fuse()
                .boxed()
            }
        };
        Ok(events.map(move |event| event.and_then(|event| typed::<M, P>(event, decode))))
    }
}

/// A filter on documents as a `$match` on change events, whose document is under `fullDocument`: field paths are
/// prefixed, through `$and`/`$or`/`$nor`; operators on a field stay as they are.
fn on_full_document(filter: Document) -> Document {
    filter
        .into_iter()
        .map(|(k, v)| match (k.as_str(), v) {
            ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
                let clauses = clauses
                    .into_iter()
                    .map(|c| match c {
                        Bson::Document(d) => Bson::Document(on_full_document(d)),
                        other => other,
                    })
                    .collect();
                (k, Bson::Array(clauses))
            }
            ("$expr", v) => (k, expr_on_full_document(v)),
            (op, v) if op.starts_with('$') => (k, v),
            (_, v) => (format!("fullDocument.{k}"), v),
        })
        .collect()
}

/// An aggregation expression of a filter (a field-to-field condition) on change events: its field references
/// (`"$sq"`) read under `fullDocument`; variables (`"$$NOW"`) and other values stay.
fn expr_on_full_document(v: Bson) -> Bson {
    match v {
        Bson::String(s) if s.starts_with('$') && !s.starts_with("$$") => {
            Bson::String(format!("$fullDocument.{}", &s[1..]))
        }
        Bson::Array(items) => Bson::Array(items.into_iter().map(expr_on_full_document).collect()),
        Bson::Document(d) => Bson::Document(d.into_iter().map(|(k, v)| (k, expr_on_full_document(v))).collect()),
        other => other,
    }
}

/// The event, its document decoded by `decode`.
fn typed<M: Model, P>(
    event: ChangeStreamEvent<RawDocumentBuf>,
    decode: fn(&RawDocument) -> Result<P>,
) -> Result<ChangeEvent<P>> {
    let id = event.document_key.as_ref().and_then(|k| k.get("_id").cloned()).unwrap_or(Bson::Null);
    let token = event.id;
    // An inserted or replaced document that does not decode is the event's error, with what it takes to skip it.
    let whole = |raw: Option<RawDocumentBuf>, operation: &str| match raw {
        None => Err(Error::ChangeWithoutDocument { model: model_name::<M>(), operation: operation.to_owned() }),
        Some(raw) => decode(&raw).map_err(|error| {
            let (token, id, operation) = (token.clone(), id.clone(), operation.to_owned());
            Error::UndecodableChange(Box::new(UndecodableChange { token, id, operation, raw, error: Box::new(error) }))
        }),
    };
    let change = match event.operation_type {
        OperationType::Insert => Change::Insert { value: whole(event.full_document, "insert")?, id },
        OperationType::Replace => Change::Replace { value: whole(event.full_document, "replace")?, id },
        OperationType::Update => {
            let description = event.update_description;
            let (set, unset) = description.map(|d| (d.updated_fields, d.removed_fields)).unwrap_or_default();
            let value = event.full_document.map(|raw| match decode(&raw) {
                Ok(value) => Ok(value),
                Err(error) => Err(Undecodable { raw, error: Arc::new(error) }),
            });
            Change::Update { id, set, unset, value }
        }
        OperationType::Delete => Change::Delete { id },
        other => Change::Ended { kind: format!("{other:?}").to_lowercase() },
    };
    Ok(ChangeEvent { change, token })
}

#[cfg(test)]
mod tests {
    use super::on_full_document;
    use bson::doc;

    #[test]
    fn a_field_to_field_condition_reads_the_full_document() {
        let filter = doc! {
            "st": "open",
            "$expr": { "$lt": [{ "$ifNull": ["$sq", null] }, { "$ifNull": ["$c.oq", null] }] },
            "$or": [{ "$expr": { "$eq": ["$a", "$$NOW"] } }],
        };
        assert_eq!(
            on_full_document(filter),
            doc! {
                "fullDocument.st": "open",
                "$expr": { "$lt": [{ "$ifNull": ["$fullDocument.sq", null] }, { "$ifNull": ["$fullDocument.c.oq", null] }] },
                "$or": [{ "$expr": { "$eq": ["$fullDocument.a", "$$NOW"] } }],
            }
        );
    }
}
