//! Project, sort, skip, limit and set in the output type; decode errors naming its fields; `$unwind`; `$lookup` between two models.

use super::*;

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
