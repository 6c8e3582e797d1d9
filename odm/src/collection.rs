//! A typed collection: create it from its model (validator, level, action), insert and read typed values.
//! Writes are checked before they are sent (16 MiB), and validation failures come back as field-level errors.

use crate::error::{
    model_name, DecodeError, Error, NotMigratedError, Result, ScatterGatherError, VersionError, MAX_DOCUMENT_SIZE,
    MAX_STATEMENT_SIZE,
};
use crate::explain::Explain;
use crate::filter::{Filter, Projection, Sort};
use crate::meta::TypeMeta;
use crate::model::{Model, Scatter, VariantOf};
use crate::session::Session;
use crate::update::{BuiltUpdate, Update};
use bson::{Bson, Document, RawDocumentBuf};
use futures_util::TryStreamExt;
use mongodb::action::Action;
use mongodb::Database;
use serde::de::DeserializeOwned;
use std::borrow::Borrow;
use std::marker::PhantomData;

/// Creates `M`'s collection in `db` with its validator, `validationLevel` and `validationAction`
/// (and nothing else yet: indexes and startup sync build on this).
///
/// Fails with the server's error if the collection already exists (code 48, `NamespaceExists`).
pub async fn create_collection<M: Model>(db: &Database) -> Result<()> {
    db.run_command(create_command::<M>()).await?;
    Ok(())
}

/// The `create` command for `M`, as a DBA would review it.
///
/// ```
/// # use odm::Model;
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "shop_item")]
/// # struct Item { #[serde(rename = "n")] name: String }
/// let cmd = odm::create_command::<Item>();
/// assert_eq!(cmd.get_str("create").ok(), Some("shop_item"));
/// assert_eq!(cmd.get_str("validationLevel").ok(), Some("strict"));
/// ```
pub fn create_command<M: Model>() -> Document {
    crate::sync::ModelSpec::of::<M>().create_command()
}

/// A collection of `M` documents; bound to a [`Session`] with [`Collection::with_session`], every operation runs in
/// it.
pub struct Collection<M: Model> {
    raw: mongodb::Collection<RawDocumentBuf>,
    session: Option<Session>,
    _model: PhantomData<fn() -> M>,
}

impl<M: Model> Clone for Collection<M> {
    fn clone(&self) -> Self {
        Collection { raw: self.raw.clone(), session: self.session.clone(), _model: PhantomData }
    }
}

/// Serializes `value`, refusing documents over 16 MiB before anything is sent.
pub fn encode<M: Model>(value: &M) -> Result<RawDocumentBuf> {
    let raw = bson::serialize_to_raw_document_buf(value).map_err(|source| {
        // BSON keys are C strings, so a NUL in a run-time key fails the raw encoder; find it to name its path.
        let bad_key = M::dynamic_keys(crate::schema::KEY_DEPTH)
            .then(|| bson::serialize_to_bson(value).ok())
            .flatten()
            .and_then(|tree| crate::keys::first_bad(&tree).map(|bad| (bad.path, bad.why)));
        match bad_key {
            Some((path, reason)) => Error::InvalidKey { model: model_name::<M>(), path, reason },
            None => {
                let source = crate::failing_path::locate_encode(value, source);
                Error::Serialize { model: model_name::<M>(), source: Box::new(source) }
            }
        }
    })?;
    // Keys fixed by the type were checked at compile time; only run-time keys (maps) need a walk.
    if M::dynamic_keys(crate::schema::KEY_DEPTH) {
        if let Some(bad) = crate::keys::first_bad(bson::RawBsonRef::Document(&raw)) {
            return Err(Error::InvalidKey { model: model_name::<M>(), path: bad.path, reason: bad.why });
        }
    }
    let size = raw.as_bytes().len();
    if size > MAX_DOCUMENT_SIZE {
        return Err(Error::DocumentTooLarge { model: model_name::<M>(), size, limit: MAX_DOCUMENT_SIZE });
    }
    id_first(raw)
}

/// `raw` with `_id` first. The server stores `_id` first whatever order it was sent in, so odm writes it there
/// itself and what it sends is byte for byte what is stored (a tagged enum writes its tag first; a struct may declare
/// `_id` after other fields). The usual case, `_id` first or absent, costs one look at the first key.
fn id_first(raw: RawDocumentBuf) -> Result<RawDocumentBuf> {
    let bad = |e: bson::error::Error| Error::Config(e.to_string());
    let first = raw.iter().next().transpose().map_err(bad)?;
    if first.is_none_or(|(k, _)| k.as_str() == "_id") {
        return Ok(raw);
    }
    let Some(id) = raw.get("_id").map_err(bad)? else { return Ok(raw) };
    let mut out = RawDocumentBuf::new();
    for element in std::iter::once(Ok((bson::raw::cstr!("_id"), id)))
        .chain(raw.iter().filter(|e| !matches!(e, Ok((k, _)) if k.as_str() == "_id")))
    {
        let (k, v) = element.map_err(bad)?;
        out.append(k, v);
    }
    Ok(out)
}

/// `raw` with the value under `key` replaced by `value` (the revision of a guarded replacement), in place.
fn with_element(raw: &RawDocumentBuf, key: &str, value: Bson) -> Result<RawDocumentBuf> {
    let value = bson::RawBson::try_from(value).map_err(|e| Error::Config(e.to_string()))?;
    let mut out = RawDocumentBuf::new();
    for element in raw.iter() {
        let (k, v) = element.map_err(|e| Error::Config(e.to_string()))?;
        if k.as_str() == key {
            out.append(k, value.as_raw_bson_ref());
        } else {
            out.append(k, v);
        }
    }
    Ok(out)
}

