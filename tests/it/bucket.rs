//! The bucket pattern against the real server: readings fill a key's buckets up to their size and open the next
//! ones, with exact counts; concurrent writers lose no reading and never overfill a bucket; a bucket written from
//! outside odm with a counter out of step is refused by the validator; a key filter that does not hold the key is
//! refused before anything is sent.

use crate::support;

use odm::bson::{doc, oid::ObjectId, DateTime, Document};
use odm::bucket::{AddReading, Bucket};
use odm::error::Invalid;
use odm::{Collection, Embedded, Error, Model, Update, Upgrade, Version};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One measurement.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Reading {
    #[serde(rename = "t")]
    at: DateTime,
    #[serde(rename = "v")]
    value: i64,
}

/// Up to 5 readings of one sensor on one day.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "iot_reading_bucket")]
#[odm(bucket(key = "sensor, day", items = "readings"))]
#[odm(index(keys = "sensor, day, count"))]
struct SensorDay {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "d")]
    day: DateTime,
    #[serde(rename = "r")]
    #[odm(max_items = 5, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
    /// Set later by whoever reviews the day: absent in a bucket a reading opens.
    #[serde(rename = "nt", skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    /// The earliest reading's time, kept by each reading added.
    #[serde(rename = "ft", skip_serializing_if = "Option::is_none")]
    #[odm(min = "readings.at")]
    first: Option<DateTime>,
    /// The latest reading's time.
    #[serde(rename = "lt", skip_serializing_if = "Option::is_none")]
    #[odm(max = "readings.at")]
    last: Option<DateTime>,
    /// The sum of the readings' values.
    #[serde(rename = "sm")]
    #[odm(sum = "readings.value")]
    total: i64,
}

/// Up to 2 readings of one sensor, counted by a `long`.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "iot_reading_pair", bucket(key = "sensor", items = "readings"))]
#[odm(index(keys = "sensor, count"))]
struct SensorPair {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 2, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i64,
}

/// Version 1 of a sensor's buckets: written before the model was versioned, no version key.
#[derive(Embedded, Deserialize)]
#[odm(closed)]
struct SensorLogV1 {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 3, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
}

impl Upgrade for SensorLogV1 {
    type Next = SensorLog;
    fn upgrade(self) -> SensorLog {
        SensorLog { id: self.id, v: Version, sensor: self.sensor, readings: self.readings, count: self.count }
    }
}

/// Up to 3 readings of one sensor, at version 2: each bucket stores its version.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "iot_sensor_log", version = 2, older(SensorLogV1), closed)]
#[odm(bucket(key = "sensor", items = "readings"), index(keys = "sensor, count"))]
struct SensorLog {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "_v")]
    v: Version<2>,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 3, counter = "count")]
    readings: Vec<Reading>,
    #[serde(rename = "n")]
    count: i32,
}

const SIZE: usize = 5;

fn day() -> DateTime {
    DateTime::from_millis(1_764_892_800_000)
}

fn reading(value: i64) -> Reading {
    Reading { at: DateTime::from_millis(1_764_892_800_000 + value), value }
}

async fn add(buckets: &Collection<SensorDay>, sensor: &str, value: i64) -> odm::error::Result<bool> {
    let f = SensorDay::fields();
    let key = f.sensor().eq(sensor).and(f.day().eq(day()));
    // The count, the earliest and latest times and the sum follow the reading in the same upsert.
    Ok(AddReading::new(buckets, key, reading(value)).await?.opened.is_some())
}

/// The buckets of `sensor`, each checked: never over the size, the array as long as its counter.
async fn buckets_of(buckets: &Collection<SensorDay>, sensor: &str) -> Vec<SensorDay> {
    let all = buckets.find(SensorDay::fields().sensor().eq(sensor)).await.expect("read the buckets");
    for b in &all {
        assert!(b.count as usize <= SIZE, "bucket {} holds {} readings, over the size {SIZE}", b.id, b.count);
        assert_eq!(b.readings.len(), b.count as usize, "bucket {}: the counter is out of step", b.id);
        assert_eq!(b.day, day(), "the bucket stores its key");
        let times = b.readings.iter().map(|r| r.at);
        assert_eq!((b.first, b.last), (times.clone().min(), times.max()), "bucket {}: first and last kept", b.id);
        assert_eq!(b.total, b.readings.iter().map(|r| r.value).sum::<i64>(), "bucket {}: the sum is kept", b.id);
    }
    all
}

#[test]
fn the_layout_is_read_from_the_declaration() {
    let layout = SensorDay::layout();
    assert_eq!(layout.key, [("sensor", "s"), ("day", "d")]);
    assert_eq!((layout.items, layout.counter, layout.size, layout.counter_long), ("r", "n", 5, false));
}

