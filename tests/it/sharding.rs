//! Sharding without a cluster (the test server is not one): the sync plan for a cluster (its exact commands, in the
//! DBA script too), the note elsewhere, and the filter analysis that keeps single-document operations on one shard.

use odm::bson::{doc, oid::ObjectId};
use odm::{sync::plan::Action, sync::Outcome, sync::Topology, Collection, Filter, Model, SchemaSync, SyncMode, Update};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "order_header", shard_key = "region, customer")]
#[odm(index(keys = "region, customer"))]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rg")]
    region: String,
    #[serde(rename = "cu")]
    customer: ObjectId,
    #[serde(rename = "t")]
    total: i64,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "web_click", shard_key = "id:hashed", index(keys = "id:hashed"))]
struct Click {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "u")]
    url: String,
}

/// An order that may be looked up without its shard key, with a warning.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "order_archive", shard_key = "region", scatter = "warn")]
#[odm(index(keys = "region"))]
struct Archived {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "rg")]
    region: String,
    #[serde(rename = "t")]
    total: i64,
}

#[tokio::test]
async fn single_document_operations_that_would_reach_every_shard_are_refused_before_sending() {
    let db = odm::testing::database("shard_scatter").await;
    let orders = Collection::<Order>::new(&db);
    let f = Order::fields();
    let order = Order { id: ObjectId::new(), region: "eu".into(), customer: ObjectId::new(), total: 10 };
    orders.insert_one(&order).await.expect("insert");
    let pinned = || f.region().eq("eu").and(f.customer().eq(order.customer));

    // Targeted: the whole shard key by equality, or `_id`.
    assert_eq!(orders.find_one(pinned()).await.expect("targeted"), Some(order.clone()));
    assert_eq!(orders.find_one(f.id().eq(order.id)).await.expect("by _id"), Some(order.clone()));
    let more = pinned().and(f.total().gt(5));
    assert!(orders.update_one(more, Update::new().inc(f.total(), 1)).await.expect("targeted update").matched == 1);

    // Untargeted: refused, naming what is missing; nothing reaches the server.
    let err = orders.find_one(f.region().eq("eu")).await.expect_err("region alone");
    let odm::Error::ScatterGather(e) = &err else { panic!("{err}") };
    assert_eq!((e.operation, e.missing.as_slice()), ("find_one", ["Order.customer".to_owned()].as_slice()));
    assert!(err.to_string().contains("rule `shard-scatter`") && err.to_string().contains("nothing was sent"), "{err}");
    let in_two = f.region().is_in(["eu", "us"]).and(f.customer().eq(order.customer));
    assert!(matches!(orders.delete_one(in_two).await, Err(odm::Error::ScatterGather(_))), "$in of two values");
    let by_total = || f.total().eq(11);
    for (op, result) in [
        ("update_one", orders.update_one(by_total(), Update::new().inc(f.total(), 1)).await.map(|_| ())),
        ("update_one", orders.update_one(by_total(), Update::new().inc(f.total(), 1)).upsert().await.map(|_| ())),
        ("replace_one", orders.replace_one(by_total(), &order).await.map(|_| ())),
        ("delete_one", orders.delete_one(by_total()).await.map(|_| ())),
        ("find_one_and_delete", orders.find_one_and_delete(by_total()).await.map(|_| ())),
        (
            "find_one_and_update",
            orders.find_one_and_update(by_total(), Update::new().inc(f.total(), 1)).after().await.map(|_| ()),
        ),
    ] {
        match result {
            Err(odm::Error::ScatterGather(e)) => {
                assert_eq!(e.operation, op);
                assert_eq!(e.missing, ["Order.region", "Order.customer"]);
            }
            other => panic!("{op}: {other:?}"),
        }
    }
    let stored = orders.find_one(f.id().eq(order.id)).await.unwrap().unwrap();
    assert_eq!(stored.total, 11, "only the targeted update was applied");
    // Multi-document operations are not single-document: they go everywhere by design.
    assert_eq!(orders.update_many(by_total(), Update::new().inc(f.total(), 1)).await.unwrap().modified, 1);
    assert_eq!(orders.count(Filter::everything()).await.unwrap(), 1);

    // `scatter = "warn"`: sent anyway.
    let archive = Collection::<Archived>::new(&db);
    let a = Archived { id: ObjectId::new(), region: "eu".into(), total: 3 };
    archive.insert_one(&a).await.unwrap();
    assert_eq!(archive.find_one(Archived::fields().total().eq(3)).await.expect("warned, sent"), Some(a));
}

