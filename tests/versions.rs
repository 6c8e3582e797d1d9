//! Versioned models against a real server: documents of every version the model reads come back as the current
//! type, migrated step by step; a document of a version it does not read is refused with both versions named; the
//! validator pins the current version, and accepts every version's shape while older documents remain.

mod support;

use odm::bson::{doc, oid::ObjectId, Document};
use odm::{Collection, Filter, FindAndModify, Model, SchemaSync, SyncMode, Update, Upgrade, Version};
use serde::{Deserialize, Serialize};

/// Version 1: a full name, no version key (written before the model was versioned).
#[derive(odm::Embedded, Deserialize)]
#[odm(closed)]
struct ContactV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
}

/// Version 2: the name split in two.
#[derive(odm::Embedded, Deserialize)]
#[odm(closed)]
struct ContactV2 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "f")]
    first: String,
    #[serde(rename = "l")]
    last: String,
}

impl Upgrade for ContactV1 {
    type Next = ContactV2;
    fn upgrade(self) -> ContactV2 {
        let (first, last) = self.name.split_once(' ').unwrap_or((&self.name, ""));
        ContactV2 { id: self.id, first: first.into(), last: last.into() }
    }
}

impl Upgrade for ContactV2 {
    type Next = Contact;
    fn upgrade(self) -> Contact {
        Contact { id: self.id, v: Version, first: self.first, last: self.last, emails: Vec::new(), email_count: 0 }
    }
}

/// Version 3: e-mail addresses, counted.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "crm_contact", version = 3, older(ContactV1, ContactV2), closed)]
struct Contact {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<3>,
    #[serde(rename = "f")]
    first: String,
    #[serde(rename = "l")]
    last: String,
    #[serde(rename = "em")]
    #[odm(max_items = 5, counter = "email_count")]
    emails: Vec<String>,
    #[serde(rename = "ec")]
    email_count: i32,
}

#[tokio::test]
async fn every_version_the_model_reads_comes_back_current() {
    let db = odm::testing::database("versions_read").await;
    db.create_collection(Contact::COLLECTION).await.expect("create");
    let raw = db.collection::<Document>(Contact::COLLECTION);
    let (a, b, c, d) = (ObjectId::new(), ObjectId::new(), ObjectId::new(), ObjectId::new());
    raw.insert_one(doc! { "_id": a, "n": "Ada Lovelace" }).await.expect("v1 without key");
    raw.insert_one(doc! { "_id": b, "_v": 1, "n": "Alan Turing" }).await.expect("v1");
    raw.insert_one(doc! { "_id": c, "_v": 2, "f": "Grace", "l": "Hopper" }).await.expect("v2");
    let coll = Collection::<Contact>::new(&db);
    let current = Contact {
        id: d,
        v: Version,
        first: "Edsger".into(),
        last: "Dijkstra".into(),
        emails: vec!["ewd@example.com".into()],
        email_count: 1,
    };
    coll.insert_one(&current).await.expect("v3 through odm");
    assert_eq!(raw.find_one(doc! { "_id": d }).await.unwrap().unwrap().get_i32("_v").unwrap(), 3, "odm writes v3");

    let all = coll.find(Filter::everything()).sort(Contact::fields().id().asc()).await.expect("read every version");
    let names: Vec<(&str, &str)> = all.iter().map(|c| (c.first.as_str(), c.last.as_str())).collect();
    assert_eq!(names, [("Ada", "Lovelace"), ("Alan", "Turing"), ("Grace", "Hopper"), ("Edsger", "Dijkstra")]);
    assert_eq!(all[3], current);
    let one = coll.find_one(Contact::fields().id().eq(c)).await.expect("find_one").expect("found");
    assert_eq!((one.first.as_str(), one.emails.len()), ("Grace", 0));
    let deleted = coll.find_one_and_delete(Contact::fields().id().eq(a)).await.expect("delete").expect("found");
    assert_eq!(deleted.first, "Ada", "find-and-modify reads migrate too");
    let updated = coll
        .find_one_and_update(
            Contact::fields().id().eq(d),
            Update::new().set(Contact::fields().last(), "D."),
            FindAndModify::after(),
        )
        .await
        .expect("update")
        .expect("found");
    assert_eq!(updated.last, "D.");
}

