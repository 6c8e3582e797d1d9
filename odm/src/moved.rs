//! The names the crate root exported before it was trimmed to what nearly every program names (see the README's
//! "Changes"). Each stays one release as a deprecated alias naming its module; the next release removes this file.
//!
//! Type aliases carry the deprecation: a `#[deprecated]` on a `use` has no effect.
#![allow(missing_docs)]

use crate::model::Model;

macro_rules! moved {
    ($($(#[$attr:meta])* $name:ident $(<$($p:tt),*>)? => $note:literal $target:path;)*) => {$(
        $(#[$attr])*
        #[doc = $note]
        #[deprecated(since = "0.1.0", note = $note)]
        pub type $name $(<$($p),*>)? = $target;
    )*};
}

moved! {
    #[cfg(feature = "driver")]
    Bulk<'a, M> => "moved: use `odm::bulk::Bulk`" crate::bulk::Bulk<'a, M>;
    BulkResult => "moved: use `odm::bulk::BulkResult`" crate::bulk::BulkResult;
    #[cfg(feature = "driver")]
    SchemaCheck<'a, M> => "moved: use `odm::check::SchemaCheck`" crate::check::SchemaCheck<'a, M>;
    #[cfg(feature = "driver")]
    SchemaReport => "moved: use `odm::check::SchemaReport`" crate::check::SchemaReport;
    #[cfg(feature = "driver")]
    Find<'a, M, P> => "moved: use `odm::collection::Find`" crate::collection::Find<'a, M, P>;
    #[cfg(feature = "driver")]
    Decoded<P> => "moved: use `odm::collection::Decoded`" crate::collection::Decoded<P>;
    DecodeError => "moved: use `odm::error::DecodeError`" crate::error::DecodeError;
    FieldFailure => "moved: use `odm::error::FieldFailure`" crate::error::FieldFailure;
    NotMigratedError => "moved: use `odm::error::NotMigratedError`" crate::error::NotMigratedError;
    ScatterGatherError => "moved: use `odm::error::ScatterGatherError`" crate::error::ScatterGatherError;
    ValidationError => "moved: use `odm::error::ValidationError`" crate::error::ValidationError;
    VersionError => "moved: use `odm::error::VersionError`" crate::error::VersionError;
    FilterNotMigratedError => "moved: use `odm::version::FilterNotMigratedError`" crate::version::FilterNotMigratedError;
    Explain => "moved: use `odm::explain::Explain`" crate::explain::Explain;
    IndexSpec => "moved: use `odm::index::IndexSpec`" crate::index::IndexSpec;
    BsonKind => "moved: use `odm::schema::BsonKind`" crate::schema::BsonKind;
    FieldMeta => "moved: use `odm::meta::FieldMeta`" crate::meta::FieldMeta;
    FieldType => "moved: use `odm::meta::FieldType`" crate::meta::FieldType;
    TypeMeta => "moved: use `odm::meta::TypeMeta`" crate::meta::TypeMeta;
    #[cfg(feature = "driver")]
    Migration<'a, M> => "moved: use `odm::migrate::Migration`" crate::migrate::Migration<'a, M>;
    MigrationReport => "moved: use `odm::migrate::MigrationReport`" crate::migrate::MigrationReport;
    MigrationProgress => "moved: use `odm::progress::Progress`" crate::progress::Progress;
    Acknowledgment => "moved: use `odm::model::Acknowledgment`" crate::model::Acknowledgment;
    W => "moved: use `odm::model::Acknowledgment`" crate::model::Acknowledgment;
    Capped => "moved: use `odm::model::Capped`" crate::model::Capped;
    QuerySpec => "moved: use `odm::model::QuerySpec`" crate::model::QuerySpec;
    ReadConcernLevel => "moved: use `odm::model::ReadConcernLevel`" crate::model::ReadConcernLevel;
    ReadPreferenceMode => "moved: use `odm::model::ReadPreferenceMode`" crate::model::ReadPreferenceMode;
    Scatter => "moved: use `odm::model::Scatter`" crate::model::Scatter;
    ShardKey => "moved: use `odm::model::ShardKey`" crate::model::ShardKey;
    ValidationAction => "moved: use `odm::model::ValidationAction`" crate::model::ValidationAction;
    ValidationLevel => "moved: use `odm::model::ValidationLevel`" crate::model::ValidationLevel;
    VersionSpec => "moved: use `odm::model::VersionSpec`" crate::model::VersionSpec;
    WriteConcernSpec => "moved: use `odm::model::WriteConcernSpec`" crate::model::WriteConcernSpec;
    ArrayNode<R, W, A> => "moved: use `odm::path::ArrayNode`" crate::path::ArrayNode<R, W, A>;
    MapNode<R, W, A> => "moved: use `odm::path::MapNode`" crate::path::MapNode<R, W, A>;
    Object<F> => "moved: use `odm::path::Object`" crate::path::Object<F>;
    Path<R, W, A> => "moved: use `odm::path::Path`" crate::path::Path<R, W, A>;
    Action => "moved: use `odm::sync::plan::Action`" crate::sync::plan::Action;
    Plan => "moved: use `odm::sync::plan::Plan`" crate::sync::plan::Plan;
    StaleHandling => "moved: use `odm::sync::plan::StaleHandling`" crate::sync::plan::StaleHandling;
    Outcome => "moved: use `odm::sync::Outcome`" crate::sync::Outcome;
    SyncReport => "moved: use `odm::sync::SyncReport`" crate::sync::SyncReport;
    Topology => "moved: use `odm::sync::Topology`" crate::sync::Topology;
    ValidatorRollout => "moved: use `odm::sync::ValidatorRollout`" crate::sync::ValidatorRollout;
    BuiltUpdate => "moved: use `odm::update::BuiltUpdate`" crate::update::BuiltUpdate;
}

#[cfg(feature = "driver")]
/// Moved to [`odm::collection::create_collection`](crate::collection::create_collection).
#[deprecated(since = "0.1.0", note = "moved: use `odm::collection::create_collection`")]
pub async fn create_collection<M: Model>(db: &mongodb::Database) -> crate::error::Result<()> {
    crate::collection::create_collection::<M>(db).await
}

#[cfg(feature = "driver")]
/// Moved to [`odm::collection::create_command`](crate::collection::create_command).
#[deprecated(since = "0.1.0", note = "moved: use `odm::collection::create_command`")]
pub fn create_command<M: Model>() -> bson::Document {
    crate::collection::create_command::<M>()
}

/// Moved to [`odm::codec::encode`](crate::codec::encode).
#[deprecated(since = "0.1.0", note = "moved: use `odm::codec::encode`")]
pub fn encode<M: Model>(value: &M) -> crate::error::Result<bson::RawDocumentBuf> {
    crate::codec::encode(value)
}

/// Moved to [`odm::codec::decode`](crate::codec::decode).
#[deprecated(since = "0.1.0", note = "moved: use `odm::codec::decode`")]
pub fn decode<M: Model>(raw: &bson::RawDocumentBuf) -> crate::error::Result<M> {
    crate::codec::decode(raw)
}