/// Decodes a stored document, naming its `_id` and the failing field (Rust path, stored path beside) on error.
///
/// A versioned model reads a document at an older version through its migration steps, and refuses one at a
/// version it does not read with [`Error::Version`] (see [`crate::version`]).
pub fn decode<M: Model>(raw: &RawDocumentBuf) -> Result<M> {
    if let Some(spec) = M::VERSION {
        let version = match raw.get(spec.key) {
            Ok(Some(bson::RawBsonRef::Int32(v))) => i64::from(v),
            Ok(Some(bson::RawBsonRef::Int64(v))) => v,
            // Not a version this model wrote: decoding as the current shape names the field.
            Ok(Some(_)) | Err(_) => i64::from(spec.current),
            // Written before the model had versions: the oldest shape it reads.
            Ok(None) => i64::from(spec.oldest),
        };
        if version != i64::from(spec.current) {
            let id = || raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
            let older = u32::try_from(version).ok().filter(|v| *v >= spec.oldest && *v < spec.current);
            return match older.and_then(|v| M::read_older(v, raw)) {
                Some(read) => read
                    .map_err(|source| Error::Decode(Box::new(DecodeError::new(model_name::<M>(), None, id(), source)))),
                None => Err(Error::Version(Box::new(VersionError {
                    model: model_name::<M>(),
                    id: id(),
                    found: version,
                    current: spec.current,
                    oldest: spec.oldest,
                }))),
            };
        }
    }
    decode_as(model_name::<M>(), M::type_meta(), raw)
}

/// Decodes a document of one variant of a polymorphic model as the struct the variant wraps.
fn decode_variant<M: Model, V: VariantOf<M>>(raw: &RawDocumentBuf) -> Result<V> {
    let model = decode::<M>(raw)?;
    V::from_model(model).ok_or_else(|| {
        let (tag, value) = V::TAG;
        let id = raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        let why = format!("the document is not of variant `{value}` (its `{tag}` differs)");
        Error::Decode(Box::new(DecodeError::new(
            model_name::<M>(),
            None,
            id,
            <bson::error::Error as serde::de::Error>::custom(why),
        )))
    })
}

/// Decodes a projection of `M`'s documents as `Q` (no migration: a projection reads the stored keys as they are).
fn decode_projection<M: Model, Q: DeserializeOwned>(raw: &RawDocumentBuf) -> Result<Q> {
    decode_as(model_name::<M>(), M::type_meta(), raw)
}

/// Decodes `raw` as `P`: the model itself, or a projection of it (which holds the model's stored keys, so the model's
/// fields name the failing path).
pub(crate) fn decode_as<P: DeserializeOwned>(
    model: &'static str,
    meta: Option<&'static TypeMeta>,
    raw: &RawDocumentBuf,
) -> Result<P> {
    crate::failing_path::from_slice(raw.as_bytes()).map_err(|source| {
        let id = raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        Error::Decode(Box::new(DecodeError::new(model, meta, id, source)))
    })
}

/// Refuses an update statement MongoDB would not take (over [`MAX_STATEMENT_SIZE`]) before it is sent, as inserts
/// are refused over 16 MiB: the server would answer with a bare driver error. `parts` are the encoded sizes of the
/// statement's documents (filter, update or replacement, sort, array filters).
pub(crate) fn check_statement<M: Model>(parts: impl IntoIterator<Item = usize>) -> Result<()> {
    let size: usize = parts.into_iter().sum();
    if size > MAX_STATEMENT_SIZE {
        return Err(Error::UpdateTooLarge { model: model_name::<M>(), size, limit: MAX_STATEMENT_SIZE });
    }
    Ok(())
}

/// Model `M`'s write concern as a command's `writeConcern` field, for the write commands odm sends itself (bulk
/// writes, migrations); `None` when the model sets none.
pub(crate) fn write_concern_document<M: Model>() -> Result<Option<RawDocumentBuf>> {
    let Some(wc) = M::WRITE_CONCERN else { return Ok(None) };
    let doc = bson::serialize_to_document(&wc.to_driver()).map_err(|e| Error::Config(e.to_string()))?;
    RawDocumentBuf::try_from(&doc).map(Some).map_err(|e| Error::Config(e.to_string()))
}

/// The encoded size of `doc` in bytes, computed without encoding it (updates are encoded again by the driver).
pub(crate) fn document_len(doc: &Document) -> usize {
    // Length, elements (type byte, key, NUL, value), terminating NUL.
    4 + doc.iter().map(|(k, v)| 2 + k.len() + value_len(v)).sum::<usize>() + 1
}

fn value_len(value: &Bson) -> usize {
    let string = |s: &str| 4 + s.len() + 1;
    match value {
        Bson::Double(_) | Bson::Int64(_) | Bson::DateTime(_) | Bson::Timestamp(_) => 8,
        Bson::Int32(_) => 4,
        Bson::Boolean(_) => 1,
        Bson::Null | Bson::Undefined | Bson::MaxKey | Bson::MinKey => 0,
        Bson::ObjectId(_) => 12,
        Bson::Decimal128(_) => 16,
        Bson::String(s) | Bson::JavaScriptCode(s) | Bson::Symbol(s) => string(s),
        Bson::Document(d) => document_len(d),
        Bson::Array(items) => {
            4 + items.iter().enumerate().map(|(i, v)| 2 + decimal_digits(i) + value_len(v)).sum::<usize>() + 1
        }
        Bson::Binary(b) => {
            // The old binary subtype repeats the length inside the payload.
            let old = if b.subtype == bson::spec::BinarySubtype::BinaryOld { 4 } else { 0 };
            4 + 1 + old + b.bytes.len()
        }
        Bson::RegularExpression(r) => r.pattern.as_str().len() + 1 + r.options.as_str().len() + 1,
        Bson::JavaScriptCodeWithScope(c) => 4 + string(&c.code) + document_len(&c.scope),
        // Its fields are private: measure the encoding of a one-element document holding it.
        Bson::DbPointer(_) => {
            let doc = bson::doc! { "": value.clone() };
            RawDocumentBuf::try_from(&doc).map_or(0, |raw| raw.as_bytes().len() - 7)
        }
    }
}

