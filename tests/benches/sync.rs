//! Steady-state startup sync of 100 models against the same reads written by hand with the raw driver
//! (`listCollections` once, `listIndexes` per collection), in the same run. Target: odm ≤ 1.2× the baseline.
//!
//! Run with `cargo bench -p odm-tests --bench sync` (starts the embedded test server, or uses `MONGODB_URI`).

use criterion::{criterion_group, criterion_main, Criterion};
use futures_util::TryStreamExt;
use odm::bson::{doc, Document};
use odm::sync::ModelSpec;
use odm::{IndexSpec, Model, Sync};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize)]
#[odm(collection = "bench_item", closed)]
struct Item {
    #[serde(rename = "n")]
    name: String,
    #[serde(rename = "p")]
    price: f64,
    #[serde(rename = "at")]
    created: odm::bson::DateTime,
}

const MODELS: usize = 100;

fn specs() -> Vec<ModelSpec> {
    (0..MODELS)
        .map(|i| {
            let mut spec = ModelSpec::of::<Item>();
            spec.collection = Box::leak(format!("bench_item{i}").into_boxed_str());
            let mut ttl = IndexSpec::new("idx_at", doc! { "at": 1 });
            ttl.expire_after_seconds = Some(86_400);
            spec.indexes = vec![IndexSpec::new("idx_n_p", doc! { "n": 1, "p": -1 }), ttl];
            spec
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let (db, client) = rt.block_on(async {
        let db = odm::testing::database("bench_sync").await;
        let client = db.client().clone();
        let report =
            specs().into_iter().fold(Sync::new(&client).database(db.name()), Sync::spec).run().await.expect("setup");
        assert!(report.remaining().next().is_none());
        (db.name().to_owned(), client)
    });
    let specs = specs();

    let mut group = c.benchmark_group("steady_state_sync_100_models");
    group.sample_size(20);
    group.bench_function("odm_sync", |b| {
        b.to_async(&rt).iter(|| async {
            let plan =
                specs.iter().cloned().fold(Sync::new(&client).database(&db), Sync::spec).plan().await.expect("plan");
            assert!(plan.actions.is_empty());
        })
    });
    group.bench_function("raw_driver_sweep", |b| {
        b.to_async(&rt).iter(|| async {
            let database = client.database(&db);
            let colls: Vec<Document> = database
                .list_collections()
                .await
                .expect("list")
                .with_type::<Document>()
                .try_collect()
                .await
                .expect("read");
            assert_eq!(colls.len(), MODELS);
            for spec in &specs {
                let idx: Vec<Document> = database
                    .collection::<Document>(spec.collection)
                    .list_indexes()
                    .await
                    .expect("indexes")
                    .with_type::<Document>()
                    .try_collect()
                    .await
                    .expect("read");
                assert_eq!(idx.len(), 3);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
