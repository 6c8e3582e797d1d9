//! Array updates ($push with its modifiers, $addToSet, $pull, $pop, positional paths), one/many/upsert, refusals before sending, find-and-modify, delete and replace.

use super::*;

#[tokio::test]
async fn push_with_position_sort_and_slice() {
    let p = apple();
    let (db, coll) = products("upd_push", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);

    // Plain push and push_each, merged into one `$each`.
    let u = Update::new().push(f.tags(), "crisp").push_each(f.tags(), ["juicy"]);
    assert_eq!(u.clone().build().unwrap().update, doc! { "$push": { "tg": { "$each": ["crisp", "juicy"] } } });
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["red", "sweet", "crisp", "juicy"]);
    // One element is sent bare.
    let u = Update::new().push(f.lines(), line("z", 1, 1));
    assert_eq!(u.clone().build().unwrap().update, doc! { "$push": { "ln": { "s": "z", "p": 1_i64, "q": 1 } } });
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.lines.last(), Some(&line("z", 1, 1)));

    // `$position`.
    coll.update_one(by_id(), Update::new().push_with(f.tags(), ["first"], |m| m.position(0))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["first", "red", "sweet", "crisp", "juicy"]);
    coll.update_one(by_id(), Update::new().push_with(f.scores(), [4], |m| m.position(-1))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [1, 5, 4, 9]);

    // `$sort` and `$slice`: keep the three highest.
    let u = Update::new().push_with(f.scores(), [7, 3], |m| m.sort_desc().slice(3));
    assert_eq!(
        u.clone().build().unwrap().update,
        doc! { "$push": { "sc": { "$each": [7, 3], "$sort": -1, "$slice": 3 } } }
    );
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [9, 7, 5]);
    // Keep the last two after an ascending sort; push nothing, just reorder and cut.
    coll.update_one(by_id(), Update::new().push_with(f.scores(), Vec::<i32>::new(), |m| m.sort_asc().slice(-2)))
        .await
        .unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [7, 9]);
    // Position plus slice: insert at the front, keep the first two.
    coll.update_one(by_id(), Update::new().push_with(f.scores(), [0], |m| m.position(0).slice(2))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [0, 7]);

    // `$sort` by a field of the elements.
    let u = Update::new().push_with(f.lines(), [line("m", 75, 3)], |m| m.sort_by(|e| e.price().desc()));
    assert_eq!(
        u.clone().build().unwrap().update,
        doc! { "$push": { "ln": { "$each": [{ "s": "m", "p": 75_i64, "q": 3 }], "$sort": { "p": -1 } } } }
    );
    coll.update_one(by_id(), u).await.unwrap();
    let skus: Vec<String> = get(&coll, p.id).await.lines.into_iter().map(|l| l.sku).collect();
    assert_eq!(skus, ["b", "m", "a", "z"]);
    coll.update_one(
        by_id(),
        Update::new().push_with(f.lines(), Vec::<Line>::new(), |m| m.sort_by(|e| e.sku().asc()).slice(2)),
    )
    .await
    .unwrap();
    assert_eq!(get(&coll, p.id).await.lines, [line("a", 50, 1), line("b", 150, 2)]);
    // Types of pushed values are the field's own.
    let stored = raw_product(&db, p.id).await;
    assert!(matches!(stored.get_array("sc").unwrap()[0], Bson::Int32(0)), "{stored}");
    assert!(matches!(stored.get_array("ln").unwrap()[0].as_document().unwrap().get("p"), Some(Bson::Int64(50))));
}

