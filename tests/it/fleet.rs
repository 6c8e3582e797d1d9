//! A fleet that never fights: replicas of two versions of an application (separate processes) start and sync the
//! same versioned collection at the same moment, round after round. The collection ends at the newer version's
//! validator and indexes every time; the older binary reports that the collection is ahead, changes nothing, and keeps
//! serving (its writes of its own version are accepted while the validator accepts older versions).

use crate::support;

use odm::bson::{doc, oid::ObjectId, Document};
use odm::{sync::plan::StaleHandling, Collection, Model, SchemaSync, SyncMode, Upgrade, Version};
use serde::{Deserialize, Serialize};
use std::process::Child;
use support::workers;

/// A note as version 1 of the application declares it.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "fleet_note", version = 1, closed)]
#[odm(index(keys = "title"), index(keys = "tag"))]
struct NoteV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<1>,
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "g")]
    tag: String,
}

/// Version 2: a body; notes found by tag and title, and by body; the title-only index is gone.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "fleet_note", version = 2, older(NoteV1), closed)]
#[odm(index(keys = "tag, title"), index(keys = "body"))]
struct Note {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "t")]
    title: String,
    #[serde(rename = "g")]
    tag: String,
    #[serde(rename = "b")]
    body: String,
}

impl Upgrade for NoteV1 {
    type Next = Note;
    fn upgrade(self) -> Note {
        Note { id: self.id, v: Version, title: self.title, tag: self.tag, body: String::new() }
    }
}

/// An unrelated model on the same collection.
#[derive(Model, Serialize, Deserialize, Debug, Clone)]
#[odm(collection = "fleet_note")]
struct Stranger {
    #[serde(rename = "s")]
    stranger: String,
}

fn note_v1(title: &str) -> NoteV1 {
    NoteV1 { id: ObjectId::new(), v: Version, title: title.into(), tag: "t".into() }
}

/// The sync each binary runs at startup: the most aggressive one (apply, drop stale indexes).
fn sync<'c>(client: &'c odm::mongodb::Client, db: &str, version: u32) -> SchemaSync<'c> {
    let sync = SchemaSync::new(client).database(db).mode(SyncMode::Apply).stale_indexes(StaleHandling::Drop);
    if version == 1 {
        sync.model::<NoteV1>()
    } else {
        sync.model::<Note>()
    }
}

const WORKER_ENV: &str = "ODM_FLEET_WORKER";

/// Run as a child process by `two_versions_start_together_and_the_newer_one_wins`: one replica of version 1 or 2
/// of the application. Waits for the common start instant, syncs, then serves one write of its own version.
#[tokio::test]
#[ignore = "a worker process of two_versions_start_together_and_the_newer_one_wins"]
async fn fleet_worker() {
    let spec = workers::worker_spec(WORKER_ENV, "two_versions_start_together_and_the_newer_one_wins").await;
    let (client, db) = (&spec.client, spec.db.as_str());
    let version: u32 = spec.rest[0].parse().expect("version");
    let report = sync(client, db, version).await.expect("sync succeeds");
    report.require_in_sync().expect("nothing left to do");
    print!("{report}");
    let database = client.database(db);
    if version == 1 {
        Collection::<NoteV1>::new(&database).insert_one(note_v1("from v1")).await.expect("version 1 keeps serving");
    } else {
        let note = Note { id: ObjectId::new(), v: Version, title: "from v2".into(), tag: "t".into(), body: "b".into() };
        Collection::<Note>::new(&database).insert_one(note).await.expect("version 2 serves");
    }
    println!("worker done: version {version}");
}

/// The names of the note collection's indexes, sorted.
async fn index_names(db: &odm::mongodb::Database) -> Vec<String> {
    support::server::index_names(db, "fleet_note").await
}