/// The number of decimal digits of `n` (array keys are indexes written in decimal).
fn decimal_digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

impl<M: Model> Collection<M> {
    /// `M`'s collection in `db` (no I/O).
    ///
    /// Reads and writes use the model's read concern, read preference and write concern, when it declares them.
    pub fn new(db: &Database) -> Self {
        let mut options = mongodb::options::CollectionOptions::default();
        options.read_concern = M::READ_CONCERN.map(crate::model::ReadConcernLevel::to_driver);
        options.selection_criteria = M::READ_PREFERENCE.map(crate::model::ReadPreferenceMode::to_driver);
        options.write_concern = M::WRITE_CONCERN.map(crate::model::WriteConcernSpec::to_driver);
        Collection { raw: db.collection_with_options(M::COLLECTION, options), session: None, _model: PhantomData }
    }

    /// This collection with every operation run in `session` (one at a time): causally consistent reads, and the
    /// operations of a transaction (see [`crate::session`] and [`crate::transaction()`]). Inside a transaction the
    /// transaction's concerns apply, not the model's per-operation ones.
    ///
    /// Every operation means every one: reads and writes, [`Find`] streams (each batch read through the session),
    /// bulk writes, pipelines, `explain`, the schema checker, migrations and change streams. A cursor locks the
    /// session for each batch it reads, so other operations of the session run between two batches; a change
    /// stream holds it while it waits for the next event, so give a long-lived one its own session.
    pub fn with_session(&self, session: &Session) -> Self {
        Collection { raw: self.raw.clone(), session: Some(session.clone()), _model: PhantomData }
    }

    /// The session this collection runs in, if any.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The bound session, locked for one operation (`None` without one).
    pub(crate) async fn lock(&self) -> Option<tokio::sync::OwnedMutexGuard<mongodb::ClientSession>> {
        match &self.session {
            Some(s) => Some(s.lock().await),
            None => None,
        }
    }

    /// The underlying driver collection, for operations odm does not type yet.
    pub fn raw(&self) -> &mongodb::Collection<RawDocumentBuf> {
        &self.raw
    }

    pub(crate) fn map_err(e: mongodb::error::Error) -> Error {
        Error::from_driver(e, model_name::<M>(), M::type_meta())
    }

    /// Inserts one value; returns its `_id`. A revision ([`Model::REVISION`]) is stored as the value gives it.
    pub async fn insert_one(&self, value: impl Borrow<M>) -> Result<Bson> {
        let raw = encode(value.borrow())?;
        let result = self
            .raw
            .insert_one(raw)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?;
        Ok(result.inserted_id)
    }

    /// Inserts values in order; every value is encoded and size-checked before the first is sent.
    /// Returns the `_id`s in input order.
    pub async fn insert_many<I>(&self, values: I) -> Result<Vec<Bson>>
    where
        I: IntoIterator,
        I::Item: Borrow<M>,
    {
        let docs = values.into_iter().map(|v| encode(v.borrow())).collect::<Result<Vec<_>>>()?;
        if docs.is_empty() {
            return Ok(Vec::new());
        }
        let n = docs.len();
        let result = self
            .raw
            .insert_many(docs)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?;
        Ok((0..n).filter_map(|i| result.inserted_ids.get(&i).cloned()).collect())
    }

    /// The error for a refused filter, sort, projection or update: its marked paths named through the model.
    pub(crate) fn invalid(reason: String) -> Error {
        Error::invalid_operation::<M>(&reason)
    }

    pub(crate) fn filter_doc(filter: Filter<M>) -> Result<Document> {
        filter.into_marked().map_err(Self::invalid)
    }

    /// Checks, before sending, that a single-document operation on a sharded model reaches one shard (see
    /// [`crate::shard`]): refused or logged per [`Model::SCATTER`].
    pub(crate) fn one_shard(filter: &Document, operation: &'static str) -> Result<()> {
        let Some(key) = M::SHARD_KEY else { return Ok(()) };
        if M::SCATTER == Scatter::Allow {
            return Ok(());
        }
        let missing = crate::shard::unpinned(filter, key.keys);
        if missing.is_empty() {
            return Ok(());
        }
        let meta = M::type_meta();
        let model = model_name::<M>();
        let missing = missing
            .into_iter()
            .map(|k| crate::meta::rust_name(meta, k, false).unwrap_or_else(|| format!("{model}.{k}")))
            .collect();
        let err = ScatterGatherError { model, operation, missing };
        match M::SCATTER {
            Scatter::Warn => {
                tracing::warn!(target: "odm::shard", model, operation, "{err}");
                Ok(())
            }
            _ => Err(Error::ScatterGather(Box::new(err))),
        }
    }

    /// Builds `update` and folds its guards into `filter`.
    pub(crate) fn prepare(filter: Filter<M>, update: Update<M>, upsert: bool) -> Result<(Document, BuiltUpdate)> {
        let mut built = update.build_marked().map_err(Self::invalid)?;
        if upsert && built.guard.is_some() {
            return Err(Self::invalid(
                "the update is guarded (a counted `add_to_set` or `pop`), and an upsert would insert a new document \
                 whenever the guard does not hold; use `update_one`"
                    .to_owned(),
            ));
        }
        let filter = match built.guard.take() {
            Some(guard) => filter.and(Filter::from_document(guard)),
            None => filter,
        };
        let filter = match built.variant.take() {
            Some(variant) => filter.and(Filter::from_document(variant)),
            None => filter,
        };
        Ok((Self::current_only(Self::filter_doc(filter)?), built))
    }

    /// The model's version while it still reads older ones: typed updates then apply to current documents only.
    pub(crate) fn migrating() -> Option<crate::model::VersionSpec> {
        M::VERSION.filter(|spec| spec.oldest < spec.current)
    }