#[tokio::test]
async fn add_to_set_pull_and_pop() {
    let p = apple();
    let (db, coll) = products("upd_set_ops", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);

    // `$addToSet` is idempotent.
    let r = coll.update_one(by_id(), Update::new().add_to_set(f.tags(), "ripe")).await.unwrap();
    assert_eq!(r.modified, 1);
    let r = coll.update_one(by_id(), Update::new().add_to_set(f.tags(), "ripe")).await.unwrap();
    assert_eq!((r.matched, r.modified), (1, 0));
    let r = coll.update_one(by_id(), Update::new().add_to_set(f.tags(), "red")).await.unwrap();
    assert_eq!(r.modified, 0);
    assert_eq!(get(&coll, p.id).await.tags, ["red", "sweet", "ripe"]);
    let u = Update::new().add_each_to_set(f.tags(), ["sweet", "round", "round"]);
    assert_eq!(
        u.clone().build().unwrap().update,
        doc! { "$addToSet": { "tg": { "$each": ["sweet", "round", "round"] } } }
    );
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["red", "sweet", "ripe", "round"]);
    // Documents: equal only when the whole element is equal.
    coll.update_one(by_id(), Update::new().add_to_set(f.lines(), line("a", 50, 1))).await.unwrap();
    coll.update_one(by_id(), Update::new().add_to_set(f.lines(), line("a", 50, 2))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.lines, [line("a", 50, 1), line("b", 150, 2), line("a", 50, 2)]);

    // `$pull` of equal elements.
    coll.update_one(by_id(), Update::new().pull(f.tags(), "ripe")).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["red", "sweet", "round"]);
    coll.update_one(by_id(), Update::new().pull(f.lines(), line("a", 50, 2))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.lines, [line("a", 50, 1), line("b", 150, 2)]);
    let r = coll.update_one(by_id(), Update::new().pull(f.tags(), "absent")).await.unwrap();
    assert_eq!(r.modified, 0);

    // `$pull` by condition, on documents and on scalars.
    coll.update_one(by_id(), Update::new().set(f.scores(), vec![1, 5, 9, 5, 2])).await.unwrap();
    let u = Update::new().pull_where(f.scores(), |e| e.gte(5)).pull_where(f.lines(), |e| e.price().lt(100));
    assert_eq!(
        u.clone().build().unwrap().update,
        doc! { "$pull": { "sc": { "$gte": 5 }, "ln": { "p": { "$lt": 100_i64 } } } }
    );
    coll.update_one(by_id(), u).await.unwrap();
    let got = get(&coll, p.id).await;
    assert_eq!(got.scores, [1, 2]);
    assert_eq!(got.lines, [line("b", 150, 2)]);
    coll.update_one(by_id(), Update::new().pull_where(f.tags(), |e| e.is_in(["red", "round"]))).await.unwrap();
    assert_eq!(get(&coll, p.id).await.tags, ["sweet"]);
    // Two conditions on the element itself: one operator document.
    coll.update_one(by_id(), Update::new().set(f.scores(), vec![1, 2, 3, 4, 5])).await.unwrap();
    let u = Update::new().pull_where(f.scores(), |e| e.gt(1).and(e.lt(5)));
    assert_eq!(u.clone().build().unwrap().update, doc! { "$pull": { "sc": { "$gt": 1, "$lt": 5 } } });
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [1, 5]);
    let before = raw_product(&db, p.id).await;
    assert_refused(
        coll.update_one(by_id(), Update::new().pull_where(f.scores(), |e| e.eq(1).or(e.eq(5)))).await,
        "element itself",
    );
    assert_eq!(raw_product(&db, p.id).await, before);
    coll.update_one(by_id(), Update::new().pull_where(f.lines(), |e| e.sku().eq("b").and(e.qty().eq(2))))
        .await
        .unwrap();
    assert!(get(&coll, p.id).await.lines.is_empty());

    // `$pop`.
    coll.update_one(by_id(), Update::new().set(f.scores(), vec![1, 2, 3, 4])).await.unwrap();
    let u = Update::new().pop_first(f.scores());
    assert_eq!(u.clone().build().unwrap().update, doc! { "$pop": { "sc": -1 } });
    coll.update_one(by_id(), u).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [2, 3, 4]);
    coll.update_one(by_id(), Update::new().pop_last(f.scores())).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [2, 3]);
    // Two arrays in one update.
    coll.update_one(by_id(), Update::new().pop_last(f.scores()).pop_first(f.tags())).await.unwrap();
    let stored = raw_product(&db, p.id).await;
    assert_eq!(stored.get_array("sc").unwrap(), &vec![Bson::Int32(2)]);
    assert_eq!(stored.get_array("tg").unwrap(), &Vec::<Bson>::new());
    // Popping an empty array changes nothing.
    let r = coll.update_one(by_id(), Update::new().pop_first(f.tags())).await.unwrap();
    assert_eq!((r.matched, r.modified), (1, 0));
}

