//! Upserts (guarded updates refused, pushes creating array and counter together), pushes past `max_items` refused naming the Rust field, and `keep_last`.

use super::*;

// 7. Upserts: guarded updates are refused; pushes create array and counter together.

#[tokio::test]
async fn upserts_refuse_guards_and_create_counters() {
    let (db, coll) = support::setup::created::<Tally>("cnt_upsert").await;
    let f = Tally::fields();
    let id = ObjectId::new();

    let guarded = [
        Update::new().add_to_set(f.entries(), "a"),
        Update::new().pop_first(f.marks()),
        Update::new().push(f.marks(), 1).add_to_set(f.entries(), "a"),
    ];
    for update in guarded {
        assert!(update.has_guard());
        let err = coll.update_one(f.id().eq(id), update.clone()).upsert().await.expect_err("guarded upsert");
        assert!(invalid_operation(&err).contains("guarded"), "{err}");
        assert!(matches!(err, odm::Error::InvalidOperation { cause: Invalid::GuardedUpsert, .. }), "{err}");
        let err = coll.find_one_and_update(f.id().eq(id), update).after().upsert().await.expect_err("guarded upsert");
        assert!(invalid_operation(&err).contains("guarded"), "{err}");
    }
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 0, "nothing was inserted");

    // Pushes to both counted arrays: the inserted document has both arrays and both counters, of their types.
    let res = coll
        .update_one(f.id().eq(id), Update::new().push_each(f.entries(), ["a", "b"]).push(f.marks(), 7))
        .upsert()
        .await
        .expect("upsert inserts");
    assert_eq!(res.upserted_id, Some(id));
    let stored = read(&coll, f.id().eq(id)).await;
    assert_eq!(
        stored,
        Tally { id, entries: vec!["a".into(), "b".into()], entry_count: 2, marks: vec![7], mark_count: 1 }
    );
    let raw = support::raw::stored(&db, "shop_tally", id).await;
    assert_eq!((int32(&raw, "ec"), int64(&raw, "mc")), (2, 1), "counters created with their own types: {raw}");

    // The same upsert again updates the existing document.
    let res = coll
        .update_one(f.id().eq(id), Update::new().push(f.entries(), "c").push_each(f.marks(), [8, 9]))
        .upsert()
        .await
        .expect("upsert updates");
    assert_eq!((res.matched, res.modified, res.upserted_id), (1, 1, None));
    let raw = support::raw::stored(&db, "shop_tally", id).await;
    assert_eq!((int32(&raw, "ec"), int64(&raw, "mc")), (3, 3), "{raw}");

    // Through `find_one_and_update` too.
    let other = ObjectId::new();
    let created = coll
        .find_one_and_update(f.id().eq(other), Update::new().push(f.entries(), "z").push(f.marks(), 1))
        .after()
        .upsert()
        .await
        .expect("upsert")
        .expect("returned after");
    assert_eq!(created, Tally { id: other, entries: vec!["z".into()], entry_count: 1, marks: vec![1], mark_count: 1 });
    let raw = support::raw::stored(&db, "shop_tally", other).await;
    assert_eq!((int32(&raw, "ec"), int64(&raw, "mc")), (1, 1), "{raw}");

    // A diff's `$inc` has the counter's type as well, so a diff-based upsert creates a valid document.
    let empty = Tally { id: ObjectId::new(), entries: vec![], entry_count: 0, marks: vec![], mark_count: 0 };
    let mut grown = empty.clone();
    grown.entries.push("q".into());
    grown.entry_count = 1;
    grown.marks.extend([4, 5]);
    grown.mark_count = 2;
    let diff = Update::diff(&empty, &grown);
    assert_eq!(
        diff.clone().build().unwrap().update,
        doc! { "$inc": { "ec": 1, "mc": 2_i64 }, "$push": { "e": "q", "m": { "$each": [4, 5] } } }
    );
    coll.update_one(f.id().eq(empty.id), diff).upsert().await.expect("diff upsert");
    assert_eq!(read(&coll, f.id().eq(empty.id)).await, grown);
    let raw = support::raw::stored(&db, "shop_tally", empty.id).await;
    assert_eq!((int32(&raw, "ec"), int64(&raw, "mc")), (1, 2), "{raw}");
}

// 8. A push past `max_items` is refused, naming the Rust field.

#[tokio::test]
async fn push_past_max_items_is_refused() {
    let (_db, coll) = support::setup::created::<Review>("cnt_max").await;
    let f = Review::fields();

    // The issue's bound: 1000 voters.
    let voters: Vec<ObjectId> = (0..1000).map(|_| ObjectId::new()).collect();
    let full = review(&voters, &["a", "b", "c", "d"]);
    coll.insert_one(&full).await.expect("insert at the bound");

    let err = coll
        .update_one(f.id().eq(full.id), Update::new().add_to_set(f.voter_ids(), ObjectId::new()))
        .await
        .expect_err("1001st voter");
    assert_eq!(err.code(), Some(121), "{err}");
    let odm::Error::Validation(v) = &err else { panic!("expected a validation error, got {err:?}") };
    assert!(err.to_string().contains("voter_ids"), "{err}");
    assert_eq!(v.failures.len(), 1, "only the bound fails, the counter is in step: {err}");
    assert_eq!(v.failures[0].path, "Review.voter_ids");
    assert_eq!(v.failures[0].stored_path, "vi");
    assert_eq!(v.failures[0].rule, "maxItems");

    let err = coll.update_one(f.id().eq(full.id), Update::new().push(f.flaggers(), "e")).await.expect_err("5th flag");
    let odm::Error::Validation(v) = &err else { panic!("expected a validation error, got {err:?}") };
    assert!(err.to_string().contains("flaggers"), "{err}");
    assert_eq!(v.failures[0].path, "Review.flaggers");
    assert_eq!(v.failures[0].rule, "maxItems");

    assert_eq!(read(&coll, f.id().eq(full.id)).await, full, "the document is unchanged");
}

// 9. `keep_last`: pushes keep the newest elements.

#[tokio::test]
async fn keep_last_keeps_the_newest() {
    let (_db, coll) = support::setup::created::<Feed>("cnt_keep_last").await;
    let f = Feed::fields();
    let feed = Feed { id: ObjectId::new(), recent: Vec::new() };
    coll.insert_one(&feed).await.expect("insert");

    assert_eq!(
        Update::<Feed>::new().push(f.recent(), 1).push(f.recent(), 2).build().unwrap().update,
        doc! { "$push": { "r": { "$each": [1, 2], "$slice": -5 } } }
    );
    for n in 1..=8 {
        coll.update_one(f.id().eq(feed.id), Update::new().push(f.recent(), n)).await.expect("push");
        let stored = read(&coll, f.id().eq(feed.id)).await;
        let expected: Vec<i32> = (1..=n).skip((n as usize).saturating_sub(5)).collect();
        assert_eq!(stored.recent, expected, "after pushing {n}");
    }
    coll.update_one(f.id().eq(feed.id), Update::new().push_each(f.recent(), [9, 10, 11])).await.expect("push_each");
    assert_eq!(read(&coll, f.id().eq(feed.id)).await.recent, vec![7, 8, 9, 10, 11]);
}
