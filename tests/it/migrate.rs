//! Batch migration against a real server: mixed versions all come back current and valid; a migration interrupted
//! after a few batches continues where it stopped and never rewrites current documents; writers changing documents
//! during the migration lose nothing and never see their change overwritten with stale data.

use crate::support;

use futures_util::TryStreamExt;
use odm::bson::{doc, oid::ObjectId, Bson, Document, RawDocumentBuf};
use odm::migrate::Guard;
use odm::progress::Progress;
use odm::{Collection, Filter, Model, Upgrade, Version};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
// Older documents go in past the validator, which only takes the current version.
use support::raw::insert_outside;

/// Version 1: a full name; `w` counts the writes an older release made (absent until its first one).
#[derive(odm::Embedded, Deserialize)]
struct ContactV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "w", default)]
    writes: i32,
}

/// Version 2: the name split in two.
#[derive(odm::Embedded, Deserialize)]
struct ContactV2 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "f")]
    first: String,
    #[serde(rename = "l")]
    last: String,
    #[serde(rename = "w", default)]
    writes: i32,
}

/// Which run of the migration is upgrading (stored in each migrated document, to tell which run wrote it).
static GENERATION: AtomicU32 = AtomicU32::new(1);

impl Upgrade for ContactV1 {
    type Next = ContactV2;
    fn upgrade(self) -> ContactV2 {
        interfere(self.id);
        let (first, last) = self.name.split_once(' ').unwrap_or((&self.name, ""));
        ContactV2 { id: self.id, first: first.into(), last: last.into(), writes: self.writes }
    }
}

impl Upgrade for ContactV2 {
    type Next = Contact;
    fn upgrade(self) -> Contact {
        Contact {
            id: self.id,
            v: Version,
            first: self.first,
            last: self.last,
            emails: Vec::new(),
            email_count: 0,
            writes: self.writes,
            generation: GENERATION.load(Ordering::SeqCst) as i32,
        }
    }
}

/// Version 3: e-mail addresses, counted; the write count and the run that migrated it (0: written current).
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
    #[serde(rename = "w")]
    writes: i32,
    #[serde(rename = "g")]
    generation: i32,
}

fn current(i: usize) -> Contact {
    Contact {
        id: ObjectId::new(),
        v: Version,
        first: format!("Cur{i}"),
        last: "Rent".into(),
        emails: vec![format!("c{i}@example.com")],
        email_count: 1,
        writes: 0,
        generation: 0,
    }
}

/// Every stored document by `_id`, raw.
async fn stored(raw: &odm::mongodb::Collection<Document>) -> HashMap<ObjectId, RawDocumentBuf> {
    let raw = raw.clone_with_type::<RawDocumentBuf>();
    let all: Vec<RawDocumentBuf> = raw.find(doc! {}).await.unwrap().try_collect().await.unwrap();
    all.into_iter().map(|d| (d.get_object_id("_id").unwrap(), d)).collect()
}

