//! Versioned models against a real server: documents of every version the model reads come back as the current
//! type, migrated step by step; a document of a version it does not read is refused with both versions named; the
//! validator pins the current version, and accepts every version's shape while older documents remain.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Document};
use odm::{Collection, Filter, Model, SchemaSync, SyncMode, Update, Upgrade, Version};
use serde::{Deserialize, Serialize};
use support::server::live_validator;
use support::shell::mongosh;

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
        .find_one_and_update(Contact::fields().id().eq(d), Update::new().set(Contact::fields().last(), "D."))
        .after()
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
    let (_db, raw) = support::setup::created_raw::<Contact>("versions_validator").await;
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

    let report = coll.check_schema().await.expect("check");
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
    assert_eq!(coll.update_one(f.id().eq(cur), Update::new().set(f.last(), "H.")).await.unwrap().modified, 1);

    // update_many matching both: refused before anything is written, the current document untouched too.
    let err = coll.update_many(Filter::everything(), Update::new().set(f.last(), "X")).await.expect_err("older");
    assert!(matches!(&err, odm::Error::NotMigrated(n) if n.count == 1), "{err}");
    assert_eq!(stored(cur).await.get_str("l").unwrap(), "H.");
    // An upsert would insert a second copy: refused as well.
    let err = coll.update_one(f.id().eq(old), Update::new().set(f.last(), "Y")).upsert().await.expect_err("older");
    assert!(matches!(err, odm::Error::NotMigrated(_)), "{err}");
    assert_eq!(raw.count_documents(doc! {}).await.unwrap(), 2);
    // find_one_and_update on the older one: refused too.
    let err =
        coll.find_one_and_update(f.id().eq(old), Update::new().set(f.last(), "Z")).after().await.expect_err("older");
    assert!(matches!(err, odm::Error::NotMigrated(_)), "{err}");
    // A bulk write would skip the older documents silently: its typed updates are refused before sending.
    let err = coll.bulk().update_one(f.id().eq(cur), Update::new().set(f.last(), "B.")).await.expect_err("bulk");
    assert!(
        matches!(
            &err,
            odm::Error::InvalidOperation { model: "Contact", cause: odm::error::Invalid::BulkUpdateNotMigrated }
        ),
        "{err}"
    );
    assert_eq!(stored(cur).await.get_str("l").unwrap(), "H.");

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
    assert_eq!(r.modified, 2);
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
    sync().await.expect("sync").require_in_sync().expect("in sync");
    let live = support::server::collection_options(&db, Contact::COLLECTION).await;
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
    sync().await.expect("sync").require_in_sync().expect("tightened");
    assert_eq!(live_validator(&db, Contact::COLLECTION).await, Contact::validator(), "the current version alone");
    raw.insert_one(doc! { "_v": 1, "n": "A B" }).await.expect_err("version 1 is refused once none are left");
    assert!(sync().plan().await.expect("plan").is_in_sync());
}

/// A sync of `Contact` in `db`.
fn contact_sync(db: &odm::mongodb::Database) -> SchemaSync<'_> {
    SchemaSync::new(db.client()).database(db.name()).model::<Contact>().mode(SyncMode::Apply)
}

/// Every version value the rollout validator lets through is one a typed read takes: a version written as a double
/// (`Double(1)` in the shell, `1.0` from a driver), a long or a decimal is refused; an int (the shell's `1` or
/// `NumberInt(1)`) is accepted and reads back.
#[tokio::test]
async fn the_rollout_validator_accepts_only_version_values_reads_take() {
    let db = odm::testing::database("versions_key_types").await;
    let raw = db.collection::<Document>(Contact::COLLECTION);
    db.create_collection(Contact::COLLECTION).await.expect("create");
    raw.insert_one(doc! { "_id": ObjectId::new(), "n": "Ada Lovelace" }).await.expect("an older document");
    contact_sync(&db).await.expect("sync").require_in_sync().expect("rollout validator");

    for (what, bad) in [
        ("version 1 as a double", doc! { "_v": 1.0, "n": "A B" }),
        ("version 1 as a long", doc! { "_v": 1_i64, "n": "A B" }),
        ("version 2 as a double", doc! { "_v": 2.0, "f": "A", "l": "B" }),
        ("version 2 as a long", doc! { "_v": 2_i64, "f": "A", "l": "B" }),
        ("version 1 as a string", doc! { "_v": "1", "n": "A B" }),
        ("version 3 as a double", doc! { "_v": 3.0, "f": "A", "l": "B", "em": [], "ec": 0 }),
    ] {
        let err = odm::Error::from_write::<Contact>(raw.insert_one(&bad).await.expect_err(what));
        assert!(matches!(err, odm::Error::Validation(_)), "{what}: {err}");
    }
    let coll_name = Contact::COLLECTION;
    let db_name = db.name();
    let (code, out) = mongosh(&format!(
        r#"const c = db.getSiblingDB("{db_name}").getCollection("{coll_name}");
        for (const [what, d] of [
          ["Double", {{ _v: Double(1), n: "Shell Double" }}],
          ["NumberLong", {{ _v: NumberLong("1"), n: "Shell Long" }}],
          ["NumberDecimal", {{ _v: NumberDecimal("2"), f: "Shell", l: "Decimal" }}],
        ]) {{
          try {{ c.insertOne(d); print(`accepted: ${{what}}`); }} catch (e) {{ print(`refused: ${{what}}`); }}
        }}
        c.insertOne({{ _v: 1, n: "Shell Int" }});
        c.insertOne({{ _v: NumberInt(2), f: "Shell", l: "Int" }});
        print("inserted ints");"#
    ));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("accepted:"), "the shell's double, long and decimal versions are refused: {out}");
    assert_eq!(out.matches("refused:").count(), 3, "{out}");
    assert!(out.contains("inserted ints"), "{out}");

    // Everything the validator let in reads back as the current version.
    let coll = Collection::<Contact>::new(&db);
    let mut names: Vec<String> = coll
        .find(Filter::everything())
        .await
        .expect("every stored document reads")
        .into_iter()
        .map(|c| c.last)
        .collect();
    names.sort();
    assert_eq!(names, ["Int", "Int", "Lovelace"]);
}