#[tokio::test]
async fn two_versions_start_together_and_the_newer_one_wins() {
    let db = odm::testing::database("fleet").await;
    // Version 1 in production: its collection, indexes and documents.
    sync(db.client(), db.name(), 1).await.expect("v1 sync").require_in_sync().expect("v1 in sync");
    Collection::<NoteV1>::new(&db).insert_many([note_v1("a"), note_v1("b")]).await.expect("v1 documents");
    assert_eq!(index_names(&db).await, ["_id_", "idx_g", "idx_t"]);

    let mut v2_indexes: Vec<String> = Note::indexes().into_iter().map(|i| i.name).collect();
    v2_indexes.push("_id_".into());
    v2_indexes.sort();
    let rollout = odm::version::accepting_older::<Note>().expect("version 2 reads version 1");
    for round in 0..4 {
        let start = workers::start_in(1_500);
        let uri = odm::testing::server().uri();
        let children: Vec<(u32, Child)> = [1, 2, 1, 2]
            .into_iter()
            .map(|v| (v, workers::spawn("fleet::fleet_worker", WORKER_ENV, format!("{uri}|{}|{start}|{v}", db.name()))))
            .collect();
        for (version, child) in children {
            let out = child.wait_with_output().expect("worker");
            let text = support::shell::output_text(&out);
            assert!(out.status.success(), "round {round}: version {version} failed:\n{text}");
            assert!(text.contains(&format!("worker done: version {version}")), "the worker really ran:\n{text}");
            if version == 1 && round > 0 {
                assert!(text.contains("the collection is ahead"), "round {round}: v1 reports it:\n{text}");
            }
        }
        // One state after every round: the newer version's validator (still accepting version 1, whose documents
        // remain) and exactly its indexes.
        let options = support::server::collection_options(&db, "fleet_note").await;
        assert_eq!(options.get_document("validator").unwrap(), &rollout, "round {round}");
        assert_eq!(options.get_str("validationLevel").unwrap_or("strict"), "strict", "round {round}");
        assert_eq!(index_names(&db).await, v2_indexes, "round {round}");
    }
    let raw = db.collection::<Document>("fleet_note");
    assert_eq!(raw.count_documents(doc! { "_v": 1 }).await.unwrap(), 2 + 4 * 2, "every v1 write was served");
    assert_eq!(raw.count_documents(doc! { "_v": 2 }).await.unwrap(), 4 * 2);
    // The leases were given back.
    assert_eq!(db.collection::<Document>("odm_sync_lock").count_documents(doc! {}).await.unwrap(), 0);
}

#[tokio::test]
async fn versions_of_one_model_share_a_collection_but_unrelated_models_do_not() {
    let db = odm::testing::database("fleet_shared").await;
    let both = SchemaSync::new(db.client()).database(db.name()).model::<NoteV1>().model::<Note>();
    let plan = both.plan().await.expect("versions of one model");
    let created: Vec<&str> = plan.actions.iter().map(|a| a.kind()).collect();
    assert_eq!(
        created,
        ["createCollection", "createIndex", "createIndex"],
        "the newer version stands for both: {plan}"
    );
    let odm::sync::plan::Action::CreateCollection { command, .. } = &plan.actions[0] else { panic!("{plan}") };
    assert_eq!(odm::version::version_of_validator(command.get_document("validator").unwrap()), Some(2));
    let reversed = SchemaSync::new(db.client()).database(db.name()).model::<Note>().model::<NoteV1>();
    assert_eq!(reversed.plan().await.expect("either order"), plan);

    let err = SchemaSync::new(db.client())
        .database(db.name())
        .model::<Note>()
        .model::<Stranger>()
        .plan()
        .await
        .expect_err("an unrelated model");
    assert!(matches!(err, odm::Error::SharedCollection { .. }), "{err}");
}

#[tokio::test]
async fn an_older_binary_alone_reports_the_collection_ahead_and_changes_nothing() {
    let db = odm::testing::database("fleet_ahead").await;
    sync(db.client(), db.name(), 1).await.expect("v1").require_in_sync().expect("v1 in sync");
    Collection::<NoteV1>::new(&db).insert_one(note_v1("a")).await.expect("v1 document");
    sync(db.client(), db.name(), 2).await.expect("v2").require_in_sync().expect("v2 in sync");
    let before = (support::server::collection_options(&db, "fleet_note").await, index_names(&db).await);

    let report = sync(db.client(), db.name(), 1).await.expect("v1 again");
    assert!(report.is_in_sync(), "ahead is not drift: {report}");
    let kinds: Vec<&str> = report.plan.actions.iter().map(|a| a.kind()).collect();
    assert_eq!(kinds, ["collectionAhead"], "{report}");
    assert!(report.to_string().contains("version 2; this binary's model is version 1"), "{report}");
    let verify = SchemaSync::new(db.client()).database(db.name()).model::<NoteV1>().mode(SyncMode::Verify);
    verify.await.expect("verify passes: the older binary keeps serving").require_in_sync().expect("in sync");
    assert_eq!((support::server::collection_options(&db, "fleet_note").await, index_names(&db).await), before);
}