#[tokio::test]
async fn mixed_versions_are_migrated_in_batches_and_read_back_current_and_valid() {
    let (db, raw) = support::setup::created_raw::<Contact>("migrate_mixed").await;
    let mut older = Vec::new();
    for i in 0..3000 {
        older.push(match i % 3 {
            // A few strings an expression would read as a path: the guard must compare them as they are.
            0 if i < 30 => doc! { "_id": ObjectId::new(), "n": format!("$Ada{i} $$ROOT") },
            0 => doc! { "_id": ObjectId::new(), "n": format!("Ada{i} Lovelace") },
            1 => doc! { "_id": ObjectId::new(), "_v": 1, "n": format!("Alan{i} Turing"), "w": 2 },
            _ => doc! { "_id": ObjectId::new(), "_v": 2, "f": format!("Grace{i}"), "l": "Hopper" },
        });
    }
    let broken = ObjectId::new();
    older.push(doc! { "_id": broken, "_v": 1, "n": 7 });
    insert_outside(&raw, older).await;
    let coll = Collection::<Contact>::new(&db);
    coll.insert_many((0..100).map(current)).await.expect("current documents");
    let before = stored(&raw).await;

    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = seen.clone();
    let report =
        coll.migrate().batch_size(250).on_progress(move |p| sink.lock().unwrap().push(*p)).await.expect("migrate");
    println!("{report}");
    assert_eq!(report.migrated, 3000, "{report}");
    assert_eq!((report.retried, report.pending), (0, 0), "{report}");
    assert_eq!(report.failed.len(), 1, "{report}");
    assert_eq!(report.failed[0].id, Bson::ObjectId(broken));
    assert!(matches!(report.failed[0].error, odm::Error::Decode(_)), "{}", report.failed[0]);
    assert!(report.to_string().contains("1 failed"), "{report}");

    // Progress: after every batch, monotone, against the right total, ending done.
    let seen = seen.lock().unwrap().clone();
    assert!(seen.len() >= 3001 / 250, "{} calls", seen.len());
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done && w[0].elapsed <= w[1].elapsed), "{seen:?}");
    assert!(seen.iter().all(|p| p.total == 3001), "{seen:?}");
    let last = seen.last().unwrap();
    assert_eq!((last.done, last.migrated, last.failed), (3001, 3000, 1));
    assert!(last.rate() > 0.0 && last.eta() == Some(std::time::Duration::ZERO) && last.fraction() == 1.0);

    // Stored: every document current except the broken one, which is untouched; current documents not rewritten.
    assert_eq!(raw.count_documents(doc! { "_v": { "$ne": 3 } }).await.unwrap(), 1);
    let after = stored(&raw).await;
    assert_eq!(after[&broken], before[&broken]);
    let untouched = before.iter().filter(|(_, d)| d.get_i32("_v").ok() == Some(3)).count();
    assert_eq!(untouched, 100);
    assert!(before.iter().filter(|(_, d)| d.get_i32("_v").ok() == Some(3)).all(|(id, d)| after[id] == *d));
    // Only the broken document is reported: at version 1, which it does not read as, so failing (not an older
    // version to migrate), for the reason the migration gave.
    let check = coll.check_schema().await.expect("check");
    assert_eq!((check.failing, check.older), (1, 0), "{check}");
    let unreadable = check.findings.iter().find(|f| f.check == odm::check::Check::Unreadable).expect("unreadable");
    assert_eq!((unreadable.version, unreadable.count), (Some(1), 1), "{check}");
    assert_eq!(unreadable.reason.as_deref(), Some(report.failed[0].error.to_string().as_str()));
    // Read back as the upgrade steps say.
    raw.delete_one(doc! { "_id": broken }).await.unwrap();
    let all = coll.find(Filter::everything()).await.expect("read back");
    assert_eq!(all.len(), 3100);
    let ada = all.iter().find(|c| c.first == "Ada30").expect("ada");
    assert_eq!((ada.last.as_str(), ada.writes, ada.email_count), ("Lovelace", 0, 0));
    let dollar = all.iter().find(|c| c.first == "$Ada0").expect("a `$` string");
    assert_eq!(dollar.last, "$$ROOT");
    assert_eq!(all.iter().find(|c| c.first == "Alan1").expect("alan").writes, 2);
    assert_eq!(all.iter().find(|c| c.first == "Grace2").expect("grace").last, "Hopper");

    // Nothing left: a second run is a no-op.
    let again = coll.migrate().await.expect("again");
    assert_eq!((again.migrated, again.batches, again.failed.len()), (0, 0, 0), "{again}");
    assert_eq!(stored(&raw).await, {
        let mut a = after;
        a.remove(&broken);
        a
    });
}

/// The batch size is the read cursor's too: the `find` and every `getMore` the driver sends carry it, and the
/// server's replies hold that many documents (not 16 MiB worth whatever the batch).
#[tokio::test]
async fn the_batch_size_is_sent_as_the_cursors_batch_size() {
    let test_db = odm::testing::database("migrate_batch_size").await;
    let (client, recorded) = support::commands::recording_client().await;
    let db = client.database(test_db.name());
    odm::collection::create_collection::<Contact>(&db).await.expect("create");
    let raw = db.collection::<Document>(Contact::COLLECTION);
    let older: Vec<Document> =
        (0..250).map(|i| doc! { "_id": ObjectId::new(), "_v": 2, "f": format!("B{i}"), "l": "S" }).collect();
    insert_outside(&raw, older).await;
    let coll = Collection::<Contact>::new(&db);
    let report = coll.migrate().batch_size(100).await.expect("migrate");
    assert_eq!((report.migrated, report.batches), (250, 3), "{report}");

    // (command name, `batchSize` sent) and the number of documents in each reply, in order.
    type Sent = Vec<(String, Option<i64>)>;
    let cursor_command = |name: &String| ["find", "getMore"].contains(&name.as_str());
    let sent: Sent = recorded
        .started()
        .into_iter()
        .filter(|(name, _)| cursor_command(name))
        .map(|(name, command)| {
            let size = match command.get("batchSize") {
                Some(Bson::Int32(n)) => Some(i64::from(*n)),
                Some(Bson::Int64(n)) => Some(*n),
                _ => None,
            };
            (name, size)
        })
        .collect();
    let replies: Vec<usize> = recorded
        .replies()
        .iter()
        .filter(|(name, _)| cursor_command(name))
        .map(|(_, reply)| {
            let cursor = reply.get_document("cursor").expect("cursor reply");
            cursor.get_array("firstBatch").or_else(|_| cursor.get_array("nextBatch")).expect("batch").len()
        })
        .collect();
    let expected: Sent =
        [("find", Some(100)), ("getMore", Some(100)), ("getMore", Some(100))].map(|(c, n)| (c.to_owned(), n)).into();
    assert_eq!(sent, expected);
    assert_eq!(replies, [100, 100, 50]);
}

