//! Computed fields against the real server: a product's review count, star total, best and worst stars, and a
//! sensor's highest reading follow every typed update of their arrays in the same statement (concurrent writers
//! included); writes whose effect is unknown are refused before sending; the validator refuses documents written
//! around odm with a drifted value, naming the field and rule; the schema checker finds documents that drifted.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Document};
use odm::error::Invalid;
use odm::schema::parts::Check;
use odm::{Collection, Embedded, Error, Model, Update};
use serde::{Deserialize, Serialize};
use support::raw::insert_outside;
use support::setup::synced;

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Review {
    #[serde(rename = "by")]
    #[odm(max_len = 40)]
    author: String,
    #[serde(rename = "s")]
    stars: i32,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rv")]
    #[odm(max_items = 50, counter = "review_count")]
    reviews: Vec<Review>,
    #[serde(rename = "rc")]
    review_count: i32,
    #[serde(rename = "st")]
    #[odm(sum = "reviews.stars")]
    star_total: i64,
    #[serde(rename = "bs", skip_serializing_if = "Option::is_none")]
    #[odm(max = "reviews.stars")]
    best_stars: Option<i32>,
    #[serde(rename = "ws", skip_serializing_if = "Option::is_none")]
    #[odm(min = "reviews.stars")]
    worst_stars: Option<i32>,
}

/// A sensor's readings (numbers), with their highest value.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "iot_sensor")]
struct Sensor {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "r")]
    #[odm(max_items = 1000)]
    readings: Vec<f64>,
    #[serde(rename = "mx", skip_serializing_if = "Option::is_none")]
    #[odm(max = "readings")]
    max_reading: Option<f64>,
}

fn review(author: &str, stars: i32) -> Review {
    Review { author: author.into(), stars }
}

fn empty(id: ObjectId) -> Product {
    Product { id, reviews: vec![], review_count: 0, star_total: 0, best_stars: None, worst_stars: None }
}

async fn product(coll: &Collection<Product>, id: ObjectId) -> Product {
    coll.find_one(Product::fields().id().eq(id)).await.unwrap().expect("the product")
}

