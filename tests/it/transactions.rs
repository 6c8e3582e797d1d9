//! Sessions and transactions against a real server: an abort leaves nothing, conflicting transactions all apply
//! exactly once, a commit whose outcome is unknown is retried without running the body again, a transient error
//! runs the whole transaction again, a session reads what another connection's session wrote, and a server that
//! cannot run transactions says so at once.

use crate::support;

use futures_util::TryStreamExt;
use odm::bson::{doc, oid::ObjectId, Document};
use odm::testing::ServerInfo;
use odm::{Collection, Filter, Model, Session, Update};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::commands::client_named;
use support::server::runs_transactions;

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "bank_account", read_concern = "majority", write_concern(w = "majority"))]
struct Account {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "b")]
    balance: i64,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "bank_entry")]
struct Entry {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "a")]
    account: ObjectId,
    #[serde(rename = "m")]
    amount: i64,
}

/// The server has one `failCommand` fail point: the tests that arm it take turns.
static FAIL_POINT: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Makes the server fail the next `times` commands named `command` from clients named `app`, with `labels`; false
/// (with a note) when the server has no `failCommand` fail point (test commands off): the caller skips.
async fn fail_next(
    client: &odm::mongodb::Client,
    app: &str,
    command: &str,
    times: i32,
    code: i32,
    labels: &[&str],
) -> bool {
    let armed = client
        .database("admin")
        .run_command(doc! {
            "configureFailPoint": "failCommand",
            "mode": { "times": times },
            "data": { "failCommands": [command], "errorCode": code, "errorLabels": labels, "appName": app },
        })
        .await;
    if let Err(e) = &armed {
        eprintln!("skipped: this server has no failCommand fail point (start it with test commands on): {e}");
    }
    armed.is_ok()
}

/// An application's own reason to give up a transfer.
#[derive(Debug, PartialEq)]
struct Cancelled {
    by: String,
}

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cancelled by {}", self.by)
    }
}

impl std::error::Error for Cancelled {}

#[tokio::test]
async fn an_abort_leaves_nothing() {
    let db = odm::testing::database("tx_abort").await;
    if !runs_transactions(db.client()).await {
        return;
    }
    odm::collection::create_collection::<Account>(&db).await.unwrap();
    odm::collection::create_collection::<Entry>(&db).await.unwrap();
    let id = ObjectId::new();
    Collection::<Account>::new(&db).insert_one(Account { id, balance: 100 }).await.unwrap();

    let runs = AtomicUsize::new(0);
    let result: odm::error::Result<()> = odm::Transaction::new(db.client())
        .concerns_of::<Account>()
        .run(|s| {
            runs.fetch_add(1, Ordering::SeqCst);
            let (accounts, entries) =
                (Collection::<Account>::new(&db).with_session(&s), Collection::<Entry>::new(&db).with_session(&s));
            async move {
                let f = Account::fields();
                accounts.update_one(f.id().eq(id), Update::new().inc(f.balance(), -30)).await?;
                entries.insert_one(Entry { id: ObjectId::new(), account: id, amount: -30 }).await?;
                // Seen inside the transaction…
                assert_eq!(accounts.find_one(f.id().eq(id)).await?.unwrap().balance, 70);
                Err(odm::transaction::abort(Cancelled { by: "the customer".into() }))
            }
        })
        .await;
    // The application's own error comes back as it was given, once: an abort is never retried.
    let err = result.expect_err("aborted");
    assert_eq!(err.to_string(), "the transaction was aborted, nothing of it applied: cancelled by the customer");
    assert_eq!(err.aborted::<Cancelled>(), Some(&Cancelled { by: "the customer".into() }));
    assert!(err.aborted::<std::fmt::Error>().is_none(), "another type is not taken for it");
    assert_eq!(err.into_aborted::<Cancelled>().expect("the reason"), Cancelled { by: "the customer".into() });
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // …and gone after the abort, in both collections.
    let account = Collection::<Account>::new(&db).find_one(Account::fields().id().eq(id)).await.unwrap().unwrap();
    assert_eq!(account.balance, 100);
    assert_eq!(Collection::<Entry>::new(&db).count(Filter::everything()).await.unwrap(), 0);
}

