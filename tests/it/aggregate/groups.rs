//! `$group` into declared output types: every accumulator, sums past the 32-bit range, groups without numbers, a key kept outside `_id`.

use super::*;

#[tokio::test]
async fn group_fills_every_accumulator_into_the_output_type() {
    let (_db, orders) = seeded("agg_group").await;
    let (f, out) = (Order::fields(), aggregate::fields::<PerCustomer>());
    let rows = orders
        .aggregate()
        .sort(f.amount().asc())
        .group(|g| {
            g.key(out.customer(), f.customer())
                .sum(out.total(), f.amount())
                .avg(out.average(), f.amount())
                .min(out.smallest(), f.amount())
                .max(out.largest(), f.amount())
                .push(out.amounts(), f.amount())
                .add_to_set(out.statuses(), f.status())
                .first(out.first(), f.amount())
                .last(out.last(), f.amount())
                .count(out.orders())
        })
        .sort(out.total().desc())
        .await
        .expect("aggregate");
    assert_eq!(rows.len(), 2);
    let alice = &rows[0];
    assert_eq!((alice.customer, alice.total, alice.orders), (ALICE, 600, 3));
    assert_eq!((alice.smallest, alice.largest, alice.first, alice.last), (30, 500, 30, 500));
    assert!((alice.average - 200.0).abs() < 1e-9);
    assert_eq!(alice.amounts, [30, 70, 500]);
    let mut statuses = alice.statuses.clone();
    statuses.sort();
    assert_eq!(statuses, ["new", "paid"]);
    assert_eq!((rows[1].customer, rows[1].total, rows[1].orders), (BOB, 10, 1));
}

/// A sensor reading: a 32-bit value, and an optional one most readings leave out.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "sensor_reading")]
struct Reading {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "s")]
    sensor: String,
    #[serde(rename = "v")]
    value: i32,
    #[serde(rename = "x", skip_serializing_if = "Option::is_none")]
    extra: Option<i32>,
}

/// Per sensor: each accumulator into the type the server can return for it.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct PerSensor {
    #[serde(rename = "_id")]
    sensor: String,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "hi")]
    highest: i32,
    // `null` (not absent) when no reading of the sensor has the extra value.
    #[serde(rename = "xa")]
    #[odm(nullable)]
    extra_average: Option<f64>,
    #[serde(rename = "xl")]
    #[odm(nullable)]
    extra_lowest: Option<i32>,
    #[serde(rename = "n")]
    readings: i64,
}

/// What an `i32` total would have been declared as: the server's `long` does not decode into it.
#[derive(Deserialize, Debug)]
struct NarrowTotal {
    #[serde(rename = "t")]
    _total: i32,
}

#[tokio::test]
async fn sums_past_the_int_range_and_groups_without_numbers_decode_into_the_accepted_types() {
    let db = odm::testing::database("agg_accumulator_types").await;
    let readings = Collection::<Reading>::new(&db);
    let reading = |sensor: &str, value, extra| Reading { id: ObjectId::new(), sensor: sensor.into(), value, extra };
    // Three values of 2e9: each fits an `int`, their total (6e9) does not.
    readings
        .insert_many([
            reading("a", 2_000_000_000, None),
            reading("a", 2_000_000_000, None),
            reading("a", 2_000_000_000, None),
            reading("b", 1, Some(4)),
            reading("b", 2, Some(8)),
        ])
        .await
        .unwrap();
    let (f, out) = (Reading::fields(), aggregate::fields::<PerSensor>());
    let pipeline = || {
        readings.aggregate().group(|g| {
            g.key(out.sensor(), f.sensor())
                .sum(out.total(), f.value())
                .max(out.highest(), f.value())
                .avg(out.extra_average(), f.extra())
                .min(out.extra_lowest(), f.extra())
                .count(out.readings())
        })
    };

    // What the server returns, read around odm: sensor a's total is a `long`, and its average and minimum of a
    // field none of its documents has are `null`.
    let stages = pipeline().stages().unwrap();
    let mut raw: Vec<Document> =
        db.collection::<Document>("sensor_reading").aggregate(stages).await.unwrap().try_collect().await.unwrap();
    raw.sort_by_key(|d| d.get_str("_id").unwrap().to_owned());
    assert_eq!(raw[0].get("t"), Some(&odm::bson::Bson::Int64(6_000_000_000)), "{raw:?}");
    assert_eq!(raw[1].get("t"), Some(&odm::bson::Bson::Int32(3)), "{raw:?}");
    assert_eq!(raw[0].get("xa"), Some(&odm::bson::Bson::Null), "{raw:?}");
    assert_eq!(raw[0].get("xl"), Some(&odm::bson::Bson::Null), "{raw:?}");
    // The `i32` output field the rule refuses would fail the read here.
    assert!(odm::bson::deserialize_from_document::<NarrowTotal>(raw[0].clone()).is_err());

    let mut rows = pipeline().await.unwrap();
    rows.sort_by(|a, b| a.sensor.cmp(&b.sensor));
    assert_eq!(
        rows,
        [
            PerSensor {
                sensor: "a".into(),
                total: 6_000_000_000,
                highest: 2_000_000_000,
                extra_average: None,
                extra_lowest: None,
                readings: 3,
            },
            PerSensor {
                sensor: "b".into(),
                total: 3,
                highest: 2,
                extra_average: Some(6.0),
                extra_lowest: Some(4),
                readings: 2,
            },
        ]
    );
}

#[tokio::test]
async fn a_group_key_outside_id_is_copied_out_and_id_dropped() {
    let (_db, orders) = seeded("agg_group_key").await;
    let (f, out) = (Order::fields(), aggregate::fields::<StatusRevenue>());
    let mut rows =
        orders.aggregate().group(|g| g.key(out.status(), f.status()).sum(out.revenue(), f.amount())).await.unwrap();
    rows.sort_by(|a, b| a.status.cmp(&b.status));
    assert_eq!(
        rows,
        [StatusRevenue { status: "new".into(), revenue: 500 }, StatusRevenue { status: "paid".into(), revenue: 110 }]
    );
}
