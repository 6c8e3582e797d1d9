//! Pushes merged into one `$push $each` and one `$inc` (counter types kept), pops that never take a counter below zero, and whole arrays set with their counters.

use super::*;

// 2. Pushes: merged into one `$push $each` and one `$inc`, counter types kept.

#[tokio::test]
async fn pushes_merge_and_keep_counter_types() {
    let (db, coll) = support::setup::created::<Review>("cnt_push").await;
    let f = Review::fields();
    let first = ObjectId::new();
    let r = review(&[first], &[]);
    coll.insert_one(&r).await.expect("insert");
    let raw = support::raw::stored(&db, "shop_review", r.id).await;
    assert_eq!((int32(&raw, "hv"), int64(&raw, "fc")), (1, 0), "int and long as inserted");

    // One push: a plain `$push` value and `$inc` by one.
    let (a, b, c, d) = (ObjectId::new(), ObjectId::new(), ObjectId::new(), ObjectId::new());
    let single = Update::new().push(f.voter_ids(), a);
    assert_eq!(single.clone().build().unwrap().update, doc! { "$inc": { "hv": 1 }, "$push": { "vi": a } });
    let res = coll.update_one(f.id().eq(r.id), single).await.expect("push");
    assert_eq!(res.modified, 1);

    // Several pushes to the same arrays in one update: one `$each` per array, one `$inc` per counter.
    let merged = Update::new()
        .push(f.voter_ids(), b)
        .push_each(f.flaggers(), ["x", "y"])
        .push_each(f.voter_ids(), [c, d])
        .push(f.flaggers(), "z")
        .set(f.stars(), 2);
    let built = merged.clone().build().unwrap();
    assert_eq!(
        built.update,
        doc! {
            "$set": { "s": 2 },
            "$inc": { "hv": 3, "fc": 3_i64 },
            "$push": { "vi": { "$each": [b, c, d] }, "fl": { "$each": ["x", "y", "z"] } },
        }
    );
    assert!(built.guard().is_none(), "pushes need no guard");
    coll.update_one(f.id().eq(r.id), merged).await.expect("merged push");

    let stored = read(&coll, f.id().eq(r.id)).await;
    assert_eq!(stored.voter_ids, vec![first, a, b, c, d], "pushed in order");
    assert_eq!(stored.flaggers, ["x", "y", "z"]);
    assert_eq!(stored.stars, 2);
    assert_in_step(&stored);
    let raw = support::raw::stored(&db, "shop_review", r.id).await;
    assert_eq!(int32(&raw, "hv"), 5, "an i32 counter stays an int");
    assert_eq!(int64(&raw, "fc"), 3, "an i64 counter stays a long");

    // `push_each` of nothing pushes nothing and counts nothing.
    let empty = Update::new().push_each(f.voter_ids(), Vec::<ObjectId>::new()).set(f.stars(), 3);
    assert_eq!(empty.clone().build().unwrap().update, doc! { "$set": { "s": 3 }, "$push": { "vi": { "$each": [] } } });
    coll.update_one(f.id().eq(r.id), empty).await.expect("empty push");
    let after = read(&coll, f.id().eq(r.id)).await;
    assert_eq!((after.voter_ids.len(), after.helpful_votes, after.stars), (5, 5, 3));

    // `$position` is allowed on a counted array: the counter still follows.
    let e = ObjectId::new();
    let front = Update::new().push_with(f.voter_ids(), [e], |m| m.position(0));
    assert_eq!(
        front.clone().build().unwrap().update,
        doc! { "$inc": { "hv": 1 }, "$push": { "vi": { "$each": [e], "$position": 0 } } }
    );
    coll.update_one(f.id().eq(r.id), front).await.expect("push at front");
    let stored = read(&coll, f.id().eq(r.id)).await;
    assert_eq!(stored.voter_ids, vec![e, first, a, b, c, d]);
    assert_in_step(&stored);

    // A counted `add_to_set` followed by a push to the same array is still one `$push` and one `$inc`.
    let g = ObjectId::new();
    let built = Update::<Review>::new().add_to_set(f.voter_ids(), a).push(f.voter_ids(), g).build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "hv": 2 }, "$push": { "vi": { "$each": [a, g] } } });
    assert_eq!(built.guard(), Some(&doc! { "vi": { "$ne": a } }));
}

// 3. Pops: the counter drops with the array, never below zero.

