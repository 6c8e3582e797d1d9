//! What a restore refuses: a collection holding documents (nothing lost), a document the validator refuses (named by
//! collection, `_id` and Rust field, and nothing of its collection restored), and a dump into files that exist.

use super::*;

#[tokio::test]
async fn a_restore_never_merges_into_documents() {
    let src = odm::testing::database("bk_merge").await;
    seed(&src, 30).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).database(src.name()).model::<Item>().model::<Entry>().await.expect("dump");

    // The target's log already holds a document, written by another program; its items collection is missing.
    let copy = odm::testing::database("bk_merge_copy").await;
    let theirs = doc! { "_id": "theirs", "m": "kept" };
    copy.collection::<Document>("log_app_entry").insert_one(theirs.clone()).await.expect("outside insert");
    let refused = Restore::new(copy.client(), &*out).database(src.name()).into_db(copy.name()).await;
    let error = refused.expect_err("refused");
    let text = error.to_string();
    match backup_error(error) {
        BackupError::NotEmpty { namespace } => assert_eq!(namespace, format!("{}.log_app_entry", copy.name())),
        other => panic!("expected NotEmpty, got {other}"),
    }
    assert!(text.contains("drop_existing()") && text.contains("nothing was restored"), "{text}");
    // Nothing changed: their document alone, and the other collection not created either.
    let left: Vec<Document> = copy
        .collection::<Document>("log_app_entry")
        .find(doc! {})
        .await
        .expect("find")
        .try_collect()
        .await
        .expect("read");
    assert_eq!(left, [theirs]);
    assert!(!copy.list_collection_names().await.expect("names").contains(&"shop_item".to_owned()));

    // Asked to, the restore replaces the collection with the dumped one.
    let report = Restore::new(copy.client(), &*out)
        .database(src.name())
        .into_db(copy.name())
        .drop_existing()
        .await
        .expect("restore replacing");
    let replaced: Vec<(&str, bool)> = report.collections.iter().map(|c| (c.collection.as_str(), c.replaced)).collect();
    assert_eq!(replaced, [("log_app_entry", true), ("shop_item", false)], "{report}");
    for name in ["log_app_entry", "shop_item"] {
        assert_eq!(raw_documents(&src, name).await, raw_documents(&copy, name).await, "{name}");
    }
    assert_eq!(collection_options(&src, "log_app_entry").await, collection_options(&copy, "log_app_entry").await);

    // A dump never overwrites one: the same directory again is refused before anything is written.
    let again = Dump::new(src.client(), &*out).database(src.name()).model::<Item>().await.expect_err("exists");
    let text = again.to_string();
    assert!(matches!(backup_error(again), BackupError::Exists { path } if path.ends_with("shop_item.bson")), "{text}");
    assert!(text.contains("choose an empty directory"), "{text}");
}

#[tokio::test]
async fn a_refused_document_is_named_by_collection_id_and_field() {
    let src = odm::testing::database("bk_refused").await;
    seed(&src, 20).await;
    // A document the validator refuses, written past it by another program (as before the validator existed).
    let bad_id = ObjectId::new();
    let mut bad = odm::bson::serialize_to_document(&item(999)).expect("encode");
    bad.insert("_id", bad_id);
    bad.insert("pr", "nine");
    let raw = src.collection::<Document>("shop_item");
    support::raw::insert_outside(&raw, vec![bad]).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).database(src.name()).model::<Item>().batch_size(7).await.expect("dump");

    let copy = odm::testing::database("bk_refused_copy").await;
    let error = Restore::new(copy.client(), &*out)
        .database(src.name())
        .into_db(copy.name())
        .model::<Item>()
        .batch_size(5)
        .await
        .expect_err("the validator refuses it");
    let text = error.to_string();
    let before = raw_documents(&src, "shop_item")
        .await
        .iter()
        .take_while(|d| d.get_object_id("_id").ok() != Some(bad_id))
        .count();
    let stopped = backup_error(error);
    match &stopped {
        BackupError::Stopped { namespace, restored, not_restored, .. } => {
            assert_eq!(namespace, &format!("{}.shop_item", copy.name()));
            assert!(restored.is_empty(), "{restored:?}");
            assert_eq!(not_restored, &[format!("{}.shop_item", copy.name())]);
        }
        other => panic!("expected Stopped, got {other}"),
    }
    match stopped.cause() {
        BackupError::Refused { namespace, id, restored, code, validation, .. } => {
            assert_eq!(namespace, &format!("{}.shop_item", copy.name()));
            assert_eq!(id, &Bson::ObjectId(bad_id));
            assert_eq!(*restored, before as u64, "the documents before it, in file order");
            assert_eq!(*code, 121);
            let v = validation.as_ref().expect("the validator's failures");
            assert_eq!(v.model, "Item");
            assert!(v.failures.iter().any(|f| f.path == "Item.price" && f.stored_path == "pr"), "{:?}", v.failures);
        }
        other => panic!("expected Refused, got {other}"),
    }
    assert!(
        text.contains(&bad_id.to_hex()) && text.contains("price") && text.contains("bypass_validation()"),
        "{text}"
    );
    // Nothing of the collection: not even the documents before the refused one, nor a temporary collection.
    assert!(text.contains("nothing of the collection is restored"), "{text}");
    assert!(copy.list_collection_names().await.expect("names").is_empty(), "the target is as it was: empty");

    // Asked to, the restore loads it as it was stored.
    Restore::new(copy.client(), &*out)
        .database(src.name())
        .into_db(copy.name())
        .model::<Item>()
        .drop_existing()
        .bypass_validation()
        .await
        .expect("restore bypassing the validator");
    assert_eq!(raw_documents(&src, "shop_item").await, raw_documents(&copy, "shop_item").await);
}

#[tokio::test]
async fn two_dumps_of_one_collection_are_refused() {
    let src = odm::testing::database("bk_twice").await;
    seed(&src, 5).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).database(src.name()).model::<Entry>().gzip().await.expect("dump");
    // A plain dump beside the compressed one would leave two files for one collection.
    let again = Dump::new(src.client(), &*out).database(src.name()).model::<Entry>().await.expect_err("refused");
    let gz = out.join(src.name()).join("log_app_entry.bson.gz");
    assert!(matches!(backup_error(again), BackupError::Exists { path } if path == gz));
    // Made by hand (another program copied one in), a restore will not guess which is meant.
    let dir = out.join(src.name());
    std::fs::write(dir.join("log_app_entry.bson"), b"").expect("write");
    let copy = odm::testing::database("bk_twice_copy").await;
    let error = Restore::new(copy.client(), &*out).into_db(copy.name()).await.expect_err("ambiguous");
    let text = error.to_string();
    assert!(matches!(backup_error(error), BackupError::Ambiguous { .. }), "{text}");
    assert!(text.contains("log_app_entry.bson") && text.contains("remove one"), "{text}");
    assert!(copy.list_collection_names().await.expect("names").is_empty(), "nothing restored");
}