/// A document odm cannot read keeps older documents from ever running out, so the validator would accept older
/// versions forever: sync reports it (how many, which `_id`s) in every mode, never "in sync", until it is fixed.
#[tokio::test]
async fn sync_reports_older_documents_the_model_cannot_read_instead_of_calling_the_collection_in_sync() {
    let db = odm::testing::database("versions_unreadable").await;
    let raw = db.collection::<Document>(Contact::COLLECTION);
    db.create_collection(Contact::COLLECTION).await.expect("create, no validator yet");
    let (ada, shell) = (ObjectId::new(), ObjectId::new());
    raw.insert_one(doc! { "_id": ada, "n": "Ada Lovelace" }).await.expect("an older document");
    // From the shell, with the version written as a double (as a driver writing `1.0` would).
    let (code, out) = mongosh(&format!(
        r#"db.getSiblingDB("{}").getCollection("{}").insertOne({{ _id: ObjectId("{}"), _v: Double(1), n: "Alan Turing" }});
        print("inserted");"#,
        db.name(),
        Contact::COLLECTION,
        shell.to_hex()
    ));
    assert!(code == 0 && out.contains("inserted"), "{out}");
    assert_eq!(raw.find_one(doc! { "_id": shell }).await.unwrap().unwrap().get_f64("_v").ok(), Some(1.0));
    let coll = Collection::<Contact>::new(&db);
    assert!(coll.find(Filter::everything()).await.is_err(), "a typed read of the shell's document fails");

    let unreadable = |actions: Vec<&odm::sync::plan::Action>| {
        actions
            .into_iter()
            .find_map(|a| match a {
                odm::sync::plan::Action::UnreadableDocuments { count, sample, version, .. } => {
                    Some((*count, sample.clone(), *version))
                }
                _ => None,
            })
            .expect("the unreadable document is reported")
    };
    // The first sync installs the validator that accepts every version the model reads, and reports the document.
    // (Tightened over the document it reports: asked to.)
    let report = contact_sync(&db).validator_rollout(odm::sync::ValidatorRollout::DirectAnyway).await.expect("sync");
    let remaining: Vec<&odm::sync::plan::Action> = report.remaining().map(|(a, _)| a).collect();
    assert_eq!(unreadable(remaining), (1, vec![odm::bson::Bson::ObjectId(shell)], 3), "{report}");
    let rollout = odm::version::accepting_older::<Contact>().unwrap();
    assert_eq!(live_validator(&db, Contact::COLLECTION).await, rollout);

    // Every later sync, with the validator as it wants it, still reports it: never "in sync".
    let report = contact_sync(&db).await.expect("sync");
    let err = report.require_in_sync().expect_err("not in sync while the document remains");
    assert!(err.to_string().contains("1 document(s) not at version 3"), "{err}");
    assert!(err.to_string().contains(&shell.to_hex()), "the _id is named: {err}");
    let verify = contact_sync(&db).mode(SyncMode::Verify).await;
    assert!(matches!(verify, Err(odm::Error::Drift(_))), "{verify:?}");

    // A migration stores what it reads and reports the rest; the collection still cannot tighten.
    let migrated = coll.migrate().await.expect("migrate");
    assert_eq!(migrated.migrated, 1);
    assert_eq!(migrated.failed.len(), 1, "{migrated}");
    assert_eq!(migrated.failed[0].id, odm::bson::Bson::ObjectId(shell));
    let plan = contact_sync(&db).plan().await.expect("plan");
    assert!(!plan.is_in_sync(), "{plan}");
    assert!(plan.to_string().contains("cannot tighten to version 3"), "{plan}");

    // Fixed from the shell (the version as an int), migrated, synced: tightened, in sync.
    let (code, out) = mongosh(&format!(
        r#"db.getSiblingDB("{}").getCollection("{}").updateOne({{ _id: ObjectId("{}") }}, {{ $set: {{ _v: NumberInt(1) }} }});
        print("fixed");"#,
        db.name(),
        Contact::COLLECTION,
        shell.to_hex()
    ));
    assert!(code == 0 && out.contains("fixed"), "{out}");
    assert!(coll.migrate().await.expect("migrate").is_complete());
    contact_sync(&db).await.expect("sync").require_in_sync().expect("tightened");
    assert_eq!(live_validator(&db, Contact::COLLECTION).await, Contact::validator());
}