#[tokio::test]
async fn an_interrupted_migration_continues_where_it_stopped() {
    let (db, raw) = support::setup::created_raw::<Contact>("migrate_resume").await;
    let older: Vec<Document> =
        (0..2000).map(|i| doc! { "_id": ObjectId::new(), "_v": 1, "n": format!("P{i} Q{i}") }).collect();
    insert_outside(&raw, older).await;
    let coll = Collection::<Contact>::new(&db);
    coll.insert_many((0..50).map(current)).await.expect("current documents");
    let current_before: HashMap<_, _> =
        stored(&raw).await.into_iter().filter(|(_, d)| d.get_i32("_v").ok() == Some(3)).collect();

    // Run 1, dropped after its third batch (mid-flight: the future is cancelled wherever it is).
    GENERATION.store(1, Ordering::SeqCst);
    let batches = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(tokio::sync::Notify::new());
    let (b, s) = (batches.clone(), stop.clone());
    let first = coll.migrate().batch_size(200).on_progress(move |_| {
        if b.fetch_add(1, Ordering::SeqCst) + 1 == 3 {
            s.notify_one();
        }
    });
    tokio::select! {
        report = first => panic!("the migration should have been interrupted: {:?}", report.map(|r| r.to_string())),
        _ = stop.notified() => {}
    }
    // A command in flight when the future was dropped may still land: let it.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let migrated_first = raw.count_documents(doc! { "_v": 3, "g": 1 }).await.unwrap();
    assert!((600..2000).contains(&migrated_first), "{migrated_first} migrated before the interruption");
    let after_first = stored(&raw).await;
    // Interrupted, not corrupted: every document is either untouched at version 1 or fully current.
    assert!(after_first.values().all(|d| match d.get_i32("_v").unwrap() {
        1 => d.get("f").unwrap().is_none(),
        3 => d.get("n").unwrap().is_none(),
        _ => false,
    }));

    // Run 2 continues: it migrates exactly the rest and never rewrites what is current.
    GENERATION.store(2, Ordering::SeqCst);
    let totals: Arc<Mutex<Vec<u64>>> = Arc::default();
    let t = totals.clone();
    let report =
        coll.migrate().batch_size(200).on_progress(move |p| t.lock().unwrap().push(p.total)).await.expect("resume");
    println!("{report}");
    assert_eq!(report.migrated, 2000 - migrated_first, "{report}");
    assert!(report.is_complete(), "{report}");
    assert!(totals.lock().unwrap().iter().all(|t| *t == 2000 - migrated_first));
    let after_second = stored(&raw).await;
    assert_eq!(after_second.len(), 2050);
    assert!(after_second.values().all(|d| d.get_i32("_v").ok() == Some(3)));
    // Documents current before run 2 (written current, or migrated by run 1) are byte for byte as they were.
    for (id, d) in after_first.iter().filter(|(_, d)| d.get_i32("_v").ok() == Some(3)) {
        assert_eq!(&after_second[id], d, "rewritten by the second run");
    }
    for (id, d) in &current_before {
        assert_eq!(&after_second[id], d, "a current document was rewritten");
    }
    assert_eq!(raw.count_documents(doc! { "g": 1 }).await.unwrap(), migrated_first);
    assert_eq!(raw.count_documents(doc! { "g": 2 }).await.unwrap(), 2000 - migrated_first);
}

