//! Concurrent writers: votes counted once per voter, documents added to a set once.

use super::*;

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
        assert_eq!(result.matched, result.modified, "a matched guarded vote always changes the document");
        modified += result.modified;
        *per_voter.entry(*voter).or_default() += result.modified;
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
    assert_eq!((again.matched, again.modified), (0, 0));
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
        modified += task.await.expect("task").expect("watch").modified;
    }
    let stored = read(&coll, f.id().eq(listing.id)).await;
    assert_eq!(modified, 12, "{stored:?}");
    assert_eq!((stored.watchers.len(), stored.watch_count), (12, 12));
    let distinct: BTreeSet<(ObjectId, i32)> = stored.watchers.iter().map(|w| (w.user, w.level)).collect();
    assert_eq!(distinct.len(), 12, "no element twice: {stored:?}");
    // `u32` is stored as a long, and the counter stays one.
    assert_eq!(int64(&support::raw::stored(&db, "shop_listing", listing.id).await, "wc"), 12);
}
