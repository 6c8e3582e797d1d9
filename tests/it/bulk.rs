//! Typed bulk writes against a real server: every kind of operation in one call, counters kept in step, failures
//! reported per operation with Rust field names, ordered and unordered, batches split under the server's limits,
//! and nothing sent when an operation cannot be built.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Document};
use odm::{Collection, Filter, Model, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_basket")]
#[odm(index(keys = "code", unique))]
struct Basket {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "c")]
    #[odm(max_len = 16)]
    code: String,
    #[serde(rename = "it")]
    #[odm(max_items = 5, counter = "item_count")]
    items: Vec<String>,
    #[serde(rename = "ic")]
    item_count: i32,
    #[serde(rename = "n")]
    #[odm(max_len = 2000000)]
    note: String,
}

fn basket(code: &str) -> Basket {
    Basket { id: ObjectId::new(), code: code.into(), items: vec![], item_count: 0, note: String::new() }
}

async fn baskets(name: &str) -> (odm::testing::TestDatabase, Collection<Basket>) {
    support::setup::synced::<Basket>(name).await
}

#[tokio::test]
async fn every_kind_of_operation_in_one_call() {
    let (_db, coll) = baskets("bulk_kinds").await;
    let f = Basket::fields();
    let (a, b, c) = (basket("a"), basket("b"), basket("c"));
    let result = coll
        .bulk()
        .insert_all([&a, &b, &c])
        .update_one(f.id().eq(a.id), Update::new().push(f.items(), "tea".to_owned()))
        .update_many(f.code().is_in(["a", "b"]), Update::new().push(f.items(), "cup".to_owned()))
        .upsert_one(
            f.code().eq("d"),
            Update::new().push(f.items(), "pen".to_owned()).set_on_insert(f.note(), "new".to_owned()),
        )
        .replace_one(f.id().eq(c.id), Basket { note: "replaced".into(), ..c.clone() })
        .delete_one(f.id().eq(b.id))
        .await
        .expect("bulk");
    assert_eq!((result.inserted, result.matched, result.modified, result.deleted), (3, 4, 4, 1));
    assert_eq!(result.upserted.len(), 1);
    assert_eq!(result.upserted[0].0, 5, "the upsert's index in the order operations were added");
    let stored = coll.find_one(f.id().eq(a.id)).await.unwrap().unwrap();
    assert_eq!((stored.items.clone(), stored.item_count), (vec!["tea".to_owned(), "cup".to_owned()], 2), "counted");
    assert_eq!(coll.find_one(f.id().eq(c.id)).await.unwrap().unwrap().note, "replaced");
    assert!(coll.find_one(f.id().eq(b.id)).await.unwrap().is_none());
    let upserted = coll.find_one(f.code().eq("d")).await.unwrap().expect("upserted");
    assert_eq!((upserted.note.as_str(), upserted.item_count), ("new", 1));
    let empty = coll.bulk().delete_many(Filter::everything()).await.expect("delete all");
    assert_eq!(empty.deleted, 3);
}

