//! Revisions against the real test server: guarded `update_changes` and `replace_one` refuse stale values with
//! `Error::Conflict` and change nothing, report a missing document as missing, bump the revision exactly once per
//! write (typed updates too), and concurrent writers that retry on conflict lose no update.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Bson, Document};
use odm::error::Invalid;
use odm::{Collection, Error, Model, Update};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_cart", closed)]
struct Cart {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rv")]
    #[odm(revision)]
    revision: i64,
    #[serde(rename = "ow")]
    owner: String,
    /// Set as a whole by the diff: without the guard, concurrent writers would overwrite each other's count.
    #[serde(rename = "c")]
    count: i32,
    #[serde(rename = "e")]
    #[odm(max_items = 20)]
    entries: Vec<String>,
}

/// A revision stored as an `int`: compared and bumped as an `int`, so the validator keeps accepting it.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_ticket", closed)]
struct Ticket {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rv")]
    #[odm(revision)]
    revision: i32,
    #[serde(rename = "st")]
    status: String,
}

fn cart() -> Cart {
    Cart { id: ObjectId::new(), revision: 0, owner: "ann".into(), count: 0, entries: Vec::new() }
}

async fn carts(name: &str) -> (odm::testing::TestDatabase, Collection<Cart>) {
    support::setup::created::<Cart>(name).await
}

async fn load(coll: &Collection<Cart>, id: ObjectId) -> Cart {
    coll.find_one(Cart::fields().id().eq(id)).await.expect("read").expect("the cart exists")
}

/// The stored document as the server holds it, BSON types included.
async fn stored<M: Model>(coll: &Collection<M>, id: ObjectId) -> Document {
    let raw = coll.raw().find_one(doc! { "_id": id }).await.expect("read").expect("exists");
    Document::try_from(raw.as_ref()).expect("a document")
}

