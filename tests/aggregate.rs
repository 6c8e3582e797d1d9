//! Typed aggregation against a real server: every stage, decode errors naming the output type's fields, the stage
//! order, the whole-documents flag, `$lookup` between two models, `$out`/`$merge` into a model's collection checked
//! by its validator, and a pipeline inside a transaction.

mod support;

use futures_util::TryStreamExt;
use odm::aggregate::{self, Pipeline};
use odm::bson::{doc, oid::ObjectId, Document};
use odm::error::{Clause, Invalid};
use odm::{Collection, Embedded, Filter, Model};
use serde::{Deserialize, Serialize};

#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Line {
    #[serde(rename = "sk")]
    sku: String,
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "order_header")]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "it")]
    #[odm(max_items = 20)]
    items: Vec<Line>,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "crm_customer")]
struct Customer {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "e")]
    email: String,
}

/// One row per customer.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct PerCustomer {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "av")]
    average: f64,
    #[serde(rename = "lo")]
    smallest: i64,
    #[serde(rename = "hi")]
    largest: i64,
    #[serde(rename = "all")]
    #[odm(max_items = 100)]
    amounts: Vec<i64>,
    #[serde(rename = "ss")]
    #[odm(max_items = 10)]
    statuses: Vec<String>,
    #[serde(rename = "f")]
    first: i64,
    #[serde(rename = "l")]
    last: i64,
    #[serde(rename = "n")]
    orders: i64,
}

const ALICE: ObjectId = ObjectId::from_bytes([1; 12]);
const BOB: ObjectId = ObjectId::from_bytes([2; 12]);

fn order(i: u8, customer: ObjectId, status: &str, amount: i64, items: &[(&str, i32)]) -> Order {
    Order {
        id: ObjectId::from_bytes([10 + i; 12]),
        customer,
        status: status.into(),
        amount,
        items: items.iter().map(|&(sku, quantity)| Line { sku: sku.into(), quantity }).collect(),
    }
}

async fn seeded(name: &str) -> (odm::testing::TestDatabase, Collection<Order>) {
    let db = odm::testing::database(name).await;
    odm::collection::create_collection::<Order>(&db).await.unwrap();
    odm::collection::create_collection::<Customer>(&db).await.unwrap();
    let orders = Collection::<Order>::new(&db);
    orders
        .insert_many([
            order(1, ALICE, "paid", 30, &[("pen", 2), ("ink", 1)]),
            order(2, ALICE, "paid", 70, &[("pen", 5)]),
            order(3, ALICE, "new", 500, &[("desk", 1)]),
            order(4, BOB, "paid", 10, &[("ink", 3)]),
        ])
        .await
        .unwrap();
    Collection::<Customer>::new(&db)
        .insert_many([
            Customer { id: ALICE, name: "Alice".into(), email: "a@x.io".into() },
            Customer { id: BOB, name: "Bob".into(), email: "b@x.io".into() },
        ])
        .await
        .unwrap();
    (db, orders)
}

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

/// A status and its revenue, keyed by a field other than `_id`.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct StatusRevenue {
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "rv")]
    revenue: i64,
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

/// An order reduced to what a list shows.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Listed {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "v")]
    value: i64,
}

#[tokio::test]
async fn project_sort_skip_limit_and_set_run_in_the_output_type() {
    let (_db, orders) = seeded("agg_project").await;
    let (f, out) = (Order::fields(), aggregate::fields::<Listed>());
    let rows = orders
        .aggregate()
        .project(|p| p.field(out.id(), f.id()).field(out.status(), f.status()).field(out.value(), f.amount()))
        .sort(out.value().desc())
        .skip(1)
        .limit(2)
        .set(out.status(), "$checked")
        .await
        .unwrap();
    let values: Vec<(i64, &str)> = rows.iter().map(|r| (r.value, r.status.as_str())).collect();
    assert_eq!(values, [(70, "$checked"), (30, "$checked")]);
}

#[tokio::test]
async fn decode_errors_name_the_output_types_fields() {
    let (db, orders) = seeded("agg_decode").await;
    // Written around odm: an amount stored as a string.
    let raw = db.collection::<Document>("order_header");
    support::raw::insert_outside(
        &raw,
        vec![doc! { "_id": ObjectId::new(), "cu": BOB, "st": "paid", "am": "lots", "it": [] }],
    )
    .await;
    let (f, out) = (Order::fields(), aggregate::fields::<Listed>());
    let err = orders
        .aggregate()
        .filter(f.customer().eq(BOB))
        .project(|p| p.field(out.id(), f.id()).field(out.status(), f.status()).field(out.value(), f.amount()))
        .await
        .expect_err("a string amount does not decode");
    let message = err.to_string();
    assert!(message.contains("Listed.value") && message.contains("`v`"), "{message}");

    // A stage into a type it leaves partly unset is refused before sending, naming the fields.
    let err = orders.aggregate().project(|p| p.field(out.status(), f.status())).await.unwrap_err();
    let message = err.to_string();
    assert!(message.contains("`Listed.value` (stored `v`)") && message.contains("nothing was sent"), "{message}");
}

