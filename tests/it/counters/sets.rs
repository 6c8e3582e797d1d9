//! Arrays declared sets (`unique_items`): the server refuses duplicates, and a counted set takes `pull` of one value
//! as one guarded statement (`$pull` + `$inc: -1`), so taking back a vote is exact, concurrent or not.

use super::*;

/// A member of a team, stored as a document: a set of documents compares them whole.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Member {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "r")]
    role: String,
}

fn member(name: &str, role: &str) -> Member {
    Member { name: name.to_owned(), role: role.to_owned() }
}

/// Votes that can be taken back, a team of documents (with a `long` counter), and a set without counter.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_poll")]
struct Poll {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "vi")]
    #[odm(max_items = 50, counter = "voter_count", unique_items)]
    voter_ids: Vec<ObjectId>,
    #[serde(rename = "vc")]
    voter_count: i32,
    #[serde(rename = "st")]
    #[odm(max_items = 10, counter = "staff_count", unique_items)]
    staff: Vec<Member>,
    #[serde(rename = "sc")]
    staff_count: i64,
    #[serde(rename = "tg")]
    #[odm(max_items = 5, unique_items)]
    tags: Vec<String>,
}

fn poll(voters: &[ObjectId], staff: &[Member]) -> Poll {
    Poll {
        id: ObjectId::new(),
        voter_ids: voters.to_vec(),
        voter_count: voters.len() as i32,
        staff: staff.to_vec(),
        staff_count: staff.len() as i64,
        tags: Vec::new(),
    }
}

fn assert_poll_in_step(p: &Poll) {
    assert_eq!(p.voter_count as usize, p.voter_ids.len(), "voter_count in step: {p:?}");
    assert_eq!(p.staff_count as usize, p.staff.len(), "staff_count in step: {p:?}");
}

// 1. The validator declares the sets, on the server too.

#[tokio::test]
async fn a_set_is_unique_items_in_the_validator() {
    let schema = Poll::validator().get_document("$jsonSchema").expect("$jsonSchema").clone();
    let props = schema.get_document("properties").expect("properties");
    for key in ["vi", "st", "tg"] {
        assert_eq!(props.get_document(key).unwrap().get_bool("uniqueItems").ok(), Some(true), "{key}: {schema}");
    }
    let (db, _coll) = support::setup::created::<Poll>("cnt_set_validator").await;
    let live = support::server::live_validator(&db, "shop_poll").await;
    let live_vi = live.get_document("$jsonSchema").unwrap().get_document("properties").unwrap().get_document("vi");
    assert_eq!(live_vi.unwrap().get_bool("uniqueItems").ok(), Some(true), "{live}");
}

// 2. Taking back a vote: one statement, exact.

#[tokio::test]
async fn pull_from_a_counted_set_removes_one_value_and_decrements() {
    let (db, coll) = support::setup::created::<Poll>("cnt_set_pull").await;
    let f = Poll::fields();
    let voters: Vec<ObjectId> = (0..3).map(|_| ObjectId::new()).collect();
    let p = poll(&voters, &[]);
    coll.insert_one(&p).await.expect("insert");

    // What is sent: `$pull` of the whole value, the counter down by one, guarded on the value being there.
    let built = Update::<Poll>::new().pull(f.voter_ids(), voters[1]).build().expect("build");
    assert_eq!(built.update, doc! { "$pull": { "vi": { "$eq": voters[1] } }, "$inc": { "vc": -1 } });
    assert_eq!(built.guard(), Some(&doc! { "vi": { "$eq": voters[1] } }));

    let res = coll.update_one(f.id().eq(p.id), Update::new().pull(f.voter_ids(), voters[1])).await.expect("un-vote");
    assert_eq!((res.matched, res.modified), (1, 1));
    let stored = read(&coll, f.id().eq(p.id)).await;
    assert_eq!(stored.voter_ids, [voters[0], voters[2]]);
    assert_eq!(stored.voter_count, 2);
    assert_eq!(int32(&support::raw::stored(&db, "shop_poll", p.id).await, "vc"), 2, "still an int");

    // Taking it back again, or a vote never cast, matches nothing and changes nothing.
    for absent in [voters[1], ObjectId::new()] {
        let res = coll.update_one(f.id().eq(p.id), Update::new().pull(f.voter_ids(), absent)).await.expect("no-op");
        assert_eq!((res.matched, res.modified), (0, 0), "{absent}");
    }
    assert_eq!(read(&coll, f.id().eq(p.id)).await, stored);

    // Vote, take back, vote again: add_to_set and pull keep the pair in step; the last vote leaves an empty set.
    let again = Update::new().add_to_set(f.voter_ids(), voters[1]);
    assert_eq!(coll.update_one(f.id().eq(p.id), again).await.unwrap().modified, 1);
    for v in &voters {
        let res = coll.update_one(f.id().eq(p.id), Update::new().pull(f.voter_ids(), *v)).await.unwrap();
        assert_eq!(res.modified, 1, "{v}");
    }
    let empty = read(&coll, f.id().eq(p.id)).await;
    assert!(empty.voter_ids.is_empty() && empty.voter_count == 0, "{empty:?}");
}

