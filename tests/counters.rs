//! Counters kept in step with their arrays, against a real server.
//!
//! Every model here has counted arrays, so its validator carries a `$expr` check (`size(array) == counter`): any
//! write that leaves a counter out of step is refused by the server with code 121. The tests read back what the
//! server stored (typed, and raw to see BSON types) rather than trusting what was sent.

mod support;

use odm::bson::{doc, oid::ObjectId, Bson, Document};
use odm::error::Invalid;
use odm::{collection::FindAndModify, BsonSchema, Collection, Embedded, Filter, Model, Update};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The model of the issue: helpful votes counted next to the voters, plus a second counted array with a `long`
/// counter and a small bound.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_review")]
struct Review {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    stars: i32,
    #[serde(rename = "vi")]
    #[odm(max_items = 1000, counter = "helpful_votes")]
    voter_ids: Vec<ObjectId>,
    #[serde(rename = "hv")]
    helpful_votes: i32,
    #[serde(rename = "fl")]
    #[odm(max_items = 4, counter = "flag_count")]
    flaggers: Vec<String>,
    #[serde(rename = "fc")]
    flag_count: i64,
}

fn review(voters: &[ObjectId], flaggers: &[&str]) -> Review {
    Review {
        id: ObjectId::new(),
        stars: 4,
        voter_ids: voters.to_vec(),
        helpful_votes: voters.len() as i32,
        flaggers: flaggers.iter().map(|s| (*s).to_owned()).collect(),
        flag_count: flaggers.len() as i64,
    }
}

/// A counted array inside the elements of an array.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Item {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "tg")]
    #[odm(max_items = 10, counter = "tag_count")]
    tags: Vec<String>,
    #[serde(rename = "tc")]
    tag_count: i32,
}

fn item(name: &str, tags: &[&str]) -> Item {
    Item { name: name.to_owned(), tags: tags.iter().map(|s| (*s).to_owned()).collect(), tag_count: tags.len() as i32 }
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_basket")]
struct Basket {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "it")]
    #[odm(max_items = 20)]
    items: Vec<Item>,
}

/// Only counted arrays besides `_id`, so an upsert can create a valid document from pushes alone.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_tally")]
struct Tally {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "e")]
    #[odm(max_items = 100, counter = "entry_count")]
    entries: Vec<String>,
    #[serde(rename = "ec")]
    entry_count: i32,
    #[serde(rename = "m")]
    #[odm(max_items = 100, counter = "mark_count")]
    marks: Vec<i32>,
    #[serde(rename = "mc")]
    mark_count: i64,
}

/// A bounded history that keeps its newest elements.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_feed")]
struct Feed {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "r")]
    #[odm(max_items = 5, keep_last)]
    recent: Vec<i32>,
}

/// The stored document, typed.
async fn read<M: Model>(coll: &Collection<M>, filter: Filter<M>) -> M {
    coll.find_one(filter).await.expect("read").expect("document exists")
}

/// The value stored at `key`, which must be an `int`.
fn int32(d: &Document, key: &str) -> i32 {
    match d.get(key) {
        Some(Bson::Int32(n)) => *n,
        other => panic!("`{key}` should be stored as an int, found {other:?} in {d}"),
    }
}

/// The value stored at `key`, which must be a `long`.
fn int64(d: &Document, key: &str) -> i64 {
    match d.get(key) {
        Some(Bson::Int64(n)) => *n,
        other => panic!("`{key}` should be stored as a long, found {other:?} in {d}"),
    }
}

fn assert_in_step(r: &Review) {
    assert_eq!(r.helpful_votes as usize, r.voter_ids.len(), "helpful_votes in step: {r:?}");
    assert_eq!(r.flag_count as usize, r.flaggers.len(), "flag_count in step: {r:?}");
}