/// An order line on its own, with its order's customer.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct OrderLine {
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "ln")]
    line: Line,
}

/// Quantity sold per product.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Sold {
    #[serde(rename = "_id")]
    sku: String,
    #[serde(rename = "q")]
    quantity: i64,
}

/// The fields the unwind needs.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Lines {
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "it")]
    #[odm(max_items = 20)]
    items: Vec<Line>,
}

#[tokio::test]
async fn unwind_gives_one_document_per_element_at_the_declared_field() {
    let (_db, orders) = seeded("agg_unwind").await;
    let f = Order::fields();
    let (lines, line, sold) =
        (aggregate::fields::<Lines>(), aggregate::fields::<OrderLine>(), aggregate::fields::<Sold>());
    let pipeline = orders
        .aggregate()
        .filter(f.status().eq("paid"))
        .project(|p| p.field(lines.customer(), f.customer()).field(lines.items(), f.items()))
        .unwind(lines.items(), line.line())
        .group(|g| g.key(sold.sku(), line.line().sku()).sum(sold.quantity(), line.line().quantity()))
        .sort(sold.sku().asc());
    let stages = pipeline.stages().unwrap();
    assert_eq!(stages[2], doc! { "$unwind": "$it" });
    assert_eq!(stages[3], doc! { "$set": { "ln": "$it" } });
    assert!(pipeline.lint().is_empty(), "{:?}", pipeline.lint());
    let rows = pipeline.await.unwrap();
    assert_eq!(
        rows,
        [Sold { sku: "ink".into(), quantity: 4 }, Sold { sku: "pen".into(), quantity: 7 }],
        "paid orders only"
    );
}

/// A customer's name, as a lookup joins it.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Name {
    #[serde(rename = "n")]
    name: String,
}

/// An order's reference to its customer.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct OrderRef {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "am")]
    amount: i64,
}

/// A paid order with its customer's name.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Joined {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "c")]
    #[odm(max_items = 1)]
    customers: Vec<Name>,
}

/// The same, joining whole customers.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct JoinedWhole {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "c")]
    #[odm(max_items = 1)]
    customers: Vec<Customer>,
}

/// An order amount beside its customers.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Named {
    #[serde(rename = "am")]
    amount: i64,
    #[serde(rename = "c")]
    #[odm(max_items = 1)]
    customers: Vec<Customer>,
}

#[tokio::test]
async fn lookup_joins_another_models_collection_by_typed_fields() {
    let (_db, orders) = seeded("agg_lookup").await;
    let (f, c, slim, out) =
        (Order::fields(), Customer::fields(), aggregate::fields::<OrderRef>(), aggregate::fields::<Joined>());
    let rows = orders
        .aggregate()
        .project(|p| p.field(slim.id(), f.id()).field(slim.customer(), f.customer()).field(slim.amount(), f.amount()))
        .lookup(slim.customer(), c.id(), out.customers())
        .filter(out.amount().gte(70))
        .sort(out.amount().asc())
        .await
        .unwrap();
    let names: Vec<(i64, &str)> = rows.iter().map(|r| (r.amount, r.customers[0].name.as_str())).collect();
    assert_eq!(names, [(70, "Alice"), (500, "Alice")]);

    // Whole customers joined before narrowing are flagged; the join still runs.
    let (whole, named) = (aggregate::fields::<JoinedWhole>(), aggregate::fields::<Named>());
    let carried = orders
        .aggregate()
        .lookup(f.customer(), c.id(), whole.customers())
        .project(|p| p.field(named.amount(), whole.amount()).field(named.customers(), whole.customers()));
    let flags = carried.lint();
    assert_eq!(flags.len(), 2, "{flags:?}");
    assert!(flags[0].contains("stage 1 (`$lookup`) carries whole `Order` documents"), "{flags:?}");
    assert!(flags[1].contains("joins whole documents"), "{flags:?}");
}

/// How many.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Count {
    #[serde(rename = "n")]
    n: i64,
}

