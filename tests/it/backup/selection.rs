//! A dump writes exactly what it was asked for, or fails: a model whose collection is absent is reported absent and
//! nothing outside the selection is written; a dump that selects nothing is an error and makes no directory. The
//! databases are prepared with mongosh, collections no model declares among them.

use super::*;

/// Creates, with mongosh, collections no model declares in `db` (and `extra` documents in `log_app_entry`).
fn prepare_outside(db: &str, with_entries: bool) {
    let entries = if with_entries { r#"d.log_app_entry.insertMany([{ m: "a" }, { m: "b" }]);"# } else { "" };
    let script = format!(
        r#"const d = db.getSiblingDB("{db}");
d.crm_note.insertMany([{{ t: "keep out" }}, {{ t: "of the dump" }}]);
d.audit_trail.insertOne({{ who: "dba" }});
{entries}"#
    );
    let (code, out) = support::shell::mongosh(&script);
    assert_eq!(code, 0, "mongosh: {out}");
}

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found
                .extend(files_under(&path).into_iter().map(|f| format!("{}/{f}", entry.file_name().to_string_lossy())));
        } else {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found.sort();
    found
}

#[tokio::test]
async fn a_model_whose_collection_is_absent_is_reported_and_nothing_else_is_written() {
    let src = odm::testing::database("bk_select").await;
    prepare_outside(src.name(), true);
    let out = out_dir(&src);
    // The items' collection is not in this database; the log is, beside two collections no model declares.
    let report = Dump::new(src.client(), &*out)
        .database(src.name())
        .model::<Item>()
        .model::<Entry>()
        .model::<Event>()
        .await
        .expect("the log is dumped");
    let dumped: Vec<&str> = report.collections.iter().map(|c| c.collection.as_str()).collect();
    assert_eq!(dumped, ["log_app_entry"], "{report}");
    let db = src.name();
    assert_eq!(report.absent, [format!("{db}.shop_item"), format!("{db}.log_app_event_{{yyyymm}}")], "{report}");
    let text = report.to_string();
    assert!(text.contains(&format!("{db}.shop_item: not on the server, nothing written")), "{text}");
    assert_eq!(
        files_under(&out),
        [format!("{db}/log_app_entry.bson"), format!("{db}/log_app_entry.metadata.json")],
        "only the selection is written"
    );
}

#[tokio::test]
async fn a_dump_that_selects_nothing_is_an_error_and_makes_no_directory() {
    let src = odm::testing::database("bk_select_none").await;
    prepare_outside(src.name(), false);
    let out = out_dir(&src);
    // Every model asked for is absent: the collections no model declares are not a fallback.
    let error = Dump::new(src.client(), &*out).database(src.name()).model::<Item>().await.expect_err("nothing to dump");
    let text = error.to_string();
    match backup_error(error) {
        BackupError::NothingToDump { absent, skipped } => {
            assert_eq!(absent, [format!("{}.shop_item", src.name())]);
            assert!(skipped.is_empty());
        }
        other => panic!("expected NothingToDump, got {other}"),
    }
    assert!(text.contains("nothing was written") && text.contains(&format!("{}.shop_item", src.name())), "{text}");
    assert!(!out.exists(), "no directory made: {:?}", files_under(&out));

    // A database that is not there (a name mistyped): an error too, not an empty success.
    let nosuch = format!("{}_nosuch", src.name());
    let error = Dump::new(src.client(), &*out).database(&nosuch).await.expect_err("nothing to dump");
    match backup_error(error) {
        BackupError::NothingToDump { absent, .. } => assert!(absent.is_empty(), "{absent:?}"),
        other => panic!("expected NothingToDump, got {other}"),
    }
    // Asked by name, in that database: named absent.
    let error = Dump::new(src.client(), &*out).collection(&nosuch, "crm_note").await.expect_err("nothing");
    assert!(
        matches!(backup_error(error), BackupError::NothingToDump { absent, .. } if absent == [format!("{nosuch}.crm_note")])
    );
    assert!(!out.exists(), "no directory made");
}

#[tokio::test]
async fn a_model_dumped_from_another_database_takes_its_collection_there_only() {
    let src = odm::testing::database("bk_select_in").await;
    prepare_outside(src.name(), true);
    let out = out_dir(&src);
    // The event log names no database here, so `model_in` is what moves it; the items are absent.
    let report = Dump::new(src.client(), &*out)
        .model_in::<Entry>(src.name())
        .model_in::<Item>(src.name())
        .await
        .expect("the log is dumped");
    let dumped: Vec<&str> = report.collections.iter().map(|c| c.collection.as_str()).collect();
    assert_eq!(dumped, ["log_app_entry"], "{report}");
    assert_eq!(report.absent, [format!("{}.shop_item", src.name())]);
    assert!(!out.join(src.name()).join("crm_note.bson").exists());
}