#[tokio::test]
async fn stale_update_changes_conflicts_and_changes_nothing() {
    let (_db, coll) = carts("rev_stale_diff").await;
    let c = cart();
    coll.insert_one(&c).await.expect("insert");
    let f = Cart::fields();

    // Two readers of revision 0; the first to write wins.
    let a = load(&coll, c.id).await;
    let b = load(&coll, c.id).await;
    let mut b2 = b.clone();
    b2.owner = "bob".into();
    coll.update_changes(f.id().eq(c.id), &b, &b2).await.expect("first writer").expect("a change");
    let after_b = load(&coll, c.id).await;
    assert_eq!(after_b.revision, 1);

    let mut a2 = a.clone();
    a2.owner = "cid".into();
    a2.count = 5;
    let err = coll.update_changes(f.id().eq(c.id), &a, &a2).await.expect_err("stale");
    match &err {
        Error::Conflict { model, id, expected, found } => {
            assert_eq!(*model, "Cart");
            assert_eq!(**id, Bson::ObjectId(c.id));
            assert_eq!((*expected, *found), (0, Some(1)));
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    let message = err.to_string();
    assert!(message.contains("revision 0") && message.contains("revision 1"), "{message}");
    assert!(message.contains("reload the document"), "{message}");
    // Nothing of the stale write landed.
    assert_eq!(load(&coll, c.id).await, after_b);
}

#[tokio::test]
async fn stale_replace_one_conflicts_and_changes_nothing() {
    let (db, coll) = support::setup::created::<Ticket>("rev_stale_replace").await;
    let f = Ticket::fields();
    let t = Ticket { id: ObjectId::new(), revision: 0, status: "open".into() };
    coll.insert_one(&t).await.expect("insert");

    let stale = t.clone();
    let mut fresh = t.clone();
    fresh.status = "paid".into();
    let result = coll.replace_one(f.id().eq(t.id), &fresh).await.expect("replace");
    assert_eq!(result.modified, 1);
    let doc = stored(&coll, t.id).await;
    // The replacement carries the revision plus one, stored as the field's `int`.
    assert_eq!(doc.get("rv"), Some(&Bson::Int32(1)));
    assert_eq!(doc.get_str("st").ok(), Some("paid"));

    let mut late = stale.clone();
    late.status = "cancelled".into();
    let err = coll.replace_one(f.id().eq(t.id), &late).await.expect_err("stale");
    assert!(
        matches!(&err, Error::Conflict { expected: 0, found: Some(1), id, .. } if **id == Bson::ObjectId(t.id)),
        "{err:?}"
    );
    assert_eq!(stored(&coll, t.id).await, doc, "nothing changed");

    // Based on the fresh read, it goes through: revision 2.
    let mut current = coll.find_one(f.id().eq(t.id)).await.expect("read").expect("exists");
    current.status = "cancelled".into();
    coll.replace_one(f.id().eq(t.id), &current).await.expect("replace at revision 1");
    assert_eq!(stored(&coll, t.id).await.get("rv"), Some(&Bson::Int32(2)));

    // A revision the field cannot hold once bumped is refused before sending.
    let at_max = Ticket { revision: i32::MAX, ..current };
    let err = coll.replace_one(f.id().eq(t.id), &at_max).await.expect_err("past an int");
    let past = i64::from(i32::MAX) + 1;
    assert!(
        matches!(&err, Error::InvalidOperation { model: "Ticket", cause: Invalid::RevisionNotInt { revision } } if *revision == past),
        "{err:?}"
    );
    let carts = Collection::<Cart>::new(&db);
    let err =
        carts.replace_one(Cart::fields().id().eq(t.id), &Cart { revision: i64::MAX, ..cart() }).await.unwrap_err();
    assert!(matches!(&err, Error::InvalidOperation { cause: Invalid::RevisionAtMaximum, .. }), "{err:?}");
    assert_eq!(stored(&coll, t.id).await.get("rv"), Some(&Bson::Int32(2)), "nothing was sent");
}

#[tokio::test]
async fn every_write_bumps_the_revision_exactly_once() {
    let (_db, coll) = carts("rev_bump_once").await;
    let f = Cart::fields();
    // Inserts store the revision as given.
    let mut c = cart();
    c.revision = 5;
    coll.insert_one(&c).await.expect("insert");
    assert_eq!(stored(&coll, c.id).await.get("rv"), Some(&Bson::Int64(5)));

    // A diff: one `$inc` of the revision beside the change, never a `$set` of it (even if the copy was bumped).
    let old = load(&coll, c.id).await;
    let mut new = old.clone();
    new.entries.push("x".into());
    new.revision = 42;
    coll.update_changes(f.id().eq(c.id), &old, &new).await.expect("diff").expect("a change");
    let now = load(&coll, c.id).await;
    assert_eq!((now.revision, now.entries.clone()), (6, vec!["x".to_owned()]));

    // No change: nothing is sent, the revision stays.
    assert!(coll.update_changes(f.id().eq(c.id), &now, &now).await.expect("no-op").is_none());
    assert_eq!(load(&coll, c.id).await.revision, 6);

    // A replacement: the value's revision plus one.
    let mut replaced = now.clone();
    replaced.owner = "dee".into();
    coll.replace_one(f.id().eq(c.id), &replaced).await.expect("replace");
    assert_eq!(load(&coll, c.id).await.revision, 7);

    // Typed updates bump it too, unguarded unless the filter says so.
    coll.update_one(f.id().eq(c.id), Update::new().set(f.owner(), "eve")).await.expect("update_one");
    assert_eq!(load(&coll, c.id).await.revision, 8);
    let stale_guard = f.id().eq(c.id).and(f.revision().eq(7));
    let missed = coll.update_one(stale_guard, Update::new().set(f.owner(), "fay")).await.expect("guarded");
    assert_eq!(missed.matched, 0, "the caller's own guard on the revision holds");
    let after = coll
        .find_one_and_update(f.id().eq(c.id), Update::new().inc(f.count(), 1))
        .after()
        .await
        .expect("find_one_and_update")
        .expect("found");
    assert_eq!((after.revision, after.count, after.owner.as_str()), (9, 1, "eve"));
    let many = coll.update_many(f.id().eq(c.id), Update::new().inc(f.count(), 1)).await.expect("update_many");
    assert_eq!(many.modified, 1);
    assert_eq!(load(&coll, c.id).await.revision, 10);

    // An upsert that inserts starts the revision at 1; one that updates adds one.
    let id = ObjectId::new();
    let upsert = || Update::new().set(f.owner(), "gus").set(f.count(), 0).set(f.entries(), Vec::<String>::new());
    coll.update_one(f.id().eq(id), upsert()).upsert().await.expect("upsert insert");
    assert_eq!(stored(&coll, id).await.get("rv"), Some(&Bson::Int64(1)));
    coll.update_one(f.id().eq(id), upsert()).upsert().await.expect("upsert update");
    assert_eq!(load(&coll, id).await.revision, 2);
}

#[tokio::test]
async fn a_missing_document_is_reported_missing() {
    let (_db, coll) = carts("rev_missing").await;
    let f = Cart::fields();
    let c = cart();
    let mut changed = c.clone();
    changed.owner = "bob".into();
    let err = coll.update_changes(f.id().eq(c.id), &c, &changed).await.expect_err("never inserted");
    assert!(matches!(&err, Error::NotFound { model: "Cart", id: Some(id) } if **id == Bson::ObjectId(c.id)), "{err:?}");
    assert!(err.to_string().contains("no document matches the filter"), "{err}");
    let err = coll.replace_one(f.id().eq(c.id), &changed).await.expect_err("never inserted");
    assert!(matches!(&err, Error::NotFound { id: Some(_), .. }), "{err:?}");

    // Deleted after it was read: missing, not a conflict; and nothing is inserted.
    coll.insert_one(&c).await.expect("insert");
    let read = load(&coll, c.id).await;
    coll.delete_one(f.id().eq(c.id)).await.expect("delete");
    let err = coll.update_changes(f.id().eq(c.id), &read, &changed).await.expect_err("deleted");
    assert!(matches!(err, Error::NotFound { .. }), "{err:?}");
    assert_eq!(coll.count(odm::Filter::everything()).await.expect("count"), 0);
}

/// Eight writers read the same document, each adds its own entry and counts it, and retries on conflict (reload,
/// apply again). All read before anyone writes, so seven of the first attempts conflict. No update is lost: every
/// entry is there, the count is 8, and the revision grew by exactly 8.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_retrying_on_conflict_lose_no_update() {
    const WRITERS: usize = 8;
    let (_db, coll) = carts("rev_concurrent").await;
    let mut c = cart();
    c.revision = 3;
    coll.insert_one(&c).await.expect("insert");
    let id = c.id;
    let barrier = Arc::new(tokio::sync::Barrier::new(WRITERS));
    let tasks: Vec<_> = (0..WRITERS)
        .map(|i| {
            let coll = coll.clone();
            let barrier = barrier.clone();
            tokio::spawn(async move {
                let mut attempts = 0;
                loop {
                    attempts += 1;
                    let old = load(&coll, id).await;
                    if attempts == 1 {
                        barrier.wait().await;
                    }
                    let mut new = old.clone();
                    new.entries.push(format!("writer-{i}"));
                    new.count += 1;
                    match coll.update_changes(Cart::fields().id().eq(id), &old, &new).await {
                        Ok(Some(_)) => return attempts,
                        Err(Error::Conflict { expected, found, .. }) => {
                            assert!(found.is_some_and(|f| f > expected), "the revision only grows");
                        }
                        other => panic!("writer {i}: {other:?}"),
                    }
                    assert!(attempts < 100, "writer {i} never got through");
                }
            })
        })
        .collect();
    let mut attempts = 0;
    for task in tasks {
        attempts += task.await.expect("writer");
    }
    let end = load(&coll, id).await;
    let mut entries = end.entries.clone();
    entries.sort();
    let expected: Vec<String> = (0..WRITERS).map(|i| format!("writer-{i}")).collect();
    assert_eq!(entries, expected, "every writer's entry is stored once");
    assert_eq!(end.count, WRITERS as i32, "no count was overwritten");
    assert_eq!(end.revision, 3 + WRITERS as i64, "one bump per successful write");
    assert!(attempts >= 2 * WRITERS - 1, "all read revision 3 first, so seven first attempts conflicted: {attempts}");
}
