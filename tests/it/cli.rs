//! The admin command line (`odm::cli`), run as an operator runs it: the `odm-admin` binary (an application's admin
//! with an order model, a versioned contact model and a monthly event log) against the real server, each test in its
//! own database.
//! Every outcome is checked by its exit code, its output, and what the server then holds (read with the raw
//! driver); documents the checker and the migration must find are written around odm, with the raw driver.

use crate::support;

use odm::bson::{doc, oid::ObjectId, DateTime, Document};
use odm::cli::exit;
use odm::mongodb::Database;
use serde_json::Value;
use support::raw::insert_outside;

/// What one run of the binary gave.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Standard output as the one JSON document `--json` promises.
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!("stdout is not one JSON document ({e}):\n{}\nstderr:\n{}", self.stdout, self.stderr)
        })
    }

    /// Panics, showing the output, unless the exit code is `code`.
    fn expect(self, code: u8) -> Run {
        assert_eq!(self.code, i32::from(code), "exit code\nstdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
        self
    }
}

/// Runs the admin binary with `args`, without `MONGODB_URI` in its environment (tests pass `--uri`).
async fn admin(args: &[&str]) -> Run {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_odm-admin"))
        .args(args)
        .env_remove("MONGODB_URI")
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .expect("the admin binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the admin binary against the test server and `db`: `--uri` and `--db` first, then `args`.
async fn admin_on(db: &Database, args: &[&str]) -> Run {
    let uri = odm::testing::server().uri();
    let mut all = vec!["--uri", uri, "--db", db.name()];
    all.extend_from_slice(args);
    admin(&all).await
}

/// The live options (`validator`, …) of `collection`, as `listCollections` gives them; `None` when it is missing.
async fn options(db: &Database, collection: &str) -> Option<Document> {
    let mut cursor = db.list_collections().filter(doc! { "name": collection }).await.expect("listCollections");
    let spec = futures_util::StreamExt::next(&mut cursor).await?.expect("collection spec");
    Some(spec.options.validator.map(|v| doc! { "validator": v }).unwrap_or_default())
}

/// The key patterns of `collection`'s indexes.
async fn index_keys(db: &Database, collection: &str) -> Vec<Document> {
    let cursor = db.collection::<Document>(collection).list_indexes().await.expect("listIndexes");
    futures_util::TryStreamExt::try_collect::<Vec<_>>(cursor)
        .await
        .expect("indexes")
        .into_iter()
        .map(|i| i.keys)
        .collect()
}

#[tokio::test]
async fn plan_on_an_empty_database_lists_the_creations_and_changes_nothing() {
    let db = odm::testing::database("cli_plan").await;
    let run = admin_on(&db, &["plan"]).await.expect(exit::OK);
    let order = format!("{}.order_header: create collection with validator", db.name());
    let contact = format!("{}.crm_contact: create collection with validator", db.name());
    assert!(run.stdout.contains(&order) && run.stdout.contains(&contact), "{}", run.stdout);
    assert!(run.stdout.contains("create index"), "{}", run.stdout);

    let json = admin_on(&db, &["plan", "--json"]).await.expect(exit::OK).json();
    assert_eq!(json["command"], "plan");
    assert_eq!(json["exitCode"], 0);
    assert_eq!(json["inSync"], false);
    let kinds: Vec<&str> = json["actions"].as_array().unwrap().iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["createCollection", "createIndex", "createCollection"]);
    assert!(db.list_collection_names().await.unwrap().is_empty(), "plan changed nothing");
}

#[tokio::test]
async fn verify_fails_with_the_drift_code_until_apply_brings_the_database_in_line() {
    let db = odm::testing::database("cli_verify").await;
    let run = admin_on(&db, &["verify"]).await.expect(exit::DRIFT);
    assert!(run.stdout.contains("DRIFT: the database differs from the models"), "{}", run.stdout);
    let json = admin_on(&db, &["verify", "--json"]).await.expect(exit::DRIFT).json();
    assert_eq!((json["command"].as_str(), json["inSync"].as_bool()), (Some("verify"), Some(false)));

    let applied = admin_on(&db, &["apply", "--json"]).await.expect(exit::OK).json();
    assert_eq!(applied["inSync"], true);
    assert!(applied["connection"].is_array(), "{applied}");
    let outcomes: Vec<&str> =
        applied["actions"].as_array().unwrap().iter().map(|a| a["outcome"]["state"].as_str().unwrap()).collect();
    assert_eq!(outcomes, ["done", "done", "done"]);

    // What the server holds now: both validators, the declared index.
    for collection in ["order_header", "crm_contact"] {
        let live = options(&db, collection).await.unwrap_or_else(|| panic!("{collection} created"));
        assert!(live.get_document("validator").is_ok_and(|v| v.contains_key("$jsonSchema")), "{collection}: {live}");
    }
    assert!(index_keys(&db, "order_header").await.contains(&doc! { "cu": 1, "ca": -1 }));

    let run = admin_on(&db, &["verify"]).await.expect(exit::OK);
    assert!(run.stdout.starts_with("in sync"), "{}", run.stdout);
    admin_on(&db, &["plan"]).await.expect(exit::OK);
    let quiet = admin_on(&db, &["--quiet", "verify"]).await.expect(exit::OK);
    assert_eq!((quiet.stdout.as_str(), quiet.stderr.as_str()), ("", ""));
}

#[tokio::test]
async fn the_connection_checklist_reads_the_connection_string_it_is_given() {
    let db = odm::testing::database("cli_connection").await;
    let warnings = |run: Run| -> Vec<String> {
        let json = run.json();
        json["connection"].as_array().expect("the checklist").iter().map(|w| w.as_str().unwrap().to_owned()).collect()
    };
    let base = odm::testing::server().uri();
    let joined = |extra: &str| format!("{base}{}{extra}", if base.contains('?') { '&' } else { '?' });
    // The pool size and retryWrites are read from the connection string: never "not checked".
    let default = warnings(admin(&["--uri", base, "--db", db.name(), "apply", "--json"]).await);
    assert!(default.iter().all(|w| !w.contains("were not checked")), "{default:?}");
    assert!(default.iter().any(|w| w.contains("`maxPoolSize` is not set")), "{default:?}");
    let sized = joined("maxPoolSize=50&retryWrites=false");
    let sized = warnings(admin(&["--uri", &sized, "--db", db.name(), "apply", "--json"]).await);
    assert!(sized.iter().all(|w| !w.contains("`maxPoolSize` is not set")), "{sized:?}");
    assert!(sized.iter().any(|w| w.contains("retryWrites")), "retryWrites=false is reported: {sized:?}");

    // A drifted database does not hide the checklist: verify lists it beside the drift, as text and as JSON.
    let drifted = odm::testing::database("cli_connection_drift").await;
    let run = admin(&["--uri", base, "--db", drifted.name(), "verify"]).await.expect(exit::DRIFT);
    assert!(run.stdout.contains("connection: the connection pool is left at the driver's default"), "{}", run.stdout);
    let run = admin(&["--uri", base, "--db", drifted.name(), "verify", "--json"]).await.expect(exit::DRIFT);
    assert!(warnings(run).iter().any(|w| w.contains("`maxPoolSize` is not set")));
}

#[tokio::test]
async fn apply_drops_a_stale_owned_index_only_when_asked() {
    let db = odm::testing::database("cli_stale").await;
    admin_on(&db, &["apply", "--model", "Order"]).await.expect(exit::OK);
    // An index odm has no record of creating (an earlier release's, or a DBA's), named as odm names indexes.
    let (code, out) = support::shell::mongosh(&format!(
        "db.getSiblingDB({:?}).order_header.createIndex({{ am: 1 }}, {{ name: 'idx_am' }});",
        db.name()
    ));
    assert_eq!(code, 0, "{out}");

    let plan = admin_on(&db, &["plan", "--model", "Order", "--json"]).await.expect(exit::OK).json();
    assert_eq!(plan["actions"][0]["kind"], "unownedIndex", "{plan}");
    // Not odm's: never dropped, even when stale indexes are; reported, not drift.
    let run = admin_on(&db, &["apply", "--model", "Order", "--stale", "drop"]).await.expect(exit::OK);
    assert!(run.stdout.contains("idx_am") && run.stdout.contains("not odm's"), "{}", run.stdout);
    assert!(index_keys(&db, "order_header").await.contains(&doc! { "am": 1 }));
    admin_on(&db, &["verify", "--model", "Order", "--stale", "drop"]).await.expect(exit::OK);

    // Adopted on request, it is odm's: kept by default, dropped when asked.
    admin_on(&db, &["apply", "--model", "Order", "--adopt-indexes"]).await.expect(exit::OK);
    let plan = admin_on(&db, &["plan", "--model", "Order", "--json"]).await.expect(exit::OK).json();
    assert_eq!(plan["actions"][0]["kind"], "staleIndex", "{plan}");
    admin_on(&db, &["verify", "--model", "Order", "--stale", "drop"]).await.expect(exit::DRIFT);
    let run = admin_on(&db, &["apply", "--model", "Order", "--stale", "drop"]).await.expect(exit::OK);
    assert!(run.stdout.contains("idx_am") && run.stdout.contains("[done]"), "{}", run.stdout);
    assert!(!index_keys(&db, "order_header").await.contains(&doc! { "am": 1 }), "stale index dropped");
}

/// `--rollout direct` counts the stored documents the new validator fails before tightening: with some, it leaves
/// the validator as it is and exits with the drift code, unless asked to tighten anyway.
#[tokio::test]
async fn a_direct_rollout_over_failing_documents_says_so_and_tightens_only_when_asked() {
    let db = odm::testing::database("cli_direct").await;
    // A collection made around odm, without a validator, holding two documents Order's validator refuses.
    let (code, out) = support::shell::mongosh(&format!(
        "const d = db.getSiblingDB({:?});\n\
         d.createCollection('order_header');\n\
         d.order_header.insertMany([{{ mi: 'm1' }}, {{ mi: 'm2', am: 'five' }}]);\n",
        db.name()
    ));
    assert_eq!(code, 0, "{out}");

    let run = admin_on(&db, &["apply", "--model", "Order", "--rollout", "direct"]).await.expect(exit::DRIFT);
    assert!(run.stdout.contains("NOT APPLIED: 2 stored document(s) fail the new validator"), "{}", run.stdout);
    assert_eq!(options(&db, "order_header").await, Some(Document::new()), "the validator was not applied");
    let json =
        admin_on(&db, &["apply", "--model", "Order", "--rollout", "direct", "--json"]).await.expect(exit::DRIFT).json();
    assert!(json.to_string().contains(r#""state":"notTightened""#), "{json}");

    let run = admin_on(&db, &["apply", "--model", "Order", "--tighten-anyway"]).await.expect(exit::USAGE);
    assert!(run.stderr.contains("--rollout direct"), "{}", run.stderr);

    let run =
        admin_on(&db, &["apply", "--model", "Order", "--rollout", "direct", "--tighten-anyway"]).await.expect(exit::OK);
    assert!(run.stdout.contains("applied over 2 stored document(s) that fail it"), "{}", run.stdout);
    let validator = options(&db, "order_header").await.expect("the collection");
    assert!(validator.contains_key("validator"), "tightened as asked: {validator}");
}

#[tokio::test]
async fn apply_create_missing_leaves_a_changed_validator_to_report() {
    let db = odm::testing::database("cli_missing").await;
    // A collection created around odm, without a validator: the default startup mode only reports it.
    db.create_collection("order_header").await.unwrap();
    let run = admin_on(&db, &["apply", "--create-missing", "--model", "Order"]).await.expect(exit::DRIFT);
    assert!(run.stdout.contains("STILL DIFFERS"), "{}", run.stdout);
    assert!(options(&db, "order_header").await.unwrap().get("validator").is_none());
    assert!(index_keys(&db, "order_header").await.contains(&doc! { "cu": 1, "ca": -1 }), "missing index created");
    assert_eq!(options(&db, "crm_contact").await, None, "an unselected model is not synced");

    admin_on(&db, &["apply", "--model", "Order"]).await.expect(exit::OK);
    assert!(options(&db, "order_header").await.unwrap().get_document("validator").is_ok());
}

#[tokio::test]
async fn export_writes_a_script_mongosh_runs_and_json_that_parses() {
    let db = odm::testing::database("cli_export").await;
    let dir = std::env::temp_dir().join(format!("odm-cli-export-{}-{}", std::process::id(), db.name()));
    std::fs::create_dir_all(&dir).unwrap();
    let (script, plan) = (dir.join("plan.js"), dir.join("plan.json"));
    let json = admin_on(
        &db,
        &["export", "--mongosh", script.to_str().unwrap(), "--plan-json", plan.to_str().unwrap(), "--json"],
    )
    .await
    .expect(exit::OK)
    .json();
    assert_eq!(json["mongosh"], script.to_str().unwrap());
    assert!(db.list_collection_names().await.unwrap().is_empty(), "export changed nothing");

    let exported: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).expect("plan JSON parses");
    assert_eq!(exported.as_array().map(Vec::len), Some(3));
    assert!(exported[0]["commands"][0]["create"].is_string(), "{exported}");

    let script = std::fs::read_to_string(&script).unwrap();
    let out = odm::testing::run_mongosh(odm::testing::server().uri(), &script).expect("mongosh runs");
    let printed = support::shell::output_text(&out);
    assert_eq!(out.status.code(), Some(0), "{printed}");
    assert!(printed.contains("odm sync plan: done"), "{printed}");
    admin_on(&db, &["verify"]).await.expect(exit::OK);

    // `-` is standard output: the script alone, nothing else beside it.
    let run = admin_on(&db, &["export", "--mongosh", "-"]).await.expect(exit::OK);
    assert!(run.stdout.starts_with("// odm sync plan: 0 action(s)"), "{}", run.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn check_finds_documents_written_around_odm_and_passes_on_a_clean_collection() {
    let db = odm::testing::database("cli_check").await;
    admin_on(&db, &["apply"]).await.expect(exit::OK);
    let orders = db.collection::<Document>("order_header");
    let good = doc! { "_id": ObjectId::new(), "cu": "ada", "am": 12_i64, "ca": DateTime::now() };
    let bad_id = ObjectId::new();
    let bad = doc! { "_id": bad_id, "cu": "bob", "am": "twelve", "ca": DateTime::now() };
    insert_outside(&orders, vec![good, bad]).await;

    let run = admin_on(&db, &["check", "--model", "Order"]).await.expect(exit::FAILING);
    assert!(run.stdout.contains("1 of 2 document(s) fail the validator"), "{}", run.stdout);
    assert!(run.stdout.contains("Order.amount"), "{}", run.stdout);
    let json = admin_on(&db, &["check", "--json"]).await.expect(exit::FAILING).json();
    assert_eq!(json["failing"], 1);
    let order = &json["collections"][0];
    assert_eq!((order["model"].as_str(), order["checked"].as_u64()), (Some("Order"), Some(2)));
    assert_eq!(order["findings"][0]["sampleIds"][0], serde_json::json!({ "$oid": bad_id.to_hex() }));

    orders.delete_one(doc! { "_id": bad_id }).await.unwrap();
    let run = admin_on(&db, &["check"]).await.expect(exit::OK);
    assert!(run.stdout.contains("0 of 1 document(s) fail the validator"), "{}", run.stdout);
    assert_eq!(admin_on(&db, &["check", "--json"]).await.expect(exit::OK).json()["collections"][0]["exists"], true);

    // A database without the collections (a mistyped `--db`, a sync never run) is not reported as clean.
    let empty = odm::testing::database("cli_check_empty").await;
    let run = admin_on(&empty, &["check", "--model", "Order"]).await.expect(exit::OK);
    assert!(run.stdout.contains("order_header: Order: not on the server, nothing to check"), "{}", run.stdout);
    let json = admin_on(&empty, &["check", "--model", "Order", "--json"]).await.expect(exit::OK).json();
    assert_eq!((json["collections"][0]["exists"].as_bool(), json["failing"].as_u64()), (Some(false), Some(0)));
}

#[tokio::test]
async fn check_reads_each_live_instance_of_a_model_named_at_run_time() {
    let db = odm::testing::database("cli_instances").await;
    let bad = ObjectId::new();
    let november = db.collection::<Document>("log_app_event_202611");
    insert_outside(&november, vec![doc! { "_id": ObjectId::new(), "k": "login" }, doc! { "_id": bad, "k": 7 }]).await;
    let december = db.collection::<Document>("log_app_event_202612");
    insert_outside(&december, vec![doc! { "_id": ObjectId::new(), "k": "logout" }]).await;
    // Not an instance: the template does not name it.
    insert_outside(&db.collection("log_app_event_backup"), vec![doc! { "_id": 1, "k": 1 }]).await;

    let json = admin_on(&db, &["check", "--model", "AppEvent", "--json"]).await.expect(exit::FAILING).json();
    let checked: Vec<(&str, u64, u64)> = json["collections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["collection"].as_str().unwrap(), c["checked"].as_u64().unwrap(), c["failing"].as_u64().unwrap()))
        .collect();
    assert_eq!(checked, [("log_app_event_202611", 2, 1), ("log_app_event_202612", 1, 0)]);

    // `apply` brings each live instance in line, and leaves the backup alone; November's validator is staged (its
    // failing document stays readable), which still differs from the model.
    let run = admin_on(&db, &["apply", "--model", "AppEvent"]).await.expect(exit::DRIFT);
    assert!(run.stdout.contains("log_app_event_202611: add validator"), "{}", run.stdout);
    assert!(
        run.stdout.contains("[staged as moderate/warn: 1 existing documents fail the new validator]"),
        "{}",
        run.stdout
    );
    for instance in ["log_app_event_202611", "log_app_event_202612"] {
        assert!(options(&db, instance).await.unwrap().get_document("validator").is_ok(), "{instance}");
    }
    assert!(options(&db, "log_app_event_backup").await.unwrap().get("validator").is_none());
    let list = admin(&["list", "--model", "AppEvent", "--json"]).await.expect(exit::OK).json();
    assert_eq!(list["models"][0]["namedAtRunTime"], true);
}

#[tokio::test]
async fn apply_with_periods_creates_this_and_the_next_periods_collections() {
    let db = odm::testing::database("cli_periods").await;
    let plan =
        admin_on(&db, &["plan", "--model", "AppEvent", "--periods", "2", "--json"]).await.expect(exit::OK).json();
    let kinds: Vec<&str> = plan["actions"].as_array().unwrap().iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["createCollection", "createCollection"]);
    // Without `--periods`, a model named at run time stands for its live instances only: none yet.
    admin_on(&db, &["verify", "--model", "AppEvent"]).await.expect(exit::OK);

    admin_on(&db, &["apply", "--create-missing", "--model", "AppEvent", "--periods", "2"]).await.expect(exit::OK);
    let mut names = db.list_collection_names().await.unwrap();
    names.sort();
    let months: Vec<i64> = names
        .iter()
        .map(|n| {
            let yyyymm: i64 = n.strip_prefix("log_app_event_").and_then(|m| m.parse().ok()).expect("a monthly name");
            yyyymm / 100 * 12 + yyyymm % 100
        })
        .collect();
    assert_eq!(months.len(), 2, "{names:?}");
    assert_eq!(months[1] - months[0], 1, "this month and the next: {names:?}");
    for name in &names {
        assert!(options(&db, name).await.unwrap().get_document("validator").is_ok(), "{name}");
    }
    admin_on(&db, &["verify", "--model", "AppEvent", "--periods", "2"]).await.expect(exit::OK);
}

#[tokio::test]
async fn expire_drops_expired_periods_only_and_a_dry_run_drops_nothing() {
    let db = odm::testing::database("cli_expire").await;
    admin_on(&db, &["apply", "--create-missing", "--model", "AppEvent", "--periods", "1"]).await.expect(exit::OK);
    let current = db.list_collection_names().await.unwrap();
    let current: Vec<&String> = current.iter().filter(|n| !n.starts_with("odm_")).collect();
    assert_eq!(current.len(), 1, "this month's collection: {current:?}");
    // Two periods far older than the 12 kept, a name the template does not make, and another model's collection.
    for name in ["log_app_event_202001", "log_app_event_202002", "log_app_event_backup", "order_header"] {
        db.create_collection(name).await.unwrap();
    }
    // A view named like an expired period, by mongosh: never dropped, reported as skipped.
    let (code, out) = support::shell::mongosh(&format!(
        "db.getSiblingDB({:?}).createView('log_app_event_202003', 'log_app_event_202001', []);",
        db.name()
    ));
    assert_eq!(code, 0, "{out}");
    let names = || async {
        let mut names = db.list_collection_names().await.unwrap();
        names.sort();
        names
    };
    let before = names().await;

    let run = admin_on(&db, &["expire", "--dry-run"]).await.expect(exit::OK);
    assert!(run.stdout.contains("AppEvent: would drop"), "{}", run.stdout);
    assert!(run.stdout.contains("skipped") && run.stdout.contains("log_app_event_202003 (a view"), "{}", run.stdout);
    assert!(run.stdout.contains("Order: no retention by period, nothing to expire"), "{}", run.stdout);
    assert_eq!(names().await, before, "a dry run drops nothing");
    let json = admin_on(&db, &["expire", "--dry-run", "--model", "AppEvent", "--json"]).await.expect(exit::OK).json();
    assert_eq!(json["dryRun"], true);
    assert_eq!(json["models"][0]["collections"], serde_json::json!(["log_app_event_202001", "log_app_event_202002"]));
    assert_eq!(
        json["models"][0]["skipped"],
        serde_json::json!([{ "collection": "log_app_event_202003", "type": "view" }]),
        "{json}"
    );

    let json = admin_on(&db, &["expire", "--json"]).await.expect(exit::OK).json();
    let app = json["models"].as_array().unwrap().iter().find(|m| m["model"] == "AppEvent").unwrap().clone();
    assert_eq!(app["collections"], serde_json::json!(["log_app_event_202001", "log_app_event_202002"]));
    let left = names().await;
    let kept: Vec<&String> = before.iter().filter(|n| !n.ends_with("202001") && !n.ends_with("202002")).collect();
    assert_eq!(left.iter().collect::<Vec<_>>(), kept, "only the expired periods were dropped");
    let run = admin_on(&db, &["expire", "--model", "AppEvent"]).await.expect(exit::OK);
    assert!(run.stdout.contains("AppEvent: no expired period in"), "{}", run.stdout);
}

#[tokio::test]
async fn migrate_leaves_nothing_to_migrate_and_reports_what_it_cannot_finish() {
    let db = odm::testing::database("cli_migrate").await;
    let contacts = db.collection::<Document>("crm_contact");
    let ids: Vec<ObjectId> = (0..3).map(|_| ObjectId::new()).collect();
    let older = ids.iter().map(|id| doc! { "_id": id, "_v": 1, "n": "Ada Lovelace" }).collect();
    insert_outside(&contacts, older).await;

    let args = ["migrate", "--json", "--batch-size", "2", "--pause-ms", "1", "--guard", "version"];
    let json = admin_on(&db, &args).await.expect(exit::OK).json();
    assert_eq!(json["complete"], true);
    assert_eq!(json["collections"][0]["batches"], 2, "3 documents, 2 a batch: {json}");
    assert_eq!(json["notVersioned"], serde_json::json!(["Order", "AppEvent"]));
    assert_eq!(json["collections"][0]["migrated"], 3);
    for id in &ids {
        let stored = support::raw::stored(&db, "crm_contact", *id).await;
        assert_eq!(
            (stored.get_i32("_v").ok(), stored.get_str("f").ok(), stored.get_str("l").ok()),
            (Some(2), Some("Ada"), Some("Lovelace"))
        );
    }
    let run = admin_on(&db, &["migrate", "--model", "Contact"]).await.expect(exit::OK);
    assert!(run.stdout.contains("0 document(s) migrated to version 2"), "{}", run.stdout);

    // A version-1 document whose name is no string cannot be read, so it cannot be migrated.
    let broken = ObjectId::new();
    insert_outside(&contacts, vec![doc! { "_id": broken, "_v": 1, "n": 42 }]).await;
    let run = admin_on(&db, &["migrate"]).await.expect(exit::INCOMPLETE);
    assert!(run.stdout.contains("1 failed (left at their older version)"), "{}", run.stdout);
    let json = admin_on(&db, &["migrate", "--json"]).await.expect(exit::INCOMPLETE).json();
    assert_eq!(json["complete"], false);
    assert_eq!(json["collections"][0]["failed"][0]["id"], serde_json::json!({ "$oid": broken.to_hex() }));
    assert_eq!(support::raw::stored(&db, "crm_contact", broken).await.get_i32("_v").ok(), Some(1));
}

#[tokio::test]
async fn list_names_the_models_without_a_server() {
    let run = admin(&["list", "--db", "ops"]).await.expect(exit::OK);
    assert!(run.stdout.contains("Order") && run.stdout.contains("ops.order_header"), "{}", run.stdout);
    let json = admin(&["--json", "list"]).await.expect(exit::OK).json();
    let models = json["models"].as_array().unwrap();
    assert_eq!(models[0]["name"], "Order");
    assert_eq!((models[0]["db"].as_str(), models[0]["version"].as_u64()), (Some("shop"), None));
    assert_eq!((models[1]["name"].as_str(), models[1]["db"].as_str()), (Some("Contact"), None));
    assert_eq!(models[1]["version"], 2);
}

#[tokio::test]
async fn a_missing_uri_or_database_or_an_unreachable_server_is_an_error() {
    let run = admin(&["verify"]).await.expect(exit::ERROR);
    assert!(run.stderr.contains("set the MONGODB_URI environment variable"), "{}", run.stderr);
    let json = admin(&["verify", "--json"]).await.expect(exit::ERROR).json();
    assert_eq!((json["command"].as_str(), json["exitCode"].as_u64()), (Some("verify"), Some(1)));

    // The contact model names no database.
    let uri = odm::testing::server().uri();
    let run = admin(&["--uri", uri, "check"]).await.expect(exit::ERROR);
    assert!(run.stderr.contains("model `Contact` names no database: pass `--db <name>`"), "{}", run.stderr);

    let run = admin(&["--uri", "mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=300", "--db", "x", "verify"])
        .await
        .expect(exit::ERROR);
    assert!(run.stderr.starts_with("error: ") && !run.stderr.contains("Error {"), "{}", run.stderr);
    assert!(
        run.stderr.contains("no server could be reached for this operation (check that the server runs"),
        "{}",
        run.stderr
    );
}

#[tokio::test]
async fn bad_arguments_are_usage_errors() {
    for args in [
        &["frobnicate"][..],
        &["check", "--samples", "many"],
        &["export"],
        &["--model", "Invoice", "list"],
        &["--json", "export", "--mongosh", "-"],
        &["export", "--mongosh", "-", "--plan-json", "-"],
        &["migrate", "--docs-per-second", "5", "--pause-ms", "10"],
        &["dump"],
        &["restore", "--into-db", "x"],
    ] {
        let run = admin(args).await;
        assert_eq!(run.code, i32::from(exit::USAGE), "{args:?}\n{}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("error:"), "{args:?}: {}", run.stderr);
    }
    let run = admin(&["--model", "Invoice", "list"]).await;
    assert!(
        run.stderr.contains("no model named `Invoice`: this program manages Order, Contact, AppEvent"),
        "{}",
        run.stderr
    );
    let json = admin(&["--json", "--model", "Invoice", "list"]).await.expect(exit::USAGE).json();
    assert_eq!(json["error"], "no model named `Invoice`: this program manages Order, Contact, AppEvent");
    admin(&["--help"]).await.expect(exit::OK);
}

/// A version-1 contact without the name its upgrade splits, written by mongosh: `migrate` cannot read it, `verify`
/// reports it, and `check` calls it failing, with the reason `migrate` gives, not an older version to migrate.
#[tokio::test]
async fn check_verify_and_migrate_agree_on_an_older_document_the_model_cannot_read() {
    let db = odm::testing::database("cli_unreadable").await;
    let (readable, broken) = (ObjectId::new(), ObjectId::new());
    let script = format!(
        "db.getSiblingDB('{}').crm_contact.insertMany([{{ _id: ObjectId('{readable}'), _v: 1, n: 'Ada Lovelace' }}, \
         {{ _id: ObjectId('{broken}'), _v: 1 }}])",
        db.name()
    );
    let (code, out) = support::shell::mongosh(&script);
    assert_eq!(code, 0, "{out}");

    let run = admin_on(&db, &["check", "--model", "Contact"]).await.expect(exit::FAILING);
    assert!(run.stdout.contains("1 of 2 document(s) fail the validator; 1 are at older versions"), "{}", run.stdout);
    assert!(run.stdout.contains("1 document(s) at version 1 the model cannot read"), "{}", run.stdout);
    let json = admin_on(&db, &["check", "--model", "Contact", "--json"]).await.expect(exit::FAILING).json();
    assert_eq!((json["failing"].as_u64(), json["collections"][0]["older"].as_u64()), (Some(1), Some(1)), "{json}");
    let findings = json["collections"][0]["findings"].as_array().unwrap();
    let unreadable = findings.iter().find(|f| f["check"] == "Unreadable").unwrap_or_else(|| panic!("{json}"));
    assert_eq!((unreadable["version"].as_i64(), unreadable["rule"].as_str()), (Some(1), Some("version-step")));
    assert_eq!(unreadable["sampleIds"], serde_json::json!([{ "$oid": broken.to_hex() }]));
    let reason = unreadable["reason"].as_str().unwrap().to_owned();
    assert!(reason.contains("cannot decode") && reason.contains(&broken.to_hex()), "{reason}");

    // verify: drift, naming the document.
    let run = admin_on(&db, &["verify", "--model", "Contact"]).await.expect(exit::DRIFT);
    let unreadable = run.stdout.lines().find(|l| l.contains("fail the validator of every version the model reads"));
    assert!(
        unreadable.is_some_and(|l| l.contains(&broken.to_hex()) && !l.contains(&readable.to_hex())),
        "{}",
        run.stdout
    );

    // migrate: the readable one moves on, the other is left, for the reason check gave.
    let json = admin_on(&db, &["migrate", "--model", "Contact", "--json"]).await.expect(exit::INCOMPLETE).json();
    let failed = &json["collections"][0]["failed"];
    assert_eq!(failed[0]["id"], serde_json::json!({ "$oid": broken.to_hex() }), "{json}");
    assert_eq!(failed[0]["error"].as_str(), Some(reason.as_str()));
    let run = admin_on(&db, &["check", "--model", "Contact"]).await.expect(exit::FAILING);
    assert!(run.stdout.contains("1 of 2 document(s) fail the validator\n"), "{}", run.stdout);
}

/// A server that accepts connections and never answers, on a local port: what an operator meets with a firewall
/// that drops, or a wrong port of a busy host.
async fn silent_server() -> (u16, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    (port, task)
}

#[tokio::test]
async fn an_unreachable_server_fails_within_the_timeout_saying_what_to_check() {
    let (port, task) = silent_server().await;
    let uri = format!("mongodb://127.0.0.1:{port}/");
    for args in [
        &["--uri", &uri, "--timeout", "1", "--db", "x", "check"][..],
        &["--uri", &uri, "--db", "x", "verify", "--timeout", "1"],
        &["--uri", &uri, "--db", "x", "dump", "--out", "never-written", "--timeout", "1"],
    ] {
        let started = std::time::Instant::now();
        let run = admin(args).await.expect(exit::ERROR);
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{args:?}: {:?}", started.elapsed());
        let message = "error: no server could be reached for this operation (check that the server runs, and the \
                       connection string's hosts, replica set name and TLS settings: `--uri` or MONGODB_URI); gave \
                       up after 1s (`--timeout`)\n";
        assert_eq!(run.stderr, message, "{args:?}");
    }
    assert!(!std::path::Path::new("never-written").exists());
    // The driver's account of the servers it tried is detail, under --json.
    let json =
        admin(&["--uri", &uri, "--timeout", "1", "--db", "x", "--json", "check"]).await.expect(exit::ERROR).json();
    assert!(json["error"].as_str().unwrap().starts_with("no server could be reached"), "{json}");
    assert!(json["detail"].as_str().is_some_and(|d| d.contains(&port.to_string())), "{json}");
    task.abort();
}

#[tokio::test]
async fn a_malformed_uri_is_a_usage_error_naming_the_flag() {
    for uri in ["mongo://db1.example", "mongodb://", "mongodb://host:notaport"] {
        let run = admin(&["--uri", uri, "--db", "x", "check"]).await.expect(exit::USAGE);
        assert!(run.stderr.contains("`--uri` is not a valid connection string"), "{uri}: {}", run.stderr);
    }
    let json =
        admin(&["--uri", "mongo://db1.example", "--db", "x", "check", "--json"]).await.expect(exit::USAGE).json();
    assert!(json["error"].as_str().unwrap().starts_with("`--uri` is not a valid connection string"), "{json}");
}

#[tokio::test]
async fn restore_errors_name_the_flags_the_operator_types() {
    let db = odm::testing::database("cli_flags").await;
    admin_on(&db, &["apply", "--model", "Order"]).await.expect(exit::OK);
    let order = doc! { "_id": ObjectId::new(), "cu": "ada", "am": 1_i64, "ca": DateTime::now() };
    db.collection::<Document>("order_header").insert_one(order).await.unwrap();
    let dir = scratch("flags", &db);
    let out = dir.join("dump");
    admin_on(&db, &["dump", "--model", "Order", "--out", out.to_str().unwrap()]).await.expect(exit::OK);

    // Back into the database it came from, which holds the documents.
    let run =
        admin_on(&db, &["restore", "--model", "Order", "--from", out.to_str().unwrap()]).await.expect(exit::ERROR);
    assert!(run.stderr.contains("(`--into-db`)") && run.stderr.contains("`--drop-existing`"), "{}", run.stderr);
    assert!(!run.stderr.contains("into_db") && !run.stderr.contains("drop_existing()"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn version_and_help_say_what_each_subcommand_does() {
    let run = admin(&["--version"]).await.expect(exit::OK);
    assert_eq!(run.stdout, format!("odm-admin {0} (odm-mongo {0})\n", env!("CARGO_PKG_VERSION")));

    // `--periods`: what a missing period's collection becomes, per subcommand; one default.
    let periods = |help: &str| -> String {
        let start = help.find("--periods").unwrap_or_else(|| panic!("{help}"));
        let rest = &help[start..];
        let end = rest[2..].find("\n  -").map_or(rest.len(), |e| e + 2);
        rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let verify = periods(&admin(&["verify", "--help"]).await.expect(exit::OK).stdout);
    assert!(verify.contains("a missing one reported as drift") && !verify.contains("created"), "{verify}");
    let apply = periods(&admin(&["apply", "--help"]).await.expect(exit::OK).stdout);
    assert!(apply.contains("created when missing"), "{apply}");
    let plan = periods(&admin(&["plan", "--help"]).await.expect(exit::OK).stdout);
    assert!(plan.contains("a missing one planned for creation"), "{plan}");
    for help in [verify, apply, plan] {
        assert_eq!(help.matches("default").count(), 1, "{help}");
        assert!(help.ends_with("[default: 0]"), "{help}");
    }
    let help = admin(&["verify", "--help"]).await.expect(exit::OK).stdout;
    assert_eq!(help.matches("--timeout").count(), 1, "{help}");
    let topology = &help[help.find("--topology").unwrap()..help.find("--periods").unwrap()];
    assert_eq!(topology.matches("default").count(), 1, "{topology}");
}

/// A validator a DBA changed by hand (mongosh's `collMod`): `verify` shows each keyword that differs, by field, in
/// text and in JSON, not only "replace validator".
#[tokio::test]
async fn verify_shows_what_differs_in_a_changed_validator() {
    let db = odm::testing::database("cli_validator_diff").await;
    admin_on(&db, &["apply", "--model", "Order"]).await.expect(exit::OK);
    let script = format!(
        "const d = db.getSiblingDB('{}');
         const v = d.getCollectionInfos({{ name: 'order_header' }})[0].options.validator;
         v.$jsonSchema.properties.cu.maxLength = 10;
         v.$jsonSchema.required = v.$jsonSchema.required.filter(k => k !== 'am');
         v.$jsonSchema.properties.ca.bsonType = 'string';
         const r = d.runCommand({{ collMod: 'order_header', validator: v }});
         if (r.ok !== 1) {{ print(JSON.stringify(r)); quit(1); }}",
        db.name()
    );
    let (code, out) = support::shell::mongosh(&script);
    assert_eq!(code, 0, "{out}");

    let run = admin_on(&db, &["verify", "--model", "Order"]).await.expect(exit::DRIFT);
    let mut changes: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("    ")).map(str::trim).collect();
    changes.sort_unstable();
    assert_eq!(
        changes,
        [
            "field `am`: required by the model, optional in the live validator",
            "field `ca`: bsonType \"string\" -> \"date\" (changed)",
            "field `cu`: maxLength 10 -> none (removed)",
        ],
        "{}",
        run.stdout
    );
    let json = admin_on(&db, &["verify", "--model", "Order", "--json"]).await.expect(exit::DRIFT).json();
    let action = json["actions"].as_array().unwrap().iter().find(|a| a["kind"] == "updateValidator").expect("{json}");
    let mut found: Vec<(&str, &str, &str)> = action["validatorChanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["field"].as_str().unwrap(), c["keyword"].as_str().unwrap(), c["change"].as_str().unwrap()))
        .collect();
    found.sort_unstable();
    assert_eq!(found, [("am", "required", "added"), ("ca", "bsonType", "changed"), ("cu", "maxLength", "removed")]);
    let cu = action["validatorChanges"].as_array().unwrap().iter().find(|c| c["field"] == "cu").unwrap();
    assert_eq!((cu["live"].as_i64(), cu["wanted"].is_null()), (Some(10), true), "{cu}");
    assert_eq!(cu["path"], "$jsonSchema.properties.cu.maxLength");

    // apply puts the model's validator back: nothing differs.
    admin_on(&db, &["apply", "--model", "Order"]).await.expect(exit::OK);
    admin_on(&db, &["verify", "--model", "Order"]).await.expect(exit::OK);
}

/// The command-line guide's `Cargo.toml` names every crate its program uses, with the features it needs (the program
/// itself is a doctest of odm's `guide::command_line` page, compiled by `cargo test`).
#[test]
fn the_guides_cargo_toml_has_what_its_program_uses() {
    let guide = include_str!("../../odm/src/guide/command-line.md");
    let block = |fence: &str| {
        let start = guide.find(fence).unwrap_or_else(|| panic!("no {fence} block")) + fence.len();
        &guide[start..start + guide[start..].find("```").unwrap()]
    };
    let (toml, program) = (block("```toml\n"), block("```rust,no_run\n"));
    for (path, package) in [("odm::", "odm-mongo"), ("serde::", "serde"), ("tokio::", "tokio")] {
        assert!(program.contains(path), "the program uses {path}");
        assert!(toml.lines().any(|l| l.starts_with(&format!("{package} = "))), "{package} is missing:\n{toml}");
    }
    let features = |package: &str| toml.lines().find(|l| l.starts_with(&format!("{package} = "))).unwrap().to_owned();
    assert!(features("odm-mongo").contains("\"cli\""), "{toml}");
    assert!(features("serde").contains("\"derive\""), "{toml}");
    assert!(features("tokio").contains("\"macros\"") && features("tokio").contains("\"rt-multi-thread\""), "{toml}");
}

/// A fresh directory under the system's temporary directory, for one test's files.
fn scratch(name: &str, db: &Database) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("odm-cli-{name}-{}-{}", std::process::id(), db.name()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test]
async fn dump_and_restore_carry_the_models_collections_into_another_database() {
    let db = odm::testing::database("cli_dump").await;
    let copy = odm::testing::database("cli_dump_copy").await;
    admin_on(&db, &["apply"]).await.expect(exit::OK);
    let orders: Vec<Document> = (0..3_i64)
        .map(|n| doc! { "_id": ObjectId::new(), "cu": format!("c{n}"), "am": n, "ca": DateTime::now() })
        .collect();
    db.collection::<Document>("order_header").insert_many(orders).await.unwrap();
    let contact = doc! { "_id": ObjectId::new(), "_v": 2, "f": "Ada", "l": "Lovelace" };
    db.collection::<Document>("crm_contact").insert_one(contact).await.unwrap();
    // The event log's one live instance, and a collection beside it that its template does not name.
    let events = vec![doc! { "_id": ObjectId::new(), "k": "login" }, doc! { "_id": ObjectId::new(), "k": "logout" }];
    db.collection::<Document>("log_app_event_202611").insert_many(events).await.unwrap();
    db.collection::<Document>("log_app_event_backup").insert_one(doc! { "k": "old" }).await.unwrap();

    let dir = scratch("dump", &db);
    let out = dir.join("nightly");
    let json =
        admin_on(&db, &["dump", "--out", out.to_str().unwrap(), "--gzip", "--json"]).await.expect(exit::OK).json();
    let dumped: Vec<(&str, u64)> = json["collections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["collection"].as_str().unwrap(), c["documents"].as_u64().unwrap()))
        .collect();
    assert_eq!(dumped, [("order_header", 3), ("crm_contact", 1), ("log_app_event_202611", 2)]);
    assert!(!out.join(db.name()).join("log_app_event_backup.bson.gz").exists());
    assert!(out.join(db.name()).join("order_header.bson.gz").is_file());
    assert!(out.join(db.name()).join("crm_contact.metadata.json.gz").is_file());
    // A dump never overwrites one.
    let run = admin_on(&db, &["dump", "--out", out.to_str().unwrap(), "--gzip"]).await.expect(exit::ERROR);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);

    // Only the order model, into the copy: its documents, validator and index.
    let from = ["restore", "--from", out.to_str().unwrap(), "--into-db", copy.name()];
    let run = admin_on(&db, &[&from[..], &["--model", "Order"]].concat()).await.expect(exit::OK);
    assert!(run.stdout.contains(&format!("{}.order_header: 3 document(s)", copy.name())), "{}", run.stdout);
    assert_eq!(copy.collection::<Document>("order_header").count_documents(doc! {}).await.unwrap(), 3);
    assert!(options(&copy, "order_header").await.unwrap().get_document("validator").is_ok());
    assert!(index_keys(&copy, "order_header").await.contains(&doc! { "cu": 1, "ca": -1 }));
    assert_eq!(options(&copy, "crm_contact").await, None, "an unselected model is not restored");

    // A collection holding documents is refused, unless replaced.
    let run = admin_on(&db, &from).await.expect(exit::ERROR);
    assert!(run.stderr.contains("order_header"), "{}", run.stderr);
    let json = admin_on(&db, &[&from[..], &["--drop-existing", "--json"]].concat()).await.expect(exit::OK).json();
    let restored: Vec<(&str, bool)> = json["collections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["collection"].as_str().unwrap(), c["replaced"].as_bool().unwrap()))
        .collect();
    assert_eq!(restored, [("crm_contact", false), ("log_app_event_202611", false), ("order_header", true)]);
    let stored = copy.collection::<Document>("crm_contact").find_one(doc! {}).await.unwrap().expect("restored contact");
    assert_eq!(stored.get_str("f").ok(), Some("Ada"));
    // The copy holds what the original held: the two synced models in line, the event log never synced.
    let uri = odm::testing::server().uri();
    admin(&["--uri", uri, "--db", copy.name(), "verify", "--model", "Order", "--model", "Contact"])
        .await
        .expect(exit::OK);
    admin(&["--uri", uri, "--db", copy.name(), "verify", "--model", "AppEvent"]).await.expect(exit::DRIFT);

    // A model named at run time: each dumped instance, and nothing its template does not name.
    let events = odm::testing::database("cli_dump_events").await;
    let from = ["restore", "--from", out.to_str().unwrap(), "--into-db", events.name(), "--model", "AppEvent"];
    admin_on(&db, &from).await.expect(exit::OK);
    assert_eq!(events.list_collection_names().await.unwrap(), ["log_app_event_202611"]);
    assert_eq!(events.collection::<Document>("log_app_event_202611").count_documents(doc! {}).await.unwrap(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_dump_selects_exactly_the_models_asked_for_or_fails_with_its_own_code() {
    let db = odm::testing::database("cli_dump_select").await;
    // Written by mongosh: the contacts' collection, and collections no model declares. No `order_header` here.
    let script = format!(
        r#"const d = db.getSiblingDB("{}");
d.crm_contact.insertOne({{ _v: 2, f: "Ada", l: "Lovelace" }});
d.crm_note.insertMany([{{ t: "not a model's" }}, {{ t: "never dumped" }}]);
d.log_app_event_backup.insertOne({{ k: "old" }});"#,
        db.name()
    );
    let (code, out) = support::shell::mongosh(&script);
    assert_eq!(code, 0, "mongosh: {out}");
    let dir = scratch("dump_select", &db);
    let out = dir.join("nightly");
    let out_arg = out.to_str().unwrap();

    // The order model's collection is absent from this database: not the whole database instead, an error.
    let run = admin_on(&db, &["dump", "--out", out_arg, "--model", "Order"]).await.expect(exit::NOTHING_DUMPED);
    assert!(run.stderr.contains(&format!("absent: {}.order_header", db.name())), "{}", run.stderr);
    let json = admin_on(&db, &["--json", "dump", "--out", out_arg, "--model", "Order", "--model", "AppEvent"])
        .await
        .expect(exit::NOTHING_DUMPED)
        .json();
    let absent = [format!("{}.order_header", db.name()), format!("{}.log_app_event_{{yyyymm}}", db.name())];
    assert_eq!(json["absent"], serde_json::json!(absent), "{json}");
    assert!(json["error"].as_str().unwrap().contains("nothing was written"), "{json}");
    assert!(!out.exists(), "no directory made");

    // A database that is not there: the same.
    let uri = odm::testing::server().uri();
    let nosuch = format!("{}_nosuch", db.name());
    admin(&["--uri", uri, "--db", &nosuch, "dump", "--out", out_arg]).await.expect(exit::NOTHING_DUMPED);
    assert!(!out.exists(), "no directory made");

    // Every model: the contacts alone are written, the others named absent, in text and JSON.
    let run = admin_on(&db, &["dump", "--out", out_arg]).await.expect(exit::OK);
    assert!(
        run.stdout.contains(&format!("{}.order_header: not on the server, nothing written", db.name())),
        "{}",
        run.stdout
    );
    let mut files: Vec<String> = std::fs::read_dir(out.join(db.name()))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["crm_contact.bson", "crm_contact.metadata.json"], "nothing outside the selection");
    let again = dir.join("again");
    let json = admin_on(&db, &["--json", "dump", "--out", again.to_str().unwrap()]).await.expect(exit::OK).json();
    assert_eq!(json["absent"], serde_json::json!(absent), "{json}");
    assert_eq!(json["collections"].as_array().unwrap().len(), 1, "{json}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn audit_reports_what_breaks_a_rule_whoever_wrote_it_and_exits_with_findings() {
    let db = odm::testing::database("cli_audit").await;
    admin_on(&db, &["apply"]).await.expect(exit::OK);
    let orders = db.collection::<Document>("order_header");
    let good = doc! { "_id": ObjectId::new(), "cu": "ada", "am": 12_i64, "ca": DateTime::now() };
    insert_outside(&orders, vec![good]).await;
    let run = admin_on(&db, &["audit", "--collection", "order_header"]).await.expect(exit::OK);
    assert!(run.stdout.contains("order_header: 0 finding(s), every document (1) read"), "{}", run.stdout);

    let bad_id = ObjectId::new();
    insert_outside(&orders, vec![doc! { "_id": bad_id, "cu": "bob", "am": "twelve", "ca": DateTime::now() }]).await;
    let run = admin_on(&db, &["audit", "--collection", "order_header"]).await.expect(exit::FINDINGS);
    assert!(run.stdout.contains("[data-validator]"), "{}", run.stdout);
    let json = admin_on(&db, &["audit", "--collection", "order_header", "--json"]).await.expect(exit::FINDINGS).json();
    let findings = &json["databases"][0]["collections"][0]["findings"];
    let rules: Vec<&str> = findings.as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["type-one-bson-type", "data-validator"], "{json}");
    assert_eq!(findings[1]["ids"][0], serde_json::json!({ "$oid": bad_id.to_hex() }));

    let json = admin_on(&db, &["audit", "--collection", "nowhere", "--json"]).await.expect(exit::FINDINGS).json();
    assert_eq!(json["databases"][0]["missing"], serde_json::json!(["nowhere"]));
}

#[tokio::test]
async fn pull_writes_a_model_per_collection_or_nothing() {
    let db = odm::testing::database("cli_pull").await;
    let events = db.collection::<Document>("UserEvents");
    events.insert_one(doc! { "_id": "e-1", "userName": "ann", "tags": ["a"] }).await.expect("insert");
    let dir = std::env::temp_dir().join(format!("odm-cli-pull-{}", db.name()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();

    // A collection asked for is absent: nothing is written, and the report says so.
    let run = admin_on(&db, &["pull", "--out", out, "--collection", "UserEvents", "--collection", "nowhere"])
        .await
        .expect(exit::NOT_PULLED);
    assert!(
        run.stdout.contains("nowhere: no such collection") && run.stdout.contains("nothing written"),
        "{}",
        run.stdout
    );
    assert!(!dir.exists(), "no directory made");

    let json = admin_on(&db, &["pull", "--out", out, "--json"]).await.expect(exit::OK).json();
    assert_eq!(json["models"][0]["model"], "UserEvent", "{json}");
    let rules: Vec<&str> =
        json["models"][0]["notes"].as_array().unwrap().iter().map(|n| n["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["name-case", "id-objectid", "array-bound"], "{json}");
    let source = std::fs::read_to_string(dir.join("user_events.rs")).expect("the model's file");
    assert!(source.contains("#[odm(collection = \"UserEvents\", existing_name)]"), "{source}");
    assert!(std::fs::read_to_string(dir.join("mod.rs")).unwrap().contains("pub mod user_events;"));

    let v2 = dir.join("v2");
    admin_on(&db, &["pull", "--versioned", "--out", v2.to_str().unwrap()]).await.expect(exit::OK);
    let source = std::fs::read_to_string(v2.join("user_events.rs")).expect("version 2's file");
    assert!(source.contains("older(UserEventV1)") && source.contains("impl Upgrade for UserEventV1"), "{source}");

    // Run again: the files are there, so nothing is replaced and the error names them.
    std::fs::write(dir.join("user_events.rs"), "// edited by hand").unwrap();
    let run = admin_on(&db, &["pull", "--out", out]).await.expect(exit::ERROR);
    assert!(run.stderr.contains("user_events.rs") && run.stderr.contains("nothing written"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(dir.join("user_events.rs")).unwrap(), "// edited by hand");
    std::fs::remove_dir_all(&dir).unwrap();
}