#[tokio::test]
async fn a_failure_names_its_operation_and_field_ordered_or_not() {
    let (db, coll) = baskets("bulk_failures").await;
    let f = Basket::fields();
    // The 7th operation (index 6) breaks the validator (a code longer than 16 characters): ordered, it stops there.
    fn build(bulk: odm::bulk::Bulk<'_, Basket>) -> odm::bulk::Bulk<'_, Basket> {
        let bulk = (0..6).fold(bulk, |bulk, i| bulk.insert(basket(&format!("k{i}"))));
        bulk.insert(basket("a-code-far-too-long")).insert(basket("k7"))
    }
    let err = build(coll.bulk()).await.expect_err("the 7th fails");
    let odm::Error::Bulk(e) = &err else { panic!("{err}") };
    assert_eq!((e.failures.len(), e.not_attempted), (1, 1), "{err}");
    // What the report says was applied is what is stored. mongod applies the six operations before the failure;
    // SecantusDB applies none of an ordered insert command that fails: record which.
    let stored = coll.count(Filter::everything()).await.unwrap();
    assert_eq!(e.done.inserted, stored, "{err}");
    if db.server_info().await.unwrap().is_secantus() {
        eprintln!("recorded: the test server applied {stored} of the six operations before the failure");
    } else {
        assert_eq!(stored, 6);
    }
    assert_eq!((e.failures[0].index, e.failures[0].operation), (6, "insert"));
    assert!(matches!(&e.failures[0].error, odm::Error::Validation(_)));
    assert!(err.to_string().contains("operation 6 (insert)") && err.to_string().contains("Basket.code"), "{err}");

    // Unordered: every other operation applies; a duplicate key is reported with its code.
    coll.bulk().delete_many(Filter::everything()).await.unwrap();
    let err = build(coll.bulk().unordered()).insert(basket("k0")).await.expect_err("two fail");
    let odm::Error::Bulk(e) = &err else { panic!("{err}") };
    assert_eq!((e.done.inserted, e.not_attempted), (7, 0), "{err}");
    let failed: Vec<(usize, Option<i32>)> = e.failures.iter().map(|f| (f.index, f.error.code())).collect();
    assert_eq!(failed, [(6, Some(121)), (8, Some(11000))], "{err}");

    // An update breaking a bound is named the same way.
    let long = "x".repeat(17);
    let err = coll.bulk().update_one(f.code().eq("k1"), Update::new().set(f.code(), long)).await.unwrap_err();
    assert!(err.to_string().contains("operation 0 (update_one)") && err.to_string().contains("Basket.code"), "{err}");
}

#[tokio::test]
async fn nothing_is_sent_when_an_operation_cannot_be_built() {
    let (_db, coll) = baskets("bulk_invalid").await;
    let huge = Basket { note: "x".repeat(17 * 1024 * 1024), ..basket("huge") };
    let err = coll.bulk().insert(basket("a")).insert(&huge).insert(basket("b")).await.expect_err("too large");
    let odm::Error::Bulk(e) = &err else { panic!("{err}") };
    assert_eq!((e.failures[0].index, e.not_attempted, e.done.inserted), (1, 2, 0));
    assert!(matches!(e.failures[0].error, odm::Error::DocumentTooLarge { .. }), "{err}");
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 0, "nothing was sent");
}

#[tokio::test]
async fn large_bulks_are_split_under_the_server_s_limits() {
    let (_db, coll) = baskets("bulk_split").await;
    // 24 documents of ~1 MiB: one command would be 24 MiB, over the 16 MiB a command may be.
    let note = "n".repeat(1_000_000);
    let many: Vec<Basket> = (0..24).map(|i| Basket { note: note.clone(), ..basket(&format!("b{i}")) }).collect();
    let result = coll.bulk().insert_all(&many).await.expect("split into commands under 16 MiB");
    assert_eq!(result.inserted, 24);
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 24);
}

#[tokio::test]
async fn a_bulk_write_in_an_aborted_transaction_leaves_nothing() {
    let (db, _coll) = baskets("bulk_tx").await;
    if !support::server::runs_transactions(db.client()).await {
        return;
    }
    let result: odm::error::Result<()> = odm::Transaction::new(db.client())
        .run(|s| {
            let coll = Collection::<Basket>::new(&db).with_session(&s);
            async move {
                let done = coll.bulk().insert(basket("a")).insert(basket("b")).await?;
                assert_eq!(done.inserted, 2);
                Err(odm::transaction::abort(std::io::Error::other("changed my mind")))
            }
        })
        .await;
    assert!(result.is_err());
    let raw = db.collection::<Document>(Basket::COLLECTION);
    assert_eq!(raw.count_documents(doc! {}).await.unwrap(), 0);
}
