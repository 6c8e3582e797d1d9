//! The connection checklist against the real server: clients built from the test server's URI with options
//! appended, each warning present exactly when its setting says so, alone and in a sync's report (Verify included).
//! Whether the server is standalone is asked of the server (`hello`), as odm asks it.

use odm::bson::{doc, oid::ObjectId};
use odm::connection::{Checklist, ConnectionWarning, DRIVER_DEFAULT_POOL_SIZE};
use odm::model::ReadPreferenceMode;
use odm::mongodb::options::ClientOptions;
use odm::mongodb::Client;
use odm::{Model, SchemaSync, SyncMode};

/// A model read from the nearest member, with no write concern of its own.
#[derive(Model, serde::Serialize, serde::Deserialize)]
#[odm(collection = "shop_view", read_preference = "nearest")]
struct PageView {
    #[serde(rename = "_id")]
    id: ObjectId,
}

/// A model written with a majority write concern.
#[derive(Model, serde::Serialize, serde::Deserialize)]
#[odm(collection = "shop_ledger", write_concern(w = "majority"))]
struct Ledger {
    #[serde(rename = "_id")]
    id: ObjectId,
}

/// The test server's URI with `options` appended.
fn uri_with(options: &str) -> String {
    let uri = odm::testing::server().uri();
    if options.is_empty() {
        uri.to_owned()
    } else if uri.contains('?') {
        format!("{uri}&{options}")
    } else if uri.trim_start_matches("mongodb://").contains('/') {
        format!("{uri}?{options}")
    } else {
        format!("{uri}/?{options}")
    }
}

/// A client built from the test server's URI with `options`, and the options it was built from.
async fn client_with(options: &str) -> (Client, ClientOptions) {
    let options = ClientOptions::parse(uri_with(options)).await.expect("a valid URI");
    (Client::with_options(options.clone()).expect("a client"), options)
}

/// True when the server says it is a standalone mongod: `hello` names no replica set and it is no `mongos`.
async fn standalone(client: &Client) -> bool {
    let hello = client.database("admin").run_command(doc! { "hello": 1 }).await.expect("hello");
    !hello.contains_key("setName") && hello.get_str("msg").ok() != Some("isdbgrid")
}

/// The checklist of a client built with `options`, for `PageView` and `Ledger`, without the standalone item
/// (checked on its own, since it depends on the server, not on the options).
async fn warnings_with(options: &str) -> Vec<ConnectionWarning> {
    let (client, options) = client_with(options).await;
    let warnings = Checklist::new(&client).options(&options).model::<PageView>().model::<Ledger>().await.unwrap();
    warnings.into_iter().filter(|w| !matches!(w, ConnectionWarning::Standalone { .. })).collect()
}

#[tokio::test]
async fn each_item_appears_exactly_when_its_setting_says_so() {
    // A bounded pool, acknowledged retryable writes, no read preference: nothing to say.
    assert_eq!(warnings_with("maxPoolSize=20").await, []);
    assert_eq!(warnings_with("maxPoolSize=20&retryWrites=true&w=1").await, []);

    assert_eq!(warnings_with("").await, [ConnectionWarning::PoolSizeDefault { default: DRIVER_DEFAULT_POOL_SIZE }]);
    assert_eq!(DRIVER_DEFAULT_POOL_SIZE, 10);
    assert_eq!(warnings_with("maxPoolSize=20&retryWrites=false").await, [ConnectionWarning::RetryWritesOff]);

    // The connection's read preference against `PageView`'s `nearest` (Ledger declares none: nothing to contradict).
    assert_eq!(warnings_with("maxPoolSize=20&readPreference=nearest").await, []);
    let contradicted = warnings_with("maxPoolSize=20&readPreference=secondaryPreferred").await;
    let [ConnectionWarning::ReadPreferenceContradicts { model, declared, connection }] = contradicted.as_slice() else {
        panic!("one contradiction: {contradicted:?}");
    };
    assert!(model.ends_with("::PageView"), "{model}");
    assert_eq!((*declared, *connection), (ReadPreferenceMode::Nearest, ReadPreferenceMode::SecondaryPreferred));
    assert!(contradicted[0].to_string().contains("`secondaryPreferred`"), "{}", contradicted[0]);

    // Unacknowledged writes: `PageView` inherits `w: 0`, `Ledger` writes with its own majority concern.
    let unacknowledged = warnings_with("maxPoolSize=20&w=0").await;
    let [ConnectionWarning::UnacknowledgedWrites { models }] = unacknowledged.as_slice() else {
        panic!("one unacknowledged item: {unacknowledged:?}");
    };
    assert_eq!(models.len(), 1);
    assert!(models[0].ends_with("::PageView"), "{models:?}");

    // Without the options the client was built from, the two items they decide are said to be unchecked.
    let (client, _) = client_with("retryWrites=false").await;
    let alone = Checklist::new(&client).await.unwrap();
    let alone: Vec<_> = alone.into_iter().filter(|w| !matches!(w, ConnectionWarning::Standalone { .. })).collect();
    assert_eq!(alone, [ConnectionWarning::OptionsNotGiven]);
}