// 3. Many tasks taking back the same votes at once: each vote is taken back once.

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_pulls_of_one_value_decrement_once() {
    const VOTERS: usize = 8;
    const REPEATS: usize = 4;
    let (_db, coll) = support::setup::created::<Poll>("cnt_set_concurrent").await;
    let f = Poll::fields();
    let voters: Vec<ObjectId> = (0..VOTERS).map(|_| ObjectId::new()).collect();
    let kept = ObjectId::new();
    let mut all = voters.clone();
    all.push(kept);
    let p = poll(&all, &[]);
    coll.insert_one(&p).await.expect("insert");

    // Every voter takes the vote back four times, all at once, in a shuffled order.
    let mut ballots: Vec<ObjectId> = (0..REPEATS).flat_map(|_| voters.iter().copied()).collect();
    shuffle(&mut ballots, 0x2545_F491_4F6C_DD1D);
    let start = Arc::new(tokio::sync::Barrier::new(ballots.len()));
    let tasks: Vec<_> = ballots
        .iter()
        .map(|&voter| {
            let (coll, start, id) = (coll.clone(), start.clone(), p.id);
            tokio::spawn(async move {
                let f = Poll::fields();
                start.wait().await;
                coll.update_one(f.id().eq(id), Update::new().pull(f.voter_ids(), voter)).await
            })
        })
        .collect();
    let mut per_voter: BTreeMap<ObjectId, u64> = BTreeMap::new();
    for (task, voter) in tasks.into_iter().zip(&ballots) {
        let res = task.await.expect("task").expect("un-vote");
        assert_eq!(res.matched, res.modified, "a matched guarded pull always changes the document");
        *per_voter.entry(*voter).or_default() += res.modified;
    }
    assert!(per_voter.values().all(|&n| n == 1), "each vote taken back exactly once: {per_voter:?}");
    let stored = read(&coll, f.id().eq(p.id)).await;
    assert_eq!(stored.voter_ids, [kept], "{stored:?}");
    assert_eq!(stored.voter_count, 1, "{stored:?}");
}

// 4. Duplicates written from outside odm are refused by the server.