    /// `filter`, restricted to documents at the current version while the model reads older ones: a typed update
    /// applied to an older document would leave it mixing two versions' fields.
    pub(crate) fn current_only(filter: Document) -> Document {
        match Self::migrating() {
            Some(spec) => bson::doc! { "$and": [filter, { spec.key: i64::from(spec.current) }] },
            None => filter,
        }
    }

    /// The older-version documents matching `filter` (a typed filter, before [`Self::current_only`]): how many, and
    /// one of them with its version. `None` when there are none, or the model reads no older version.
    pub(crate) async fn older_matching(
        &self,
        filter: Option<&Document>,
        count: bool,
    ) -> Result<Option<NotMigratedError>> {
        let (Some(spec), Some(filter)) = (Self::migrating(), filter) else { return Ok(None) };
        let older = bson::doc! { "$and": [filter.clone(), { spec.key: { "$ne": i64::from(spec.current) } }] };
        let Some(one) = self
            .raw
            .find_one(older.clone())
            .projection(bson::doc! { "_id": 1, spec.key: 1 })
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await?
        else {
            return Ok(None);
        };
        let count = if count {
            self.raw.count_documents(older).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)).await?
        } else {
            1
        };
        Ok(Some(NotMigratedError {
            model: model_name::<M>(),
            count,
            id: one.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok()),
            version: match one.get(spec.key) {
                Ok(Some(bson::RawBsonRef::Int32(v))) => Some(i64::from(v)),
                Ok(Some(bson::RawBsonRef::Int64(v))) => Some(v),
                _ => None,
            },
            current: spec.current,
        }))
    }

    /// The model's revision (see [`Model::REVISION`]): its stored key, and whether it is stored as a `long`.
    fn revision_field() -> Option<(&'static str, bool)> {
        let key = M::REVISION?;
        let field = M::type_meta().and_then(|meta| meta.fields.iter().find(|f| f.key == key));
        Some((key, field.is_some_and(|f| f.ty.kind == crate::BsonKind::Long)))
    }

    /// A revision as the field stores it (an `int` field compares and increments as an `int`).
    fn revision_value(n: i64, long: bool) -> Result<Bson> {
        match (long, i32::try_from(n)) {
            (true, _) => Ok(Bson::Int64(n)),
            (false, Ok(n)) => Ok(Bson::Int32(n)),
            (false, Err(_)) => Err(Self::invalid(format!(
                "the revision {n} does not fit the revision field's `int`; store the revision as an `i64`"
            ))),
        }
    }

    /// Adds one to the revision of every document `update` changes (every typed update does: see
    /// [`Model::REVISION`]). Typed updates have no setter for the revision, so nothing else writes it.
    pub(crate) fn bump_revision(update: &mut Document) {
        let Some((key, long)) = Self::revision_field() else { return };
        let one = if long { Bson::Int64(1) } else { Bson::Int32(1) };
        match update.get_mut("$inc") {
            Some(Bson::Document(inc)) => {
                inc.insert(key, one);
            }
            _ => {
                update.insert("$inc", bson::doc! { key: one });
            }
        }
    }

    /// `filter`, also requiring the stored revision to be `expected`.
    fn at_revision(filter: Filter<M>, key: &str, expected: i64, long: bool) -> Result<Filter<M>> {
        let condition = bson::doc! { key: Self::revision_value(expected, long)? };
        Ok(filter.and(Filter::from_document(condition)))
    }

    /// Why a guarded write matched nothing: the document the filter names moved on to another revision
    /// ([`Error::Conflict`]), or there is none ([`Error::NotFound`], naming the `_id` of the value, from `id`). Read
    /// from the primary: a lagging secondary could still show the revision the write expected.
    async fn missed(&self, filter: Filter<M>, key: &str, expected: i64, id: impl FnOnce() -> Option<Bson>) -> Error {
        let filter = match Self::filter_doc(filter) {
            Ok(f) => f,
            Err(e) => return e,
        };
        let primary = mongodb::options::SelectionCriteria::ReadPreference(mongodb::options::ReadPreference::Primary);
        let mut session = self.lock().await;
        let found = self
            .raw
            .find_one(filter)
            .projection(bson::doc! { "_id": 1, key: 1 })
            .selection_criteria(primary)
            .optional(session.as_deref_mut(), |a, s| a.session(s));
        match found.await {
            Ok(Some(raw)) => Error::Conflict {
                model: model_name::<M>(),
                id: Box::new(raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok()).unwrap_or(Bson::Null)),
                expected,
                found: match raw.get(key) {
                    Ok(Some(bson::RawBsonRef::Int32(n))) => Some(i64::from(n)),
                    Ok(Some(bson::RawBsonRef::Int64(n))) => Some(n),
                    _ => None,
                },
            },
            Ok(None) => Error::NotFound { model: model_name::<M>(), id: id().map(Box::new) },
            Err(e) => Self::map_err(e),
        }
    }

    /// The first document matching `filter`.
    pub async fn find_one(&self, filter: Filter<M>) -> Result<Option<M>> {
        self.check_older_shapes(&filter).await?;
        let filter = Self::filter_doc(filter)?;
        Self::one_shard(&filter, "find_one")?;
        match self.raw.find_one(filter).optional(self.lock().await.as_deref_mut(), |a, s| a.session(s)).await? {
            Some(raw) => decode(&raw).map(Some),
            None => Ok(None),
        }
    }

    /// The documents matching `filter`: add a sort, limit, skip or projection, then `.await` (or `.stream()`).
    ///
    /// ```no_run
    /// # use odm::{Model, Collection, bson::oid::ObjectId};
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "shop_review")]
    /// # struct Review { #[serde(rename = "_id")] id: ObjectId, #[serde(rename = "s")] stars: i32 }
    /// # async fn f(reviews: Collection<Review>) -> odm::error::Result<()> {
    /// let f = Review::fields();
    /// let best: Vec<Review> = reviews.find(f.stars().gte(4)).sort(f.stars().desc()).limit(10).await?;
    /// # Ok(()) }
    /// ```
    pub fn find(&self, filter: Filter<M>) -> Find<'_, M, M> {
        Find::new(self, filter, decode::<M>)
    }

    /// The documents of one variant of a polymorphic model matching `filter`, as the struct that variant wraps
    /// (see [`VariantOf`]): the discriminator is added to the filter. Add a sort, limit, skip or projection, then
    /// `.await`, as with [`Collection::find`].
    ///
    /// ```no_run
    /// # use odm::{Collection, Embedded, Model};
    /// # #[derive(Embedded, serde::Serialize, serde::Deserialize)]
    /// # struct Referral { #[serde(rename = "by")] by: String }
    /// # #[derive(Model, serde::Serialize, serde::Deserialize)]
    /// # #[odm(collection = "web_event")]
    /// # #[serde(tag = "t")]
    /// # enum Event { Click { x: i32 }, #[serde(rename = "ref")] Referral(Referral) }
    /// # async fn f(events: Collection<Event>) -> odm::error::Result<()> {
    /// let f = Event::fields();
    /// let from_grace: Vec<Referral> = events.find_variant(f.referral().by().eq("grace")).await?;
    /// let all: Vec<Referral> = events.find_variant(odm::Filter::everything()).await?;
    /// # Ok(()) }
    /// ```
    pub fn find_variant<V: VariantOf<M>>(&self, filter: Filter<M>) -> Find<'_, M, V> {
        let (tag, value) = V::TAG;
        let filter = filter.and(Filter::from_document(bson::doc! { tag: value }));
        Find::new(self, filter, decode_variant::<M, V>)
    }

    /// The first document of one variant matching `filter`, as the struct the variant wraps (see
    /// [`Collection::find_variant`]).
    pub async fn find_one_variant<V: VariantOf<M> + Send>(&self, filter: Filter<M>) -> Result<Option<V>> {
        let (tag, value) = V::TAG;
        let filter = filter.and(Filter::from_document(bson::doc! { tag: value }));
        let found = self
            .raw
            .find_one(Self::filter_doc(filter)?)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await?;
        match found {
            Some(raw) => decode_variant::<M, V>(&raw).map(Some),
            None => Ok(None),
        }
    }

    /// What the server plans for counting the documents matching `filter` (see [`crate::explain`]).
    pub async fn explain_count(&self, filter: Filter<M>) -> Result<Explain> {
        self.explain(bson::doc! { "count": self.raw.name(), "query": Self::filter_doc(filter)? }).await
    }

    /// What the server plans for [`update_one`](Self::update_one) of `update` on the first document matching
    /// `filter`, without writing anything (see [`crate::explain`]).
    pub async fn explain_update_one(&self, filter: Filter<M>, update: Update<M>) -> Result<Explain> {
        self.explain_update_statement(filter, update, false).await
    }

    /// What the server plans for [`update_many`](Self::update_many) of `update` on every document matching
    /// `filter`, without writing anything (see [`crate::explain`]).
    pub async fn explain_update_many(&self, filter: Filter<M>, update: Update<M>) -> Result<Explain> {
        self.explain_update_statement(filter, update, true).await
    }

    /// What the server plans for `update` on the documents matching `filter` (all of them when `many`).
    #[deprecated(
        since = "0.1.0",
        note = "use `explain_update_one` or `explain_update_many`: a bare `bool` does not say which at the call site"
    )]
    pub async fn explain_update(&self, filter: Filter<M>, update: Update<M>, many: bool) -> Result<Explain> {
        self.explain_update_statement(filter, update, many).await
    }

    async fn explain_update_statement(&self, filter: Filter<M>, update: Update<M>, many: bool) -> Result<Explain> {
        let (filter, built) = Self::prepare(filter, update, false)?;
        let mut statement = bson::doc! { "q": filter, "u": built.update, "multi": many };
        if !built.array_filters.is_empty() {
            statement.insert("arrayFilters", built.array_filters);
        }
        self.explain(bson::doc! { "update": self.raw.name(), "updates": [statement] }).await
    }

    /// Runs `explain` of `command` with execution statistics, in the collection's session if it has one.
    pub(crate) async fn explain(&self, command: Document) -> Result<Explain> {
        let db = self.raw.client().database(&self.raw.namespace().db);
        let reply = db
            .run_command(bson::doc! { "explain": command, "verbosity": "executionStats" })
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?;
        Ok(Explain::from_reply(reply))
    }

    /// Number of documents matching `filter`.
    pub async fn count(&self, filter: Filter<M>) -> Result<u64> {
        self.check_older_shapes(&filter).await?;
        Ok(self
            .raw
            .count_documents(Self::filter_doc(filter)?)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await?)
    }

    async fn run_update(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        many: bool,
        upsert: bool,
        operation: &'static str,
    ) -> Result<mongodb::results::UpdateResult> {
        if many || upsert {
            // Checked before writing: a partial `update_many` or an upsert inserting a second copy of an older
            // document would both be worse than an error.
            let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
            if let Some(older) = self.older_matching(typed.as_ref(), true).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        let (filter, mut built) = Self::prepare(filter, update, upsert)?;
        if !many {
            Self::one_shard(&filter, operation)?;
        }
        Self::bump_revision(&mut built.update);
        check_statement::<M>([&filter, &built.update].into_iter().chain(&built.array_filters).map(document_len))?;
        let array_filters = (!built.array_filters.is_empty()).then_some(built.array_filters);
        let result = if many {
            self.raw
                .update_many(filter, built.update)
                .upsert(upsert)
                .optional(array_filters, |a, f| a.array_filters(f))
                .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
                .await
        } else {
            self.raw
                .update_one(filter, built.update)
                .upsert(upsert)
                .optional(array_filters, |a, f| a.array_filters(f))
                .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
                .await
        };
        result.map_err(Self::map_err)
    }

    /// Applies `update` to the first document matching `filter` (one document, stated explicitly). A guarded update
    /// (counted `add_to_set`, `pop`) matches nothing when its guard does not hold: `matched_count` is then 0.
    ///
    /// On a model with a revision ([`Model::REVISION`]) the update also adds one to the revision, so a guarded write
    /// based on an earlier read sees the change; it is not itself guarded: add `f.revision().eq(r)` to `filter` to
    /// apply it only at revision `r`, or use [`Collection::update_changes`].
    ///
    /// On a versioned model that still reads older versions, only a document at the current version is updated; if
    /// the filter matches only older ones, the call fails with [`Error::NotMigrated`] (see [`crate::version`]).
    pub async fn update_one(&self, filter: Filter<M>, update: Update<M>) -> Result<mongodb::results::UpdateResult> {
        self.check_older_shapes(&filter).await?;
        // Only while older versions are read is the typed filter needed again (to look for older documents).
        let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
        let result = self.run_update(filter, update, false, false, "update_one").await?;
        if result.matched_count == 0 {
            if let Some(older) = self.older_matching(typed.as_ref(), false).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        Ok(result)
    }

    /// Applies `update` to every document matching `filter` (multi-document updates are stated explicitly). On a
    /// model with a revision, each changed document's revision grows by one.
    ///
    /// On a versioned model that still reads older versions, the update is refused with [`Error::NotMigrated`],
    /// before anything is written, when any matching document is at an older version.
    pub async fn update_many(&self, filter: Filter<M>, update: Update<M>) -> Result<mongodb::results::UpdateResult> {
        self.check_older_shapes(&filter).await?;
        self.run_update(filter, update, true, false, "update_many").await
    }

    /// Applies `update` to the first document matching `filter`, or inserts one built from the filter's equalities
    /// and the update (with its `set_on_insert`s). Guarded updates are refused: the guard would turn into inserts.
    /// On a model with a revision, an update adds one to it, and an insert starts it at 1.
    /// On a versioned model, an older-version document matching the filter is refused like in
    /// [`Collection::update_many`] (an upsert would otherwise insert a second, current copy).
    pub async fn upsert_one(&self, filter: Filter<M>, update: Update<M>) -> Result<mongodb::results::UpdateResult> {
        self.check_older_shapes(&filter).await?;
        self.run_update(filter, update, false, true, "upsert_one").await
    }

    /// Writes only what changed between `old` and `new` (see [`Update::diff`]) to the document matching `filter`.
    /// Returns `None`, writing nothing, when the values are equal and the document is at the current version.
    ///
    /// On a versioned model, a document matching `filter` at an older version is written whole as `new`, at the
    /// current version, even when `old` and `new` are equal: reading it, changing nothing and saving it stores it
    /// migrated (see [`crate::version`]). Finding out costs one lookup while the model reads older versions.
    ///
    /// On a model with a revision ([`Model::REVISION`]) the write is guarded: it applies only if the stored revision
    /// is still `old`'s, and adds one to it in the same statement (the revision of `new` is not read: the diff never
    /// writes the revision). If another writer changed the document since `old` was read, nothing is written and
    /// the call fails with [`Error::Conflict`] (reload, apply the change again, retry); if no document matches
    /// `filter`, with [`Error::NotFound`]. On success the stored revision is `old`'s plus one.
    pub async fn update_changes(
        &self,
        filter: Filter<M>,
        old: &M,
        new: &M,
    ) -> Result<Option<mongodb::results::UpdateResult>> {
        let update = Update::diff(old, new);
        // The caller's filter, not the revision guard added below (a revision field new in this version is no
        // reason to refuse: an older document is then written whole).
        self.check_older_shapes(&filter).await?;
        // Only while older versions are read is the typed filter needed again (to look for older documents).
        let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
        // A diff whose only change could not be written (a map key MongoDB cannot store) is an error, not "equal".
        if update.is_empty() && !update.has_error() {
            // Nothing changed, but a document still at an older version is stored at the current one.
            return self.migrate_by_replacing(typed.as_ref(), new).await;
        }
        let revision = Self::revision_field().zip(old.revision());
        let guarded = match revision {
            Some(((key, long), expected)) => Self::at_revision(filter.clone(), key, expected, long)?,
            None => filter.clone(),
        };
        let result = self.run_update(guarded, update, false, false, "update_changes").await?;
        if result.matched_count > 0 {
            return Ok(Some(result));
        }
        if let Some(migrated) = self.migrate_by_replacing(typed.as_ref(), new).await? {
            return Ok(Some(migrated));
        }
        match revision {
            Some(((key, _), expected)) => {
                let id = || bson::serialize_to_document(old).ok().and_then(|mut d| d.remove("_id"));
                Err(self.missed(filter, key, expected, id).await)
            }
            None => Ok(Some(result)),
        }
    }

    /// [`Collection::update_changes`] on a document stored at an older version: the diff of two current values cannot
    /// be applied to it, so `new` is written whole (the migration happens in this write), guarded by the version the
    /// document was found at so a concurrent migration or change is not overwritten. `None` when no older document
    /// matches.
    async fn migrate_by_replacing(
        &self,
        typed: Option<&Document>,
        new: &M,
    ) -> Result<Option<mongodb::results::UpdateResult>> {
        let (Some(spec), Some(typed)) = (Self::migrating(), typed) else { return Ok(None) };
        let Some(older) = self.older_matching(Some(typed), false).await? else { return Ok(None) };
        let at = match older.version {
            Some(v) => bson::doc! { spec.key: v },
            None => bson::doc! { spec.key: { "$exists": false } },
        };
        let filter = bson::doc! { "$and": [typed.clone(), at] };
        let raw = encode(new)?;
        check_statement::<M>([document_len(&filter), raw.as_bytes().len()])?;
        let result = self
            .raw
            .replace_one(filter, raw)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?;
        if result.matched_count == 0 {
            // Changed or migrated meanwhile: report it rather than overwrite.
            return Err(Error::NotMigrated(Box::new(older)));
        }
        Ok(Some(result))
    }

    /// Atomically updates the first document matching `filter` (in `sort` order, when given) and returns it as it
    /// is after the update (`after = true`) or was before. On a model with a revision, the update adds one to it.
    pub async fn find_one_and_update(
        &self,
        filter: Filter<M>,
        update: Update<M>,
        options: FindAndModify<M>,
    ) -> Result<Option<M>> {
        self.check_older_shapes(&filter).await?;
        // Only while older versions are read is the typed filter needed again (to look for older documents).
        let typed = Self::migrating().map(|_| Self::filter_doc(filter.clone())).transpose()?;
        if options.upsert {
            if let Some(older) = self.older_matching(typed.as_ref(), true).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        let (filter, mut built) = Self::prepare(filter, update, options.upsert)?;
        Self::one_shard(&filter, "find_one_and_update")?;
        Self::bump_revision(&mut built.update);
        let sort = options.sort.map(|s| s.into_marked().map_err(Self::invalid)).transpose()?;
        let parts = [&filter, &built.update].into_iter().chain(&sort).chain(&built.array_filters);
        check_statement::<M>(parts.map(document_len))?;
        let array_filters = (!built.array_filters.is_empty()).then_some(built.array_filters);
        let ret = if options.after {
            mongodb::options::ReturnDocument::After
        } else {
            mongodb::options::ReturnDocument::Before
        };
        let found = self
            .raw
            .find_one_and_update(filter, built.update)
            .return_document(ret)
            .upsert(options.upsert)
            .optional(sort, |a, s| a.sort(s))
            .optional(array_filters, |a, f| a.array_filters(f))
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?;
        if found.is_none() {
            if let Some(older) = self.older_matching(typed.as_ref(), false).await? {
                return Err(Error::NotMigrated(Box::new(older)));
            }
        }
        found.as_ref().map(decode).transpose()
    }

    /// Replaces the first document matching `filter` with `value` (checked like an insert). Prefer targeted updates:
    /// a replacement re-sends every field and, on a model without a revision, overwrites concurrent changes.
    ///
    /// On a model with a revision ([`Model::REVISION`]) the replacement is guarded: it applies only if the stored
    /// revision equals `value`'s, and the stored document gets `value`'s revision plus one. If another writer changed
    /// the document since `value` was read, nothing is written and the call fails with [`Error::Conflict`] (reload,
    /// apply the change again, retry); if no document matches `filter`, with [`Error::NotFound`].
    pub async fn replace_one(
        &self,
        filter: Filter<M>,
        value: impl Borrow<M>,
    ) -> Result<mongodb::results::UpdateResult> {
        self.check_older_shapes(&filter).await?;
        let value = value.borrow();
        let raw = encode(value)?;
        let (Some((key, long)), Some(expected)) = (Self::revision_field(), value.revision()) else {
            let filter = Self::filter_doc(filter)?;
            Self::one_shard(&filter, "replace_one")?;
            check_statement::<M>([document_len(&filter), raw.as_bytes().len()])?;
            return self
                .raw
                .replace_one(filter, raw)
                .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
                .await
                .map_err(Self::map_err);
        };
        let next = expected.checked_add(1).ok_or_else(|| Self::invalid("the revision is at its maximum".to_owned()))?;
        let raw = with_element(&raw, key, Self::revision_value(next, long)?)?;
        let guarded = Self::filter_doc(Self::at_revision(filter.clone(), key, expected, long)?)?;
        Self::one_shard(&guarded, "replace_one")?;
        check_statement::<M>([document_len(&guarded), raw.as_bytes().len()])?;
        let id = raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok());
        let result = self
            .raw
            .replace_one(guarded, raw)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?;
        if result.matched_count == 0 {
            return Err(self.missed(filter, key, expected, || id).await);
        }
        Ok(result)
    }

    /// Deletes the first document matching `filter`; returns how many were deleted (0 or 1).
    pub async fn delete_one(&self, filter: Filter<M>) -> Result<u64> {
        self.check_older_shapes(&filter).await?;
        let filter = Self::filter_doc(filter)?;
        Self::one_shard(&filter, "delete_one")?;
        Ok(self
            .raw
            .delete_one(filter)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?
            .deleted_count)
    }

    /// Deletes every document matching `filter` (stated explicitly); returns how many.
    pub async fn delete_many(&self, filter: Filter<M>) -> Result<u64> {
        self.check_older_shapes(&filter).await?;
        Ok(self
            .raw
            .delete_many(Self::filter_doc(filter)?)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?
            .deleted_count)
    }

    /// Atomically deletes the first document matching `filter` and returns it.
    pub async fn find_one_and_delete(&self, filter: Filter<M>) -> Result<Option<M>> {
        self.check_older_shapes(&filter).await?;
        let filter = Self::filter_doc(filter)?;
        Self::one_shard(&filter, "find_one_and_delete")?;
        let found = self
            .raw
            .find_one_and_delete(filter)
            .optional(self.lock().await.as_deref_mut(), |a, s| a.session(s))
            .await
            .map_err(Self::map_err)?;
        found.as_ref().map(decode).transpose()
    }
}

/// Options of [`Collection::find_one_and_update`].
pub struct FindAndModify<M> {
    after: bool,
    upsert: bool,
    sort: Option<Sort<M>>,
}

impl<M> FindAndModify<M> {
    /// Return the document as it is after the update.
    pub fn after() -> Self {
        FindAndModify { after: true, upsert: false, sort: None }
    }

    /// Return the document as it was before the update.
    pub fn before() -> Self {
        FindAndModify { after: false, upsert: false, sort: None }
    }

    /// Insert when nothing matches (guarded updates are refused).
    pub fn upsert(mut self) -> Self {
        self.upsert = true;
        self
    }

    /// Which matching document to take first.
    pub fn sort(mut self, sort: Sort<M>) -> Self {
        self.sort = Some(sort);
        self
    }
}

/// A pending read: [`Collection::find`] with its sort, limit, skip and projection. `.await` it for a `Vec`, or call
/// [`Find::stream`] for a cursor.
#[must_use = "a `Find` does nothing until awaited or streamed"]
pub struct Find<'a, M: Model, P> {
    coll: &'a Collection<M>,
    filter: Filter<M>,
    sort: Option<Sort<M>>,
    limit: Option<i64>,
    skip: Option<u64>,
    projection: Option<Projection<M>>,
    /// The index to use, by name.
    hint: Option<String>,
    /// How results are decoded: as the model (older versions migrated), or as a projection.
    decode: fn(&RawDocumentBuf) -> Result<P>,
}

