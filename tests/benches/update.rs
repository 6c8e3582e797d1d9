//! Typed updates against hand-written documents, in the same run:
//!
//! 1. building a typed update (and its filter) vs the same update written with `doc!` (target ≤ 1.05× by instruction
//!    count); the embedded line goes through `bson::serialize_to_bson` on the `doc!` side, as it does on the typed
//!    side (a third variant writes it by hand as `doc!`); and the filter alone, `f.id().eq(id)` vs
//!    `doc! { "_id": id }` (target ≤ 1.10×);
//! 2. `Update::diff` of a 50-field model with one change (plus `.build()`) vs serializing one value (target: cheaper);
//! 3. the bytes a one-field change sends on a ~4 KiB order: targeted update (`q` + `u`) vs `replace_one` (`q` + the
//!    whole document), computed from BSON lengths and captured on the wire with command monitoring (target ≤ 5 %),
//!    then update_one vs replace_one timed against the server.
//!
//! Before criterion's groups, `main` prints the byte counts and, for 1 and 2, ratios measured in alternating batches
//! (steadier than two separate criterion runs on a shared machine).
//!
//! Run with `cargo bench -p odm-tests --bench update` (starts the embedded test server, or uses `MONGODB_URI`).
//! Instruction counts for part 1, which machine noise cannot move: `python3 scripts/statement_cost.py` builds the bench
//! with `--no-run` and runs it under `valgrind --tool=callgrind` with
//! `ODM_BENCH_LOOP=typed|doc|typed_filter|doc_filter` (see `instruction_loop`).

// The `doc!` side, from the source the baseline built outside the workspace also compiles.
#[allow(dead_code)]
#[path = "sample/doc_statements.rs"]
mod doc_statements;
#[path = "../support/interleaved.rs"]
mod interleaved;

use criterion::{criterion_group, Criterion};
use interleaved::interleaved;
use odm::bson::{self, doc, oid::ObjectId, Bson, DateTime, Document, RawDocumentBuf};
use odm::mongodb::event::{command::CommandEvent, EventHandler};
use odm::{Collection, Embedded, Model, Update};
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One order line, short keys.
#[derive(Embedded, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(closed)]
struct Line {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "s")]
    sku: String,
    #[serde(rename = "p")]
    unit_price: i64,
    #[serde(rename = "q")]
    quantity: i32,
}

#[derive(Embedded, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Status {
    Pending,
    Paid,
    Shipped,
}

/// The sample order header with its lines embedded and counted.
#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "bench_order", closed)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "no")]
    #[odm(not_a_date)]
    number: String,
    #[serde(rename = "cu")]
    customer: String,
    #[serde(rename = "ad")]
    address: String,
    #[serde(rename = "st")]
    status: Status,
    #[serde(rename = "tot")]
    total: i64,
    #[serde(rename = "ca")]
    created_at: DateTime,
    #[serde(rename = "it")]
    #[odm(max_items = 60, counter = "item_count")]
    items: Vec<Line>,
    #[serde(rename = "ic")]
    item_count: i32,
    #[serde(rename = "rm", skip_serializing_if = "Option::is_none")]
    remark: Option<String>,
}

fn line(i: usize) -> Line {
    Line {
        name: format!("炫迈口香糖 薄荷味 无糖 50 粒装 {i:02}"),
        sku: format!("SKU-2018-0927-{i:05}"),
        unit_price: 800 + i as i64,
        quantity: 2,
    }
}

fn order(lines: usize) -> Order {
    let items: Vec<Line> = (0..lines).map(line).collect();
    Order {
        id: ObjectId::new(),
        number: "201809270012598323334".into(),
        customer: "张三 (zhang.san@example.com)".into(),
        address: "上海市 浦东新区 世纪大道 100 号 环球金融中心 37 层".into(),
        status: Status::Pending,
        total: items.iter().map(|l| l.unit_price * i64::from(l.quantity)).sum(),
        created_at: DateTime::now(),
        item_count: items.len() as i32,
        items,
        remark: Some("请尽快发货".into()),
    }
}