#[tokio::test]
async fn the_server_refuses_a_duplicate_written_from_outside() {
    let (db, coll) = support::setup::created::<Poll>("cnt_set_outside").await;
    let raw = db.collection::<Document>("shop_poll");
    let a = ObjectId::new();
    let (id, other) = (ObjectId::new(), ObjectId::new());
    let twice = doc! { "_id": id, "vi": [a, a], "vc": 2, "st": [], "sc": 0_i64, "tg": [] };
    let err = raw.insert_one(&twice).await.expect_err("a duplicate voter, counter in step");
    let err = odm::Error::from_write::<Poll>(err);
    assert_eq!(err.code(), Some(121), "{err}");
    let odm::Error::Validation(v) = &err else { panic!("expected a validation error, got {err:?}") };
    assert_eq!(v.failures.len(), 1, "only the duplicate fails: {err}");
    assert_eq!((v.failures[0].path.as_str(), v.failures[0].rule.as_str()), ("Poll.voter_ids", "uniqueItems"));

    // A valid document, then a second vote pushed around odm (as a naive `$push` + `$inc` would).
    raw.insert_one(doc! { "_id": other, "vi": [a], "vc": 1, "st": [], "sc": 0_i64, "tg": ["x"] }).await.unwrap();
    let push = doc! { "$push": { "vi": a }, "$inc": { "vc": 1 } };
    let err = raw.update_one(doc! { "_id": other }, push).await.expect_err("a second vote");
    assert_eq!(odm::Error::from_write::<Poll>(err).code(), Some(121));
    let push = doc! { "$push": { "tg": "x" } };
    let err = raw.update_one(doc! { "_id": other }, push).await.expect_err("a second tag");
    assert_eq!(odm::Error::from_write::<Poll>(err).code(), Some(121));
    let stored = read(&coll, Poll::fields().id().eq(other)).await;
    assert_eq!((stored.voter_ids, stored.voter_count, stored.tags), (vec![a], 1, vec!["x".to_owned()]));
}

// 5. Sets of documents compare elements whole, as `uniqueItems` does.

#[tokio::test]
async fn pull_from_a_set_of_documents_removes_the_equal_element_only() {
    let (db, coll) = support::setup::created::<Poll>("cnt_set_docs").await;
    let f = Poll::fields();
    let p = poll(&[], &[member("ann", "dev"), member("bob", "ops")]);
    coll.insert_one(&p).await.expect("insert");

    let res = coll.update_one(f.id().eq(p.id), Update::new().pull(f.staff(), member("ann", "dev"))).await.unwrap();
    assert_eq!((res.matched, res.modified), (1, 1));
    let stored = read(&coll, f.id().eq(p.id)).await;
    assert_eq!(stored.staff, [member("bob", "ops")]);
    assert_eq!(int64(&support::raw::stored(&db, "shop_poll", p.id).await, "sc"), 1, "still a long");
    // A member with the same name in another role is another element: nothing to remove.
    let res = coll.update_one(f.id().eq(p.id), Update::new().pull(f.staff(), member("bob", "dev"))).await.unwrap();
    assert_eq!((res.matched, res.modified), (0, 0));

    // Written from outside: one member twice, its keys in two orders. The server's `uniqueItems` compares key
    // order and lets it through; odm reads one member twice. `pull` takes neither: removing both would leave the
    // counter (down by one) wrong, so nothing is written, and the caller is told why (not "matched 0", which says
    // "already taken back"); the set is left for the checker to report.
    let id = ObjectId::new();
    mongosh_insert(
        &db,
        "shop_poll",
        &format!(
            r#"{{_id: ObjectId("{id}"), vi: [], vc: 0, st: [{{n: "cy", r: "qa"}}, {{r: "qa", n: "cy"}}], sc: NumberLong(2), tg: []}}"#
        ),
    );
    let before = support::raw::stored(&db, "shop_poll", id).await;
    let err = coll
        .update_one(f.id().eq(id), Update::new().pull(f.staff(), member("cy", "qa")))
        .await
        .expect_err("a pull that would remove two is not applied, and says why");
    let odm::Error::DuplicateInSet(d) = &err else { panic!("expected DuplicateInSet, got {err:?}") };
    assert_eq!((d.path.as_str(), d.stored.as_str(), d.counter.as_str()), ("Poll.staff", "st", "Poll.staff_count"));
    assert_eq!((d.model, &d.id, d.copies), ("Poll", &Bson::ObjectId(id), 2), "{err}");
    assert_eq!(err.model(), Some("Poll"));
    assert_eq!(support::raw::stored(&db, "shop_poll", id).await, before, "nothing written");
    let report = coll.check_schema().await.expect("check");
    assert_eq!(report.failing, 1, "{report}");
    let finding = report.findings.iter().find(|f| f.rule == "array-unique").expect("the set's finding");
    assert_eq!((finding.path.as_str(), finding.count), ("Poll.staff", 1), "{report}");
    assert_eq!(finding.sample_ids, [Bson::ObjectId(id)], "{report}");
}