#[tokio::test]
async fn one_operation_given_the_transactions_session_is_rolled_back_by_an_abort() {
    let db = odm::testing::database("tx_one_op").await;
    if !runs_transactions(db.client()).await {
        return;
    }
    odm::collection::create_collection::<Account>(&db).await.unwrap();
    odm::collection::create_collection::<Entry>(&db).await.unwrap();
    let (id, gone) = (ObjectId::new(), ObjectId::new());
    // Collections bound to no session: each operation below is given the transaction's.
    let (accounts, entries) = (Collection::<Account>::new(&db), Collection::<Entry>::new(&db));
    accounts.insert_many([Account { id, balance: 100 }, Account { id: gone, balance: 5 }]).await.unwrap();

    let result: odm::error::Result<()> = odm::Transaction::new(db.client())
        .concerns_of::<Account>()
        .run(|s| {
            let (accounts, entries) = (accounts.clone(), entries.clone());
            async move {
                let f = Account::fields();
                let paid = accounts.update_one(f.id().eq(id), Update::new().inc(f.balance(), -30)).session(&s).await?;
                assert_eq!(paid.modified, 1);
                let entry = Entry { id: ObjectId::new(), account: id, amount: -30 };
                assert_eq!(entries.insert_one(&entry).session(&s).await?.id, entry.id);
                let opened = accounts.update_one(f.id().eq(ObjectId::new()), Update::new().set(f.balance(), 1));
                assert!(opened.upsert().session(&s).await?.upserted_id.is_some());
                assert_eq!(accounts.delete_one(f.id().eq(gone)).session(&s).await?.count, 1);
                // Seen inside the transaction, through the session…
                assert_eq!(accounts.find_one(f.id().eq(id)).session(&s).await?.map(|a| a.balance), Some(70));
                assert_eq!(accounts.count(Filter::everything()).session(&s).await?, 2);
                assert_eq!(entries.find(Filter::everything()).session(&s).await?, vec![entry]);
                let more = accounts.find_one_and_update(f.id().eq(id), Update::new().inc(f.balance(), -1));
                assert_eq!(more.after().session(&s).await?.map(|a| a.balance), Some(69));
                let later = Entry { id: ObjectId::new(), account: id, amount: -1 };
                assert_eq!(entries.bulk().insert(&later).session(&s).await?.inserted, 1);
                Err(odm::transaction::abort(Cancelled { by: "the test".into() }))
            }
        })
        .await;
    assert!(result.expect_err("aborted").aborted::<Cancelled>().is_some());
    // …and gone after the abort: every operation ran in the transaction.
    let f = Account::fields();
    assert_eq!(accounts.find_one(f.id().eq(id)).await.unwrap().map(|a| a.balance), Some(100));
    assert_eq!(accounts.find_one(f.id().eq(gone)).await.unwrap().map(|a| a.balance), Some(5));
    assert_eq!(accounts.count(Filter::everything()).await.unwrap(), 2);
    assert_eq!(entries.count(Filter::everything()).await.unwrap(), 0);
}