/// 50 fields with short keys: 10 i32, 8 i64, 10 String, 6 f64, 5 bool, 4 DateTime, 4 Option, 3 Vec.
#[derive(Model, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[odm(collection = "bench_wide", closed)]
struct Wide {
    a0: i32,
    a1: i32,
    a2: i32,
    a3: i32,
    a4: i32,
    a5: i32,
    a6: i32,
    a7: i32,
    a8: i32,
    a9: i32,
    b0: i64,
    b1: i64,
    b2: i64,
    b3: i64,
    b4: i64,
    b5: i64,
    b6: i64,
    b7: i64,
    s0: String,
    s1: String,
    s2: String,
    s3: String,
    s4: String,
    s5: String,
    s6: String,
    s7: String,
    s8: String,
    s9: String,
    f0: f64,
    f1: f64,
    f2: f64,
    f3: f64,
    f4: f64,
    f5: f64,
    c0: bool,
    c1: bool,
    c2: bool,
    c3: bool,
    c4: bool,
    d0: DateTime,
    d1: DateTime,
    d2: DateTime,
    d3: DateTime,
    #[serde(skip_serializing_if = "Option::is_none")]
    o0: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    o1: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    o2: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    o3: Option<String>,
    #[odm(max_items = 20)]
    v0: Vec<i32>,
    #[odm(max_items = 20)]
    v1: Vec<String>,
    #[odm(max_items = 20)]
    v2: Vec<i64>,
}

fn wide() -> Wide {
    let now = DateTime::from_millis(1_538_000_000_000);
    Wide {
        a0: 0,
        a1: 1,
        a2: 2,
        a3: 3,
        a4: 4,
        a5: 5,
        a6: 6,
        a7: 7,
        a8: 8,
        a9: 9,
        b0: 10_000_000_000,
        b1: 10_000_000_001,
        b2: 10_000_000_002,
        b3: 10_000_000_003,
        b4: 10_000_000_004,
        b5: 10_000_000_005,
        b6: 10_000_000_006,
        b7: 10_000_000_007,
        s0: "上海市浦东新区".into(),
        s1: "zhang.san@example.com".into(),
        s2: "201809270012598323334".into(),
        s3: "paid".into(),
        s4: "炫迈口香糖 薄荷味".into(),
        s5: "SKU-2018-0927-00001".into(),
        s6: "express".into(),
        s7: "CN".into(),
        s8: "a fairly ordinary sentence of text".into(),
        s9: "z".into(),
        f0: 0.5,
        f1: 1.25,
        f2: 99.99,
        f3: -3.5,
        f4: 1e9,
        f5: 0.0,
        c0: true,
        c1: false,
        c2: true,
        c3: false,
        c4: true,
        d0: now,
        d1: now,
        d2: now,
        d3: now,
        o0: Some("备注".into()),
        o1: None,
        o2: Some(4.5),
        o3: None,
        v0: (0..5).collect(),
        v1: (0..5).map(|i| format!("tag{i}")).collect(),
        v2: (0..5).map(|i| 1_000_000_000_000 + i).collect(),
    }
}

fn bson_len(d: &Document) -> usize {
    RawDocumentBuf::try_from(d).expect("encode").as_bytes().len()
}

/// The update statements (`updates[0]` of each `update` command) the driver sent, as raw documents.
type Seen = Arc<Mutex<Vec<RawDocumentBuf>>>;

fn statement_sizes(stmt: &RawDocumentBuf) -> (usize, usize, usize) {
    let part = |k: &str| stmt.get_document(k).expect("q and u are documents").as_bytes().len();
    (part("q"), part("u"), stmt.as_bytes().len())
}

