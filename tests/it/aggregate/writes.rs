//! `$out` and `$merge` into a model's collection, checked by its validator, and a pipeline inside a transaction.

use super::*;

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
