//! Counted arrays inside array elements, and diffs whose grown arrays become `$push` with their counters `$inc`, so concurrent diffs both count.

use super::*;

// 5. Counted arrays inside the elements of an array.

#[tokio::test]
async fn nested_counted_arrays_stay_in_step() {
    let (db, coll) = support::setup::created::<Basket>("cnt_nested").await;
    let f = Basket::fields();
    let basket =
        Basket { id: ObjectId::new(), items: vec![item("pen", &["blue"]), item("ink", &[]), item("pad", &["a", "b"])] };
    coll.insert_one(&basket).await.expect("insert");

    // Every element: `$[]` on both the array and its counter.
    let all = Update::new().push(f.items().each().tags(), "sale");
    assert_eq!(
        all.clone().build().unwrap().update,
        doc! { "$inc": { "it.$[].tc": 1 }, "$push": { "it.$[].tg": "sale" } }
    );
    coll.update_one(f.id().eq(basket.id), all).await.expect("push to every element");
    let stored = read(&coll, f.id().eq(basket.id)).await;
    assert_eq!(
        stored.items,
        vec![item("pen", &["blue", "sale"]), item("ink", &["sale"]), item("pad", &["a", "b", "sale"])]
    );

    // One element by index, pushed to twice: one `$each`, and the nested counter's `$inc` grows in place.
    let first = Update::new().push(f.items().at(0).tags(), "new").push(f.items().at(0).tags(), "hot");
    assert_eq!(
        first.clone().build().unwrap().update,
        doc! { "$inc": { "it.0.tc": 2 }, "$push": { "it.0.tg": { "$each": ["new", "hot"] } } }
    );
    coll.update_one(f.id().eq(basket.id), first).await.expect("push to element 0");
    let stored = read(&coll, f.id().eq(basket.id)).await;
    assert_eq!(stored.items[0], item("pen", &["blue", "sale", "new", "hot"]));
    assert_eq!(stored.items[1], item("ink", &["sale"]));

    // By index the guard can name the array, so `add_to_set` and `pop` work there.
    let add = || Update::new().add_to_set(f.items().at(1).tags(), "eco");
    assert_eq!(add().build().unwrap().guard(), Some(&doc! { "it.1.tg": { "$ne": "eco" } }));
    assert_eq!(coll.update_one(f.id().eq(basket.id), add()).await.unwrap().modified, 1);
    assert_eq!(coll.update_one(f.id().eq(basket.id), add()).await.unwrap().matched, 0, "already there");
    coll.update_one(f.id().eq(basket.id), Update::new().pop_first(f.items().at(2).tags())).await.expect("pop");
    let stored = read(&coll, f.id().eq(basket.id)).await;
    assert_eq!(stored.items[1], item("ink", &["sale", "eco"]));
    assert_eq!(stored.items[2], item("pad", &["b", "sale"]));

    // The element the filter matched (`$`).
    let matched = Update::new().push(f.items().matched().tags(), "last");
    assert_eq!(
        matched.clone().build().unwrap().update,
        doc! { "$inc": { "it.$.tc": 1 }, "$push": { "it.$.tg": "last" } }
    );
    let res = coll
        .update_one(f.id().eq(basket.id).and(f.items().any(|e| e.name().eq("pad"))), matched)
        .await
        .expect("push to the matched element");
    assert_eq!(res.modified, 1);
    let stored = read(&coll, f.id().eq(basket.id)).await;
    assert_eq!(stored.items[2], item("pad", &["b", "sale", "last"]));

    // Elements selected by an array filter.
    let picked = Update::new().push(f.items().filtered("x", |e| e.name().eq("ink")).tags(), "refill");
    let built = picked.clone().build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "it.$[x].tc": 1 }, "$push": { "it.$[x].tg": "refill" } });
    assert_eq!(built.array_filters(), vec![doc! { "x.n": "ink" }]);
    coll.update_one(f.id().eq(basket.id), picked).await.expect("push to filtered elements");
    let stored = read(&coll, f.id().eq(basket.id)).await;
    assert_eq!(stored.items[1], item("ink", &["sale", "eco", "refill"]));
    assert_eq!(stored.items[0].tags.len(), 4);

    // Through a positional path the guard cannot name the right array: refused before sending.
    let before = support::raw::stored(&db, "shop_basket", basket.id).await;
    for (what, update) in [
        ("add_to_set", Update::new().add_to_set(f.items().each().tags(), "blue")),
        ("add_to_set", Update::new().add_to_set(f.items().filtered("y", |e| e.name().eq("pen")).tags(), "blue")),
        ("add_to_set", Update::new().add_to_set(f.items().matched().tags(), "blue")),
        ("pop", Update::new().pop_first(f.items().each().tags())),
        ("pop", Update::new().pop_last(f.items().matched().tags())),
    ] {
        let err = coll.update_one(f.id().eq(basket.id), update).await.expect_err("positional guard");
        let reason = invalid_operation(&err);
        assert!(reason.contains(what) && reason.contains("positional"), "{reason}");
        match &err {
            odm::Error::InvalidOperation { cause: Invalid::CountedPositional { path, operation }, .. } => {
                assert_eq!(*operation, what);
                assert!(path.stored().starts_with("it.$"), "{path:?}");
            }
            other => panic!("expected CountedPositional, got {other:?}"),
        }
    }
    assert_eq!(support::raw::stored(&db, "shop_basket", basket.id).await, before, "nothing was sent");
    let stored = read(&coll, f.id().eq(basket.id)).await;
    assert!(stored.items.iter().all(|i| i.tag_count as usize == i.tags.len()), "{stored:?}");
}