/// Documents whose upgrade makes the concurrent writer change them first (between the migration's read and its
/// write), once each: their guard must miss.
static INTERFERE: OnceLock<Mutex<Option<Interferer>>> = OnceLock::new();

/// The tests that set [`INTERFERE`] take turns.
static INTERFERING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

struct Interferer {
    targets: HashSet<ObjectId>,
    writer: mpsc::Sender<(ObjectId, mpsc::Sender<()>)>,
}

/// Called by the v1 upgrade: when `id` is a target, has the writer change it now (and waits), once.
fn interfere(id: ObjectId) {
    let Some(lock) = INTERFERE.get() else { return };
    let request = {
        let mut guard = lock.lock().unwrap();
        let Some(i) = guard.as_mut() else { return };
        if !i.targets.remove(&id) {
            return;
        }
        i.writer.clone()
    };
    let (ack, done) = mpsc::channel();
    request.send((id, ack)).expect("writer alive");
    done.recv().expect("write done");
}

/// One write as the release that wrote the document's version would make it (a new name, one more write, at the same
/// version; older releases' validators are not this one's, so they bypass it). Returns whether it wrote.
async fn write_once(raw: &odm::mongodb::Collection<Document>, id: ObjectId, k: u64) -> bool {
    let v1 = raw
        .update_one(doc! { "_id": id, "_v": 1 }, doc! { "$set": { "n": format!("W{k} X{k}") }, "$inc": { "w": 1 } })
        .bypass_document_validation(true)
        .await
        .expect("v1 write");
    if v1.matched_count == 1 {
        return true;
    }
    let split = doc! { "$set": { "f": format!("W{k}"), "l": format!("X{k}") }, "$inc": { "w": 1 } };
    let v2 = raw
        .update_one(doc! { "_id": id, "_v": 2 }, split.clone())
        .bypass_document_validation(true)
        .await
        .expect("v2 write");
    if v2.matched_count == 1 {
        return true;
    }
    raw.update_one(doc! { "_id": id, "_v": 3 }, split).await.expect("v3 write").matched_count == 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writers_lose_nothing_and_are_never_overwritten_with_stale_data() {
    let _turn = INTERFERING.lock().await;
    let (test_db, _) = support::setup::created::<Contact>("migrate_concurrent").await;
    let db = test_db.db().clone();
    // The server refuses first names "Refuse" (a rule beside the model's validator): those documents fail to migrate,
    // in the same commands as documents whose guard misses.
    let validator = doc! { "$and": [Contact::validator(), { "f": { "$ne": "Refuse" } }] };
    db.run_command(doc! { "collMod": Contact::COLLECTION, "validator": validator }).await.expect("collMod");
    let refused = |i: usize| i % 50 == 25;
    let raw = db.collection::<Document>(Contact::COLLECTION);
    let ids: Vec<ObjectId> = (0..3000).map(|_| ObjectId::new()).collect();
    let older: Vec<Document> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| match i % 2 {
            _ if refused(i) => doc! { "_id": *id, "_v": 2, "f": "Refuse", "l": format!("B{i}"), "w": 0 },
            0 => doc! { "_id": *id, "_v": 1, "n": format!("A{i} B{i}") },
            _ => doc! { "_id": *id, "_v": 2, "f": format!("A{i}"), "l": format!("B{i}"), "w": 0 },
        })
        .collect();
    insert_outside(&raw, older).await;

    // Expected state per document: (writes, last name written).
    let expected: Arc<Mutex<HashMap<ObjectId, (i32, u64)>>> = Arc::default();
    let counter = Arc::new(AtomicU64::new(1));

    // The interfering writer: its own thread and runtime, so the blocked upgrade does not starve it.
    let targets: HashSet<ObjectId> = ids.iter().step_by(2).step_by(25).copied().collect();
    let n_targets = targets.len() as u64;
    let (tx, rx) = mpsc::channel::<(ObjectId, mpsc::Sender<()>)>();
    let uri = odm::testing::server().uri().to_owned();
    let (db_name, exp, ctr) = (db.name().to_owned(), expected.clone(), counter.clone());
    let interferer = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let client = odm::mongodb::Client::with_uri_str(&uri).await.unwrap();
            let raw = client.database(&db_name).collection::<Document>(Contact::COLLECTION);
            while let Ok((id, ack)) = rx.recv() {
                let k = ctr.fetch_add(1, Ordering::SeqCst);
                assert!(write_once(&raw, id, k).await);
                let mut e = exp.lock().unwrap();
                let entry = e.entry(id).or_default();
                *entry = (entry.0 + 1, k);
                ack.send(()).unwrap();
            }
        });
    });
    *INTERFERE.get_or_init(Default::default).lock().unwrap() = Some(Interferer { targets, writer: tx });

    // A free-running writer on random documents, older or current.
    let running = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let free = {
        let (raw, ids, exp, ctr, running) =
            (raw.clone(), ids.clone(), expected.clone(), counter.clone(), running.clone());
        tokio::spawn(async move {
            let mut n = 0u64;
            let mut i = 7usize;
            while running.load(Ordering::SeqCst) {
                i = (i * 7919 + 13) % ids.len();
                if i.is_multiple_of(25) {
                    // The interfering writer's documents (one writer per document keeps the order known), and those
                    // the server refuses.
                    continue;
                }
                let id = ids[i];
                let k = ctr.fetch_add(1, Ordering::SeqCst);
                // The expected state is updated under the lock with the write, so the order of names is the order of
                // writes to the same document.
                assert!(write_once(&raw, id, k).await);
                {
                    let mut e = exp.lock().unwrap();
                    let entry = e.entry(id).or_default();
                    *entry = (entry.0 + 1, k);
                }
                n += 1;
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            n
        })
    };

    let coll = Collection::<Contact>::new(&db);
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = seen.clone();
    let report =
        coll.migrate().batch_size(300).on_progress(move |p| sink.lock().unwrap().push(*p)).await.expect("migrate");
    running.store(false, Ordering::SeqCst);
    let free_writes = free.await.unwrap();
    *INTERFERE.get().unwrap().lock().unwrap() = None;
    interferer.join().unwrap();
    println!("{report}; {free_writes} free-running writes");

    assert_eq!(report.pending, 0, "{report}");
    assert_eq!(report.failed.len(), 60, "each refused document is reported once: {report}");
    assert!(report.failed.iter().all(|f| matches!(f.error, odm::Error::Validation(_))), "{report}");
    assert!(report.retried >= n_targets, "every interfered document's guard missed: {report}");
    assert_eq!(report.migrated, 2940, "each document migrated once, from its latest content: {report}");
    assert!(free_writes > 0);
    // Progress counts each document once, retried or not.
    let seen = seen.lock().unwrap().clone();
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done), "{seen:?}");
    let last = seen.last().unwrap();
    assert_eq!((last.done, last.total, last.migrated, last.retried), (3000, 3000, 2940, report.retried), "{seen:?}");
    // Every document is current (but the refused ones, untouched) and carries every write: nothing lost, nothing
    // stale.
    assert_eq!(raw.count_documents(doc! { "_v": { "$ne": 3 } }).await.unwrap(), 60);
    assert_eq!(raw.count_documents(doc! { "_v": 2, "f": "Refuse" }).await.unwrap(), 60);
    raw.delete_many(doc! { "f": "Refuse" }).await.unwrap();
    let all = coll.find(Filter::everything()).await.expect("read back");
    let by_id: HashMap<ObjectId, &Contact> = all.iter().map(|c| (c.id, c)).collect();
    let expected = expected.lock().unwrap().clone();
    assert!(expected.len() as u64 >= n_targets);
    for (i, id) in ids.iter().enumerate().filter(|(i, _)| !refused(*i)) {
        let c = by_id[id];
        match expected.get(id) {
            Some(&(writes, k)) => {
                assert_eq!(c.writes, writes, "document {i}: a write was lost");
                assert_eq!((c.first.as_str(), c.last.as_str()), (&*format!("W{k}"), &*format!("X{k}")), "document {i}");
            }
            None => {
                assert_eq!(c.writes, 0);
                assert_eq!((c.first.clone(), c.last.clone()), (format!("A{i}"), format!("B{i}")));
            }
        }
    }
    assert!(coll.check_schema().await.expect("check").is_clean());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_version_guard_sees_every_change_the_current_release_makes() {
    let _turn = INTERFERING.lock().await;
    let (test_db, _) = support::setup::created::<Contact>("migrate_version_guard").await;
    let db = test_db.db().clone();
    let raw = db.collection::<Document>(Contact::COLLECTION);
    let ids: Vec<ObjectId> = (0..1000).map(|_| ObjectId::new()).collect();
    let older = ids.iter().enumerate().map(|(i, id)| doc! { "_id": *id, "_v": 1, "n": format!("A{i} B{i}") }).collect();
    insert_outside(&raw, older).await;

    // Between the migration's read and its write, the current release changes some documents through odm: each
    // `update_changes` on an older document stores it whole at the current version.
    let targets: HashSet<ObjectId> = ids.iter().step_by(37).copied().collect();
    let (tx, rx) = mpsc::channel::<(ObjectId, mpsc::Sender<()>)>();
    let uri = odm::testing::server().uri().to_owned();
    let db_name = db.name().to_owned();
    let writer = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let client = odm::mongodb::Client::with_uri_str(&uri).await.unwrap();
            let contacts = Collection::<Contact>::new(&client.database(&db_name));
            while let Ok((id, ack)) = rx.recv() {
                let f = Contact::fields();
                let old = contacts.find_one(f.id().eq(id)).await.unwrap().expect("the document");
                let new = Contact { last: "Changed".into(), ..old.clone() };
                contacts.update_changes(f.id().eq(id), &old, &new).await.unwrap().expect("written");
                ack.send(()).unwrap();
            }
        });
    });
    *INTERFERE.get_or_init(Default::default).lock().unwrap() =
        Some(Interferer { targets: targets.clone(), writer: tx });
    let coll = Collection::<Contact>::new(&db);
    let report = coll.migrate().guard(Guard::Version).batch_size(200).await.expect("migrate");
    *INTERFERE.get().unwrap().lock().unwrap() = None;
    writer.join().unwrap();
    println!("{report}");

    assert!(report.is_complete(), "{report}");
    // Each changed document's guard missed; read again, it was current already (the writer migrated it).
    assert_eq!(report.migrated, (ids.len() - targets.len()) as u64, "only the others migrated here: {report}");
    let all = coll.find(Filter::everything()).await.expect("read back");
    assert_eq!(all.len(), ids.len());
    for c in &all {
        let expected = if targets.contains(&c.id) { "Changed" } else { c.last.as_str() };
        assert_eq!(c.last, expected, "the current release's change is kept, not overwritten");
    }
    assert_eq!(all.iter().filter(|c| c.last == "Changed").count(), targets.len());
    assert_eq!(raw.count_documents(doc! { "_v": 3 }).await.unwrap(), ids.len() as u64);
}

