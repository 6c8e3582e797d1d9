//! A typed collection: create it from its model (validator, level, action), insert and read typed values.
//! Writes are checked before they are sent (16 MiB), and validation failures come back as field-level errors.

use crate::error::{DecodeError, Error, Result, MAX_DOCUMENT_SIZE};
use crate::model::Model;
use bson::{Bson, Document, RawDocumentBuf};
use futures_util::TryStreamExt;
use mongodb::Database;
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

/// A collection of `M` documents.
pub struct Collection<M: Model> {
    raw: mongodb::Collection<RawDocumentBuf>,
    _model: PhantomData<fn() -> M>,
}

impl<M: Model> Clone for Collection<M> {
    fn clone(&self) -> Self {
        Collection { raw: self.raw.clone(), _model: PhantomData }
    }
}

fn model_name<M: Model>() -> &'static str {
    M::type_meta().map_or(M::COLLECTION, |m| m.name)
}

/// Serializes `value`, refusing documents over 16 MiB before anything is sent.
pub fn encode<M: Model>(value: &M) -> Result<RawDocumentBuf> {
    let raw = bson::serialize_to_raw_document_buf(value)
        .map_err(|source| Error::Serialize { model: model_name::<M>(), source: Box::new(source) })?;
    // Keys fixed by the type were checked at compile time; only run-time keys (maps) need a walk.
    if M::dynamic_keys(32) {
        check_keys(&raw, &mut String::new()).map_err(|(path, reason)| Error::InvalidKey {
            model: model_name::<M>(),
            path,
            reason,
        })?;
    }
    let size = raw.as_bytes().len();
    if size > MAX_DOCUMENT_SIZE {
        return Err(Error::DocumentTooLarge { model: model_name::<M>(), size, limit: MAX_DOCUMENT_SIZE });
    }
    Ok(raw)
}

/// Walks a document for keys MongoDB cannot store or query: a leading `$` (operators) or a `.` (path separator).
/// (A NUL cannot reach here: BSON keys are C strings, and the serializer refuses it.)
fn check_keys(doc: &bson::RawDocument, path: &mut String) -> std::result::Result<(), (String, &'static str)> {
    for entry in doc.iter() {
        let (key, value) = entry.map_err(|_| (path.clone(), "the encoded document is malformed"))?;
        let key = key.as_str();
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
        if key.starts_with('$') {
            return Err((path.clone(), "keys starting with `$` are reserved for operators"));
        }
        if key.contains('.') {
            return Err((path.clone(), "`.` separates path segments, so the key could never be queried or updated"));
        }
        check_value(value, path)?;
        path.truncate(len);
    }
    Ok(())
}

fn check_value(value: bson::RawBsonRef<'_>, path: &mut String) -> std::result::Result<(), (String, &'static str)> {
    match value {
        bson::RawBsonRef::Document(d) => check_keys(d, path),
        bson::RawBsonRef::Array(a) => {
            for (i, item) in a.into_iter().enumerate() {
                let item = item.map_err(|_| (path.clone(), "the encoded document is malformed"))?;
                let len = path.len();
                path.push_str(&format!(".{i}"));
                check_value(item, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Decodes a stored document, naming its `_id` and the failing key on error.
pub fn decode<M: Model>(raw: &RawDocumentBuf) -> Result<M> {
    bson::deserialize_from_slice(raw.as_bytes()).map_err(|source| {
        Error::Decode(Box::new(DecodeError {
            model: model_name::<M>(),
            id: raw.get("_id").ok().flatten().and_then(|v| Bson::try_from(v).ok()),
            source,
        }))
    })
}

impl<M: Model> Collection<M> {
    /// `M`'s collection in `db` (no I/O).
    ///
    /// Reads and writes use the model's read concern, read preference and write concern, when it declares them.
    pub fn new(db: &Database) -> Self {
        use mongodb::options::{CollectionOptions, ReadConcern, ReadPreference, SelectionCriteria};
        let mut options = CollectionOptions::default();
        options.read_concern = M::READ_CONCERN.map(|level| match level {
            "local" => ReadConcern::local(),
            "available" => ReadConcern::available(),
            "majority" => ReadConcern::majority(),
            "linearizable" => ReadConcern::linearizable(),
            "snapshot" => ReadConcern::snapshot(),
            other => ReadConcern::custom(other),
        });
        options.selection_criteria = M::READ_PREFERENCE.map(|p| {
            let options = Default::default();
            SelectionCriteria::ReadPreference(match p {
                "primaryPreferred" => ReadPreference::PrimaryPreferred { options },
                "secondary" => ReadPreference::Secondary { options },
                "secondaryPreferred" => ReadPreference::SecondaryPreferred { options },
                "nearest" => ReadPreference::Nearest { options },
                _ => ReadPreference::Primary,
            })
        });
        options.write_concern = M::WRITE_CONCERN.map(crate::model::WriteConcernSpec::to_driver);
        Collection { raw: db.collection_with_options(M::COLLECTION, options), _model: PhantomData }
    }

    /// The underlying driver collection, for operations odm does not type yet.
    pub fn raw(&self) -> &mongodb::Collection<RawDocumentBuf> {
        &self.raw
    }

    fn map_err(e: mongodb::error::Error) -> Error {
        Error::from_driver(e, model_name::<M>(), M::type_meta())
    }

    /// Inserts one value; returns its `_id`.
    pub async fn insert_one(&self, value: impl Borrow<M>) -> Result<Bson> {
        let raw = encode(value.borrow())?;
        let result = self.raw.insert_one(raw).await.map_err(Self::map_err)?;
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
        let result = self.raw.insert_many(docs).await.map_err(Self::map_err)?;
        Ok((0..n).filter_map(|i| result.inserted_ids.get(&i).cloned()).collect())
    }

    /// The first document matching `filter`.
    pub async fn find_one(&self, filter: Document) -> Result<Option<M>> {
        match self.raw.find_one(filter).await? {
            Some(raw) => decode(&raw).map(Some),
            None => Ok(None),
        }
    }

    /// All documents matching `filter`.
    pub async fn find(&self, filter: Document) -> Result<Vec<M>> {
        let raws: Vec<RawDocumentBuf> = self.raw.find(filter).await?.try_collect().await?;
        raws.iter().map(decode).collect()
    }

    /// Number of documents matching `filter`.
    pub async fn count(&self, filter: Document) -> Result<u64> {
        Ok(self.raw.count_documents(filter).await?)
    }
}
