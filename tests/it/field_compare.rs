//! Field-to-field conditions (`lt_field`, `eq_field`, …) against a real server: every operator on integers of two
//! widths, strings and dates, alone and mixed with ordinary conditions, in `find`, `count`, `update_many` and a
//! pipeline's `$match`; absent and `null` values reading as `None`; a polymorphic model's variant paths keeping
//! their discriminator; the refusals before sending; and what `explain` says about index use. Every document is
//! written around odm with the raw driver.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Bson, DateTime, Document};
use odm::error::Invalid;
use odm::{Collection, Embedded, Filter, Model, Update};
use serde::{Deserialize, Serialize};

/// One line of an order.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Line {
    #[serde(rename = "q")]
    quantity: i32,
}

/// An order whose fields come in pairs to compare.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_order")]
#[odm(index(keys = "status"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    /// Which test document this is.
    #[serde(rename = "lb")]
    label: String,
    #[serde(rename = "st")]
    status: String,
    #[serde(rename = "oq")]
    ordered_qty: i32,
    /// A `long`, compared with the `int` above by value.
    #[serde(rename = "sq")]
    shipped_qty: i64,
    #[serde(rename = "an")]
    author_name: String,
    #[serde(rename = "sn")]
    source_name: String,
    #[serde(rename = "pa")]
    placed_at: DateTime,
    #[serde(rename = "da")]
    due_at: DateTime,
    #[serde(rename = "dl", skip_serializing_if = "Option::is_none")]
    delivered_at: Option<DateTime>,
    #[serde(rename = "cl", skip_serializing_if = "Option::is_none")]
    cancelled_at: Option<DateTime>,
    #[serde(rename = "ln")]
    #[odm(max_items = 20)]
    lines: Vec<Line>,
}

fn at(day: i64) -> DateTime {
    DateTime::from_millis(1_700_000_000_000 + day * 86_400_000)
}

/// A stored order as another program writes it: `sq` vs `oq`, `an` vs `sn` and `pa` vs `da` each set so that the
/// left side is less than, equal to or greater than the right (`-1`, `0`, `1`).
fn order(label: &str, status: &str, ints: i32, strings: i32, dates: i32) -> Document {
    let names = |side: i32| match side {
        -1 => ("ann", "bob"),
        0 => ("ann", "ann"),
        _ => ("bob", "ann"),
    };
    let (an, sn) = names(strings);
    doc! {
        "_id": ObjectId::new(), "lb": label, "st": status,
        "oq": 5_i32, "sq": i64::from(5 + 2 * ints),
        "an": an, "sn": sn,
        "pa": at(i64::from(10 + dates)), "da": at(10),
        "ln": [{ "q": 1 }],
    }
}

/// The documents: each has a different pattern per type, so a condition reading the wrong pair fails.
fn orders() -> Vec<Document> {
    vec![
        order("a", "open", -1, 0, 1),
        order("b", "open", 0, 1, -1),
        order("c", "closed", 1, -1, 0),
        order("d", "closed", -1, 1, 1),
    ]
}

/// The labels of the documents of `orders()` where `left op right` holds for the comparison `pick`s.
fn expected(op: &str, pick: Side) -> Vec<String> {
    let holds = |side: i32| match op {
        "eq" => side == 0,
        "ne" => side != 0,
        "lt" => side < 0,
        "lte" => side <= 0,
        "gt" => side > 0,
        _ => side >= 0,
    };
    let mut out: Vec<String> =
        orders().iter().filter(|d| holds(pick(d))).map(|d| d.get_str("lb").unwrap().to_owned()).collect();
    out.sort();
    out
}

fn side_of_ints(d: &Document) -> i32 {
    (d.get_i64("sq").unwrap() - 5).signum() as i32
}
fn side_of_strings(d: &Document) -> i32 {
    d.get_str("an").unwrap().cmp(d.get_str("sn").unwrap()) as i32
}
fn side_of_dates(d: &Document) -> i32 {
    d.get_datetime("pa").unwrap().cmp(d.get_datetime("da").unwrap()) as i32
}