/// A one-field change on a ~4 KiB order: the targeted update's `q` + `u` vs `replace_one`'s `q` + document, from BSON
/// lengths, then as captured on the wire.
fn wire_bytes(rt: &tokio::runtime::Runtime) -> (Collection<Order>, Order, Order) {
    // `pending` and `shipped` have the same length, so both directions of the change send the same bytes.
    let a = order(38);
    let mut b = a.clone();
    b.status = Status::Shipped;
    let f = Order::fields();
    let doc_len = odm::codec::encode(&a).expect("encode").as_bytes().len();
    let q = f.id().eq(a.id).into_document().expect("filter");
    let built = Update::diff(&a, &b).build().expect("diff");
    assert_eq!(built.update, doc! { "$set": { "st": "shipped" } });
    assert_eq!(built, Update::new().set(f.status(), Status::Shipped).build().expect("set"));
    let (q_len, u_len, r_len) =
        (bson_len(&q), bson_len(&built.update), odm::codec::encode(&b).expect("encode").as_bytes().len());
    let (targeted, replace) = (q_len + u_len, q_len + r_len);
    println!("wire bytes, one-field change on a {doc_len}-byte order ({} lines):", a.items.len());
    println!(
        "  computed: targeted q {q_len} + u {u_len} = {targeted} bytes; replace_one q {q_len} + document {r_len} = \
         {replace} bytes; ratio {:.2} %",
        100.0 * targeted as f64 / replace as f64
    );

    let seen: Seen = Arc::default();
    let coll = rt.block_on(async {
        let test_db = odm::testing::database("bench_update").await;
        let sink = seen.clone();
        let mut opts = odm::mongodb::options::ClientOptions::parse(odm::testing::server().uri()).await.expect("uri");
        opts.command_event_handler = Some(EventHandler::callback(move |e: CommandEvent| {
            if let CommandEvent::Started(s) = e {
                if s.command_name == "update" {
                    let stmt = s.command.get_array("updates").ok().and_then(|u| u.first()).and_then(Bson::as_document);
                    if let Some(stmt) = stmt {
                        sink.lock().unwrap().push(RawDocumentBuf::try_from(stmt).expect("encode"));
                    }
                }
            }
        }));
        let client = odm::mongodb::Client::with_options(opts).expect("client");
        let db = client.database(test_db.name());
        odm::collection::create_collection::<Order>(&db).await.expect("create");
        let coll = Collection::<Order>::new(&db);
        coll.insert_one(&a).await.expect("insert");
        let r = coll.update_changes(f.id().eq(a.id), &a, &b).await.expect("update").expect("a change");
        assert_eq!(r.modified, 1);
        let r = coll.replace_one(f.id().eq(a.id), &a).await.expect("replace");
        assert_eq!(r.modified, 1);
        assert_eq!(coll.find_one(f.id().eq(a.id)).await.expect("find"), Some(a.clone()));
        coll
    });
    let stmts = std::mem::take(&mut *seen.lock().unwrap());
    assert_eq!(stmts.len(), 2, "one update and one replace");
    let (uq, uu, ut) = statement_sizes(&stmts[0]);
    let (rq, ru, rt_) = statement_sizes(&stmts[1]);
    println!(
        "  on the wire: update_one q {uq} + u {uu} = {} bytes (statement {ut}); replace_one q {rq} + u {ru} = {} bytes \
         (statement {rt_}); ratio q+u {:.2} %, whole statements {:.2} %",
        uq + uu,
        rq + ru,
        100.0 * (uq + uu) as f64 / (rq + ru) as f64,
        100.0 * ut as f64 / rt_ as f64
    );
    (coll, a, b)
}

const ROUNDS: usize = 41;
/// Calls per timed batch.
const CALLS: u32 = 2_000;

/// The typed update of part 1: `set` status, `inc` total, `push` a line (its counter follows), with its filter.
fn typed_update(id: ObjectId, l: Line) -> (Document, odm::update::BuiltUpdate) {
    let f = Order::fields();
    let q = f.id().eq(id).into_document().expect("filter");
    let u = Update::new().set(f.status(), Status::Paid).inc(f.total(), 5).push(f.items(), l).build().expect("build");
    (q, u)
}

/// The same documents written with `doc!`, the line through `bson::serialize_to_bson`.
fn doc_update(id: ObjectId, l: Line) -> (Document, Document) {
    doc_statements::doc_update(id, l)
}

/// The lone typed filter of part 1.
fn typed_filter(id: ObjectId) -> Document {
    Order::fields().id().eq(id).into_document().expect("filter")
}

/// Its `doc!` twin.
fn doc_filter(id: ObjectId) -> Document {
    doc_statements::doc_filter(id)
}