#[tokio::test]
async fn positional_updates() {
    let mut p = apple();
    p.lines = vec![line("a", 50, 1), line("b", 150, 2), line("c", 250, 3), line("d", 20, 4)];
    let mut q = banana();
    q.lines = vec![line("b", 150, 7), line("x", 500, 1)];
    let (db, coll) = products("upd_positional", &[p.clone(), q.clone()]).await;
    let f = Product::fields();

    // `$`: the element the filter matched (the filter names the array).
    let u = Update::new().set(f.lines().matched().qty(), 99).inc(f.lines().matched().price(), 1_i64);
    assert_eq!(u.clone().build().unwrap().update, doc! { "$set": { "ln.$.q": 99 }, "$inc": { "ln.$.p": 1_i64 } });
    let r = coll.update_one(f.id().eq(p.id).and(f.lines().any(|e| e.sku().eq("b"))), u).await.unwrap();
    assert_eq!(r.modified, 1);
    assert_eq!(
        get(&coll, p.id).await.lines,
        [line("a", 50, 1), line("b", 151, 99), line("c", 250, 3), line("d", 20, 4)]
    );
    assert_eq!(get(&coll, q.id).await.lines, q.lines, "the other document is untouched");
    // On scalars: the matched element itself.
    coll.update_one(f.id().eq(p.id).and(f.scores().contains(5)), Update::new().set(f.scores().matched(), 50))
        .await
        .unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [1, 50, 9]);

    // `$[]`: every element.
    let r = coll.update_one(f.id().eq(p.id), Update::new().inc(f.lines().each().qty(), 1)).await.unwrap();
    assert_eq!(r.modified, 1);
    assert_eq!(
        get(&coll, p.id).await.lines,
        [line("a", 50, 2), line("b", 151, 100), line("c", 250, 4), line("d", 20, 5)]
    );

    // `$[id]` with arrayFilters: only the selected elements change.
    let big = f.lines().filtered("big", |e| e.price().gt(100));
    assert_eq!(big.qty().key(), "ln.$[big].q");
    let u = Update::new().set(big.qty(), 0);
    let built = u.clone().build().unwrap();
    assert_eq!(built.update, doc! { "$set": { "ln.$[big].q": 0 } });
    assert_eq!(built.array_filters(), [doc! { "big.p": { "$gt": 100_i64 } }]);
    let r = coll.update_many(Filter::everything(), u).await.unwrap();
    assert_eq!((r.matched, r.modified), (2, 2));
    assert_eq!(
        get(&coll, p.id).await.lines,
        [line("a", 50, 2), line("b", 151, 0), line("c", 250, 0), line("d", 20, 5)]
    );
    assert_eq!(get(&coll, q.id).await.lines, [line("b", 150, 0), line("x", 500, 0)]);

    // Two identifiers in one update, and one identifier used by two paths.
    let cheap = f.lines().filtered("cheap", |e| e.price().lt(30).and(e.sku().ne("zz")));
    let pricey = f.lines().filtered("pricey", |e| e.price().gte(250));
    let u = Update::new().set(cheap.sku(), "cheap").inc(cheap.qty(), 10).set(pricey.sku(), "pricey");
    let built = u.clone().build().unwrap();
    assert_eq!(built.array_filters().len(), 2, "{built:?}");
    coll.update_one(f.id().eq(p.id), u).await.unwrap();
    assert_eq!(
        get(&coll, p.id).await.lines,
        [line("a", 50, 2), line("b", 151, 0), line("pricey", 250, 0), line("cheap", 20, 15)]
    );
    // Scalars with an array filter.
    coll.update_one(f.id().eq(p.id), Update::new().set(f.scores(), vec![1, 8, 3, 9])).await.unwrap();
    coll.update_one(f.id().eq(p.id), Update::new().mul(f.scores().filtered("odd", |e| e.lt(5)), 100)).await.unwrap();
    assert_eq!(get(&coll, p.id).await.scores, [100, 8, 300, 9]);

    // Refused before sending: a bad identifier, one identifier with two conditions.
    let before = raw_product(&db, p.id).await;
    let bad = f.lines().filtered("Big", |e| e.price().gt(1));
    assert_refused(coll.update_one(f.id().eq(p.id), Update::new().set(bad.qty(), 1)).await, "identifier");
    let bad = f.lines().filtered("x-1", |e| e.price().gt(1));
    assert_refused(coll.update_one(f.id().eq(p.id), Update::new().set(bad.qty(), 1)).await, "identifier");
    let one = f.lines().filtered("k", |e| e.price().gt(1));
    let other = f.lines().filtered("k", |e| e.price().gt(2));
    assert_refused(
        coll.update_one(f.id().eq(p.id), Update::new().set(one.qty(), 1).set(other.sku(), "k")).await,
        "two different conditions",
    );
    assert_eq!(raw_product(&db, p.id).await, before, "nothing was sent");
}