#[tokio::test]
async fn a_server_that_is_not_a_cluster_gets_a_note_with_the_command() {
    let db = odm::testing::database("shard_note").await;
    let sync = || SchemaSync::new(db.client()).database(db.name()).model::<Order>();
    let report = sync().mode(SyncMode::Apply).await.expect("sync");
    report.require_in_sync().expect("a note is not drift");
    let kinds: Vec<&str> = report.plan.actions.iter().map(Action::kind).collect();
    assert_eq!(kinds, ["createCollection", "createIndex", "notACluster"]);
    let text = report.to_string();
    let ns = format!("{}.order_header", db.name());
    assert!(text.contains(&format!("sh.shardCollection(\"{ns}\", {{ \"rg\": 1, \"cu\": 1 }})")), "{text}");
    let plan = sync().plan().await.expect("plan");
    assert_eq!(plan.actions.iter().map(Action::kind).collect::<Vec<_>>(), ["notACluster"]);
    assert!(plan.is_in_sync());
    assert!(plan.to_mongosh().contains("print(`note: "), "a note in the script, not a decision");
    sync().mode(SyncMode::Verify).await.expect("verify passes").require_in_sync().expect("in sync");
}

#[tokio::test]
async fn planning_for_a_cluster_shards_each_declared_key_with_the_exact_commands() {
    let db = odm::testing::database("shard_plan").await;
    let sync = || {
        SchemaSync::new(db.client()).database(db.name()).model::<Order>().model::<Click>().topology(Topology::Sharded)
    };
    let plan = sync().plan().await.expect("plan");
    let shard: Vec<&Action> = plan.actions.iter().filter(|a| a.kind() == "shardCollection").collect();
    assert_eq!(shard.len(), 2, "{plan}");
    assert_eq!(shard[0].command_database(), "admin");
    assert_eq!(
        shard[0].commands(),
        [
            doc! { "enableSharding": db.name() },
            doc! { "shardCollection": format!("{}.order_header", db.name()), "key": { "rg": 1, "cu": 1 } },
        ]
    );
    assert_eq!(shard[1].commands()[1].get_document("key").unwrap(), &doc! { "_id": "hashed" });
    // The DBA script runs them against admin, in canonical Extended JSON.
    let script = plan.to_mongosh();
    assert!(
        script.contains(&format!(
            "odmStep(\"admin\", \"{}.order_header: shard collection by {{ \\\"rg\\\": 1, \\\"cu\\\": 1 }}\", \
             {{\"shardCollection\":\"{}.order_header\",\"key\":{{\"rg\":{{\"$numberInt\":\"1\"}},\"cu\":{{\"$numberInt\":\"1\"}}}}}});",
            db.name(),
            db.name()
        )),
        "{script}"
    );
    let json = plan.to_json();
    assert!(json.as_array().unwrap().iter().any(|a| a["kind"] == "shardCollection" && a["commandDb"] == "admin"));
    // Verify fails on the unsharded collections; a collection created by the sync is sharded even in CreateMissing,
    // where this server, not a cluster, refuses the command: reported, not a crash.
    let err = sync().mode(SyncMode::Verify).await.expect_err("drift on a cluster");
    assert!(matches!(err, odm::Error::Drift(_)), "{err}");
    let report = sync().await.expect("sync");
    let refused: Vec<&Outcome> = report
        .plan
        .actions
        .iter()
        .zip(&report.outcomes)
        .filter(|(a, _)| a.kind() == "shardCollection")
        .map(|(_, o)| o)
        .collect();
    assert_eq!(refused.len(), 2, "{report}");
    assert!(refused.iter().all(|o| matches!(o, Outcome::Refused(_))), "{report}");
    assert!(report.require_in_sync().is_err(), "an unsharded collection on a cluster stays drift");
}