async fn stored(hint: &str, docs: Vec<Document>) -> (odm::testing::TestDatabase, Collection<Order>) {
    let (db, coll) = support::setup::synced::<Order>(hint).await;
    support::raw::insert_outside(&db.db().collection::<Document>("shop_order"), docs).await;
    (db, coll)
}

async fn labels(coll: &Collection<Order>, filter: Filter<Order>) -> Vec<String> {
    let mut out: Vec<String> = coll.find(filter).await.expect("find").into_iter().map(|o| o.label).collect();
    out.sort();
    out
}

/// The six conditions of one pair of paths, by operator name.
type Six = [(&'static str, Filter<Order>); 6];

/// Which side of a pair of fields is less in a stored document (`-1`, `0`, `1`).
type Side = fn(&Document) -> i32;

/// Builds a [`Six`] from two paths.
macro_rules! six {
    ($left:expr, $right:expr) => {
        [
            ("eq", $left.eq_field($right)),
            ("ne", $left.ne_field($right)),
            ("lt", $left.lt_field($right)),
            ("lte", $left.lte_field($right)),
            ("gt", $left.gt_field($right)),
            ("gte", $left.gte_field($right)),
        ]
    };
}

#[tokio::test]
async fn every_operator_compares_ints_strings_and_dates_as_stored() {
    let (_db, coll) = stored("field_compare_ops", orders()).await;
    let f = Order::fields();
    let pairs: [(Six, Side); 3] = [
        (six!(f.shipped_qty(), f.ordered_qty()), side_of_ints),
        (six!(f.author_name(), f.source_name()), side_of_strings),
        (six!(f.placed_at(), f.due_at()), side_of_dates),
    ];
    for (conditions, pick) in pairs {
        for (op, filter) in conditions {
            let want = expected(op, pick);
            let doc = filter.clone().into_document().expect("a filter");
            assert_eq!(labels(&coll, filter.clone()).await, want, "{op}: {doc}");
            assert_eq!(coll.count(filter).await.expect("count"), want.len() as u64, "{op}: {doc}");
        }
    }
    // Short keys, each side read with absent and `null` as one value.
    assert_eq!(
        f.shipped_qty().lt_field(f.ordered_qty()).into_document().unwrap(),
        doc! { "$expr": { "$lt": [{ "$ifNull": ["$sq", null] }, { "$ifNull": ["$oq", null] }] } }
    );
}

#[tokio::test]
async fn mixed_with_ordinary_conditions_in_find_count_update_and_match() {
    let (db, coll) = stored("field_compare_mixed", orders()).await;
    let f = Order::fields();
    let short = open_and_short;
    assert_eq!(
        short().into_document().unwrap(),
        doc! { "st": "open", "$expr": { "$lt": [{ "$ifNull": ["$sq", null] }, { "$ifNull": ["$oq", null] }] } }
    );
    assert_eq!(labels(&coll, short()).await, ["a"]);
    assert_eq!(coll.count(short()).await.unwrap(), 1);

    // Two field-to-field conditions: `$and` of two `$expr`, never one expression with two operators.
    let both = f.shipped_qty().lt_field(f.ordered_qty()).and(f.author_name().gt_field(f.source_name()));
    let doc = both.clone().into_document().unwrap();
    assert_eq!(doc.get_array("$and").map(Vec::len).ok(), Some(2), "{doc}");
    assert_eq!(labels(&coll, both).await, ["d"]);

    // Alternatives and negations hold `$expr` as clauses.
    let either = Filter::any_of([f.status().eq("closed").and(f.placed_at().eq_field(f.due_at())), short()]);
    assert_eq!(labels(&coll, either).await, ["a", "c"]);
    let neither = Filter::none_of([f.shipped_qty().lt_field(f.ordered_qty()), f.status().eq("closed")]);
    assert_eq!(labels(&coll, neither).await, ["b"]);

    // The same condition in a pipeline's `$match`.
    let matched: Vec<Order> = coll.aggregate().filter(short()).await.expect("aggregate");
    assert_eq!(matched.iter().map(|o| o.label.as_str()).collect::<Vec<_>>(), ["a"]);

    // And as an update's filter: only the matching documents change, as the raw driver reads them.
    let result = coll
        .update_many(f.author_name().ne_field(f.source_name()), Update::new().set(f.status(), "check"))
        .await
        .expect("update_many");
    assert_eq!((result.matched, result.modified), (3, 3));
    let raw = db.db().collection::<Document>("shop_order");
    let mut checked: Vec<String> = Vec::new();
    let mut cursor = raw.find(doc! { "st": "check" }).await.unwrap();
    while cursor.advance().await.unwrap() {
        checked.push(cursor.deserialize_current().unwrap().get_str("lb").unwrap().to_owned());
    }
    checked.sort();
    assert_eq!(checked, ["b", "c", "d"]);

    // And as a delete's filter: the orders placed after their due date.
    assert_eq!(coll.delete_many(f.placed_at().gt_field(f.due_at())).await.expect("delete_many").count, 2);
    let mut left: Vec<String> = Vec::new();
    let mut cursor = raw.find(doc! {}).await.unwrap();
    while cursor.advance().await.unwrap() {
        left.push(cursor.deserialize_current().unwrap().get_str("lb").unwrap().to_owned());
    }
    left.sort();
    assert_eq!(left, ["b", "c"]);
}

#[tokio::test]
async fn absent_and_null_read_as_none_below_every_value() {
    let mut docs = Vec::new();
    let mut with = |label: &str, delivered: Option<Bson>, cancelled: Option<Bson>| {
        let mut d = order(label, "open", 0, 0, 0);
        if let Some(v) = delivered {
            d.insert("dl", v);
        }
        if let Some(v) = cancelled {
            d.insert("cl", v);
        }
        docs.push(d);
    };
    // `da` is day 10 in every document.
    with("absent", None, None);
    with("null", Some(Bson::Null), Some(Bson::Null));
    with("absent-null", None, Some(Bson::Null));
    with("early", Some(Bson::DateTime(at(9))), None);
    with("late", Some(Bson::DateTime(at(11))), Some(Bson::DateTime(at(11))));
    let (_db, coll) = stored("field_compare_none", docs).await;
    let f = Order::fields();

    // `None` is below every value: absent and `null` deliveries are before the due date, as Rust orders `Option`.
    assert_eq!(labels(&coll, f.delivered_at().lt_field(f.due_at())).await, ["absent", "absent-null", "early", "null"]);
    assert_eq!(labels(&coll, f.delivered_at().gt_field(f.due_at())).await, ["late"]);
    assert_eq!(labels(&coll, f.due_at().gt_field(f.delivered_at())).await, ["absent", "absent-null", "early", "null"]);
    // Two `None`s are equal however each is stored (the server alone orders a missing field below `null`).
    assert_eq!(
        labels(&coll, f.delivered_at().eq_field(f.cancelled_at())).await,
        ["absent", "absent-null", "late", "null"]
    );
    assert_eq!(labels(&coll, f.delivered_at().ne_field(f.cancelled_at())).await, ["early"]);
    // An absent cancellation is below a delivery date.
    assert_eq!(labels(&coll, f.cancelled_at().lt_field(f.delivered_at())).await, ["early"]);
}

#[tokio::test]
async fn explain_shows_the_comparison_reads_every_document_the_other_conditions_select() {
    let docs: Vec<Document> = (0..60)
        .map(|i| order(&format!("n{i:02}"), if i % 3 == 0 { "open" } else { "closed" }, (i % 3) - 1, 0, 0))
        .collect();
    let (_db, coll) = stored("field_compare_explain", docs).await;
    let f = Order::fields();
    let open = 20;

    // Alone, the comparison has no index to use: every document is read.
    let alone = coll.find(f.shipped_qty().lt_field(f.ordered_qty())).explain().await.expect("explain");
    assert!(!alone.uses_index(), "{alone}");
    assert_eq!(alone.docs_examined, Some(60), "{alone}");
    assert_eq!(alone.returned, Some(20), "{alone}");

    // With an indexed equality: the index selects the open orders (when the server plans with it), and the
    // comparison is evaluated on each of them.
    let filter = open_and_short();
    let mixed = coll.find(filter.clone()).explain().await.expect("explain");
    assert_eq!(mixed.returned, Some(coll.count(filter).await.unwrap()), "{mixed}");
    assert_eq!(mixed.returned, Some(20), "{mixed}");
    if mixed.uses_index() {
        assert_eq!(mixed.index.as_deref(), Some("idx_st"), "{mixed}");
        assert_eq!((mixed.keys_examined, mixed.docs_examined), (Some(open), Some(open)), "{mixed}");
    } else {
        eprintln!("recorded: the server scans the collection for an indexed equality here: {mixed}");
        assert_eq!(mixed.docs_examined, Some(60), "{mixed}");
    }

    // A count and an update explain the same filter: when the server reports what it read, it read at least every
    // open order, the comparison being evaluated on each.
    let counted = coll.count(open_and_short()).explain().await.expect("explain count");
    let update = Update::new().set(f.status(), "short");
    let updated = coll.update_many(open_and_short(), update).explain().await.expect("explain update");
    for explained in [&counted, &updated] {
        assert!(explained.docs_examined.is_none_or(|n| n >= open), "{explained}");
    }
    // Explaining wrote nothing.
    assert_eq!(coll.count(f.status().eq("short")).await.unwrap(), 0);
}

/// The open orders shipping less than ordered.
fn open_and_short() -> Filter<Order> {
    let f = Order::fields();
    f.status().eq("open").and(f.shipped_qty().lt_field(f.ordered_qty()))
}

/// Two kinds of stock movement storing the same keys: only the discriminator tells them apart.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "shop_movement")]
#[serde(tag = "t", rename_all = "snake_case")]
enum Movement {
    Receipt {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "q")]
        quantity: i64,
        #[serde(rename = "e")]
        expected: i64,
    },
    Refund {
        #[serde(rename = "_id")]
        id: ObjectId,
        #[serde(rename = "q")]
        quantity: i64,
        #[serde(rename = "e")]
        expected: i64,
    },
}