#[tokio::test]
async fn concurrent_conflicting_transactions_all_apply_exactly_once() {
    let db = odm::testing::database("tx_conflicts").await;
    if !runs_transactions(db.client()).await {
        return;
    }
    odm::collection::create_collection::<Account>(&db).await.unwrap();
    odm::collection::create_collection::<Entry>(&db).await.unwrap();
    let id = ObjectId::new();
    Collection::<Account>::new(&db).insert_one(Account { id, balance: 0 }).await.unwrap();
    let runs = Arc::new(AtomicUsize::new(0));
    const WRITERS: usize = 8;
    let tasks: Vec<_> = (0..WRITERS)
        .map(|_| {
            let (db, runs) = (db.db().clone(), runs.clone());
            let client = db.client().clone();
            tokio::spawn(async move {
                odm::Transaction::new(&client)
                    .concerns_of::<Account>()
                    .run(|s| {
                        runs.fetch_add(1, Ordering::SeqCst);
                        let accounts = Collection::<Account>::new(&db).with_session(&s);
                        let entries = Collection::<Entry>::new(&db).with_session(&s);
                        async move {
                            let f = Account::fields();
                            let before = accounts.find_one(f.id().eq(id)).await?.expect("account").balance;
                            entries.insert_one(Entry { id: ObjectId::new(), account: id, amount: 1 }).await?;
                            tokio::time::sleep(Duration::from_millis(5)).await;
                            accounts.update_one(f.id().eq(id), Update::new().set(f.balance(), before + 1)).await?;
                            Ok(())
                        }
                    })
                    .await
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("task").expect("every transaction commits in the end");
    }
    let account = Collection::<Account>::new(&db).find_one(Account::fields().id().eq(id)).await.unwrap().unwrap();
    assert_eq!(account.balance, WRITERS as i64, "read-modify-write under conflicts: no lost update");
    assert_eq!(Collection::<Entry>::new(&db).count(Filter::everything()).await.unwrap(), WRITERS as u64);
    let runs = runs.load(Ordering::SeqCst);
    eprintln!("{WRITERS} transactions took {runs} runs of their bodies");
    assert!(runs >= WRITERS);
}

#[tokio::test]
async fn a_commit_with_an_unknown_outcome_is_retried_without_running_the_body_again() {
    let _turn = FAIL_POINT.lock().await;
    let client = client_named("odm-tx-commit").await;
    if !runs_transactions(&client).await {
        return;
    }
    let db = client.database(odm::testing::database("tx_commit").await.name());
    odm::collection::create_collection::<Entry>(&db).await.unwrap();
    // MaxTimeMSExpired is not retried by the driver itself; the label says the outcome is unknown.
    if !fail_next(&client, "odm-tx-commit", "commitTransaction", 2, 50, &["UnknownTransactionCommitResult"]).await {
        return;
    }
    let runs = AtomicUsize::new(0);
    let id = ObjectId::new();
    odm::Transaction::new(&client)
        .run(|s| {
            runs.fetch_add(1, Ordering::SeqCst);
            let entries = Collection::<Entry>::new(&db).with_session(&s);
            async move { entries.insert_one(Entry { id, account: id, amount: 5 }).await.map(|_| ()) }
        })
        .await
        .expect("committed on a later attempt");
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the body ran once");
    assert_eq!(Collection::<Entry>::new(&db).count(Filter::everything()).await.unwrap(), 1);
}

#[tokio::test]
async fn a_transient_error_runs_the_whole_transaction_again() {
    let _turn = FAIL_POINT.lock().await;
    let client = client_named("odm-tx-transient").await;
    if !runs_transactions(&client).await {
        return;
    }
    let db = client.database(odm::testing::database("tx_transient").await.name());
    odm::collection::create_collection::<Entry>(&db).await.unwrap();
    if !fail_next(&client, "odm-tx-transient", "insert", 1, 112, &["TransientTransactionError"]).await {
        return;
    }
    let runs = AtomicUsize::new(0);
    odm::Transaction::new(&client)
        .run(|s| {
            runs.fetch_add(1, Ordering::SeqCst);
            let entries = Collection::<Entry>::new(&db).with_session(&s);
            async move {
                let id = ObjectId::new();
                entries.insert_one(Entry { id, account: id, amount: 5 }).await.map(|_| ())
            }
        })
        .await
        .expect("committed on the second run");
    assert_eq!(runs.load(Ordering::SeqCst), 2, "the failed attempt was run again whole");
    assert_eq!(Collection::<Entry>::new(&db).count(Filter::everything()).await.unwrap(), 1, "applied once");

    // Past the time bound the last error comes back.
    assert!(fail_next(&client, "odm-tx-transient", "insert", 1000, 112, &["TransientTransactionError"]).await);
    let started = Instant::now();
    let err = odm::Transaction::new(&client)
        .timeout(Duration::from_millis(300))
        .run(|s| {
            let entries = Collection::<Entry>::new(&db).with_session(&s);
            async move {
                let id = ObjectId::new();
                entries.insert_one(Entry { id, account: id, amount: 5 }).await.map(|_| ())
            }
        })
        .await
        .expect_err("always transient");
    assert!(err.has_label("TransientTransactionError"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10));
    client.database("admin").run_command(doc! { "configureFailPoint": "failCommand", "mode": "off" }).await.unwrap();
}

#[tokio::test]
async fn a_session_reads_what_another_connection_wrote() {
    let test_db = odm::testing::database("sessions").await;
    let (writer, reader) = (client_named("odm-writer").await, client_named("odm-reader").await);
    let written = Session::start(&writer).await.unwrap();
    let accounts = Collection::<Account>::new(&writer.database(test_db.name())).with_session(&written);
    let id = ObjectId::new();
    accounts.insert_one(Account { id, balance: 7 }).await.unwrap();
    assert!(written.operation_time().await.is_some(), "the server reported the write's time");

    let read = Session::start(&reader).await.unwrap();
    read.advance_to(&written).await;
    assert!(read.operation_time().await >= written.operation_time().await);
    let secondary = odm::mongodb::options::SelectionCriteria::ReadPreference(
        odm::mongodb::options::ReadPreference::SecondaryPreferred { options: None },
    );
    let db = reader.database_with_options(
        test_db.name(),
        odm::mongodb::options::DatabaseOptions::builder().selection_criteria(secondary).build(),
    );
    let on_reader = Collection::<Account>::new(&db).with_session(&read);
    assert_eq!(on_reader.find_one(Account::fields().id().eq(id)).await.unwrap().map(|a| a.balance), Some(7));

    // A find in a session reads every batch through it (getMore in the session).
    let many: Vec<Account> = (0..250).map(|i| Account { id: ObjectId::new(), balance: i }).collect();
    accounts.insert_many(&many).await.unwrap();
    let all = on_reader.find(Account::fields().balance().gte(0)).await.unwrap();
    assert_eq!(all.len(), 251);
    let streamed: Vec<Account> =
        on_reader.find(Filter::everything()).stream().await.unwrap().try_collect().await.unwrap();
    assert_eq!(streamed.len(), 251);
}

#[tokio::test]
async fn a_server_that_cannot_run_transactions_says_so_at_once() {
    let _turn = FAIL_POINT.lock().await;
    let client = client_named("odm-tx-standalone").await;
    let server = ServerInfo::of(&client).await.expect("buildInfo and hello");
    if server.supports_transactions() {
        // A replica set runs transactions: make it answer as a standalone mongod does (IllegalOperation, "Transaction
        // numbers are only allowed on a replica set member or mongos"), when its test commands allow it.
        let armed = client
            .database("admin")
            .run_command(doc! {
                "configureFailPoint": "failCommand",
                "mode": { "times": 1000 },
                "data": { "failCommands": ["insert"], "errorCode": 20, "appName": "odm-tx-standalone" },
            })
            .await;
        if let Err(e) = armed {
            eprintln!("skipped: {server} runs transactions and cannot be made to refuse them (no failCommand: {e})");
            return;
        }
    }
    let db = client.database(odm::testing::database("tx_standalone").await.name());
    let started = Instant::now();
    let err = odm::Transaction::new(&client)
        .timeout(Duration::from_secs(30))
        .run(|s| {
            let entries = Collection::<Entry>::new(&db).with_session(&s);
            async move {
                let id = ObjectId::new();
                entries.insert_one(Entry { id, account: id, amount: 1 }).await.map(|_| ())
            }
        })
        .await
        .expect_err("no transactions on a standalone server");
    client.database("admin").run_command(doc! { "configureFailPoint": "failCommand", "mode": "off" }).await.ok();
    assert!(started.elapsed() < Duration::from_secs(10), "no hang");
    assert!(
        matches!(&err, odm::Error::Unsupported { feature: odm::error::Feature::Transactions, said } if !said.is_empty()),
        "{err:?}"
    );
    assert!(err.to_string().contains("need a replica set or a sharded cluster"), "{err}");
    assert_eq!(db.collection::<Document>("bank_entry").count_documents(doc! {}).await.unwrap(), 0);
}

/// Version 1 of a note: one text.
#[derive(odm::Embedded, Deserialize)]
struct NoteV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "t")]
    text: String,
}