#[tokio::test]
async fn readings_fill_a_keys_buckets_in_turn() {
    let (_db, buckets) = support::setup::synced::<SensorDay>("bucket_fill").await;
    let mut opened = 0;
    for v in 0..12 {
        opened += usize::from(add(&buckets, "s1", v).await.expect("add to s1"));
    }
    for v in 0..3 {
        opened += usize::from(add(&buckets, "s2", 100 + v).await.expect("add to s2"));
    }
    assert_eq!(opened, 3 + 1, "ceil(12 / 5) buckets for s1, one for s2");
    let mut s1: Vec<i32> = buckets_of(&buckets, "s1").await.iter().map(|b| b.count).collect();
    s1.sort_unstable();
    assert_eq!(s1, [2, 5, 5]);
    let s2 = buckets_of(&buckets, "s2").await;
    assert_eq!(s2.len(), 1);
    assert_eq!(s2[0].readings, (100..103).map(reading).collect::<Vec<_>>(), "in the order they were added");
    assert_eq!(s2[0].note, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_lose_no_reading_and_never_overfill_a_bucket() {
    let (_db, buckets) = support::setup::synced::<SensorDay>("bucket_concurrent").await;
    let (writers, each) = (8, 30);
    let tasks: Vec<_> = (0..writers)
        .map(|w| {
            let buckets = buckets.clone();
            tokio::spawn(async move {
                for i in 0..each {
                    add(&buckets, "hot", w * 1000 + i).await.expect("add concurrently");
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("writer");
    }
    let all = buckets_of(&buckets, "hot").await;
    let values: BTreeSet<i64> = all.iter().flat_map(|b| b.readings.iter().map(|r| r.value)).collect();
    let expected: BTreeSet<i64> = (0..writers).flat_map(|w| (0..each).map(move |i| w * 1000 + i)).collect();
    assert_eq!(values, expected, "every reading is stored");
    let total: i32 = all.iter().map(|b| b.count).sum();
    assert_eq!(total as usize, expected.len(), "each reading is stored once");
    assert!(all.len() >= expected.len().div_ceil(SIZE), "{} buckets", all.len());
}

#[tokio::test]
async fn a_bucket_written_outside_odm_with_its_counter_out_of_step_is_refused() {
    let (db, buckets) = support::setup::synced::<SensorDay>("bucket_outside").await;
    let raw = db.collection::<Document>("iot_reading_bucket");
    let r = |v: i64| doc! { "t": DateTime::from_millis(v), "v": v };
    let wrong = doc! { "_id": ObjectId::new(), "s": "x", "d": day(), "r": [r(1), r(2)], "n": 3 };
    let err = raw.insert_one(wrong).await.expect_err("a counter out of step is refused");
    assert!(err.to_string().contains("121") || err.to_string().contains("validation"), "{err}");
    let over = doc! { "_id": ObjectId::new(), "s": "x", "d": day(), "r": (0..6).map(r).collect::<Vec<_>>(), "n": 6 };
    raw.insert_one(over).await.expect_err("a bucket over its size is refused");
    // A push without the counter, as a program unaware of the counter would write it.
    add(&buckets, "x", 1).await.expect("open a bucket");
    let err = raw
        .update_one(doc! { "s": "x" }, doc! { "$push": { "r": r(2) } })
        .await
        .expect_err("a push that leaves the counter behind is refused");
    assert!(err.to_string().contains("121") || err.to_string().contains("validation"), "{err}");
    assert_eq!(buckets_of(&buckets, "x").await[0].count, 1);
}

#[tokio::test]
async fn a_key_filter_that_does_not_hold_the_key_is_refused_before_sending() {
    let (_db, buckets) = support::setup::synced::<SensorDay>("bucket_key").await;
    let f = SensorDay::fields();
    let no_day = AddReading::new(&buckets, f.sensor().eq("s1"), reading(1)).await;
    let Err(Error::InvalidOperation { cause: Invalid::BucketKey { path }, .. }) = no_day else {
        panic!("expected a refused key, got {no_day:?}")
    };
    assert_eq!(path.stored(), "d");
    let range = f.sensor().eq("s1").and(f.day().gte(day()));
    let e = AddReading::new(&buckets, range, reading(1)).await.expect_err("a range is no key");
    assert!(e.to_string().contains("SensorDay.day"), "{e}");
    let counter = f.sensor().eq("s1").and(f.day().eq(day())).and(f.count().eq(0));
    let e = AddReading::new(&buckets, counter, reading(1)).await.expect_err("the counter is not part of the key");
    assert!(matches!(&e, Error::InvalidOperation { cause: Invalid::BucketKey { path }, .. } if path.stored() == "n"));
    let key = || f.sensor().eq("s1").and(f.day().eq(day()));
    let e = AddReading::new(&buckets, key(), reading(1))
        .also(Update::new().push(f.readings(), reading(2)))
        .await
        .expect_err("the array takes one reading per call");
    assert!(matches!(&e, Error::InvalidOperation { cause: Invalid::PathConflict { .. }, .. }), "{e}");
    assert!(buckets_of(&buckets, "s1").await.is_empty(), "nothing was written");
}

#[tokio::test]
async fn a_reading_takes_other_writes_along() {
    let (_db, buckets) = support::setup::synced::<SensorDay>("bucket_also").await;
    let f = SensorDay::fields();
    let key = || f.sensor().eq("s9").and(f.day().eq(day()));
    let noted = Update::new().set(f.note(), "calibrated".to_owned());
    AddReading::new(&buckets, key(), reading(4)).also(noted).await.expect("a reading with a note");
    let b = buckets_of(&buckets, "s9").await;
    assert_eq!((b[0].note.as_deref(), b[0].total, b[0].count), (Some("calibrated"), 4, 1));
}

#[tokio::test]
async fn a_long_counter_is_created_and_counted_as_a_long() {
    let (db, pairs) = support::setup::synced::<SensorPair>("bucket_long").await;
    for v in 0..3 {
        let key = SensorPair::fields().sensor().eq("s1");
        AddReading::new(&pairs, key, reading(v)).await.expect("the validator takes the counter as a long");
    }
    let raw: Vec<Document> = {
        use futures_util::TryStreamExt;
        let cursor = db.collection::<Document>("iot_reading_pair").find(doc! {}).await.expect("find");
        cursor.try_collect().await.expect("read")
    };
    let mut counts: Vec<i64> = raw.iter().map(|d| d.get_i64("n").expect("a long counter")).collect();
    counts.sort_unstable();
    assert_eq!(counts, [1, 2]);
}

#[tokio::test]
async fn a_versioned_bucket_opens_buckets_at_its_version_and_fills_only_current_ones() {
    let (db, raw) = support::setup::created_raw::<SensorLog>("bucket_versioned").await;
    // A version-1 bucket of `a` with room, written before the model was versioned.
    let older = ObjectId::new();
    let first = doc! { "t": DateTime::from_millis(1), "v": 1_i64 };
    support::raw::insert_outside(&raw, vec![doc! { "_id": older, "s": "a", "r": [first], "n": 1 }]).await;
    let logs = Collection::<SensorLog>::new(&db);
    let key = |sensor: &str| SensorLog::fields().sensor().eq(sensor);

    // Filling it would leave it mixing two versions; opening a second, current bucket beside it would pass it over.
    let err = AddReading::new(&logs, key("a"), reading(2)).await.expect_err("an older bucket with room");
    assert!(matches!(err, Error::NotMigrated(_)), "{err}");
    assert_eq!(raw.count_documents(doc! {}).await.unwrap(), 1, "nothing written");

    // A key without older buckets: the bucket it opens stores the current version, as an int, and the validator
    // (which names the version) takes it.
    let opened = AddReading::new(&logs, key("b"), reading(3)).await.expect("a new key").opened.expect("opened");
    let stored = raw.find_one(doc! { "_id": &opened }).await.unwrap().expect("the opened bucket");
    assert_eq!(stored.get("_v"), Some(&odm::bson::Bson::Int32(2)), "{stored}");

    // Migrated, the older bucket takes the next reading of its key.
    let report = logs.migrate().await.expect("migrate");
    assert_eq!(report.migrated, 1, "{report}");
    let added = AddReading::new(&logs, key("a"), reading(4)).await.expect("a migrated bucket");
    assert_eq!(added.opened, None, "the migrated bucket had room");
    let a = logs.find_one(key("a")).await.expect("read").expect("a's bucket");
    assert_eq!((a.id, a.count, a.readings.len()), (older, 2, 2));
}

/// A value that cannot be stored: its serialization fails, as a custom `Serialize` may.
#[derive(Deserialize, Debug, Clone, PartialEq)]
struct Unstorable;

impl Serialize for Unstorable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("this value cannot be stored"))
    }
}

impl odm::BsonSchema for Unstorable {
    const KIND: odm::schema::BsonKind = odm::schema::BsonKind::String;
    const SIZE: odm::size::Size = odm::size::Size::AtMost(16);
    type Node<R, W, A: odm::path::Access> = odm::path::Path<R, W, A>;
    fn bson_schema() -> Document {
        doc! { "bsonType": "string" }
    }
}

/// A reading holding a value that cannot be stored.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct BadReading {
    #[serde(rename = "x")]
    value: Unstorable,
}

/// Up to 2 bad readings of one sensor.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "iot_bad_bucket", bucket(key = "sensor", items = "readings"))]
#[odm(index(keys = "sensor, count"))]
struct BadBucket {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "r")]
    #[odm(max_items = 2, counter = "count")]
    readings: Vec<BadReading>,
    #[serde(rename = "n")]
    count: i32,
}

#[tokio::test]
async fn a_reading_that_does_not_encode_names_the_model() {
    let (_db, buckets) = support::setup::synced::<BadBucket>("bucket_bad_reading").await;
    let key = BadBucket::fields().sensor().eq("s1");
    let err = AddReading::new(&buckets, key, BadReading { value: Unstorable }).await.expect_err("does not encode");
    assert!(matches!(err, Error::Serialize { .. }), "{err}");
    assert_eq!(err.model(), Some("BadBucket"), "the model's name, not its path: {err}");
}
