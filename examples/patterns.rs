//! The schema-design patterns as declarations, each shown against a real server and asserted: a computed field
//! (votes and their total weight, kept in one statement with the counted set), the subset pattern (the latest reviews
//! embedded, every review in its own collection), a bucket of readings with its computed fields, collections per
//! month with a retention of whole months, a field-to-field condition, and each model's document-size budget.
//!
//! Run it with `cargo run --example patterns`: it starts the embedded test server (or uses `MONGODB_URI`).

use chrono::{Datelike, Months, TimeZone, Utc};
use odm::bson::{oid::ObjectId, DateTime};
use odm::bucket::AddReading;
use odm::prelude::*;
use odm::subset::{overflow_of, PushKeeping};
use serde::{Deserialize, Serialize};

/// One vote: who, and how much it weighs.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Vote {
    #[serde(rename = "v")]
    #[odm(max_len = 40)]
    voter: String,
    #[serde(rename = "w")]
    weight: i32,
}

/// A poll: a counted set of votes, their total weight and the heaviest vote, computed fields kept with the votes.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "poll_question")]
struct Poll {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "vs")]
    #[odm(max_items = 1000, counter = "voters", unique_items)]
    votes: Vec<Vote>,
    #[serde(rename = "n")]
    voters: i32,
    #[serde(rename = "w")]
    #[odm(sum = "votes.weight")]
    weight: i64,
}

/// A review as a product embeds it.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct ReviewText {
    #[serde(rename = "by")]
    #[odm(max_len = 40)]
    author: String,
    #[serde(rename = "s")]
    stars: i32,
}

/// A product with its 3 latest reviews embedded; every review is kept in `shop_review`.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_product")]
struct Product {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rv")]
    #[odm(max_items = 3, keep_last, overflow(model = "Review", owner = "product"))]
    recent: Vec<ReviewText>,
    /// Every review, not only the embedded ones: kept by each push, in its statement.
    #[serde(rename = "rc")]
    review_count: i32,
    /// The stars of every review, for the average.
    #[serde(rename = "st")]
    star_total: i64,
}

/// Every review of every product.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_review", index(keys = "product, -id"))]
struct Review {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "pr")]
    product: ObjectId,
    #[serde(rename = "by")]
    #[odm(max_len = 40)]
    author: String,
    #[serde(rename = "s")]
    stars: i32,
}

/// One measurement.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Reading {
    #[serde(rename = "t")]
    at: DateTime,
    #[serde(rename = "v")]
    value: i64,
}

/// Up to 4 readings of one sensor, with their count, sum and highest value.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "iot_reading_bucket", bucket(key = "sensor", items = "readings"))]
#[odm(index(keys = "sensor, count"))]
struct SensorBucket {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    #[odm(max_len = 20)]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 4, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
    #[serde(rename = "sm")]
    #[odm(sum = "readings.value")]
    total: i64,
    #[serde(rename = "mx", skip_serializing_if = "Option::is_none")]
    #[odm(max = "readings.value")]
    highest: Option<i64>,
}

/// An application event, in one collection per month; the last 2 months are kept.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "log_app_event_{yyyymm}", keep_periods = 2, index(keys = "at"))]
struct AppEvent {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "at")]
    at: DateTime,
    #[serde(rename = "k")]
    #[odm(max_len = 40)]
    kind: String,
}