/// Two counts side by side.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct Report {
    #[serde(rename = "pd")]
    #[odm(max_items = 1)]
    paid: Vec<Count>,
    #[serde(rename = "top")]
    #[odm(max_items = 2)]
    top: Vec<Listed>,
}

#[tokio::test]
async fn count_and_facet() {
    let (_db, orders) = seeded("agg_facet").await;
    let (f, count) = (Order::fields(), aggregate::fields::<Count>());
    let counted = orders.aggregate().filter(f.status().eq("paid")).count(count.n()).await.unwrap();
    assert_eq!(counted, [Count { n: 3 }]);

    let (out, listed) = (aggregate::fields::<Report>(), aggregate::fields::<Listed>());
    let report = orders
        .aggregate()
        .facet(|b| {
            b.branch(out.paid(), |p| p.filter(f.status().eq("paid")).count(count.n())).branch(out.top(), |p| {
                p.sort(f.amount().desc()).limit(2).project(|p| {
                    p.field(listed.id(), f.id()).field(listed.status(), f.status()).field(listed.value(), f.amount())
                })
            })
        })
        .await
        .unwrap();
    assert_eq!(report.len(), 1);
    assert_eq!(report[0].paid, [Count { n: 3 }]);
    assert_eq!(report[0].top.iter().map(|l| l.value).collect::<Vec<_>>(), [500, 70]);
}

#[tokio::test]
async fn matches_run_first_where_the_pipeline_allows_and_explain_shows_it() {
    let (_db, orders) = seeded("agg_order").await;
    let (f, out) = (Order::fields(), aggregate::fields::<Listed>());
    let pipeline = orders
        .aggregate()
        .sort(f.amount().desc())
        .project(|p| p.field(out.id(), f.id()).field(out.status(), f.status()).field(out.value(), f.amount()))
        // Reads `st`, which the projection keeps as it is: it can run first.
        .filter(out.status().eq("paid"))
        // Reads `v`, which the projection computes: it stays after it.
        .filter(out.value().gt(20));
    let stages = pipeline.stages().unwrap();
    assert_eq!(
        stages,
        [
            doc! { "$match": { "st": "paid" } },
            doc! { "$sort": { "am": -1 } },
            // The sort reads `am`, which the projection does not keep: it stays before it.
            doc! { "$project": { "_id": 1, "st": 1, "v": "$am" } },
            doc! { "$match": { "v": { "$gt": 20_i64 } } },
        ]
    );
    let explain = orders
        .aggregate()
        .filter(f.status().eq("paid"))
        .project(|p| p.field(out.id(), f.id()).field(out.status(), f.status()).field(out.value(), f.amount()))
        .explain()
        .await
        .unwrap();
    assert!(explain.scans_collection(), "{explain}");
    let rows = pipeline.await.unwrap();
    assert_eq!(rows.iter().map(|r| r.value).collect::<Vec<_>>(), [70, 30]);
}

#[tokio::test]
async fn whole_documents_through_a_sort_are_flagged_until_projected_first() {
    let (_db, orders) = seeded("agg_lint").await;
    let (f, out) = (Order::fields(), aggregate::fields::<StatusRevenue>());
    let late = orders
        .aggregate()
        .sort(f.amount().desc())
        .limit(2)
        .group(|g| g.key(out.status(), f.status()).sum(out.revenue(), f.amount()));
    let flags = late.lint();
    assert_eq!(flags.len(), 1, "{flags:?} {:?}", late.stages());
    assert!(
        flags[0].contains("stage 1 (`$sort`) carries whole `Order` documents") && flags[0].contains("project early")
    );
    // It still runs (the warning goes to `tracing`, target `odm::aggregate`).
    assert_eq!(late.await.unwrap().len(), 2);

    let early = orders
        .aggregate()
        .project(|p| p.field(out.status(), f.status()).field(out.revenue(), f.amount()))
        .sort(out.revenue().desc())
        .limit(2);
    assert!(early.lint().is_empty());
}

/// Revenue per customer, kept in its own collection; names are at most 5 characters.
#[derive(Model, Serialize, Deserialize, Debug, PartialEq)]
#[odm(collection = "crm_revenue")]
struct Revenue {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "nm")]
    #[odm(max_len = 5)]
    name: String,
}

/// A customer's revenue.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct CustomerSum {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "t")]
    total: i64,
}

/// A customer's revenue with the customer joined.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct RevenueJoined {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "c")]
    #[odm(max_items = 1)]
    customers: Vec<Customer>,
}