#[tokio::test]
async fn versions_the_model_does_not_read_are_refused_by_name() {
    let db = odm::testing::database("versions_refused").await;
    db.create_collection(Contact::COLLECTION).await.expect("create");
    let raw = db.collection::<Document>(Contact::COLLECTION);
    let newer = ObjectId::new();
    raw.insert_one(doc! { "_id": newer, "_v": 4, "f": "x", "l": "y", "em": [], "ec": 0, "new": true }).await.unwrap();
    let coll = Collection::<Contact>::new(&db);
    let err = coll.find_one(Contact::fields().id().eq(newer)).await.expect_err("a newer version");
    let odm::Error::Version(v) = &err else { panic!("{err}") };
    assert_eq!((v.model, v.found, v.current, v.oldest), ("Contact", 4, 3, 1));
    assert_eq!(v.id.as_ref().and_then(|i| i.as_object_id()), Some(newer));
    assert!(err.to_string().contains("newer than version 3 this release writes"), "{err}");

    raw.delete_many(doc! {}).await.unwrap();
    raw.insert_one(doc! { "_id": ObjectId::new(), "_v": 0, "n": "?" }).await.unwrap();
    let err = coll.find(Filter::everything()).await.expect_err("version 0 is not read");
    assert!(err.to_string().contains("reads versions 1 to 3"), "{err}");

    // A lenient read skips neither silently: the version error fails it, as any non-decode error.
    let read = coll.find(Filter::everything()).all_valid().await;
    assert!(matches!(read, Err(odm::Error::Version(_))), "{read:?}");
}

#[tokio::test]
async fn the_validator_pins_the_current_version() {
    let db = odm::testing::database("versions_validator").await;
    odm::create_collection::<Contact>(&db).await.expect("create");
    let raw = db.collection::<Document>(Contact::COLLECTION);
    let ok = doc! { "_id": ObjectId::new(), "_v": 3, "f": "a", "l": "b", "em": [], "ec": 0 };
    raw.insert_one(&ok).await.expect("the current version is accepted");
    for bad in [
        doc! { "_id": ObjectId::new(), "_v": 2, "f": "a", "l": "b", "em": [], "ec": 0 },
        doc! { "_id": ObjectId::new(), "f": "a", "l": "b", "em": [], "ec": 0 },
    ] {
        let err = odm::Error::from_write::<Contact>(raw.insert_one(&bad).await.expect_err("refused"));
        assert!(err.to_string().contains("Contact.v"), "the error names the version field: {err}");
    }
    assert_eq!(
        Contact::validator()
            .get_document("$jsonSchema")
            .unwrap()
            .get_document("properties")
            .unwrap()
            .get_document("_v")
            .unwrap(),
        &doc! { "bsonType": "int", "enum": [3] }
    );
}

#[tokio::test]
async fn the_schema_checker_reports_older_versions_apart_from_broken_documents() {
    let db = odm::testing::database("versions_check").await;
    db.create_collection(Contact::COLLECTION).await.expect("create");
    let raw = db.collection::<Document>(Contact::COLLECTION);
    let (v1a, v1b, v2, broken) = (ObjectId::new(), ObjectId::new(), ObjectId::new(), ObjectId::new());
    raw.insert_one(doc! { "_id": v1a, "n": "Ada Lovelace" }).await.unwrap();
    raw.insert_one(doc! { "_id": v1b, "_v": 1, "n": "Alan Turing" }).await.unwrap();
    raw.insert_one(doc! { "_id": v2, "_v": 2, "f": "Grace", "l": "Hopper" }).await.unwrap();
    raw.insert_one(doc! { "_id": broken, "_v": 3, "f": 7, "l": "x", "em": [], "ec": 0 }).await.unwrap();
    let coll = Collection::<Contact>::new(&db);
    coll.insert_one(Contact {
        id: ObjectId::new(),
        v: Version,
        first: "a".into(),
        last: "b".into(),
        emails: vec![],
        email_count: 0,
    })
    .await
    .unwrap();

    let report = coll.check_schema().run().await.expect("check");
    println!("{report}");
    assert_eq!((report.checked, report.failing, report.older), (5, 1, 3), "{report}");
    assert!(!report.is_clean());
    let older: Vec<(Option<i64>, u64)> = report
        .findings
        .iter()
        .filter(|f| f.check == odm::check::Check::OlderVersion)
        .map(|f| (f.version, f.count))
        .collect();
    assert!(older.contains(&(Some(1), 1)) && older.contains(&(Some(2), 1)) && older.contains(&(None, 1)), "{older:?}");
    // The broken current document is explained; the older ones are not explained as broken.
    let broken_findings: Vec<_> =
        report.findings.iter().filter(|f| f.check != odm::check::Check::OlderVersion).collect();
    assert!(!broken_findings.is_empty());
    assert!(broken_findings.iter().all(|f| f.sample_ids == [odm::bson::Bson::ObjectId(broken)]), "{report}");
    assert!(report.to_string().contains("3 are at older versions the model reads"), "{report}");
}