#[tokio::test]
async fn every_typed_write_keeps_the_computed_fields_in_step() {
    let (_db, coll) = synced::<Product>("computed_steps").await;
    let f = Product::fields();
    let id = ObjectId::new();
    coll.insert_one(empty(id)).await.unwrap();

    coll.update_one(f.id().eq(id), Update::new().push(f.reviews(), review("ann", 4))).await.unwrap();
    let p = product(&coll, id).await;
    assert_eq!((p.review_count, p.star_total, p.best_stars, p.worst_stars), (1, 4, Some(4), Some(4)));

    let more = [review("bob", 2), review("cyd", 5)];
    coll.update_one(f.id().eq(id), Update::new().push_each(f.reviews(), more)).await.unwrap();
    let p = product(&coll, id).await;
    assert_eq!((p.review_count, p.star_total, p.best_stars, p.worst_stars), (3, 11, Some(5), Some(2)));

    // A counted set's add_to_set is guarded: the same review twice counts once, in the sum too.
    for _ in 0..2 {
        coll.update_one(f.id().eq(id), Update::new().add_to_set(f.reviews(), review("dee", 1))).await.unwrap();
    }
    let p = product(&coll, id).await;
    assert_eq!((p.review_count, p.star_total, p.worst_stars), (4, 12, Some(1)));

    // Setting the whole array sets every computed field from it; an empty array unsets the minimum and maximum.
    coll.update_one(f.id().eq(id), Update::new().set(f.reviews(), vec![review("eve", 3)])).await.unwrap();
    let p = product(&coll, id).await;
    assert_eq!((p.review_count, p.star_total, p.best_stars, p.worst_stars), (1, 3, Some(3), Some(3)));
    coll.update_one(f.id().eq(id), Update::new().set(f.reviews(), vec![])).await.unwrap();
    assert_eq!(product(&coll, id).await, empty(id));

    // Writes to other fields of an element are free; to the summed field in place, refused before sending.
    coll.update_one(f.id().eq(id), Update::new().push(f.reviews(), review("fay", 2))).await.unwrap();
    let renamed = Update::new().set(f.reviews().at(0).author(), "flo".to_owned());
    coll.update_one(f.id().eq(id), renamed).await.unwrap();
    let restar = Update::new().set(f.reviews().at(0).stars(), 5);
    let err = coll.update_one(f.id().eq(id), restar).await.unwrap_err();
    assert!(matches!(&err, Error::InvalidOperation { cause: Invalid::ComputedUnknown { .. }, .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("Product.reviews[0].stars") && text.contains("computed-in-step"), "{text}");
    let p = product(&coll, id).await;
    assert_eq!((p.reviews[0].author.as_str(), p.star_total, p.best_stars), ("flo", 2, Some(2)));
}

#[tokio::test]
async fn taking_one_review_back_takes_its_stars_out_of_the_sum() {
    let (_db, coll) = synced::<Product>("computed_pull").await;
    let f = Product::fields();
    let id = ObjectId::new();
    coll.insert_one(empty(id)).await.unwrap();
    // Removing an element that may be the maximum or minimum is refused: the next one is not known.
    let pop = Update::new().pop_last(f.reviews());
    assert!(matches!(coll.update_one(f.id().eq(id), pop).await, Err(Error::InvalidOperation { .. })));

    let (_db, sums) = synced::<Tally>("computed_pull_sum").await;
    let t = Tally::fields();
    sums.insert_one(Tally { id, votes: vec![], voters: 0, weight: 0 }).await.unwrap();
    for (voter, w) in [("a", 3), ("b", 5), ("c", 7)] {
        sums.update_one(t.id().eq(id), Update::new().add_to_set(t.votes(), Vote { voter: voter.into(), weight: w }))
            .await
            .unwrap();
    }
    // Taking one vote back twice, concurrently: it leaves once, and its weight once.
    let back = || Update::new().pull(t.votes(), Vote { voter: "b".into(), weight: 5 });
    let (a, b) = tokio::join!(sums.update_one(t.id().eq(id), back()), sums.update_one(t.id().eq(id), back()));
    assert_eq!(a.unwrap().modified + b.unwrap().modified, 1, "one take-back applies");
    let tally = sums.find_one(t.id().eq(id)).await.unwrap().unwrap();
    assert_eq!((tally.voters, tally.weight), (2, 10));
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Vote {
    #[serde(rename = "v")]
    #[odm(max_len = 20)]
    voter: String,
    #[serde(rename = "w")]
    weight: i32,
}

/// Votes with their total weight.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "poll_tally")]
struct Tally {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "vs")]
    #[odm(max_items = 100, counter = "voters", unique_items)]
    votes: Vec<Vote>,
    #[serde(rename = "n")]
    voters: i32,
    #[serde(rename = "w")]
    #[odm(sum = "votes.weight")]
    weight: i64,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_readings_leave_the_true_maximum() {
    let (_db, coll) = synced::<Sensor>("computed_concurrent").await;
    let f = Sensor::fields();
    let id = ObjectId::new();
    coll.insert_one(Sensor { id, readings: vec![], max_reading: None }).await.unwrap();
    let mut tasks = Vec::new();
    for t in 0..8 {
        let coll = coll.clone();
        tasks.push(tokio::spawn(async move {
            let f = Sensor::fields();
            for i in 0..10 {
                let value = f64::from((t * 37 + i * 11) % 97) + 0.5;
                coll.update_one(f.id().eq(id), Update::new().push(f.readings(), value)).await.unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let s = coll.find_one(f.id().eq(id)).await.unwrap().unwrap();
    assert_eq!(s.readings.len(), 80);
    let max = s.readings.iter().copied().fold(f64::MIN, f64::max);
    assert_eq!(s.max_reading, Some(max));
}

#[tokio::test]
async fn the_validator_refuses_a_drifted_value_and_the_checker_finds_one() {
    let (db, coll) = synced::<Product>("computed_hostile").await;
    let raw = db.collection::<Document>(Product::COLLECTION);
    let good = doc! { "_id": ObjectId::new(), "rv": [{ "by": "a", "s": 4 }, { "by": "b", "s": 2 }], "rc": 2, "st": 6_i64, "bs": 4, "ws": 2 };
    raw.insert_one(good.clone()).await.expect("a document in step is accepted");
    for (field, wrong) in [("st", odm::bson::Bson::Int64(7)), ("bs", 3.into()), ("ws", 4.into())] {
        let mut bad = good.clone();
        bad.insert("_id", ObjectId::new());
        bad.insert(field, wrong);
        let err = raw.insert_one(bad).await.expect_err("a drifted value is refused");
        assert!(err.to_string().contains("121") || err.to_string().contains("validation"), "{err}");
    }
    let mut absent = good.clone();
    absent.insert("_id", ObjectId::new());
    absent.remove("bs");
    assert!(raw.insert_one(absent).await.is_err(), "a maximum missing beside a non-empty array is refused");

    // Through odm, a refused write names the Rust field and the rule.
    let f = Product::fields();
    let id = good.get_object_id("_id").unwrap();
    let mut off = product(&coll, id).await;
    off.id = ObjectId::new();
    off.star_total = 99;
    let err = coll.insert_one(off).await.unwrap_err();
    let Error::Validation(v) = &err else { panic!("{err:?}") };
    let failure = v.failures.iter().find(|x| x.stored_path == "st").unwrap_or_else(|| panic!("{v}"));
    assert_eq!(failure.rule_id(), "computed-in-step", "{v}");
    assert!(failure.expected.as_deref().unwrap_or_default().contains("sum of Product.reviews[].stars"), "{v}");

    // Written around the validator: the checker names the drifted field, the rule, and the document.
    let drifted =
        doc! { "_id": ObjectId::new(), "rv": [{ "by": "c", "s": 5 }], "rc": 1, "st": 1_i64, "bs": 5, "ws": 5 };
    insert_outside(&raw, vec![drifted.clone()]).await;
    let report = coll.check_schema().await.expect("check");
    let finding = report.findings.iter().find(|x| x.check == Check::Computed).unwrap_or_else(|| panic!("{report}"));
    assert_eq!((finding.path.as_str(), finding.rule, finding.count), ("Product.star_total", "computed-in-step", 1));
    assert_eq!(finding.sample_ids, vec![drifted.get("_id").unwrap().clone()]);
    assert!(report.to_string().contains("Product.star_total"), "{report}");
    let _ = f;
}

#[test]
fn the_validator_holds_one_check_per_computed_field() {
    let v = Product::validator();
    let clauses = v.get_array("$and").expect("several checks");
    let text = format!("{clauses:?}");
    for op in ["$sum", "$max", "$min", "$size"] {
        assert!(text.contains(op), "{op} in {text}");
    }
    assert_eq!(clauses.len(), 4, "the counter and three computed fields");
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Member {
    #[serde(rename = "n")]
    #[odm(max_len = 20)]
    name: String,
    #[serde(rename = "s")]
    salary: i64,
}

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Dept {
    #[serde(rename = "mb")]
    #[odm(max_items = 20)]
    members: Vec<Member>,
    #[serde(rename = "ts")]
    #[odm(sum = "members.salary")]
    total_salary: i64,
}

/// Departments, each with its payroll: computed fields inside an array's elements.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "hr_company")]
struct Company {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "d")]
    #[odm(max_items = 10)]
    depts: Vec<Dept>,
}

#[tokio::test]
async fn computed_fields_inside_elements_follow_their_own_array() {
    let (db, coll) = synced::<Company>("computed_nested").await;
    let f = Company::fields();
    let id = ObjectId::new();
    let dept = |salaries: &[i64]| Dept {
        members: salaries.iter().map(|&s| Member { name: format!("m{s}"), salary: s }).collect(),
        total_salary: salaries.iter().sum(),
    };
    coll.insert_one(Company { id, depts: vec![dept(&[10]), dept(&[])] }).await.unwrap();
    let hire = Update::new().push(f.depts().at(1).members(), Member { name: "new".into(), salary: 7 });
    assert_eq!(
        hire.clone().build().unwrap().update,
        doc! { "$inc": { "d.1.ts": 7_i64 }, "$push": { "d.1.mb": { "n": "new", "s": 7_i64 } } }
    );
    coll.update_one(f.id().eq(id), hire).await.unwrap();
    let everyone = Update::new().push(f.depts().each().members(), Member { name: "all".into(), salary: 1 });
    coll.update_one(f.id().eq(id), everyone).await.unwrap();
    let c = coll.find_one(f.id().eq(id)).await.unwrap().unwrap();
    assert_eq!(c.depts.iter().map(|d| d.total_salary).collect::<Vec<_>>(), [11, 8]);
    // Around odm, a department whose payroll drifted is refused by the check over every element.
    let raw = db.collection::<Document>(Company::COLLECTION);
    let bad = doc! { "_id": ObjectId::new(), "d": [{ "mb": [{ "n": "a", "s": 5_i64 }], "ts": 6_i64 }] };
    assert!(raw.insert_one(bad).await.is_err(), "a drifted payroll inside an element is refused");
}

/// An order whose total is the sum of two fields.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_order")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "sb")]
    subtotal: i64,
    #[serde(rename = "sh")]
    shipping: i32,
    #[serde(rename = "t")]
    #[odm(sum = "subtotal, shipping")]
    total: i64,
}

#[tokio::test]
async fn a_sum_of_fields_follows_each_increment() {
    let (db, coll) = synced::<Order>("computed_fields_sum").await;
    let f = Order::fields();
    let id = ObjectId::new();
    coll.insert_one(Order { id, subtotal: 1000, shipping: 250, total: 1250 }).await.unwrap();
    let more = Update::new().inc(f.subtotal(), 300).inc(f.shipping(), -50);
    assert_eq!(more.clone().build().unwrap().update, doc! { "$inc": { "sb": 300_i64, "sh": -50, "t": 250_i64 } });
    coll.update_one(f.id().eq(id), more).await.unwrap();
    let o = coll.find_one(f.id().eq(id)).await.unwrap().unwrap();
    assert_eq!((o.subtotal, o.shipping, o.total), (1300, 200, 1500));

    // Setting an addend would leave the sum unknown: refused before sending, naming both fields.
    let err = coll.update_one(f.id().eq(id), Update::new().set(f.shipping(), 0)).await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("Order.shipping") && text.contains("Order.total") && text.contains("`inc`"), "{text}");

    // Around odm: a total that is not the sum is refused, and named when odm writes it.
    let raw = db.collection::<Document>(Order::COLLECTION);
    let off = doc! { "_id": ObjectId::new(), "sb": 10_i64, "sh": 5, "t": 16_i64 };
    assert!(raw.insert_one(off).await.is_err(), "a total that is not the sum is refused");
    let err = coll.insert_one(Order { id: ObjectId::new(), subtotal: 1, shipping: 1, total: 3 }).await.unwrap_err();
    let Error::Validation(v) = &err else { panic!("{err:?}") };
    let failure = v.failures.iter().find(|x| x.stored_path == "t").unwrap_or_else(|| panic!("{v}"));
    assert_eq!(failure.rule_id(), "computed-in-step", "{v}");
    assert_eq!(failure.expected.as_deref(), Some("the sum of Order.subtotal and Order.shipping"), "{v}");

    let drifted = doc! { "_id": ObjectId::new(), "sb": 10_i64, "sh": 5, "t": 99_i64 };
    insert_outside(&raw, vec![drifted]).await;
    let report = coll.check_schema().await.expect("check");
    let finding = report.findings.iter().find(|x| x.check == Check::Computed).unwrap_or_else(|| panic!("{report}"));
    assert_eq!((finding.path.as_str(), finding.count), ("Order.total", 1), "{report}");
    assert_eq!(finding.array.as_deref(), Some("Order.subtotal`, `Order.shipping"), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_diff_that_pushes_keeps_the_computed_fields_in_step_even_concurrently() {
    let (_db, coll) = synced::<Product>("computed_diff").await;
    let f = Product::fields();
    let id = ObjectId::new();
    coll.insert_one(empty(id)).await.unwrap();

    // The new value pushes a review and leaves the computed fields as they were: the update computes them.
    let old = product(&coll, id).await;
    let mut new = old.clone();
    new.reviews.push(review("ann", 4));
    new.review_count += 1;
    let built = Update::diff(&old, &new).build().unwrap().update;
    assert_eq!(
        built,
        doc! { "$inc": { "rc": 1, "st": 4_i64 }, "$max": { "bs": 4 }, "$min": { "ws": 4 }, "$push": { "rv": { "by": "ann", "s": 4 } } }
    );
    coll.update_changes(f.id().eq(id), &old, &new).await.unwrap();

    // Writers that read the same document, each pushing a review and computing the fields itself: their sets
    // become increments and `$max`/`$min`, so no push is lost and the validator's check holds.
    let base = product(&coll, id).await;
    let mut writers = Vec::new();
    for (i, stars) in [5, 1, 3, 2].into_iter().enumerate() {
        let (coll, old) = (coll.clone(), base.clone());
        writers.push(tokio::spawn(async move {
            let mut new = old.clone();
            new.reviews.push(review(&format!("w{i}"), stars));
            new.review_count += 1;
            new.star_total += i64::from(stars);
            new.best_stars = new.best_stars.max(Some(stars));
            new.worst_stars = Some(new.worst_stars.map_or(stars, |w| w.min(stars)));
            coll.update_changes(Product::fields().id().eq(id), &old, &new).await.unwrap();
        }));
    }
    for w in writers {
        w.await.unwrap();
    }
    let p = product(&coll, id).await;
    assert_eq!((p.review_count, p.star_total, p.best_stars, p.worst_stars), (5, 15, Some(5), Some(1)));
}