/// Inserts `document` (mongosh syntax) into `collection` of `db` with mongosh: keys stay in the order written.
fn mongosh_insert(db: &odm::testing::TestDatabase, collection: &str, document: &str) {
    let script = format!("db.getSiblingDB({:?}).getCollection({collection:?}).insertOne({document});", db.name());
    let (code, out) = support::shell::mongosh(&script);
    assert_eq!(code, 0, "{out}");
}

/// A vote: who, and how much it weighs.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Vote {
    #[serde(rename = "v")]
    voter: String,
    #[serde(rename = "w")]
    weight: i32,
    /// Left out when there is none.
    #[serde(rename = "n", skip_serializing_if = "Option::is_none", default)]
    #[odm(max_len = 40)]
    note: Option<String>,
}

fn vote(voter: &str, weight: i32) -> Vote {
    Vote { voter: voter.to_owned(), weight, note: None }
}

/// Weighted votes, one per voter, counted.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_ballot")]
struct Ballot {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "vs")]
    #[odm(max_items = 50, counter = "vote_count", unique_items)]
    votes: Vec<Vote>,
    #[serde(rename = "vc")]
    vote_count: i32,
}

// 5b. A set of documents is a set whatever key order another client wrote.

#[tokio::test]
async fn a_set_of_documents_ignores_the_key_order_another_client_wrote() {
    let (db, coll) = support::setup::created::<Ballot>("cnt_set_order").await;
    let f = Ballot::fields();
    let id = ObjectId::new();
    // Valid, accepted by the validator: the vote's keys in the other order than odm writes them.
    mongosh_insert(&db, "shop_ballot", &format!(r#"{{_id: ObjectId("{id}"), vs: [{{w: 2, v: "v1"}}], vc: 1}}"#));
    let stored = support::raw::stored(&db, "shop_ballot", id).await;
    let keys: Vec<&String> = stored.get_array("vs").unwrap()[0].as_document().unwrap().keys().collect();
    assert_eq!(keys, ["w", "v"], "written in the other order: {stored}");

    // The same vote again: the set holds it, nothing changes.
    let again = Update::new().add_to_set(f.votes(), vote("v1", 2));
    let res = coll.update_one(f.id().eq(id), again).await.expect("add");
    assert_eq!((res.matched, res.modified), (0, 0), "the voter is counted once");
    // Another weight, or the same vote with a note, is another element.
    for other in [vote("v1", 3), Vote { note: Some("late".to_owned()), ..vote("v1", 2) }] {
        let built = Update::<Ballot>::new().add_to_set(f.votes(), other.clone()).build().expect("build");
        let guard = built.guard().cloned().expect("guarded");
        assert!(guard.get_document("vs").unwrap().contains_key("$not"), "{guard}");
        let res = coll.update_one(f.id().eq(id), Update::new().add_to_set(f.votes(), other.clone())).await.unwrap();
        assert_eq!(res.modified, 1, "{other:?}");
        let res = coll.update_one(f.id().eq(id), Update::new().pull(f.votes(), other.clone())).await.unwrap();
        assert_eq!(res.modified, 1, "{other:?} taken back");
    }
    let read_back = read(&coll, f.id().eq(id)).await;
    assert_eq!((read_back.votes.clone(), read_back.vote_count), (vec![vote("v1", 2)], 1));

    // Taking back the vote odm read removes it, and the counter drops once.
    let res = coll.update_one(f.id().eq(id), Update::new().pull(f.votes(), read_back.votes[0].clone())).await.unwrap();
    assert_eq!((res.matched, res.modified), (1, 1));
    let left = read(&coll, f.id().eq(id)).await;
    assert_eq!((left.votes, left.vote_count), (Vec::new(), 0));
    let res = coll.update_one(f.id().eq(id), Update::new().pull(f.votes(), vote("v1", 2))).await.unwrap();
    assert_eq!((res.matched, res.modified), (0, 0), "already taken back");
    assert!(coll.check_schema().await.expect("check").is_clean());

    // A ballot holding the vote in both orders: reported by the checker, and a pull that would remove two for a
    // counter dropping by one is not applied.
    let both = ObjectId::new();
    mongosh_insert(
        &db,
        "shop_ballot",
        &format!(
            r#"{{_id: ObjectId("{both}"), vs: [{{v: "v1", w: 2}}, {{w: 2, v: "v1"}}, {{v: "v2", w: 1}}], vc: 3}}"#
        ),
    );
    let report = coll.check_schema().await.expect("check");
    assert_eq!((report.checked, report.failing), (2, 1), "{report}");
    let finding = &report.findings[0];
    assert_eq!((finding.path.as_str(), finding.rule, finding.count), ("Ballot.votes", "array-unique", 1), "{report}");
    assert_eq!(finding.sample_ids, [Bson::ObjectId(both)], "{report}");
    // The pull is refused with the reason and the fix, not answered "matched 0" as if already taken back.
    let before = support::raw::stored(&db, "shop_ballot", both).await;
    let err = coll
        .update_one(f.id().eq(both), Update::new().pull(f.votes(), vote("v1", 2)))
        .await
        .expect_err("a vote held twice is not taken back as if it were not there");
    let expected = format!(
        "Ballot with _id ObjectId(\"{both}\"): `Ballot.votes` (stored `vs`) holds the element to pull 2 times, the \
         same keys and values in different key orders (the server's `uniqueItems` compares key order, so another \
         client could store both) or stored before the set's validator; pulling it would remove 2 elements while \
         `Ballot.vote_count` drops by one, so nothing was written to it. Run the schema checker \
         (`Collection::check_schema`), which reports such sets under rule `array-unique`, and repair the document: \
         remove the 2 copies and lower `Ballot.vote_count` by 2 in one update, then add the element back with \
         `add_to_set`"
    );
    assert_eq!(err.to_string(), expected);
    let odm::Error::DuplicateInSet(d) = &err else { panic!("expected DuplicateInSet, got {err:?}") };
    assert_eq!((d.model, d.path.as_str(), &d.id, d.copies), ("Ballot", "Ballot.votes", &Bson::ObjectId(both), 2));
    // The same from `find_one_and_update` and `update_many`, and in a transaction (below): nothing written.
    let found = coll
        .find_one_and_update(f.id().eq(both), Update::new().pull(f.votes(), vote("v1", 2)))
        .after()
        .await
        .expect_err("find_one_and_update says why too");
    assert!(matches!(&found, odm::Error::DuplicateInSet(d) if d.copies == 2), "{found}");
    let many = coll.update_many(Filter::everything(), Update::new().pull(f.votes(), vote("v1", 2))).await;
    assert!(matches!(&many, Err(odm::Error::DuplicateInSet(d)) if d.id == Bson::ObjectId(both)), "{many:?}");
    assert_eq!(support::raw::stored(&db, "shop_ballot", both).await, before, "nothing written");
    // A document that is not there, or a vote that is not in the set, is still "matched 0".
    for (ballot, absent) in [(ObjectId::new(), vote("v1", 2)), (both, vote("v9", 2)), (id, vote("v1", 2))] {
        let res = coll.update_one(f.id().eq(ballot), Update::new().pull(f.votes(), absent.clone())).await;
        assert_eq!(res.map(|r| (r.matched, r.modified)).ok(), Some((0, 0)), "{ballot} {absent:?}");
    }
    let res = coll.update_one(f.id().eq(both), Update::new().pull(f.votes(), vote("v2", 1))).await.unwrap();
    assert_eq!(res.modified, 1, "another vote of that ballot is taken back");
    let raw = support::raw::stored(&db, "shop_ballot", both).await;
    assert_eq!((raw.get_array("vs").unwrap().len(), int32(&raw, "vc")), (2, 2), "{raw}");
}

// 5a'. An `update_many` pulling a vote takes it back where a ballot holds it once, leaves a ballot holding it twice,
// and says so: with how many it changed.

#[tokio::test]
async fn update_many_says_which_ballot_it_left_holding_a_pulled_vote_twice() {
    let (db, coll) = support::setup::created::<Ballot>("cnt_set_many_twice").await;
    let f = Ballot::fields();
    let (one, other, both) = (ObjectId::new(), ObjectId::new(), ObjectId::new());
    for (id, votes) in [
        (one, r#"[{w: 2, v: "v1"}]"#),
        (other, r#"[{v: "v1", w: 2}, {v: "v2", w: 1}]"#),
        (both, r#"[{v: "v1", w: 2}, {w: 2, v: "v1"}]"#),
    ] {
        let count = votes.matches('{').count();
        mongosh_insert(&db, "shop_ballot", &format!(r#"{{_id: ObjectId("{id}"), vs: {votes}, vc: {count}}}"#));
    }
    let before = support::raw::stored(&db, "shop_ballot", both).await;
    let err = coll
        .update_many(Filter::everything(), Update::new().pull(f.votes(), vote("v1", 2)))
        .await
        .expect_err("the ballot left is reported");
    let odm::Error::DuplicateInSet(d) = &err else { panic!("expected DuplicateInSet, got {err:?}") };
    assert_eq!((&d.id, d.copies, d.updated), (&Bson::ObjectId(both), 2, 2), "{err}");
    assert!(err.to_string().ends_with(". The update changed 2 other documents it matched"), "{err}");
    // The two holding it once lost it with their counters; the one holding it twice is as it was.
    for (id, left) in [(one, 0), (other, 1)] {
        let raw = support::raw::stored(&db, "shop_ballot", id).await;
        assert_eq!((raw.get_array("vs").unwrap().len(), int32(&raw, "vc")), (left, left as i32), "{raw}");
    }
    assert_eq!(support::raw::stored(&db, "shop_ballot", both).await, before, "nothing written to it");
    // Run again, nothing is left to take back but the ballot holding it twice: reported again, none changed.
    let again = coll.update_many(Filter::everything(), Update::new().pull(f.votes(), vote("v1", 2))).await;
    assert!(matches!(&again, Err(odm::Error::DuplicateInSet(d)) if d.updated == 0), "{again:?}");
}

// 5b'. Telling "not there" from "held twice" costs one read, only when the pull matched nothing.

#[tokio::test]
async fn a_pull_reads_once_more_only_when_it_matched_nothing() {
    let (db, _coll) = support::setup::created::<Ballot>("cnt_set_order_reads").await;
    let (client, recorded) = support::commands::recording_client().await;
    let coll = Collection::<Ballot>::new(&client.database(db.name()));
    let f = Ballot::fields();
    let (one, both) = (ObjectId::new(), ObjectId::new());
    mongosh_insert(&db, "shop_ballot", &format!(r#"{{_id: ObjectId("{one}"), vs: [{{w: 2, v: "v1"}}], vc: 1}}"#));
    mongosh_insert(
        &db,
        "shop_ballot",
        &format!(r#"{{_id: ObjectId("{both}"), vs: [{{v: "v1", w: 2}}, {{w: 2, v: "v1"}}], vc: 2}}"#),
    );
    // The commands a call sends, reads and writes of the collection only.
    let sent = |from: usize| -> Vec<String> {
        let names = recorded.names();
        names[from..]
            .iter()
            .filter(|n| ["update", "aggregate", "find", "findAndModify"].contains(&n.as_str()))
            .cloned()
            .collect()
    };
    let pull = || Update::new().pull(f.votes(), vote("v1", 2));

    let mark = recorded.names().len();
    let res = coll.update_one(f.id().eq(one), pull()).await.expect("taken back");
    assert_eq!((res.matched, res.modified), (1, 1));
    assert_eq!(sent(mark), ["update"], "a pull that applies sends its update and nothing else");

    let mark = recorded.names().len();
    let res = coll.update_one(f.id().eq(one), pull()).await.expect("already taken back");
    assert_eq!((res.matched, res.modified), (0, 0));
    assert_eq!(sent(mark), ["update", "aggregate"], "one read tells why it matched nothing");

    let mark = recorded.names().len();
    let err = coll.update_one(f.id().eq(both), pull()).await.expect_err("held twice");
    assert!(matches!(&err, odm::Error::DuplicateInSet(d) if d.copies == 2), "{err}");
    assert_eq!(sent(mark), ["update", "aggregate"]);
    let stored = support::raw::stored(&db, "shop_ballot", both).await;
    assert_eq!((stored.get_array("vs").unwrap().len(), int32(&stored, "vc")), (2, 2), "nothing written: {stored}");
}

// 5c. The read that tells why a pull matched nothing runs in the update's session, and in its transaction.

#[tokio::test]
async fn a_pull_that_matched_nothing_is_explained_inside_its_transaction() {
    let (db, coll) = support::setup::created::<Ballot>("cnt_set_order_tx").await;
    let f = Ballot::fields();
    // In a session (any server): the ballot written by mongosh, the pull refused with the reason.
    let id = ObjectId::new();
    mongosh_insert(
        &db,
        "shop_ballot",
        &format!(r#"{{_id: ObjectId("{id}"), vs: [{{v: "v1", w: 2}}, {{w: 2, v: "v1"}}], vc: 2}}"#),
    );
    let session = odm::Session::start(db.client()).await.expect("session");
    let err = coll.with_session(&session).update_one(f.id().eq(id), Update::new().pull(f.votes(), vote("v1", 2))).await;
    assert!(matches!(&err, Err(odm::Error::DuplicateInSet(d)) if d.id == Bson::ObjectId(id)), "{err:?}");

    if !support::server::runs_transactions(db.client()).await {
        return;
    }
    // In a transaction: the ballot exists only inside it (written there with the driver, keys in both orders), so
    // only a read made in the transaction finds why the pull matched nothing. The error ends the transaction.
    let inside = ObjectId::new();
    let result: odm::error::Result<()> = odm::Transaction::new(db.client())
        .run(|s| {
            let coll = coll.with_session(&s);
            async move {
                let f = Ballot::fields();
                let ballot = doc! { "_id": inside, "vs": [{ "v": "v1", "w": 2 }, { "w": 2, "v": "v1" }], "vc": 2 };
                let raw = odm::bson::RawDocumentBuf::try_from(&ballot).expect("raw");
                coll.raw().insert_one(raw).session(&mut *s.lock().await).await.expect("insert in the transaction");
                coll.update_one(f.id().eq(inside), Update::new().pull(f.votes(), vote("v1", 2))).await?;
                Ok(())
            }
        })
        .await;
    let err = result.expect_err("the pull is explained inside the transaction");
    let odm::Error::DuplicateInSet(d) = &err else { panic!("expected DuplicateInSet, got {err:?}") };
    assert_eq!((&d.id, d.copies), (&Bson::ObjectId(inside), 2), "{err}");
    assert!(coll.find_one(f.id().eq(inside)).await.expect("read").is_none(), "the transaction was aborted");
}

// 6. The other operations of sets.

#[tokio::test]
async fn sets_take_add_to_set_pop_and_set() {
    let (_db, coll) = support::setup::created::<Poll>("cnt_set_ops").await;
    let f = Poll::fields();
    let voters: Vec<ObjectId> = (0..3).map(|_| ObjectId::new()).collect();
    let p = poll(&voters, &[member("ann", "dev")]);
    coll.insert_one(&p).await.expect("insert");

    // A set without counter: `$addToSet`, `$addToSet` with `$each`, `$pull` and `pull_where` as on any array.
    let u = Update::new().add_each_to_set(f.tags(), ["a", "b", "a"]).pop_last(f.voter_ids());
    assert_eq!(coll.update_one(f.id().eq(p.id), u).await.unwrap().modified, 1);
    let u = Update::new().add_to_set(f.tags(), "b").pull(f.staff(), member("ann", "dev"));
    assert_eq!(coll.update_one(f.id().eq(p.id), u).await.unwrap().modified, 1);
    let stored = read(&coll, f.id().eq(p.id)).await;
    assert_eq!(stored.tags, ["a", "b"]);
    assert_eq!(stored.voter_ids, [voters[0], voters[1]]);
    assert!(stored.staff.is_empty());
    assert_poll_in_step(&stored);
    let u = Update::new().pull(f.tags(), "a").pull(f.voter_ids(), voters[0]);
    assert_eq!(coll.update_one(f.id().eq(p.id), u).await.unwrap().modified, 1);
    let u = Update::new().pull_where(f.tags(), |t| t.eq("b".to_owned()));
    assert_eq!(coll.update_one(f.id().eq(p.id), u).await.unwrap().modified, 1);

    // `set` of the whole set writes its counter; a duplicate in it is refused by the server.
    let u = Update::new().set(f.staff(), vec![member("a", "x"), member("b", "y")]);
    assert_eq!(coll.update_one(f.id().eq(p.id), u).await.unwrap().modified, 1);
    let stored = read(&coll, f.id().eq(p.id)).await;
    assert!(stored.tags.is_empty() && stored.voter_ids == [voters[1]], "{stored:?}");
    assert_poll_in_step(&stored);
    let twice = Update::new().set(f.staff(), vec![member("a", "x"), member("a", "x")]);
    let err = coll.update_one(f.id().eq(p.id), twice).await.expect_err("a duplicate member");
    assert_eq!(err.code(), Some(121), "{err}");
    assert_eq!(read(&coll, f.id().eq(p.id)).await, stored);
}

// 7. The schema checker names duplicates stored before the validator.

#[tokio::test]
async fn the_schema_checker_reports_duplicates() {
    let db = odm::testing::database("cnt_set_check").await;
    db.create_collection("shop_poll").await.expect("create");
    let raw = db.collection::<Document>("shop_poll");
    let (dup, good) = (ObjectId::new(), ObjectId::new());
    let a = ObjectId::new();
    let docs = vec![
        doc! { "_id": dup, "vi": [a], "vc": 1, "st": [], "sc": 0_i64, "tg": ["x", "x"] },
        doc! { "_id": good, "vi": [a], "vc": 1, "st": [], "sc": 0_i64, "tg": ["x"] },
    ];
    support::raw::insert_outside(&raw, docs).await;
    let report = Collection::<Poll>::new(&db).check_schema().await.expect("check");
    assert_eq!(report.failing, 1, "{report}");
    let finding = &report.findings[0];
    assert_eq!((finding.path.as_str(), finding.rule), ("Poll.tags", "array-unique"), "{report}");
    assert_eq!(finding.sample_ids, [Bson::ObjectId(dup)], "{report}");
    let text = finding.to_string();
    assert!(text.starts_with("1 document(s): `Poll.tags` (stored `tg`) holds a value more than once"), "{text}");
    assert!(text.contains("(rule `array-unique`)"), "{text}");
}

/// A large set of ids.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_roster")]
struct Roster {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "m")]
    #[odm(max_items = 2000, unique_items)]
    members: Vec<ObjectId>,
}

// 8. A refused duplicate is named, in a short message.

#[tokio::test]
async fn a_refused_duplicate_is_named_in_a_short_message() {
    let (db, coll) = support::setup::created::<Roster>("cnt_set_dup_named").await;
    let mut members: Vec<ObjectId> = (0..999).map(|_| ObjectId::new()).collect();
    let twice = members[500];
    members.push(twice);
    let err = coll.insert_one(&Roster { id: ObjectId::new(), members }).await.expect_err("a duplicate member");
    assert_eq!(err.code(), Some(121), "{err}");
    let text = err.to_string();
    let named =
        format!("Roster.members: uniqueItems (expected each value once, found ObjectId(\"{twice}\") held twice)");
    assert!(text.contains(&named), "the duplicate is named: {text}");
    assert!(text.contains("Roster.members"), "{text}");
    assert!(text.len() < 400, "{} bytes: {text}", text.len());
    let odm::Error::Validation(v) = &err else { panic!("expected a validation error, got {err:?}") };
    assert_eq!((v.failures[0].rule.as_str(), v.failures[0].path.as_str()), ("uniqueItems", "Roster.members"));
    assert_eq!(db.collection::<Document>("shop_roster").count_documents(doc! {}).await.unwrap(), 0);
}