/// `ODM_BENCH_LOOP=typed|doc|typed_filter|doc_filter [ODM_BENCH_N=20000]`: runs one side of part 1 (the update with
/// its filter, or the filter alone) in a loop and exits, without the server, for an instruction count that machine
/// noise cannot move: `python3 scripts/statement_cost.py` counts each side under `valgrind --tool=callgrind` with N
/// iterations and with none, so that start-up cancels out.
fn instruction_loop(side: &str) {
    let n: usize = std::env::var("ODM_BENCH_N").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let (id, item) = (ObjectId::new(), line(7));
    for _ in 0..n {
        match side {
            "typed" => drop(black_box(typed_update(id, black_box(&item).clone()))),
            "doc" => drop(black_box(doc_update(id, black_box(&item).clone()))),
            "typed_filter" => drop(black_box(typed_filter(black_box(id)))),
            "doc_filter" => drop(black_box(doc_filter(black_box(id)))),
            other => panic!("ODM_BENCH_LOOP is `typed`, `doc`, `typed_filter` or `doc_filter`, not `{other}`"),
        }
    }
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let (coll, pending, shipped) = wire_bytes(&rt);

    // 1. Typed update (with its filter) vs `doc!`. Both take an owned line (cloned inside the timing on both sides;
    // the clone alone is timed too); the doc! side serializes it with `bson::serialize_to_bson`, as the typed side
    // does; a third variant writes it by hand.
    let id = ObjectId::new();
    let item = line(7);
    let typed = |l: Line| typed_update(id, l);
    let with_doc = |l: Line| doc_update(id, l);
    let by_hand = |l: Line| {
        let q = doc! { "_id": id };
        let line = doc! { "n": l.name, "s": l.sku, "p": l.unit_price, "q": l.quantity };
        let u = doc! { "$set": { "st": "paid" }, "$inc": { "tot": 5_i64, "ic": 1 }, "$push": { "it": line } };
        (q, u)
    };
    let (tq, tu) = typed(item.clone());
    assert_eq!((&tq, &tu.update), (&with_doc(item.clone()).0, &with_doc(item.clone()).1));
    assert_eq!(tu.update, by_hand(item.clone()).1);
    assert!(tu.guard().is_none() && tu.array_filters().is_empty());
    let r = interleaved(
        CALLS,
        ROUNDS,
        || drop(black_box(typed(black_box(&item).clone()))),
        || drop(black_box(with_doc(black_box(&item).clone()))),
    );
    println!("build update + filter, interleaved (median of {ROUNDS} rounds): typed {r}");
    let f = Order::fields();
    let r = interleaved(
        CALLS,
        ROUNDS,
        || drop(black_box(typed_filter(black_box(id)))),
        || drop(black_box(doc_filter(black_box(id)))),
    );
    println!("build filter alone, interleaved: typed {r}");

    let mut g = c.benchmark_group("build_update");
    g.sample_size(50).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    g.bench_function("odm_typed", |b| b.iter(|| typed(black_box(&item).clone())));
    g.bench_function("doc_macro_serialize_to_bson_baseline", |b| b.iter(|| with_doc(black_box(&item).clone())));
    g.bench_function("doc_macro_by_hand", |b| b.iter(|| by_hand(black_box(&item).clone())));
    g.bench_function("clone_line_only", |b| b.iter(|| black_box(&item).clone()));
    g.finish();
    // The filter alone, beside its `doc!` twin.
    let mut g = c.benchmark_group("build_filter");
    g.sample_size(50).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(2));
    g.bench_function("odm_typed", |b| b.iter(|| typed_filter(black_box(id))));
    g.bench_function("doc_macro_baseline", |b| b.iter(|| doc_filter(black_box(id))));
    g.finish();

    // 2. Diff of a 50-field model with one change vs serializing one value.
    let old = wide();
    let mut new = old.clone();
    new.b3 += 1;
    let built = Update::diff(&old, &new).build().expect("diff");
    assert_eq!(built.update, doc! { "$set": { "b3": new.b3 } });
    let size = odm::bson::serialize_to_raw_document_buf(&old).expect("encode").as_bytes().len();
    println!("diff: 50-field model, {size} bytes serialized, one i64 changed");
    let r = interleaved(
        CALLS,
        ROUNDS,
        || drop(black_box(Update::diff(black_box(&old), black_box(&new)).build())),
        || drop(black_box(odm::bson::serialize_to_raw_document_buf(black_box(&old)))),
    );
    println!("diff + build vs serialize one, interleaved: diff {r}");
    let mut g = c.benchmark_group("diff_50_fields");
    g.sample_size(50).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    g.bench_function("odm_diff_and_build", |b| {
        b.iter(|| Update::diff(black_box(&old), black_box(&new)).build().expect("diff"))
    });
    g.bench_function("serialize_one_baseline", |b| {
        b.iter(|| odm::bson::serialize_to_raw_document_buf(black_box(&old)).expect("encode"))
    });
    g.finish();

    // 3. Against the server: a one-field targeted update vs replacing the ~4 KiB document, alternating two values so
    // every call really writes.
    let mut g = c.benchmark_group("one_field_change_4k_order");
    g.sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    let mut flip = false;
    g.bench_function("odm_update_changes", |b| {
        b.to_async(&rt).iter(|| {
            flip = !flip;
            let (from, to) = if flip { (&pending, &shipped) } else { (&shipped, &pending) };
            let (coll, filter) = (&coll, f.id().eq(pending.id));
            async move {
                let r = coll.update_changes(filter, from, to).await.expect("update").expect("a change");
                assert_eq!(r.matched, 1);
            }
        })
    });
    g.bench_function("replace_one_baseline", |b| {
        b.to_async(&rt).iter(|| {
            flip = !flip;
            let to = if flip { &shipped } else { &pending };
            let (coll, filter) = (&coll, f.id().eq(pending.id));
            async move {
                let r = coll.replace_one(filter, to).await.expect("replace");
                assert_eq!(r.matched, 1);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(side) = std::env::var("ODM_BENCH_LOOP") {
        return instruction_loop(&side);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