/// Revenue per customer, named by the customer's name.
fn revenue(orders: &Collection<Order>) -> Pipeline<Revenue, aggregate::On<'_, Order>> {
    let (f, sum, r, j, u) = (
        Order::fields(),
        aggregate::fields::<CustomerSum>(),
        aggregate::fields::<Revenue>(),
        aggregate::fields::<RevenueJoined>(),
        aggregate::fields::<RevenueUnwound>(),
    );
    orders
        .aggregate()
        .group(|g| g.key(sum.customer(), f.customer()).sum(sum.total(), f.amount()))
        .lookup(sum.customer(), Customer::fields().id(), j.customers())
        .unwind(j.customers(), u.customer_doc())
        .project(|p| {
            p.field(r.customer(), u.customer()).field(r.total(), u.total()).field(r.name(), u.customer_doc().name())
        })
}

/// The joined revenue with its one customer in place of the array.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct RevenueUnwound {
    #[serde(rename = "_id")]
    customer: ObjectId,
    #[serde(rename = "t")]
    total: i64,
    #[serde(rename = "c")]
    customer_doc: Customer,
}

#[tokio::test]
async fn out_and_merge_write_into_a_models_collection_checked_by_its_validator() {
    let (db, orders) = seeded("agg_out").await;
    odm::collection::create_collection::<Revenue>(&db).await.unwrap();
    let revenues = Collection::<Revenue>::new(&db);

    // Bob's name breaks the validator's `maxLength`: `$out` fails whole, naming the field, and writes nothing.
    let customers = Collection::<Customer>::new(&db);
    let c = Customer::fields();
    customers.update_one(c.id().eq(BOB), odm::Update::new().set(c.name(), "Roberto")).await.unwrap();
    let err = revenue(&orders).out().await.expect_err("refused by the validator");
    assert!(matches!(err, odm::Error::Validation(_)), "{err:?}");
    assert_eq!(revenues.count(Filter::everything()).await.unwrap(), 0);

    customers.update_one(c.id().eq(BOB), odm::Update::new().set(c.name(), "Bob")).await.unwrap();
    revenue(&orders).out().await.expect("$out");
    let mut written = revenues.find(Filter::everything()).await.unwrap();
    written.sort_by_key(|r| r.total);
    assert_eq!(
        written,
        [
            Revenue { customer: BOB, total: 10, name: "Bob".into() },
            Revenue { customer: ALICE, total: 600, name: "Alice".into() }
        ]
    );
    // MongoDB keeps the collection's validator across `$out`; SecantusDB (the test server) drops it, and does not
    // check `$merge` results against it, so the merge below is checked by its effect only.

    // `$merge` by `_id`: Alice's new order updates her row.
    customers.update_one(c.id().eq(BOB), odm::Update::new().set(c.name(), "Rob")).await.unwrap();
    orders.insert_one(order(9, ALICE, "paid", 1, &[])).await.unwrap();
    revenue(&orders).merge(odm::aggregate::WhenMatched::Replace).await.expect("$merge");
    let alice = revenues.find_one(Revenue::fields().customer().eq(ALICE)).await.unwrap().unwrap();
    assert_eq!(alice.total, 601);
    let bob = revenues.find_one(Revenue::fields().customer().eq(BOB)).await.unwrap().unwrap();
    assert_eq!(bob.name, "Rob");

    // Merged into the stored rows (`whenMatched: "merge"`): the fields the results hold are set.
    orders.insert_one(order(10, BOB, "paid", 2, &[])).await.unwrap();
    revenue(&orders).merge(odm::aggregate::WhenMatched::Merge).await.expect("$merge");
    let bob = revenues.find_one(Revenue::fields().customer().eq(BOB)).await.unwrap().unwrap();
    assert_eq!((bob.total, bob.name.as_str()), (12, "Rob"));
    assert_eq!(revenues.count(Filter::everything()).await.unwrap(), 2);
}

#[tokio::test]
async fn a_pipeline_runs_inside_a_transaction() {
    let (db, _) = seeded("agg_tx").await;
    if !support::server::runs_transactions(db.client()).await {
        return;
    }
    let totals: Vec<Count> = odm::Transaction::new(db.client())
        .concerns_of::<Order>()
        .run(|s| {
            let orders = Collection::<Order>::new(&db).with_session(&s);
            async move {
                orders.insert_one(order(8, BOB, "paid", 5, &[])).await?;
                let f = Order::fields();
                // Sees the transaction's own insert.
                orders.aggregate().filter(f.customer().eq(BOB)).count(aggregate::fields::<Count>().n()).await
            }
        })
        .await
        .unwrap();
    assert_eq!(totals, [Count { n: 2 }]);
}