impl<'a, M: Model, P> Find<'a, M, P> {
    /// A read of the documents matching `filter`, decoded by `decode`, with no options yet.
    fn new(coll: &'a Collection<M>, filter: Filter<M>, decode: fn(&RawDocumentBuf) -> Result<P>) -> Self {
        Find { coll, filter, sort: None, limit: None, skip: None, projection: None, hint: None, decode }
    }
}

impl<'a, M: Model, P: DeserializeOwned + Send + 'a> Find<'a, M, P> {
    /// Order of the results.
    pub fn sort(mut self, sort: Sort<M>) -> Self {
        self.sort = Some(sort);
        self
    }

    /// At most `n` results.
    pub fn limit(mut self, n: i64) -> Self {
        self.limit = Some(n);
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

    /// The matching documents, read through the collection's session when it has one (locked for each batch read).
    async fn rows(self) -> Result<futures_util::stream::BoxStream<'a, Result<RawDocumentBuf>>> {
        use futures_util::StreamExt;
        let invalid = Collection::<M>::invalid;
        self.coll.check_older_shapes(&self.filter).await?;
        let filter = self.filter.into_marked().map_err(invalid)?;
        let sort = self.sort.map(|s| s.into_marked().map_err(invalid)).transpose()?;
        let projection = self.projection.map(|p| p.into_marked().map_err(invalid)).transpose()?;
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
            return Ok(find.await?.map_err(Error::from).boxed());
        };
        let cursor = find.session(&mut *session.lock().await).await?;
        Ok(crate::session::rows(cursor, session.clone()))
    }

    /// The results as a stream, decoded one by one (decode errors name the document's `_id`).
    pub async fn stream(self) -> Result<impl futures_util::Stream<Item = Result<P>> + Send + 'a> {
        let decode = self.decode;
        let rows = self.rows().await?;
        Ok(rows.and_then(move |raw| async move { decode(&raw) }))
    }

    /// All results, each decoded as it arrives (only the decoded values are kept, as a typed `try_collect` of the
    /// driver keeps them); the first document that does not decode fails the read, naming its `_id` and field.
    pub async fn all(self) -> Result<Vec<P>> {
        let decode = self.decode;
        let mut rows = self.rows().await?;
        let mut out = Vec::new();
        while let Some(raw) = rows.try_next().await? {
            out.push(decode(&raw)?);
        }
        Ok(out)
    }

    /// Every result that decodes; a document that does not (written around odm, or by an older version) is skipped
    /// and reported in [`Decoded::skipped`] with its `_id` and the failing field, instead of failing the whole read.
    /// Server and network errors still fail the read.
    pub async fn all_valid(self) -> Result<Decoded<P>> {
        let decode = self.decode;
        let mut cursor = self.rows().await?;
        let mut out = Decoded { values: Vec::new(), skipped: Vec::new() };
        while let Some(raw) = cursor.try_next().await? {
            match decode(&raw) {
                Ok(value) => out.values.push(value),
                Err(Error::Decode(e)) => out.skipped.push(*e),
                Err(other) => return Err(other),
            }
        }
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

impl<'a, M: Model, P: DeserializeOwned + Send + 'a> std::future::IntoFuture for Find<'a, M, P> {
    type Output = Result<Vec<P>>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<P>>> + Send + 'a>>;
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.all())
    }
}