fn invalid_operation(err: &odm::Error) -> String {
    match err {
        odm::Error::InvalidOperation { cause, .. } => cause.to_string(),
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}

/// A deterministic shuffle (xorshift64 + Fisher-Yates): the same interleaving every run.
fn shuffle<T>(items: &mut [T], mut seed: u64) {
    for i in (1..items.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let j = (seed % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

// 1. The issue: concurrent votes, some voters voting more than once.

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_votes_count_each_voter_once() {
    const DISTINCT: usize = 20;
    let (db, coll) = support::setup::created::<Review>("cnt_votes").await;
    let f = Review::fields();
    let r = review(&[], &[]);
    coll.insert_one(&r).await.expect("insert");

    // 20 voters, 32 votes: every voter once, 8 of them twice, 4 of those a third time.
    let voters: Vec<ObjectId> = (0..DISTINCT).map(|_| ObjectId::new()).collect();
    let mut ballots: Vec<ObjectId> = voters.clone();
    ballots.extend_from_slice(&voters[..8]);
    ballots.extend_from_slice(&voters[..4]);
    assert_eq!(ballots.len(), 32);
    shuffle(&mut ballots, 0x9E37_79B9_7F4A_7C15);

    let start = Arc::new(tokio::sync::Barrier::new(ballots.len()));
    let tasks: Vec<_> = ballots
        .iter()
        .map(|&voter| {
            let coll = coll.clone();
            let start = start.clone();
            let id = r.id;
            tokio::spawn(async move {
                let f = Review::fields();
                start.wait().await;
                coll.update_one(f.id().eq(id), Update::new().add_to_set(f.voter_ids(), voter)).await
            })
        })
        .collect();
    let mut modified = 0;
    let mut per_voter: BTreeMap<ObjectId, u64> = BTreeMap::new();
    for (task, voter) in tasks.into_iter().zip(&ballots) {
        let result = task.await.expect("task").expect("vote");
        assert_eq!(result.matched_count, result.modified_count, "a matched guarded vote always changes the document");
        modified += result.modified_count;
        *per_voter.entry(*voter).or_default() += result.modified_count;
    }

    let stored = read(&coll, f.id().eq(r.id)).await;
    assert_eq!(stored.voter_ids.len(), DISTINCT, "{stored:?}");
    assert_eq!(stored.helpful_votes as usize, DISTINCT, "{stored:?}");
    assert_eq!(modified, DISTINCT as u64, "one modification per distinct voter");
    assert!(per_voter.values().all(|&n| n == 1), "each voter counted exactly once: {per_voter:?}");
    let distinct: BTreeSet<ObjectId> = stored.voter_ids.iter().copied().collect();
    assert_eq!(distinct, voters.iter().copied().collect::<BTreeSet<_>>(), "every voter appears once");
    assert_eq!(int32(&support::raw::stored(&db, "shop_review", r.id).await, "hv"), DISTINCT as i32, "still an int");

    // A late repeat vote still matches nothing and changes nothing.
    let again = coll.update_one(f.id().eq(r.id), Update::new().add_to_set(f.voter_ids(), voters[7])).await.unwrap();
    assert_eq!((again.matched_count, again.modified_count), (0, 0));
    assert_eq!(read(&coll, f.id().eq(r.id)).await, stored);

    // Control: the same ballots as an unguarded `$addToSet` + `$inc` (the naive vote). Each repeat would count a
    // vote the array does not hold; the validator refuses exactly those, so the guard is what makes repeats no-ops.
    let naive = review(&[], &[]);
    coll.insert_one(&naive).await.expect("insert");
    let tasks: Vec<_> = ballots
        .iter()
        .map(|&voter| {
            let raw = db.collection::<Document>("shop_review");
            let start = start.clone();
            let id = naive.id;
            tokio::spawn(async move {
                start.wait().await;
                raw.update_one(doc! { "_id": id }, doc! { "$addToSet": { "vi": voter }, "$inc": { "hv": 1 } }).await
            })
        })
        .collect();
    let mut refused = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(res) => assert_eq!(res.modified_count, 1),
            Err(e) => {
                assert_eq!(odm::Error::from_write::<Review>(e).code(), Some(121));
                refused += 1;
            }
        }
    }
    assert_eq!(refused, ballots.len() - DISTINCT, "every repeat vote was refused by the server");
    let stored = read(&coll, f.id().eq(naive.id)).await;
    assert_eq!((stored.voter_ids.len(), stored.helpful_votes), (DISTINCT, DISTINCT as i32));
}

/// A voter recorded as a document: `add_to_set` compares whole elements.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Watcher {
    #[serde(rename = "u")]
    user: ObjectId,
    #[serde(rename = "l")]
    level: i32,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_listing")]
struct Listing {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "w")]
    #[odm(max_items = 50, counter = "watch_count")]
    watchers: Vec<Watcher>,
    #[serde(rename = "wc")]
    watch_count: u32,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_add_to_set_of_documents() {
    let (db, coll) = support::setup::created::<Listing>("cnt_docs").await;
    let f = Listing::fields();
    let listing = Listing { id: ObjectId::new(), watchers: vec![], watch_count: 0 };
    coll.insert_one(&listing).await.expect("insert");

    let users: Vec<ObjectId> = (0..6).map(|_| ObjectId::new()).collect();
    // Each user three times at level 1, and once at level 2 (a different element).
    let mut ballots: Vec<Watcher> =
        users.iter().flat_map(|&u| [1, 1, 1, 2].map(|level| Watcher { user: u, level })).collect();
    shuffle(&mut ballots, 42);
    let tasks: Vec<_> = ballots
        .iter()
        .cloned()
        .map(|w| {
            let coll = coll.clone();
            let id = listing.id;
            tokio::spawn(async move {
                let f = Listing::fields();
                coll.update_one(f.id().eq(id), Update::new().add_to_set(f.watchers(), w)).await
            })
        })
        .collect();
    let mut modified = 0;
    for task in tasks {
        modified += task.await.expect("task").expect("watch").modified_count;
    }
    let stored = read(&coll, f.id().eq(listing.id)).await;
    assert_eq!(modified, 12, "{stored:?}");
    assert_eq!((stored.watchers.len(), stored.watch_count), (12, 12));
    let distinct: BTreeSet<(ObjectId, i32)> = stored.watchers.iter().map(|w| (w.user, w.level)).collect();
    assert_eq!(distinct.len(), 12, "no element twice: {stored:?}");
    // `u32` is stored as a long, and the counter stays one.
    assert_eq!(int64(&support::raw::stored(&db, "shop_listing", listing.id).await, "wc"), 12);
}

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
    assert_eq!(res.modified_count, 1);

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
    assert!(built.guard.is_none(), "pushes need no guard");
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
    assert_eq!(built.guard, Some(doc! { "vi": { "$ne": a } }));
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
    assert_eq!(built.guard, Some(doc! { "vi.0": { "$exists": true } }));

    let res = coll.update_one(f.id().eq(r.id), Update::new().pop_first(f.voter_ids())).await.expect("pop first");
    assert_eq!(res.modified_count, 1);
    assert_eq!(read(&coll, f.id().eq(r.id)).await.voter_ids, vec![b, c]);
    coll.update_one(f.id().eq(r.id), Update::new().pop_last(f.voter_ids())).await.expect("pop last");
    let stored = read(&coll, f.id().eq(r.id)).await;
    assert_eq!((stored.voter_ids.clone(), stored.helpful_votes), (vec![b], 1));

    // Both counted arrays in one update, the long counter down to zero.
    let both = Update::new().pop_last(f.voter_ids()).pop_first(f.flaggers());
    assert_eq!(
        both.clone().build().unwrap().guard,
        Some(doc! { "vi.0": { "$exists": true }, "fl.0": { "$exists": true } })
    );
    let res = coll.update_one(f.id().eq(r.id), both).await.expect("pop both");
    assert_eq!(res.modified_count, 1);
    let raw = support::raw::stored(&db, "shop_review", r.id).await;
    assert_eq!((int32(&raw, "hv"), int64(&raw, "fc")), (0, 0), "types kept: {raw}");

    // Empty arrays: the guard does not hold, nothing matches, the counters stay at zero.
    for update in [
        Update::new().pop_first(f.voter_ids()),
        Update::new().pop_last(f.voter_ids()),
        Update::new().pop_last(f.flaggers()),
    ] {
        let res = coll.update_one(f.id().eq(r.id), update).await.expect("pop on empty");
        assert_eq!((res.matched_count, res.modified_count), (0, 0), "nothing to pop");
    }
    let stored = read(&coll, f.id().eq(r.id)).await;
    assert!(stored.voter_ids.is_empty() && stored.flaggers.is_empty());
    assert_eq!((stored.helpful_votes, stored.flag_count), (0, 0), "no negative counter");
    let raw = support::raw::stored(&db, "shop_review", r.id).await;
    assert_eq!((int32(&raw, "hv"), int64(&raw, "fc")), (0, 0));

    // A guard failing on one array holds back the whole update, so nothing drifts.
    let mixed = Update::new().push(f.voter_ids(), a).pop_first(f.flaggers());
    let res = coll.update_one(f.id().eq(r.id), mixed).await.expect("mixed");
    assert_eq!(res.matched_count, 0);
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
    assert_eq!(add().build().unwrap().guard, Some(doc! { "it.1.tg": { "$ne": "eco" } }));
    assert_eq!(coll.update_one(f.id().eq(basket.id), add()).await.unwrap().modified_count, 1);
    assert_eq!(coll.update_one(f.id().eq(basket.id), add()).await.unwrap().matched_count, 0, "already there");
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
    assert_eq!(res.modified_count, 1);
    let stored = read(&coll, f.id().eq(basket.id)).await;
    assert_eq!(stored.items[2], item("pad", &["b", "sale", "last"]));

    // Elements selected by an array filter.
    let picked = Update::new().push(f.items().filtered("x", |e| e.name().eq("ink")).tags(), "refill");
    let built = picked.clone().build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "it.$[x].tc": 1 }, "$push": { "it.$[x].tg": "refill" } });
    assert_eq!(built.array_filters, vec![doc! { "x.n": "ink" }]);
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
    assert!(built.guard.is_none());
    let built = Update::diff(&base, &other).build().unwrap();
    assert_eq!(built.update, doc! { "$inc": { "hv": 1, "fc": 1_i64 }, "$push": { "vi": d, "fl": "y" } });

    // Both from the same base, at the same time: `$set` of the counter would lose one; `$inc` keeps both.
    let (c1, c2) = (coll.clone(), coll.clone());
    let (base1, base2) = (base.clone(), base.clone());
    let t1 = tokio::spawn(async move { c1.update_changes(Review::fields().id().eq(base1.id), &base1, &one).await });
    let t2 = tokio::spawn(async move { c2.update_changes(Review::fields().id().eq(base2.id), &base2, &other).await });
    let r1 = t1.await.expect("task").expect("diff 1").expect("changed");
    let r2 = t2.await.expect("task").expect("diff 2").expect("changed");
    assert_eq!((r1.modified_count, r2.modified_count), (1, 1));

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
        let err = coll.upsert_one(f.id().eq(id), update.clone()).await.expect_err("guarded upsert");
        assert!(invalid_operation(&err).contains("guarded"), "{err}");
        assert!(matches!(err, odm::Error::InvalidOperation { cause: Invalid::GuardedUpsert, .. }), "{err}");
        let err = coll
            .find_one_and_update(f.id().eq(id), update, FindAndModify::after().upsert())
            .await
            .expect_err("guarded upsert");
        assert!(invalid_operation(&err).contains("guarded"), "{err}");
    }
    assert_eq!(coll.count(Filter::everything()).await.unwrap(), 0, "nothing was inserted");

    // Pushes to both counted arrays: the inserted document has both arrays and both counters, of their types.
    let res = coll
        .upsert_one(f.id().eq(id), Update::new().push_each(f.entries(), ["a", "b"]).push(f.marks(), 7))
        .await
        .expect("upsert inserts");
    assert_eq!(res.upserted_id, Some(Bson::ObjectId(id)));
    let stored = read(&coll, f.id().eq(id)).await;
    assert_eq!(
        stored,
        Tally { id, entries: vec!["a".into(), "b".into()], entry_count: 2, marks: vec![7], mark_count: 1 }
    );
    let raw = support::raw::stored(&db, "shop_tally", id).await;
    assert_eq!((int32(&raw, "ec"), int64(&raw, "mc")), (2, 1), "counters created with their own types: {raw}");

    // The same upsert again updates the existing document.
    let res = coll
        .upsert_one(f.id().eq(id), Update::new().push(f.entries(), "c").push_each(f.marks(), [8, 9]))
        .await
        .expect("upsert updates");
    assert_eq!((res.matched_count, res.modified_count, res.upserted_id), (1, 1, None));
    let raw = support::raw::stored(&db, "shop_tally", id).await;
    assert_eq!((int32(&raw, "ec"), int64(&raw, "mc")), (3, 3), "{raw}");

    // Through `find_one_and_update` too.
    let other = ObjectId::new();
    let created = coll
        .find_one_and_update(
            f.id().eq(other),
            Update::new().push(f.entries(), "z").push(f.marks(), 1),
            FindAndModify::after().upsert(),
        )
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
    coll.upsert_one(f.id().eq(empty.id), diff).await.expect("diff upsert");
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