#[tokio::test]
async fn a_standalone_server_is_reported_with_the_models_that_need_a_replica_set() {
    let (client, options) = client_with("maxPoolSize=20").await;
    let warnings = Checklist::new(&client).options(&options).model::<PageView>().model::<Ledger>().await.unwrap();
    let said: Vec<&ConnectionWarning> =
        warnings.iter().filter(|w| matches!(w, ConnectionWarning::Standalone { .. })).collect();
    if !standalone(&client).await {
        assert!(said.is_empty(), "a replica set or a cluster is no standalone: {said:?}");
        return;
    }
    let [ConnectionWarning::Standalone { needing }] = said.as_slice() else { panic!("{warnings:?}") };
    let named: Vec<(&str, &str)> = needing.iter().map(|(m, why)| (*m, why.as_str())).collect();
    assert_eq!(named.len(), 2, "{named:?}");
    assert!(named[0].0.ends_with("::PageView") && named[0].1 == "read preference `nearest`", "{named:?}");
    assert!(named[1].0.ends_with("::Ledger") && named[1].1 == "write concern `majority`", "{named:?}");
    let text = said[0].to_string();
    assert!(text.contains("transactions and change streams need a replica set"), "{text}");
    assert!(text.contains("replicaSet="), "what to change: {text}");
}

#[tokio::test]
async fn every_sync_report_carries_the_checklist_in_every_mode() {
    let db = odm::testing::database("connection_sync").await;
    let name = db.name().to_owned();
    let (client, options) = client_with("retryWrites=false").await;
    let sync = || SchemaSync::new(&client).database(&name).model::<PageView>().client_options(&options);
    let applied = sync().mode(SyncMode::Apply).await.unwrap();
    let verified = sync().mode(SyncMode::Verify).await.unwrap();
    verified.require_in_sync().expect("the checklist is not drift");
    let on_standalone = standalone(&client).await;
    for report in [&applied, &verified] {
        let items: Vec<&ConnectionWarning> =
            report.connection.iter().filter(|w| !matches!(w, ConnectionWarning::Standalone { .. })).collect();
        assert_eq!(
            items,
            [&ConnectionWarning::PoolSizeDefault { default: 10 }, &ConnectionWarning::RetryWritesOff],
            "{report}"
        );
        assert_eq!(report.connection.iter().any(|w| matches!(w, ConnectionWarning::Standalone { .. })), on_standalone);
        let text = report.to_string();
        assert!(text.contains("connection:\n- "), "{text}");
        assert!(text.contains("`retryWrites=false`"), "{text}");
    }
    // A sync not given the options says the two items it could not check.
    let report = SchemaSync::new(&client).database(&name).model::<PageView>().mode(SyncMode::Verify).await.unwrap();
    assert!(report.connection.contains(&ConnectionWarning::OptionsNotGiven), "{report}");
    assert!(!report.connection.contains(&ConnectionWarning::RetryWritesOff), "{report}");
}