impl odm::Upgrade for NoteV1 {
    type Next = Note;
    fn upgrade(self) -> Note {
        Note { id: self.id, v: odm::Version, text: self.text, words: 0 }
    }
}

/// Version 2: the text and its word count.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "crm_note", version = 2, older(NoteV1))]
struct Note {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: odm::Version<2>,
    #[serde(rename = "t")]
    text: String,
    #[serde(rename = "w")]
    words: i32,
}

#[tokio::test]
async fn every_collection_operation_runs_in_a_session() {
    let db = odm::testing::database("session_everything").await;
    if !runs_transactions(db.client()).await {
        return;
    }
    let session = Session::start(db.client()).await.unwrap();
    let accounts = Collection::<Account>::new(&db).with_session(&session);
    let f = Account::fields();
    let ids: Vec<ObjectId> = (0..5).map(|_| ObjectId::new()).collect();
    let bulk = accounts.bulk().insert_all(ids.iter().map(|&id| Account { id, balance: 1 })).await.unwrap();
    assert_eq!(bulk.inserted, 5);
    assert!(accounts.find(f.balance().eq(1)).explain().await.unwrap().returned.is_some());
    let report = accounts.check_schema().batch_size(2).await.expect("check in the session");
    assert_eq!((report.checked, report.failing), (5, 0));

    // A change stream in the session sees a write made outside it.
    let mut changes = Box::pin(accounts.watch().stream().await.expect("watch in the session"));
    let outside = Collection::<Account>::new(&db);
    let id = ObjectId::new();
    outside.insert_one(Account { id, balance: 9 }).await.unwrap();
    let event = tokio::time::timeout(Duration::from_secs(10), changes.try_next()).await.expect("an event");
    assert!(matches!(event.unwrap().unwrap().change, odm::watch::Change::Insert { .. }));
    drop(changes);

    // A migration in the session.
    let raw = db.collection::<Document>(Note::COLLECTION);
    raw.insert_many((0..7).map(|i| doc! { "_id": ObjectId::new(), "t": format!("note {i}") })).await.unwrap();
    let notes = Collection::<Note>::new(&db).with_session(&session);
    let migrated = notes.migrate().batch_size(3).await.expect("migrate in the session");
    assert_eq!(migrated.migrated, 7);
    assert_eq!(raw.count_documents(doc! { "_v": 2 }).await.unwrap(), 7);
    assert!(session.operation_time().await.is_some());
}