/// A count kept in `_id`, which `$count` cannot write.
#[derive(Embedded, Serialize, Deserialize, Debug, PartialEq)]
struct CountedById {
    #[serde(rename = "_id")]
    n: i64,
}

/// The cause of a pipeline refused before sending: the stage (from 1) and why.
#[track_caller]
fn refused_stage<D: aggregate::Shape>(pipeline: &Pipeline<D>) -> (usize, Invalid) {
    match pipeline.stages() {
        Err(odm::Error::InvalidOperation { model: "Order", cause: Invalid::Stage { index, cause } }) => (index, *cause),
        other => panic!("expected a refused stage, got {other:?}"),
    }
}

#[test]
fn refused_stages_carry_their_index_and_a_typed_cause() {
    let (f, per, listed, count, report) = (
        Order::fields(),
        aggregate::fields::<PerCustomer>(),
        aggregate::fields::<Listed>(),
        aggregate::fields::<Count>(),
        aggregate::fields::<Report>(),
    );
    let (at, cause) = refused_stage(&Pipeline::<Order>::new().filter(f.status().eq("paid")).limit(0));
    assert!(at == 2 && matches!(cause, Invalid::Limit { n: 0 }), "{at}: {cause:?}");
    let (at, cause) = refused_stage(&Pipeline::<Order>::new().skip(u64::MAX));
    assert!(at == 1 && matches!(cause, Invalid::Skip { n: u64::MAX }), "{at}: {cause:?}");
    match refused_stage(&Pipeline::<Order>::new().set(f.items().each().quantity(), 1)) {
        (1, Invalid::Positional { path, clause: Clause::Stage }) => {
            assert_eq!((path.stored(), path.rust()), ("it.$[].q", Some("Order.items[].quantity")))
        }
        other => panic!("{other:?}"),
    }
    // A stage into a type it leaves partly unset names each field left out.
    match refused_stage(&Pipeline::<Order>::new().project(|p| p.field(listed.status(), f.status()))) {
        (1, Invalid::Unset { stage: "$project", into: "Listed", fields }) => {
            let fields: Vec<_> = fields.iter().map(|p| (p.stored(), p.rust())).collect();
            assert_eq!(fields, [("v", Some("Listed.value"))]);
        }
        other => panic!("{other:?}"),
    }
    match refused_stage(
        &Pipeline::<Order>::new().group(|g| g.sum(per.total(), f.amount()).sum(per.total(), f.amount())),
    ) {
        (1, Invalid::Repeated { path, clause: Clause::Group }) => {
            assert_eq!(path.rust(), Some("PerCustomer.total"))
        }
        other => panic!("{other:?}"),
    }
    match refused_stage(&Pipeline::<Order>::new().group(|g| g.first(per.customer(), f.customer()))) {
        (1, Invalid::AccumulatorTarget { path }) => assert_eq!(path.stored(), "_id"),
        other => panic!("{other:?}"),
    }
    // A group key into a nested field, a count into `_id`: named by the output type's paths.
    let line = aggregate::fields::<OrderLine>();
    match refused_stage(&Pipeline::<Order>::new().group(|g| g.key(line.line().sku(), f.status()))) {
        (1, Invalid::GroupKeyTarget { path }) => {
            assert_eq!((path.stored(), path.rust()), ("ln.sk", Some("OrderLine.line.sku")))
        }
        other => panic!("{other:?}"),
    }
    match refused_stage(&Pipeline::<Order>::new().count(aggregate::fields::<CountedById>().n())) {
        (1, Invalid::CountTarget { path }) => assert_eq!((path.stored(), path.rust()), ("_id", Some("CountedById.n"))),
        other => panic!("{other:?}"),
    }
    let two_keys = Pipeline::<Order>::new().group(|g| g.key(per.customer(), f.customer()).key(per.total(), f.amount()));
    assert!(matches!(refused_stage(&two_keys), (1, Invalid::IdAmongKeys)));
    // A branch's own refusal, inside the stage of its `$facet`.
    let facet = Pipeline::<Order>::new()
        .facet(|b| b.branch(report.paid(), |p| p.filter(f.status().eq("paid")).limit(0).count(count.n())));
    match refused_stage(&facet) {
        (1, Invalid::Branch { branch, cause }) => {
            assert_eq!(branch, "pd");
            assert!(
                matches!(*cause, Invalid::Stage { index: 2, cause: ref c } if matches!(**c, Invalid::Limit { n: 0 }))
            );
        }
        other => panic!("{other:?}"),
    }
}