#[tokio::test]
async fn update_one_many_and_upsert() {
    let (_db, coll) = seeded("upd_counts").await;
    let f = Product::fields();

    let r = coll.update_one(f.category().eq("fruit"), Update::new().inc(f.stock(), 1)).await.unwrap();
    assert_eq!((r.matched, r.modified), (1, 1));
    assert_eq!(coll.count(f.stock().is_in([11, 1])).await.unwrap(), 1);
    let r = coll.update_many(f.category().eq("fruit"), Update::new().inc(f.stock(), 1)).await.unwrap();
    assert_eq!((r.matched, r.modified), (2, 2));
    let r = coll.update_many(Filter::everything(), Update::new().set(f.category(), "fruit")).await.unwrap();
    assert_eq!((r.matched, r.modified), (4, 2), "two were fruit already");
    let r = coll.update_many(f.name().eq("nothing"), Update::new().set(f.stock(), 1)).await.unwrap();
    assert_eq!((r.matched, r.modified), (0, 0));
    assert!(r.upserted_id.is_none());
    assert_eq!(coll.count(f.category().eq("fruit")).await.unwrap(), 4);

    // Upserts: the first inserts from the filter's equalities, `$setOnInsert` and the update.
    let (db, tallies) = support::setup::created::<Tally>("upd_upsert").await;
    let t = Tally::fields();
    let upsert = |first: &str, last: &str| {
        Update::new().inc(t.hits(), 1).set(t.last(), last.to_owned()).set_on_insert(t.first(), first.to_owned())
    };
    let r = tallies.update_one(t.key().eq("home"), upsert("a", "b")).upsert().await.unwrap();
    assert_eq!((r.matched, r.modified), (0, 0));
    let Some(id) = r.upserted_id else { panic!("expected an upserted ObjectId, got {r:?}") };
    let stored = support::raw::stored(&db, "stat_tally", id).await;
    assert_eq!(stored, doc! { "_id": id, "k": "home", "h": 1, "l": "b", "f": "a" });
    assert_eq!(stored.get("h"), Some(&Bson::Int32(1)));
    // The second updates the same document; `$setOnInsert` does nothing.
    let r = tallies.update_one(t.key().eq("home"), upsert("z", "c")).upsert().await.unwrap();
    assert_eq!((r.matched, r.modified, r.upserted_id), (1, 1, None));
    let all = tallies.find(Filter::everything()).await.unwrap();
    assert_eq!(all, [Tally { id, key: "home".into(), hits: 2, first: "a".into(), last: "c".into() }]);
    // A different key inserts another.
    let r = tallies.update_one(t.key().eq("away"), upsert("x", "y")).upsert().await.unwrap();
    assert!(r.upserted_id.is_some());
    assert_eq!(tallies.count(Filter::everything()).await.unwrap(), 2);
    // `$setOnInsert` may write `_id`, once.
    let chosen = ObjectId::new();
    let u = || upsert("s", "t").set_on_insert(t.id(), chosen);
    let r = tallies.update_one(t.key().eq("chosen"), u()).upsert().await.unwrap();
    assert_eq!(r.upserted_id, Some(chosen));
    let r = tallies.update_one(t.key().eq("chosen"), u()).upsert().await.unwrap();
    assert_eq!((r.matched, r.upserted_id), (1, None));
    assert_eq!(tallies.find_one(t.id().eq(chosen)).await.unwrap().map(|t| t.hits), Some(2));
    tallies.delete_one(t.id().eq(chosen)).await.unwrap();
    // An upsert by `_id`: the filter's `_id` is the new document's.
    let id = ObjectId::new();
    let r = tallies
        .update_one(t.id().eq(id), upsert("p", "q").set_on_insert(t.key(), "by id".to_owned()))
        .upsert()
        .await
        .unwrap();
    assert_eq!(r.upserted_id, Some(id));
    assert_eq!(
        tallies.find_one(t.id().eq(id)).await.unwrap(),
        Some(Tally { id, key: "by id".into(), hits: 1, first: "p".into(), last: "q".into() })
    );
}