/// A model without versions: nothing to migrate, said plainly.
#[derive(Model, Serialize, Deserialize, Debug)]
#[odm(collection = "crm_note")]
struct Note {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    text: String,
}

#[tokio::test]
async fn the_throttle_holds_the_rate_and_unversioned_models_are_refused() {
    let (db, raw) = support::setup::created_raw::<Contact>("migrate_throttle").await;
    let older: Vec<Document> =
        (0..300).map(|i| doc! { "_id": ObjectId::new(), "_v": 1, "n": format!("T{i} U{i}") }).collect();
    insert_outside(&raw, older).await;
    let coll = Collection::<Contact>::new(&db);
    let report =
        coll.migrate().batch_size(100).throttle(odm::migrate::Throttle::DocsPerSecond(600.0)).await.expect("migrate");
    assert_eq!(report.migrated, 300);
    // 300 documents at 600/s: at least half a second, whatever the server's speed.
    assert!(report.elapsed >= std::time::Duration::from_millis(490), "{report}");

    raw.update_many(doc! {}, doc! { "$set": { "_v": 1, "n": "A B" } }).bypass_document_validation(true).await.unwrap();
    let report = coll
        .migrate()
        .batch_size(100)
        .throttle(odm::migrate::Throttle::Pause(std::time::Duration::from_millis(200)))
        .await
        .expect("migrate");
    assert_eq!((report.migrated, report.batches), (300, 3), "{report}");
    assert!(report.elapsed >= std::time::Duration::from_millis(590), "three pauses: {report}");

    let err = Collection::<Note>::new(&db).migrate().await.expect_err("not versioned");
    assert!(matches!(err, odm::Error::NotVersioned { model: "Note" }), "{err}");
    assert_eq!(err.model(), Some("Note"));
    assert!(err.to_string().contains("Note is not a versioned model"), "{err}");
    assert!(err.to_string().contains("#[odm(version = N"), "{err}");
}