/// A filter on a field older versions lack or store differently cannot match their documents, which reads return
/// as current values: while such documents remain, it is refused before sending, with the field and versions named,
/// instead of answering 0 until the migration has run and 1 after.
#[tokio::test]
async fn filters_on_fields_older_versions_lack_fail_while_older_documents_remain() {
    let db = odm::testing::database("versions_filters").await;
    let raw = db.collection::<Document>(Contact::COLLECTION);
    db.create_collection(Contact::COLLECTION).await.expect("create");
    let ada = ObjectId::new();
    raw.insert_one(doc! { "_id": ada, "n": "Ada Lovelace" }).await.expect("written by version 1");
    let coll = Collection::<Contact>::new(&db);
    let f = Contact::fields();
    let read = coll.find_one(f.id().eq(ada)).await.expect("read").expect("found");
    assert_eq!(read.last, "Lovelace", "read as the current version");

    let refused = |r: Result<String, odm::Error>| match r {
        Err(odm::Error::FilterNotMigrated(e)) => {
            assert_eq!(e.fields.len(), 1, "{e}");
            assert_eq!(
                (e.fields[0].0.as_str(), e.fields[0].1.as_str(), &e.fields[0].2),
                ("Contact.last", "l", &vec![1])
            );
            assert_eq!((e.id.clone(), e.version, e.current), (Some(odm::bson::Bson::ObjectId(ada)), None, 3));
            e.to_string()
        }
        other => panic!("expected FilterNotMigrated, got {other:?}"),
    };
    let last = || f.last().eq("Lovelace");
    let text = refused(coll.find(last()).await.map(|v| format!("{}", v.len())));
    assert!(text.contains("silently miss") && text.contains("nothing was sent"), "{text}");
    refused(coll.find_one(last()).await.map(|v| format!("{:?}", v.map(|c| c.id))));
    refused(coll.count(last()).await.map(|n| n.to_string()));
    refused(coll.update_many(last(), Update::new().set(f.first(), "A.")).await.map(|r| r.matched.to_string()));
    refused(coll.update_one(last(), Update::new().set(f.first(), "A.")).await.map(|r| r.matched.to_string()));
    refused(coll.delete_many(last()).await.map(|n| n.count.to_string()));
    refused(coll.find_one_and_delete(last()).await.map(|v| format!("{:?}", v.map(|c| c.id))));
    refused(coll.bulk().delete_one(f.id().eq(ada)).delete_many(last()).await.map(|r| r.deleted.to_string()));
    assert_eq!(raw.count_documents(doc! {}).await.unwrap(), 1, "nothing was deleted");
    // Keys every version stores alike are not checked.
    assert_eq!(coll.count(f.id().eq(ada)).await.expect("by _id"), 1);
    // Pinning the version states that only current documents are meant: an honest 0.
    assert_eq!(coll.count(last().and(f.v().eq(Version))).await.expect("current only"), 0);

    // Migrated (the validator still accepts older versions, and none is left): the filter finds the document.
    contact_sync(&db).await.expect("sync").require_in_sync().expect("rollout validator");
    assert!(matches!(coll.count(last()).await, Err(odm::Error::FilterNotMigrated(_))));
    assert!(coll.migrate().await.expect("migrate").is_complete());
    assert_eq!(coll.count(last()).await.expect("no older document left"), 1);
    // An older document written meanwhile (the rollout validator lets it in) is caught again.
    raw.insert_one(doc! { "_id": ObjectId::new(), "_v": 2, "f": "Grace", "l": "Hopper" }).await.expect("version 2");
    let err = coll.find(f.last().eq("Hopper")).await.expect_err("an older document remains");
    assert!(err.to_string().contains("at version 2"), "{err}");
    // Once sync tightened the validator, no older document can be written, and the filter is sent as it is.
    assert!(coll.migrate().await.expect("migrate").is_complete());
    contact_sync(&db).await.expect("sync").require_in_sync().expect("tightened");
    assert_eq!(coll.count(f.last().eq("Hopper")).await.expect("tightened"), 1);
    assert_eq!(coll.update_many(last(), Update::new().set(f.first(), "A.")).await.expect("update").modified, 1);
}