// 6. Diffs: grown arrays become `$push` and their counters `$inc`, so concurrent diffs both count.

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn diff_pushes_and_increments_concurrently() {
    let (db, coll) = support::setup::created::<Review>("cnt_diff").await;
    let f = Review::fields();
    let a = ObjectId::new();
    let base = review(&[a], &["x"]);
    coll.insert_one(&base).await.expect("insert");

    let (b, c, d) = (ObjectId::new(), ObjectId::new(), ObjectId::new());
    let mut one = base.clone();
    one.voter_ids.extend([b, c]);
    one.helpful_votes += 2;
    let mut other = base.clone();
    other.voter_ids.push(d);
    other.helpful_votes += 1;
    other.flaggers.push("y".into());
    other.flag_count += 1;

    let built = Update::diff(&base, &one).build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "hv": 2 }, "$push": { "vi": { "$each": [b, c] } } });
    assert!(built.guard().is_none());
    let built = Update::diff(&base, &other).build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "hv": 1, "fc": 1_i64 }, "$push": { "vi": d, "fl": "y" } });

    // Both from the same base, at the same time: `$set` of the counter would lose one; `$inc` keeps both.
    let (c1, c2) = (coll.clone(), coll.clone());
    let (base1, base2) = (base.clone(), base.clone());
    let t1 = tokio::spawn(async move { c1.update_changes(Review::fields().id().eq(base1.id), &base1, &one).await });
    let t2 = tokio::spawn(async move { c2.update_changes(Review::fields().id().eq(base2.id), &base2, &other).await });
    let r1 = t1.await.expect("task").expect("diff 1").expect("changed");
    let r2 = t2.await.expect("task").expect("diff 2").expect("changed");
    assert_eq!((r1.modified, r2.modified), (1, 1));

    let stored = read(&coll, f.id().eq(base.id)).await;
    assert_eq!(stored.voter_ids.len(), 4, "{stored:?}");
    assert_eq!(stored.voter_ids.iter().copied().collect::<BTreeSet<_>>(), BTreeSet::from([a, b, c, d]));
    assert_eq!(stored.voter_ids[0], a);
    assert_eq!(stored.flaggers, ["x", "y"]);
    assert_in_step(&stored);
    let raw = support::raw::stored(&db, "shop_review", base.id).await;
    assert_eq!((int32(&raw, "hv"), int64(&raw, "fc")), (4, 2), "types kept through `$inc`");

    // No change: nothing is sent.
    assert!(coll.update_changes(f.id().eq(base.id), &stored, &stored.clone()).await.unwrap().is_none());

    // A counter changed out of step with its array stays a `$set`, and the server refuses it.
    let mut wrong = stored.clone();
    wrong.helpful_votes = 9;
    assert_eq!(Update::diff(&stored, &wrong).build().unwrap().update, doc! { "$set": { "hv": 9 } });
    let err = coll.update_changes(f.id().eq(base.id), &stored, &wrong).await.expect_err("out of step");
    assert_eq!(err.code(), Some(121), "{err}");
    assert!(matches!(err, odm::Error::Validation(_)), "{err:?}");
    assert_eq!(read(&coll, f.id().eq(base.id)).await, stored, "unchanged");

    // Shrinking writes the whole array and the counter's new value (consistent, if not concurrency-safe).
    let mut fewer = stored.clone();
    fewer.voter_ids.truncate(1);
    fewer.helpful_votes = 1;
    let built = Update::diff(&stored, &fewer).build().unwrap();
    assert_eq!(built.update, doc! { "$set": { "vi": [a], "hv": 1 } });
    coll.update_changes(f.id().eq(base.id), &stored, &fewer).await.expect("shrink");
    assert_eq!(read(&coll, f.id().eq(base.id)).await, fewer);
}

#[tokio::test]
async fn diff_of_nested_counted_arrays() {
    let (_db, coll) = support::setup::created::<Basket>("cnt_diff_nested").await;
    let f = Basket::fields();
    let old = Basket { id: ObjectId::new(), items: vec![item("pen", &["blue"]), item("ink", &[])] };
    coll.insert_one(&old).await.expect("insert");

    let mut new = old.clone();
    new.items[1].tags.extend(["a".to_owned(), "b".to_owned()]);
    new.items[1].tag_count += 2;
    let built = Update::diff(&old, &new).build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "it.1.tc": 2 }, "$push": { "it.1.tg": { "$each": ["a", "b"] } } });
    coll.update_changes(f.id().eq(old.id), &old, &new).await.expect("nested diff");
    assert_eq!(read(&coll, f.id().eq(old.id)).await, new);
}
