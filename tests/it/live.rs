//! What is live, read through odm's types, against what the raw driver lists for the same collections: validator,
//! validation settings, capped options, indexes with their options, a view, and a collection that does not exist.

use futures_util::TryStreamExt;
use odm::bson::{doc, oid::ObjectId, DateTime, Document};
use odm::live::{LiveCollection, LiveKind};
use odm::model::{Capped, ValidationAction, ValidationLevel};
use odm::{Collection, Model, SchemaSync, SyncMode};

/// A capped log with relaxed validation.
#[derive(Model, serde::Serialize, serde::Deserialize)]
#[odm(
    collection = "log_app_entry",
    capped(size = 1048576, max = 500),
    validation_level = "moderate",
    validation_action = "warn"
)]
struct Entry {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "m")]
    message: String,
}

/// A session with a TTL, a unique partial index and a hidden compound one.
#[derive(Model, serde::Serialize, serde::Deserialize)]
#[odm(
    collection = "web_session",
    index(keys = "at", ttl = 3600),
    index(keys = "token", unique, partial = "token exists"),
    index(keys = "user, -at", hidden)
)]
struct WebSession {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "at")]
    at: DateTime,
    #[serde(rename = "tok")]
    token: String,
    #[serde(rename = "usr")]
    user: String,
}

/// What the raw driver lists for `name`: its `listCollections` entry and its `listIndexes` entries.
async fn raw_listing(db: &odm::mongodb::Database, name: &str) -> (Document, Vec<Document>) {
    let entry: Vec<Document> = db
        .list_collections()
        .filter(doc! { "name": name })
        .await
        .unwrap()
        .with_type::<Document>()
        .try_collect()
        .await
        .unwrap();
    let entry = entry.into_iter().next().expect("listed");
    let indexes = if entry.get_str("type").ok() == Some("view") {
        Vec::new()
    } else {
        let coll = db.collection::<Document>(name);
        coll.list_indexes().await.unwrap().with_type::<Document>().try_collect().await.unwrap()
    };
    (entry, indexes)
}

/// `live` says what the raw listing says, field by field.
fn assert_same(live: &LiveCollection, entry: &Document, indexes: &[Document]) {
    let options = entry.get_document("options").unwrap();
    assert_eq!(&live.options.listed, options);
    assert_eq!(live.options.validator.as_ref(), options.get_document("validator").ok());
    assert_eq!(live.options.validation_level.map(|l| l.as_str()), options.get_str("validationLevel").ok());
    assert_eq!(live.options.validation_action.map(|a| a.as_str()), options.get_str("validationAction").ok());
    assert_eq!(live.indexes.len(), indexes.len(), "{:?}", live.indexes);
    for (spec, raw) in live.indexes.iter().zip(indexes) {
        assert_eq!(spec.name, raw.get_str("name").unwrap());
        assert_eq!(&spec.keys, raw.get_document("key").unwrap());
        assert_eq!(spec.unique, raw.get_bool("unique").unwrap_or(false), "{raw}");
        assert_eq!(spec.hidden, raw.get_bool("hidden").unwrap_or(false), "{raw}");
        assert_eq!(spec.partial_filter_expression.as_ref(), raw.get_document("partialFilterExpression").ok());
        let ttl = raw.get("expireAfterSeconds").map(|v| v.as_i64().or(v.as_i32().map(i64::from)).unwrap());
        assert_eq!(spec.expire_after_seconds, ttl, "{raw}");
    }
}

#[tokio::test]
async fn live_collections_read_as_odm_types_match_the_raw_listing() {
    let db = odm::testing::database("live_listing").await;
    let name = db.name().to_owned();
    let report = SchemaSync::new(db.client())
        .database(&name)
        .model::<Entry>()
        .model::<WebSession>()
        .mode(SyncMode::Apply)
        .await
        .unwrap();
    report.require_in_sync().unwrap();
    db.run_command(doc! { "create": "recent_entry", "viewOn": "log_app_entry", "pipeline": [{ "$limit": 10 }] })
        .await
        .unwrap();

    let entries = Collection::<Entry>::new(&db).live().await.unwrap().expect("created by the sync");
    assert_eq!(entries.name, "log_app_entry");
    assert_eq!(entries.kind, LiveKind::Collection);
    assert_eq!(entries.options.capped, Some(Capped { size: 1048576, max: Some(500) }));
    assert_eq!(entries.options.validation_level, Some(ValidationLevel::Moderate));
    assert_eq!(entries.options.validation_action, Some(ValidationAction::Warn));
    assert_eq!(entries.options.validator.as_ref(), Some(&Entry::validator()));
    let (entry, indexes) = raw_listing(&db, "log_app_entry").await;
    assert_same(&entries, &entry, &indexes);

    let sessions = Collection::<WebSession>::new(&db).live().await.unwrap().expect("created by the sync");
    assert_eq!(sessions.options.capped, None);
    let names: Vec<&str> = sessions.indexes.iter().map(|i| i.name.as_str()).collect();
    assert!(names.contains(&"_id_"), "the listing keeps `_id_`: {names:?}");
    for declared in WebSession::indexes() {
        let live = sessions.indexes.iter().find(|i| i.name == declared.name).expect("each declared index is live");
        assert_eq!(
            (live.unique, live.hidden, live.expire_after_seconds),
            (declared.unique, declared.hidden, declared.expire_after_seconds)
        );
    }
    assert!(sessions.indexes.iter().any(|i| i.expire_after_seconds == Some(3600)));
    assert!(sessions.indexes.iter().any(|i| i.unique && i.partial_filter_expression.is_some()));
    assert!(sessions.indexes.iter().any(|i| i.hidden));
    let (entry, indexes) = raw_listing(&db, "web_session").await;
    assert_same(&sessions, &entry, &indexes);

    // The whole database, in name order: the view has no indexes; odm's records of the indexes it created
    // (`odm_index`) are a live collection too.
    let all = odm::live::collections(&db).await.unwrap();
    let listed: Vec<(&str, &LiveKind)> = all.iter().map(|c| (c.name.as_str(), &c.kind)).collect();
    assert_eq!(
        listed,
        [
            ("log_app_entry", &LiveKind::Collection),
            ("odm_index", &LiveKind::Collection),
            ("recent_entry", &LiveKind::View),
            ("web_session", &LiveKind::Collection)
        ]
    );
    assert!(all[2].indexes.is_empty());
    assert_eq!(all[2].options.listed.get_str("viewOn").ok(), Some("log_app_entry"));
    assert_eq!(all[0], entries);
    assert_eq!(all[3], sessions);

    // Nothing live: a collection another program dropped.
    db.collection::<Document>("web_session").drop().await.unwrap();
    assert_eq!(Collection::<WebSession>::new(&db).live().await.unwrap(), None);
    assert_eq!(odm::live::collection(&db, "web_session").await.unwrap(), None);
}