#[tokio::test]
async fn a_variant_path_keeps_its_discriminator() {
    let (db, coll) = support::setup::synced::<Movement>("field_compare_variant").await;
    let raw = db.db().collection::<Document>("shop_movement");
    support::raw::insert_outside(
        &raw,
        vec![
            doc! { "_id": ObjectId::new(), "t": "receipt", "q": 3_i64, "e": 5_i64 },
            doc! { "_id": ObjectId::new(), "t": "receipt", "q": 5_i64, "e": 5_i64 },
            doc! { "_id": ObjectId::new(), "t": "refund", "q": 1_i64, "e": 5_i64 },
        ],
    )
    .await;
    let f = Movement::fields();
    let short = f.receipt().quantity().lt_field(f.receipt().expected());
    assert_eq!(
        short.clone().into_document().unwrap(),
        doc! { "t": "receipt", "$expr": { "$lt": [{ "$ifNull": ["$q", null] }, { "$ifNull": ["$e", null] }] } }
    );
    assert_eq!(coll.count(short).await.unwrap(), 1);

    // Fields of two variants are never in one document: refused before sending.
    let across = f.receipt().quantity().lt_field(f.refund().expected());
    let err = coll.count(across).await.expect_err("two variants");
    assert!(
        matches!(
            &err,
            odm::Error::InvalidOperation {
                cause: Invalid::FieldCompareVariants { variant: "refund", other: "receipt", .. },
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("of variant `refund`"), "{err}");
}

#[tokio::test]
async fn element_conditions_and_array_filters_refuse_a_field_comparison() {
    let (_db, coll) = stored("field_compare_elements", orders()).await;
    let f = Order::fields();
    let inside = f.lines().any(|l| l.quantity().gt(0).and(f.shipped_qty().lt_field(f.ordered_qty())));
    let err = coll.count(inside).await.expect_err("`$expr` in `$elemMatch`");
    assert!(matches!(&err, odm::Error::InvalidOperation { cause: Invalid::FieldCompareInElement { .. }, .. }), "{err}");
    assert!(err.to_string().contains("Order.lines"), "{err}");

    let filtered = f.lines().filtered("big", |_| f.shipped_qty().lt_field(f.ordered_qty())).quantity();
    let err = coll.update_many(Filter::everything(), Update::new().set(filtered, 2)).await.expect_err("array filter");
    assert!(matches!(&err, odm::Error::InvalidOperation { cause: Invalid::FieldCompareInElement { .. }, .. }), "{err}");
}