/// An order line: how many were ordered, how many shipped.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_order_line")]
struct OrderLine {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "o")]
    ordered: i32,
    #[serde(rename = "sh")]
    shipped: i32,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let test_db = odm::testing::database("patterns").await;
    let db: &odm::mongodb::Database = &test_db;
    SchemaSync::new(db.client())
        .database(db.name())
        .model::<Poll>()
        .model::<Product>()
        .model::<Review>()
        .model::<SensorBucket>()
        .model::<OrderLine>()
        .await?
        .require_in_sync()?;

    // Computed field: a vote, its weight and the voter count in one statement; the same voter twice counts once, and
    // a vote taken back takes its weight with it.
    let polls = Collection::<Poll>::new(db);
    let p = Poll::fields();
    let poll = ObjectId::new();
    polls.insert_one(Poll { id: poll, votes: vec![], voters: 0, weight: 0 }).await?;
    for (voter, weight) in [("ann", 3), ("bob", 5), ("ann", 3), ("cyd", 7)] {
        let vote = Vote { voter: voter.into(), weight };
        polls.update_one(p.id().eq(poll), Update::new().add_to_set(p.votes(), vote)).await?;
    }
    let back = Vote { voter: "bob".into(), weight: 5 };
    polls.update_one(p.id().eq(poll), Update::new().pull(p.votes(), back)).await?;
    let tally = polls.find_one(p.id().eq(poll)).await?.expect("the poll");
    println!("poll: {} voters, total weight {}", tally.voters, tally.weight);
    assert_eq!((tally.voters, tally.weight), (2, 10));

    // Subset: the 3 latest reviews embedded; all of them kept in their own collection (in one transaction where the
    // server runs them).
    let (products, reviews) = (Collection::<Product>::new(db), Collection::<Review>::new(db));
    let product = ObjectId::new();
    products.insert_one(Product { id: product, recent: vec![], review_count: 0, star_total: 0 }).await?;
    let pf = Product::fields();
    for (i, stars) in [5, 4, 2, 5, 3].into_iter().enumerate() {
        let review = ReviewText { author: format!("reader{i}"), stars };
        // The count and the sum of stars move with the push, in the same statement.
        let counted = Update::new().inc(pf.review_count(), 1).inc(pf.star_total(), i64::from(stars));
        PushKeeping::new(&products, &reviews, product, review).also(counted).await?;
    }
    let page = products.find_one(pf.id().eq(product)).await?.expect("the product");
    let (embedded, count, stars) = (page.recent, page.review_count, page.star_total);
    let all = overflow_of::<Product, _>(&reviews, product).await?;
    println!("product: {} reviews embedded, {} kept, {count} counted, {stars} stars", embedded.len(), all.len());
    assert_eq!((embedded.len(), all.len(), count, stars), (3, 5, 5, 19));
    assert_eq!(embedded.last().map(|r| r.author.as_str()), Some("reader4"), "the latest is embedded");

    // Bucket: readings fill a sensor's bucket of 4, then open the next; the count, sum and maximum follow each one.
    let buckets = Collection::<SensorBucket>::new(db);
    let b = SensorBucket::fields();
    let start = DateTime::now().timestamp_millis();
    let mut opened = 0;
    for (i, value) in [12, 40, 7, 33, 21, 5].into_iter().enumerate() {
        let reading = Reading { at: DateTime::from_millis(start + i as i64 * 1000), value };
        opened += usize::from(AddReading::new(&buckets, b.sensor().eq("s-17"), reading).await?.opened.is_some());
    }
    let mut filled = buckets.find(b.sensor().eq("s-17")).await?;
    filled.sort_by_key(|s| -s.count);
    let summary: Vec<(i32, i64, Option<i64>)> = filled.iter().map(|s| (s.count, s.total, s.highest)).collect();
    println!("buckets of s-17 (count, sum, highest): {summary:?}");
    assert_eq!(opened, 2);
    assert_eq!(summary, [(4, 92, Some(40)), (2, 26, Some(21))]);

    // Collections per month: this month's and the two before; the retention drops whole months past the last 2.
    let today = Utc::now();
    let this_month = Utc.with_ymd_and_hms(today.year(), today.month(), 1, 12, 0, 0).single().expect("a date");
    let months = [Months::new(2), Months::new(1), Months::new(0)].map(|back| this_month - back);
    for at in months.map(DateTime::from_chrono) {
        SchemaSync::new(db.client()).database(db.name()).periods::<AppEvent>(at, 1)?.await?.require_in_sync()?;
        let month = Collection::<AppEvent>::instance(db, at)?;
        month.insert_one(AppEvent { id: ObjectId::new(), at, kind: "login".into() }).await?;
    }
    let live = odm::collection::instances::<AppEvent>(db).await?;
    let dropped = odm::collection::drop_expired::<AppEvent>(db, DateTime::now()).await?.dropped;
    let left = odm::collection::instances::<AppEvent>(db).await?;
    println!("months: {} live, dropped {dropped:?}, {} left", live.len(), left.len());
    assert_eq!((live.len(), dropped.len(), left.len()), (3, 1, 2));

    // Field-to-field condition: the lines shipped short, compared on the server within each document.
    let lines = Collection::<OrderLine>::new(db);
    let l = OrderLine::fields();
    for (ordered, shipped) in [(3, 3), (5, 2), (1, 0)] {
        lines.insert_one(OrderLine { id: ObjectId::new(), ordered, shipped }).await?;
    }
    let short = lines.find(l.shipped().lt_field(l.ordered())).await?;
    println!("lines shipped short: {}", short.len());
    assert_eq!(short.len(), 2);

    // Document-size budget: each model's worst case, computed at compile time from its bounds.
    for (model, budget) in [("Poll", Poll::size_budget()), ("SensorBucket", SensorBucket::size_budget())] {
        println!("{model}: {budget}");
    }
    test_db.close().await;
    Ok(())
}