/// The sum of the accounts' balances, as a pipeline groups it.
#[derive(odm::Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Total {
    #[serde(rename = "t")]
    total: i64,
}

#[tokio::test]
async fn pipelines_checks_migrations_and_change_streams_run_in_the_session_given_to_them() {
    let db = odm::testing::database("session_per_op").await;
    if !runs_transactions(db.client()).await {
        return;
    }
    odm::collection::create_collection::<Account>(&db).await.unwrap();
    // Collections bound to no session: each operation below is given one.
    let accounts = Collection::<Account>::new(&db);
    accounts.insert_one(Account { id: ObjectId::new(), balance: 5 }).await.unwrap();
    let raw = db.collection::<Document>(Note::COLLECTION);
    raw.insert_many((0..3).map(|i| doc! { "_id": ObjectId::new(), "t": format!("note {i}") })).await.unwrap();
    let notes = Collection::<Note>::new(&db);

    let result: odm::error::Result<()> = odm::Transaction::new(db.client())
        .concerns_of::<Account>()
        .run(|s| {
            let (accounts, notes, raw) = (accounts.clone(), notes.clone(), raw.clone());
            async move {
                let (f, out) = (Account::fields(), odm::aggregate::fields::<Total>());
                accounts.insert_one(Account { id: ObjectId::new(), balance: 100 }).session(&s).await?;
                // The transaction's write, not committed, is summed in the session and not outside it.
                let sum = |rows: Vec<Total>| rows.first().map(|t| t.total);
                let inside = accounts.aggregate().session(&s).group(|g| g.sum(out.total(), f.balance())).await?;
                assert_eq!(sum(inside), Some(105));
                let outside = accounts.aggregate().group(|g| g.sum(out.total(), f.balance())).await?;
                assert_eq!(sum(outside), Some(5));
                // Likewise the schema checker reads it…
                assert_eq!(accounts.check_schema().session(&s).await?.checked, 2);
                assert_eq!(accounts.check_schema().await?.checked, 1);
                // …and a migration's writes are the transaction's.
                assert_eq!(notes.migrate().session(&s).batch_size(2).await?.migrated, 3);
                assert_eq!(raw.count_documents(doc! { "_v": 2 }).await.unwrap(), 0, "not committed yet");
                Err(odm::transaction::abort(Cancelled { by: "the test".into() }))
            }
        })
        .await;
    assert!(result.expect_err("aborted").aborted::<Cancelled>().is_some());
    assert_eq!(accounts.count(Filter::everything()).await.unwrap(), 1);
    assert_eq!(raw.count_documents(doc! { "_v": 2 }).await.unwrap(), 0, "the migration went with the abort");

    // A change stream opened in a session reads there: the session has seen the server's time since.
    let session = Session::start(db.client()).await.unwrap();
    assert!(session.operation_time().await.is_none());
    let mut changes = Box::pin(accounts.watch().session(&session).stream().await.expect("watch in the session"));
    assert!(session.operation_time().await.is_some());
    let id = ObjectId::new();
    accounts.insert_one(Account { id, balance: 9 }).await.unwrap();
    let event = tokio::time::timeout(Duration::from_secs(10), changes.try_next()).await.expect("an event");
    assert!(matches!(event.unwrap().unwrap().change, odm::watch::Change::Insert { .. }));
}