#[tokio::test]
async fn conflicting_and_empty_updates_are_refused_before_sending() {
    let p = apple();
    let (db, coll) = products("upd_conflict", std::slice::from_ref(&p)).await;
    let f = Product::fields();
    let by_id = || f.id().eq(p.id);
    let before = raw_product(&db, p.id).await;

    assert_refused(coll.update_one(by_id(), Update::new().set(f.stock(), 1).inc(f.stock(), 1)).await, "twice");
    // The refusal names the Rust path beside the stored one.
    assert_refused(
        coll.update_one(by_id(), Update::new().set(f.stock(), 1).set(f.stock(), 2)).await,
        "`Product.stock` (stored `st`) is updated twice",
    );
    assert_refused(
        coll.update_one(by_id(), Update::new().set(f.address(), address("X", "1")).set(f.address().city(), "Y")).await,
        "overlap",
    );
    assert_refused(
        coll.update_many(by_id(), Update::new().set(f.address().zip(), "1").set(f.address(), address("X", "1"))).await,
        "overlap",
    );
    assert_refused(
        coll.update_one(by_id(), Update::new().set(f.lines().at(0).qty(), 1).push(f.lines(), line("q", 1, 1))).await,
        "overlap",
    );
    assert_refused(
        coll.update_one(by_id(), Update::new().inc(f.lines().each().qty(), 1).set(f.lines(), Vec::<Line>::new())).await,
        "overlap",
    );
    assert_refused(
        coll.update_one(by_id(), Update::new().pull(f.tags(), "red").push(f.tags(), "x")).upsert().await,
        "twice",
    );
    assert_refused(
        coll.find_one_and_update(by_id(), Update::new().min(f.stock(), 1).max(f.stock(), 9)).after().await,
        "twice",
    );
    assert_refused(coll.update_one(by_id(), Update::new()).await, "empty");
    assert_refused(coll.update_many(Filter::everything(), Update::new()).await, "empty");
    assert_refused(coll.update_one(by_id(), Update::new()).upsert().await, "empty");
    assert_refused(coll.find_one_and_update(by_id(), Update::new()).await, "empty");
    // Sibling paths do not conflict (a prefix of the key string is not a prefix path).
    let u = Update::new().set(f.stock(), 1).set(f.address().city(), "A").set(f.address().zip(), "B");
    assert!(u.build().is_ok());

    assert_eq!(raw_product(&db, p.id).await, before, "the document is unchanged");
}