// 10. The invariant is the server's: raw writes that skip the counter are refused.

#[tokio::test]
async fn raw_writes_out_of_step_are_refused() {
    let (db, coll) = support::setup::created::<Review>("cnt_raw").await;
    let f = Review::fields();
    let r = review(&[ObjectId::new()], &["x"]);
    coll.insert_one(&r).await.expect("insert");
    let raw = db.collection::<Document>("shop_review");
    let v = ObjectId::new();

    let out_of_step = [
        doc! { "$push": { "vi": v } },
        doc! { "$addToSet": { "vi": v } },
        doc! { "$inc": { "hv": 1 } },
        doc! { "$pop": { "vi": 1 } },
        doc! { "$pull": { "fl": "x" } },
        doc! { "$push": { "vi": v }, "$inc": { "hv": 2 } },
        doc! { "$set": { "fc": 0_i64 } },
    ];
    for update in out_of_step {
        let err = raw.update_one(doc! { "_id": r.id }, update.clone()).await.expect_err("out of step");
        let err = odm::Error::from_write::<Review>(err);
        assert_eq!(err.code(), Some(121), "{update}: {err}");
        let odm::Error::Validation(v) = &err else { panic!("{update}: expected a validation error, got {err:?}") };
        assert!(v.failures.iter().any(|f| f.rule == "$expr"), "{update}: {err}");
    }
    // Also through the typed collection's own driver handle.
    let err = coll.raw().update_one(doc! { "_id": r.id }, doc! { "$push": { "fl": "y" } }).await.expect_err("raw");
    assert_eq!(odm::Error::from_write::<Review>(err).code(), Some(121));
    assert_eq!(read(&coll, f.id().eq(r.id)).await, r, "nothing changed");

    // The same raw write with the counter in step is accepted: the check refuses drift, not pushes.
    raw.update_one(doc! { "_id": r.id }, doc! { "$push": { "vi": v }, "$inc": { "hv": 1 } }).await.expect("in step");
    let stored = read(&coll, f.id().eq(r.id)).await;
    assert_eq!(stored.voter_ids.len(), 2);
    assert_in_step(&stored);
}