/// Typed updates never leave a document mixing two versions and never skip older documents silently: they apply to
/// current documents only, refuse (before writing) when older ones match, and `update_changes` stores an older
/// document whole at the current version.
#[tokio::test]
async fn typed_updates_never_make_hybrids_nor_skip_older_documents_silently() {
    let db = odm::testing::database("versions_updates").await;
    db.create_collection(Contact::COLLECTION).await.expect("create");
    let raw = db.collection::<Document>(Contact::COLLECTION);
    let (old, cur) = (ObjectId::new(), ObjectId::new());
    raw.insert_one(doc! { "_id": old, "_v": 1, "n": "Alan Turing" }).await.unwrap();
    let coll = Collection::<Contact>::new(&db);
    let current =
        Contact { id: cur, v: Version, first: "Grace".into(), last: "Hopper".into(), emails: vec![], email_count: 0 };
    coll.insert_one(&current).await.unwrap();
    let f = Contact::fields();
    let stored = |id| {
        let raw = raw.clone();
        async move { raw.find_one(doc! { "_id": id }).await.unwrap().unwrap() }
    };

    // update_one on the older document: refused, nothing written.
    let err = coll.update_one(f.id().eq(old), Update::new().set(f.last(), "T.")).await.expect_err("older");
    let odm::Error::NotMigrated(n) = &err else { panic!("{err}") };
    assert_eq!((n.count, n.version, n.current), (1, Some(1), 3));
    assert!(err.to_string().contains("none of them was updated"), "{err}");
    assert_eq!(stored(old).await, doc! { "_id": old, "_v": 1, "n": "Alan Turing" }, "no hybrid");
    // On the current one: applied.
    assert_eq!(coll.update_one(f.id().eq(cur), Update::new().set(f.last(), "H.")).await.unwrap().modified_count, 1);

    // update_many matching both: refused before anything is written, the current document untouched too.
    let err = coll.update_many(Filter::everything(), Update::new().set(f.last(), "X")).await.expect_err("older");
    assert!(matches!(&err, odm::Error::NotMigrated(n) if n.count == 1), "{err}");
    assert_eq!(stored(cur).await.get_str("l").unwrap(), "H.");
    // An upsert would insert a second copy: refused as well.
    let err = coll.upsert_one(f.id().eq(old), Update::new().set(f.last(), "Y")).await.expect_err("older");
    assert!(matches!(err, odm::Error::NotMigrated(_)), "{err}");
    assert_eq!(raw.count_documents(doc! {}).await.unwrap(), 2);
    // find_one_and_update on the older one: refused too.
    let err = coll
        .find_one_and_update(f.id().eq(old), Update::new().set(f.last(), "Z"), FindAndModify::after())
        .await
        .expect_err("older");
    assert!(matches!(err, odm::Error::NotMigrated(_)), "{err}");

    // update_changes: read (migrated), change, write: the document is stored whole at version 3.
    let before = coll.find_one(f.id().eq(old)).await.unwrap().unwrap();
    let mut after = before.clone();
    after.emails.push("alan@example.com".into());
    after.email_count = 1;
    coll.update_changes(f.id().eq(old), &before, &after).await.expect("migrates in the write");
    let now = stored(old).await;
    assert_eq!(now.get_i32("_v").unwrap(), 3);
    assert!(!now.contains_key("n"), "no field of version 1 is left: {now}");
    assert_eq!(coll.find_one(f.id().eq(old)).await.unwrap().unwrap(), after);
    // Now every document is current: update_many applies to both.
    let r = coll.update_many(Filter::everything(), Update::new().set(f.last(), "Q")).await.expect("all current");
    assert_eq!(r.modified_count, 2);
}