/// The exported script checks what its plan assumed right before the step that depends on it: a validator that
/// tightens to the current version alone is not installed once an older document was written after the plan was
/// made (a replica of the older release would then be refused), nor is anything changed on a collection a newer
/// release synced since.
#[tokio::test]
async fn the_exported_script_does_not_tighten_after_an_older_document_was_written() {
    let db = odm::testing::database("versions_script").await;
    let raw = db.collection::<Document>(Contact::COLLECTION);
    db.create_collection(Contact::COLLECTION).await.expect("create");
    raw.insert_one(doc! { "_id": ObjectId::new(), "_v": 2, "f": "Grace", "l": "Hopper" }).await.expect("version 2");
    contact_sync(&db).await.expect("sync").require_in_sync().expect("rollout validator");
    let rollout = odm::version::accepting_older::<Contact>().unwrap();
    let coll = Collection::<Contact>::new(&db);
    assert!(coll.migrate().await.expect("migrate").is_complete());

    // Planned once no older document remains: the script would tighten the validator.
    let plan = contact_sync(&db).plan().await.expect("plan");
    assert!(plan.to_string().contains("replace validator (version 3)"), "{plan}");
    let script = plan.to_mongosh();
    let json = plan.to_json().to_string();
    assert!(json.contains("\"noDocumentOfAnotherVersion\":true"), "{json}");

    // A replica of the older release writes a version 2 document before the DBA runs it.
    let late = ObjectId::new();
    raw.insert_one(doc! { "_id": late, "_v": 2, "f": "Alan", "l": "Turing" }).await.expect("accepted meanwhile");
    let (code, out) = mongosh(&script);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAILED:") && out.contains("1 document(s) are not at version 3"), "{out}");
    assert!(!out.contains("ok:"), "nothing ran: {out}");
    assert_eq!(live_validator(&db, Contact::COLLECTION).await, rollout, "the validator was not replaced");
    raw.insert_one(doc! { "_id": ObjectId::new(), "_v": 2, "f": "Still", "l": "Accepted" })
        .await
        .expect("the older replica's writes are still accepted");

    // A newer release synced the collection meanwhile: the script changes nothing of it either.
    let mut newer = Contact::validator();
    newer.get_document_mut("$jsonSchema").unwrap().insert("title", "version 4");
    db.run_command(doc! { "collMod": Contact::COLLECTION, "validator": newer.clone() }).await.expect("newer");
    let (code, out) = mongosh(&script);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAILED:") && out.contains("the collection is ahead"), "{out}");
    assert_eq!(live_validator(&db, Contact::COLLECTION).await, newer, "left as the newer release set it");

    // Back to the rollout, the older documents migrated: the same script tightens.
    db.run_command(doc! { "collMod": Contact::COLLECTION, "validator": rollout.clone() }).await.expect("rollout");
    raw.delete_many(doc! { "l": "Accepted" }).await.unwrap();
    assert!(coll.migrate().await.expect("migrate").is_complete());
    let (code, out) = mongosh(&script);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok: ") && out.contains("odm sync plan: done"), "{out}");
    assert_eq!(live_validator(&db, Contact::COLLECTION).await, Contact::validator(), "tightened");
    assert!(contact_sync(&db).plan().await.expect("plan").is_in_sync());
}

/// Read, change nothing, save: an older document is stored at the current version; a current one is not written.
#[tokio::test]
async fn update_changes_without_a_change_stores_an_older_document_at_the_current_version() {
    let db = odm::testing::database("versions_noop_save").await;
    let raw = db.collection::<Document>(Contact::COLLECTION);
    db.create_collection(Contact::COLLECTION).await.expect("create");
    let old = ObjectId::new();
    raw.insert_one(doc! { "_id": old, "_v": 2, "f": "Grace", "l": "Hopper" }).await.unwrap();
    let coll = Collection::<Contact>::new(&db);
    let f = Contact::fields();
    let read = coll.find_one(f.id().eq(old)).await.unwrap().unwrap();
    let written = coll.update_changes(f.id().eq(old), &read, &read).await.expect("save").expect("written");
    assert_eq!(written.modified, 1);
    let stored = raw.find_one(doc! { "_id": old }).await.unwrap().unwrap();
    assert_eq!(stored, doc! { "_id": old, "_v": 3, "f": "Grace", "l": "Hopper", "em": [], "ec": 0 });
    // Now current: an equal value writes nothing.
    assert!(coll.update_changes(f.id().eq(old), &read, &read).await.expect("save").is_none());
}