// 11. A counter out of step is named: which pair, at which level.

/// A department: its members counted beside them.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Dept {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "m")]
    #[odm(max_items = 50, counter = "member_count")]
    members: Vec<String>,
    #[serde(rename = "mc")]
    member_count: i32,
}

/// Counted arrays at two levels: offices at the top, members inside every department.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "org_company")]
struct Company {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "d")]
    #[odm(max_items = 20)]
    depts: Vec<Dept>,
    #[serde(rename = "o")]
    #[odm(max_items = 10, counter = "office_count")]
    offices: Vec<String>,
    #[serde(rename = "oc")]
    office_count: i32,
}

fn dept(name: &str, members: &[&str]) -> Dept {
    Dept {
        name: name.to_owned(),
        members: members.iter().map(|s| (*s).to_owned()).collect(),
        member_count: members.len() as i32,
    }
}

/// The one failure of a validation error, checked to be the counter `path` (stored `stored`) out of step.
fn counter_failure(err: &odm::Error, path: &str, stored: &str) -> String {
    let odm::Error::Validation(v) = err else { panic!("expected a validation error, got {err:?}") };
    assert_eq!(v.failures.len(), 1, "{err}");
    let failure = &v.failures[0];
    assert_eq!((failure.rule.as_str(), failure.path.as_str(), failure.stored_path.as_str()), ("$expr", path, stored));
    err.to_string()
}