#[tokio::test]
async fn while_older_documents_remain_the_validator_accepts_each_version_then_sync_tightens_it() {
    let db = odm::testing::database("versions_rollout").await;
    let raw = db.collection::<Document>(Contact::COLLECTION);
    // Written before the model was versioned, and by version 2.
    db.create_collection(Contact::COLLECTION).await.expect("create");
    raw.insert_many([
        doc! { "_id": ObjectId::new(), "n": "Ada Lovelace" },
        doc! { "_id": ObjectId::new(), "_v": 2, "f": "Grace", "l": "Hopper" },
    ])
    .await
    .expect("older documents");
    let sync = || SchemaSync::new(db.client()).database(db.name()).model::<Contact>().mode(SyncMode::Apply);
    sync().run().await.expect("sync").require_in_sync().expect("in sync");
    let live = support::collection_options(&db, Contact::COLLECTION).await;
    let rollout = odm::version::accepting_older::<Contact>().expect("the model reads older versions");
    assert_eq!(live.get_document("validator").unwrap(), &rollout, "older documents remain: every version's shape");
    assert_eq!(odm::version::version_of_validator(&rollout), Some(3));
    assert_eq!(live.get_str("validationLevel").unwrap_or("strict"), "strict");

    for (what, ok) in [
        ("version 1, without the key", doc! { "n": "A B" }),
        ("version 1", doc! { "_v": 1, "n": "A B" }),
        ("version 2", doc! { "_v": 2, "f": "A", "l": "B" }),
        ("version 3", doc! { "_v": 3, "f": "A", "l": "B", "em": ["a@b.c"], "ec": 1 }),
    ] {
        raw.insert_one(ok).await.unwrap_or_else(|e| panic!("{what} is accepted: {e}"));
    }
    for (what, bad) in [
        ("a version 1 shape at version 2", doc! { "_v": 2, "n": "A B" }),
        ("a version 2 shape at version 1", doc! { "_v": 1, "f": "A", "l": "B" }),
        ("a version 2 shape without the key", doc! { "f": "A", "l": "B" }),
        ("a hybrid of versions 1 and 3", doc! { "_v": 3, "n": "A B", "f": "A", "l": "B", "em": [], "ec": 0 }),
        ("version 1 with a field of version 2", doc! { "_v": 1, "n": "A B", "f": "A" }),
        ("a version the model does not read", doc! { "_v": 4, "f": "A", "l": "B", "em": [], "ec": 0 }),
        ("version 3 with its counter out of step", doc! { "_v": 3, "f": "A", "l": "B", "em": ["x"], "ec": 0 }),
        ("version 3 missing a field", doc! { "_v": 3, "f": "A", "l": "B", "ec": 0 }),
    ] {
        let err = raw.insert_one(&bad).await.expect_err(what);
        let err = odm::Error::from_write::<Contact>(err);
        assert!(matches!(err, odm::Error::Validation(_)), "{what}: {err}");
        if what == "version 3 missing a field" {
            assert!(err.to_string().contains("Contact.emails"), "the current version's field is named: {err}");
        }
    }

    // Migrate every older document (read current, write whole), then sync again: the validator tightens.
    let coll = Collection::<Contact>::new(&db);
    for c in coll.find(Filter::everything()).await.expect("read every version") {
        coll.replace_one(Contact::fields().id().eq(c.id), &c).await.expect("write current");
    }
    let plan = sync().plan().await.expect("plan");
    assert!(plan.to_string().contains("replace validator (version 3)"), "{plan}");
    sync().run().await.expect("sync").require_in_sync().expect("tightened");
    let live = support::collection_options(&db, Contact::COLLECTION).await;
    assert_eq!(live.get_document("validator").unwrap(), &Contact::validator(), "the current version alone");
    raw.insert_one(doc! { "_v": 1, "n": "A B" }).await.expect_err("version 1 is refused once none are left");
    assert!(sync().plan().await.expect("plan").is_in_sync());
}