#[tokio::test]
async fn find_and_modify_delete_and_replace() {
    let (db, coll) = seeded("upd_fam").await;
    let f = Product::fields();

    // Before / after.
    let old = coll.find_one_and_update(f.name().eq("apple"), Update::new().inc(f.stock(), 5)).await.unwrap().unwrap();
    assert_eq!(old.stock, 10);
    let new =
        coll.find_one_and_update(f.name().eq("apple"), Update::new().inc(f.stock(), 5)).after().await.unwrap().unwrap();
    assert_eq!(new.stock, 20);
    assert_eq!(new, Product { stock: 20, ..old.clone() });
    // With a sort: the cheapest fruit.
    let cheapest = coll
        .find_one_and_update(f.category().eq("fruit"), Update::new().set(f.note(), Some("cheapest".to_owned())))
        .after()
        .sort(f.price().asc())
        .await
        .unwrap()
        .unwrap();
    assert_eq!((cheapest.name.as_str(), cheapest.note.as_deref()), ("banana", Some("cheapest")));
    // Nothing matches: `None`, nothing written.
    let none = coll.find_one_and_update(f.name().eq("nothing"), Update::new().set(f.stock(), 1)).after().await.unwrap();
    assert!(none.is_none());
    // With an array filter.
    let after = coll
        .find_one_and_update(
            f.name().eq("$gt"),
            Update::new().set(f.lines().filtered("big", |e| e.price().gt(100)).qty(), 42),
        )
        .after()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after.lines, [line("d", 500, 42), line("e", 5, 9)]);
    // Upsert through find_one_and_update.
    let (_tdb, tallies) = support::setup::created::<Tally>("upd_fam_upsert").await;
    let t = Tally::fields();
    let u = || Update::new().inc(t.hits(), 1).set_on_insert(t.first(), "f".to_owned()).set(t.last(), "l".to_owned());
    let created = tallies.find_one_and_update(t.key().eq("k"), u()).after().upsert().await.unwrap();
    assert_eq!(created.map(|c| (c.key, c.hits)), Some(("k".to_owned(), 1)));
    let missing = tallies.find_one_and_update(t.key().eq("j"), u()).upsert().await.unwrap();
    assert!(missing.is_none(), "before an upsert there was nothing");
    assert_eq!(tallies.count(Filter::everything()).await.unwrap(), 2);

    // find_one_and_delete.
    let gone = coll.find_one_and_delete(f.name().eq("carrot")).await.unwrap().unwrap();
    assert_eq!(gone.name, "carrot");
    assert!(coll.find_one_and_delete(f.name().eq("carrot")).await.unwrap().is_none());
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 3);

    // replace_one.
    let mut replacement = hostile();
    replacement.id = after.id;
    replacement.name = "replaced".into();
    replacement.tags = Vec::new();
    let r = coll.replace_one(f.id().eq(after.id), &replacement).await.unwrap();
    assert_eq!((r.matched, r.modified), (1, 1));
    assert_eq!(get(&coll, after.id).await, replacement);
    assert_eq!(raw_product(&db, after.id).await.get_array("tg").unwrap(), &Vec::<Bson>::new());
    let r = coll.replace_one(f.name().eq("nothing"), &replacement).await.unwrap();
    assert_eq!(r.matched, 0);
    // A replacement that breaks the validator is refused by the server, by Rust field.
    let mut invalid = replacement.clone();
    invalid.tags = strings(&["1", "2", "3", "4", "5", "6"]);
    let err = coll.replace_one(f.id().eq(after.id), &invalid).await.unwrap_err();
    let Error::Validation(v) = &err else { panic!("expected a validation error, got {err}") };
    assert_eq!(v.failures[0].path, "Product.tags", "{err}");

    // delete_one / delete_many counts.
    assert_eq!(coll.delete_one(f.name().eq("nothing")).await.unwrap().count, 0);
    assert_eq!(coll.delete_one(f.category().eq("fruit")).await.unwrap().count, 1);
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 2);
    coll.insert_many([apple(), banana(), carrot()]).await.unwrap();
    assert_eq!(coll.delete_many(f.category().eq("fruit")).await.unwrap().count, 3);
    assert_eq!(names(&coll, Filter::everything()).await, ["carrot", "replaced"]);
    assert_eq!(coll.delete_many(Filter::everything()).await.unwrap().count, 2);
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 0);
}