#[tokio::test]
async fn a_nested_counter_out_of_step_is_named() {
    let (db, coll) = support::setup::created::<Company>("cnt_named").await;
    let f = Company::fields();
    let nested = "Company: document failed validation: Company.depts[].member_count: $expr (expected the length of \
                  Company.depts[].members, found a different value)";

    // An insert: the second department counts three members but lists two.
    let mut company = Company {
        id: ObjectId::new(),
        depts: vec![dept("ops", &["ann"]), dept("dev", &["bo", "cy"])],
        offices: vec!["rome".into()],
        office_count: 1,
    };
    company.depts[1].member_count = 3;
    let err = coll.insert_one(&company).await.expect_err("nested counter out of step");
    assert_eq!(counter_failure(&err, "Company.depts[].member_count", "d.$[].mc"), nested);
    company.depts[1].member_count = 2;
    coll.insert_one(&company).await.expect("in step");

    // A typed update (a diff that changes only the counter).
    let mut wrong = company.clone();
    wrong.depts[0].member_count = 5;
    assert_eq!(Update::diff(&company, &wrong).build().unwrap().update, doc! { "$set": { "d.0.mc": 5 } });
    let err = coll.update_changes(f.id().eq(company.id), &company, &wrong).await.expect_err("out of step");
    assert_eq!(counter_failure(&err, "Company.depts[].member_count", "d.$[].mc"), nested);
    // The same through findAndModify, whose report comes back as a command error.
    let err = coll
        .find_one_and_update(f.id().eq(company.id), Update::diff(&company, &wrong), FindAndModify::after())
        .await
        .expect_err("out of step");
    assert_eq!(counter_failure(&err, "Company.depts[].member_count", "d.$[].mc"), nested);

    // A raw write that skips the counter, read through the model.
    let raw = db.collection::<Document>("org_company");
    let err = raw.update_one(doc! { "_id": company.id }, doc! { "$push": { "d.1.m": "di" } }).await.expect_err("raw");
    let err = odm::Error::from_write::<Company>(err);
    assert_eq!(counter_failure(&err, "Company.depts[].member_count", "d.$[].mc"), nested);

    // The top-level pair is named as such.
    let err = raw.update_one(doc! { "_id": company.id }, doc! { "$inc": { "oc": 1 } }).await.expect_err("raw");
    assert_eq!(
        counter_failure(&odm::Error::from_write::<Company>(err), "Company.office_count", "oc"),
        "Company: document failed validation: Company.office_count: $expr (expected the length of Company.offices, \
         found a different value)"
    );
    assert_eq!(read(&coll, f.id().eq(company.id)).await, company, "nothing changed");
}

#[tokio::test]
async fn a_validator_checking_every_pair_at_once_names_them_all() {
    // Collections created by earlier versions check every pair in one `$expr`: the server cannot say which failed.
    let db = odm::testing::database("cnt_named_old").await;
    let exprs = Company::counter_exprs();
    let validator = doc! { "$jsonSchema": Company::bson_schema(), "$expr": { "$and": exprs } };
    db.run_command(doc! { "create": "org_company", "validator": validator }).await.expect("create");
    let company = Company { id: ObjectId::new(), depts: vec![dept("ops", &[])], offices: vec![], office_count: 1 };
    let err = Collection::<Company>::new(&db).insert_one(&company).await.expect_err("out of step");
    assert_eq!(
        err.to_string(),
        "Company: document failed validation: (document): $expr (expected Company.depts[].member_count == the length \
         of Company.depts[].members, Company.office_count == the length of Company.offices, found a counter out of \
         step)"
    );
}