#[cfg(test)]
mod tests {
    use super::document_len;
    use bson::spec::BinarySubtype;
    use bson::{doc, Binary, Bson, JavaScriptCodeWithScope, RawDocumentBuf, Regex, Timestamp};

    /// The computed size is the encoder's, for every BSON type and for array keys of one, two and three digits.
    #[test]
    fn document_len_is_the_encoded_size() {
        let re = Regex { pattern: "^a.*".to_owned().try_into().unwrap(), options: "im".to_owned().try_into().unwrap() };
        let doc = doc! {
            "d": 1.5, "s": "ünï", "o": { "n": { "deep": [1, 2] } }, "a": (0..120).map(Bson::Int32).collect::<Vec<_>>(),
            "b": true, "nil": Bson::Null, "re": re, "js": Bson::JavaScriptCode("f()".into()),
            "jss": JavaScriptCodeWithScope { code: "g()".into(), scope: doc! { "x": 1 } },
            "i": 7, "l": 7_i64, "ts": Timestamp { time: 1, increment: 2 },
            "bin": Binary { subtype: BinarySubtype::Generic, bytes: vec![1, 2, 3] },
            "old": Binary { subtype: BinarySubtype::BinaryOld, bytes: vec![4, 5] },
            "oid": bson::oid::ObjectId::new(), "at": bson::DateTime::now(), "sym": Bson::Symbol("sy".into()),
            "dec": "1.5".parse::<bson::Decimal128>().unwrap(), "u": Bson::Undefined, "max": Bson::MaxKey,
            "min": Bson::MinKey, "$set": { "a.b.$[x]": [] },
        };
        assert_eq!(document_len(&doc), RawDocumentBuf::try_from(&doc).unwrap().as_bytes().len());
        assert_eq!(document_len(&doc! {}), 5);
    }
}
