//! The indexes odm owns survive a dump and restore, and only those: a stale index odm created is still dropped by
//! a sync after the restore; a DBA's index, whatever its name, still never is.

use super::*;
use odm::sync::plan::{Action, StaleHandling};
use odm::sync::{ModelSpec, SyncMode};

#[tokio::test]
async fn a_dump_and_restore_keeps_which_indexes_are_odms() {
    let src = odm::testing::database("bk_owned").await;
    seed(&src, 5).await;
    // A DBA's index, by mongosh, named as the naming rule tells DBAs to.
    let (code, out) = support::shell::mongosh(&format!(
        "db.getSiblingDB({:?}).shop_item.createIndex({{ pr: 1 }}, {{ name: 'idx_pr' }});",
        src.name()
    ));
    assert_eq!(code, 0, "{out}");
    let dir = out_dir(&src);
    let report = Dump::new(src.client(), &*dir).model::<Item>().database(src.name()).await.expect("dump");
    assert_eq!(report.collections.len(), 1, "{report}");
    // The records travel in the collection's metadata file, beside mongodump's own keys.
    let metadata = std::fs::read_to_string(dir.join(src.name()).join("shop_item.metadata.json")).expect("metadata");
    let json: serde_json::Value = serde_json::from_str(&metadata).expect("json");
    let mut recorded: Vec<&str> =
        json["odmIndexes"].as_array().expect("odmIndexes").iter().filter_map(|i| i["name"].as_str()).collect();
    recorded.sort_unstable();
    assert_eq!(recorded, ["idx_at_qty", "idx_sku"], "{metadata}");

    let copy = odm::testing::database("bk_owned_copy").await;
    Restore::new(copy.client(), &*dir).database(src.name()).into_db(copy.name()).await.expect("restore");
    assert_eq!(support::server::owned_index_names(&copy, "shop_item").await, ["idx_at_qty", "idx_sku"]);
    let names = support::server::index_names(&copy, "shop_item").await;
    assert_eq!(names, ["_id_", "idx_at_qty", "idx_pr", "idx_sku"]);

    // A model that no longer declares `-at, qty`: after the restore, odm's index is still odm's to drop, and the
    // DBA's still not.
    let mut spec = ModelSpec::of::<Item>();
    spec.indexes.retain(|i| i.name == "idx_sku");
    let synced = odm::SchemaSync::new(copy.client())
        .database(copy.name())
        .spec(spec)
        .mode(SyncMode::Apply)
        .stale_indexes(StaleHandling::Drop)
        .await
        .expect("sync after the restore");
    assert!(
        synced.plan.actions.iter().any(|a| matches!(a, Action::UnownedIndex { live, .. } if live.name == "idx_pr")),
        "{synced}"
    );
    let names = support::server::index_names(&copy, "shop_item").await;
    assert_eq!(names, ["_id_", "idx_pr", "idx_sku"], "{synced}");
}