#[tokio::test]
async fn pops_decrement_and_never_go_negative() {
    let (db, coll) = support::setup::created::<Review>("cnt_pop").await;
    let f = Review::fields();
    let (a, b, c) = (ObjectId::new(), ObjectId::new(), ObjectId::new());
    let r = review(&[a, b, c], &["x"]);
    coll.insert_one(&r).await.expect("insert");

    let built = Update::<Review>::new().pop_first(f.voter_ids()).build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "hv": -1 }, "$pop": { "vi": -1 } });
    assert_eq!(built.guard(), Some(&doc! { "vi.0": { "$exists": true } }));

    let res = coll.update_one(f.id().eq(r.id), Update::new().pop_first(f.voter_ids())).await.expect("pop first");
    assert_eq!(res.modified, 1);
    assert_eq!(read(&coll, f.id().eq(r.id)).await.voter_ids, vec![b, c]);
    coll.update_one(f.id().eq(r.id), Update::new().pop_last(f.voter_ids())).await.expect("pop last");
    let stored = read(&coll, f.id().eq(r.id)).await;
    assert_eq!((stored.voter_ids.clone(), stored.helpful_votes), (vec![b], 1));

    // Both counted arrays in one update, the long counter down to zero.
    let both = Update::new().pop_last(f.voter_ids()).pop_first(f.flaggers());
    assert_eq!(
        both.clone().build().unwrap().guard(),
        Some(&doc! { "vi.0": { "$exists": true }, "fl.0": { "$exists": true } })
    );
    let res = coll.update_one(f.id().eq(r.id), both).await.expect("pop both");
    assert_eq!(res.modified, 1);
    let raw = support::raw::stored(&db, "shop_review", r.id).await;
    assert_eq!((int32(&raw, "hv"), int64(&raw, "fc")), (0, 0), "types kept: {raw}");

    // Empty arrays: the guard does not hold, nothing matches, the counters stay at zero.
    for update in [
        Update::new().pop_first(f.voter_ids()),
        Update::new().pop_last(f.voter_ids()),
        Update::new().pop_last(f.flaggers()),
    ] {
        let res = coll.update_one(f.id().eq(r.id), update).await.expect("pop on empty");
        assert_eq!((res.matched, res.modified), (0, 0), "nothing to pop");
    }
    let stored = read(&coll, f.id().eq(r.id)).await;
    assert!(stored.voter_ids.is_empty() && stored.flaggers.is_empty());
    assert_eq!((stored.helpful_votes, stored.flag_count), (0, 0), "no negative counter");
    let raw = support::raw::stored(&db, "shop_review", r.id).await;
    assert_eq!((int32(&raw, "hv"), int64(&raw, "fc")), (0, 0));

    // A guard failing on one array holds back the whole update, so nothing drifts.
    let mixed = Update::new().push(f.voter_ids(), a).pop_first(f.flaggers());
    let res = coll.update_one(f.id().eq(r.id), mixed).await.expect("mixed");
    assert_eq!(res.matched, 0);
    assert!(read(&coll, f.id().eq(r.id)).await.voter_ids.is_empty());
}

// 4. Setting a whole counted array sets its counter.

#[tokio::test]
async fn set_whole_array_sets_counter() {
    let (db, coll) = support::setup::created::<Review>("cnt_set").await;
    let f = Review::fields();
    let r = review(&[ObjectId::new()], &["x", "y"]);
    coll.insert_one(&r).await.expect("insert");

    let voters: Vec<ObjectId> = (0..7).map(|_| ObjectId::new()).collect();
    let update = Update::new().set(f.voter_ids(), voters.clone()).set(f.flaggers(), vec!["p".to_owned()]);
    assert_eq!(
        update.clone().build().unwrap().update,
        doc! { "$set": { "vi": voters.clone(), "hv": 7, "fl": ["p"], "fc": 1_i64 } }
    );
    coll.update_one(f.id().eq(r.id), update).await.expect("set arrays");
    let stored = read(&coll, f.id().eq(r.id)).await;
    assert_eq!(stored.voter_ids, voters);
    assert_eq!(stored.flaggers, ["p"]);
    assert_in_step(&stored);
    let raw = support::raw::stored(&db, "shop_review", r.id).await;
    assert_eq!((int32(&raw, "hv"), int64(&raw, "fc")), (7, 1), "an int stays an int, a long a long");

    // Down to empty.
    let update = Update::new().set(f.voter_ids(), Vec::new()).set(f.flaggers(), Vec::new());
    coll.update_one(f.id().eq(r.id), update).await.expect("set empty");
    let raw = support::raw::stored(&db, "shop_review", r.id).await;
    assert_eq!((int32(&raw, "hv"), int64(&raw, "fc")), (0, 0));
    assert_eq!(raw.get_array("vi").unwrap().len() + raw.get_array("fl").unwrap().len(), 0);
}
