//! A restore is all or nothing per collection: a documents file cut short (by the operating system's truncation, as
//! an interrupted copy leaves it) is found before the first write, a document refused in the middle leaves the
//! target as it was, a restore killed in the middle leaves the target untouched; the re-run works and removes what
//! the killed one left.

use super::*;

/// The byte offset where each document of a `.bson` file starts.
fn document_starts(file: &Path) -> Vec<u64> {
    let bytes = std::fs::read(file).expect("read");
    let (mut at, mut starts) = (0usize, Vec::new());
    while at < bytes.len() {
        starts.push(at as u64);
        at += i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
    }
    starts
}

/// Cuts `file` to `len` bytes with Python's `os.truncate`, as another program (an interrupted copy) leaves it.
fn truncate_outside(file: &Path, len: u64) {
    let script = "import os, sys; os.truncate(sys.argv[1], int(sys.argv[2]))";
    let run = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(file)
        .arg(len.to_string())
        .output()
        .expect("python3 runs");
    assert!(run.status.success(), "python3: {}", support::shell::output_text(&run));
    assert_eq!(std::fs::metadata(file).expect("stat").len(), len);
}

/// The collections of `db` but odm's own metadata (the records of the indexes a restore built), sorted.
async fn names(db: &odm::mongodb::Database) -> Vec<String> {
    let mut names = db.list_collection_names().await.expect("names");
    names.retain(|n| !odm::sync::plan::ownership::METADATA_COLLECTIONS.contains(&n.as_str()));
    names.sort();
    names
}

/// Writes three documents into `collection` of `db` with mongosh: what a restore must not lose.
fn older_documents(db: &str, collection: &str) -> Vec<Document> {
    let script = format!(
        r#"db.getSiblingDB("{db}").getCollection("{collection}").insertMany([{{ _id: "old1" }}, {{ _id: "old2" }}, {{ _id: "old3" }}]);"#
    );
    let (code, out) = support::shell::mongosh(&script);
    assert_eq!(code, 0, "mongosh: {out}");
    ["old1", "old2", "old3"].iter().map(|id| doc! { "_id": *id }).collect()
}

/// Every document of `collection`, in `_id` order.
async fn documents(db: &odm::mongodb::Database, collection: &str) -> Vec<Document> {
    let cursor = db.collection::<Document>(collection).find(doc! {}).sort(doc! { "_id": 1 }).await.expect("find");
    cursor.try_collect().await.expect("read")
}

#[tokio::test]
async fn a_file_cut_short_restores_nothing_and_the_rerun_works() {
    let src = odm::testing::database("bk_cut_file").await;
    seed(&src, 3000).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).database(src.name()).model::<Item>().model::<Entry>().await.expect("dump");
    let file = out.join(src.name()).join("shop_item.bson");
    let starts = document_starts(&file);
    assert_eq!(starts.len(), 3000);
    // Cut seven bytes into the 1,501st document.
    truncate_outside(&file, starts[1500] + 7);

    // Into an empty database: refused before the first write; the log (before the items in file order) neither.
    let copy = odm::testing::database("bk_cut_file_copy").await;
    let error = Restore::new(copy.client(), &*out).database(src.name()).into_db(copy.name()).await.expect_err("cut");
    let text = error.to_string();
    match backup_error(error) {
        BackupError::Damaged { path, offset, documents, reason } => {
            assert_eq!(path, file);
            assert_eq!((offset, documents), (starts[1500], 1500), "{reason}");
            assert!(reason.contains("cut short (7 of its"), "{reason}");
        }
        other => panic!("expected Damaged, got {other}"),
    }
    assert!(
        text.contains(&file.display().to_string())
            && text.contains(&format!("at byte {}", starts[1500]))
            && text.contains("nothing was restored"),
        "{text}"
    );
    assert!(names(&copy).await.is_empty(), "nothing written: {:?}", names(&copy).await);

    // Replacing collections that hold documents: they keep them.
    let other = odm::testing::database("bk_cut_file_other").await;
    let old = older_documents(other.name(), "shop_item");
    let refused = Restore::new(other.client(), &*out).database(src.name()).into_db(other.name()).drop_existing().await;
    assert!(matches!(backup_error(refused.expect_err("cut")), BackupError::Damaged { .. }));
    assert_eq!(documents(&other, "shop_item").await, old, "the target is as it was");
    assert_eq!(names(&other).await, ["shop_item"]);

    // The dump taken again, the same restores work.
    let again = out_dir(&copy);
    Dump::new(src.client(), &*again).database(src.name()).model::<Item>().model::<Entry>().await.expect("dump");
    Restore::new(copy.client(), &*again).database(src.name()).into_db(copy.name()).await.expect("the re-run");
    let replaced =
        Restore::new(other.client(), &*again).database(src.name()).into_db(other.name()).drop_existing().await;
    replaced.expect("the re-run replacing");
    for db in [&copy, &other] {
        assert_eq!(raw_documents(&src, "shop_item").await, raw_documents(db, "shop_item").await);
        assert_eq!(names(db).await, ["log_app_entry", "shop_item"], "no temporary collection left");
    }
}

#[tokio::test]
async fn a_document_refused_in_the_middle_leaves_the_replaced_collection_as_it_was() {
    let src = odm::testing::database("bk_refused_mid").await;
    seed(&src, 300).await;
    let mut bad = odm::bson::serialize_to_document(&item(9999)).expect("encode");
    bad.insert("pr", "not a price");
    support::raw::insert_outside(&src.collection::<Document>("shop_item"), vec![bad]).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).database(src.name()).model::<Item>().await.expect("dump");

    let copy = odm::testing::database("bk_refused_mid_copy").await;
    let old = older_documents(copy.name(), "shop_item");
    let error = Restore::new(copy.client(), &*out)
        .database(src.name())
        .into_db(copy.name())
        .drop_existing()
        .batch_size(50)
        .await
        .expect_err("refused");
    let text = error.to_string();
    assert!(matches!(backup_error(error).cause(), BackupError::Refused { code: 121, .. }), "{text}");
    assert!(text.contains("which is as it was before the restore") && text.contains("restored: none"), "{text}");
    assert_eq!(documents(&copy, "shop_item").await, old, "the older documents, and none of the dump's");
    assert_eq!(names(&copy).await, ["shop_item"], "no temporary collection left");
}

/// The environment variable that gives [`restore_worker`] its spec.
const RESTORE_WORKER_ENV: &str = "ODM_RESTORE_WORKER";

/// Run by [`a_killed_restore_leaves_the_target_untouched_and_the_rerun_cleans_up`] in a process of its own:
/// restores the items slowly from the dump its spec names into the database it names, until it is killed.
#[tokio::test]
#[ignore = "run by a_killed_restore_leaves_the_target_untouched_and_the_rerun_cleans_up"]
async fn restore_worker() {
    let spec = support::workers::worker_spec(
        RESTORE_WORKER_ENV,
        "a_killed_restore_leaves_the_target_untouched_and_the_rerun_cleans_up",
    )
    .await;
    let (from, source_db) = (PathBuf::from(&spec.rest[0]), &spec.rest[1]);
    let report = Restore::new(&spec.client, from)
        .database(source_db)
        .into_db(&spec.db)
        .model::<Item>()
        .batch_size(10)
        .on_progress(|p| {
            if p.done > 0 {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        })
        .await;
    panic!("the worker was to be killed before the restore finished: {report:?}");
}

#[tokio::test]
async fn a_killed_restore_leaves_the_target_untouched_and_the_rerun_cleans_up() {
    let src = odm::testing::database("bk_killed_restore").await;
    seed(&src, 1000).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).database(src.name()).model::<Item>().await.expect("dump");
    let copy = odm::testing::database("bk_killed_restore_copy").await;
    let spec = format!(
        "{}|{}|{}|{}|{}",
        odm::testing::server().uri(),
        copy.name(),
        support::workers::start_in(0),
        out.display(),
        src.name()
    );
    let mut child = support::workers::spawn("backup::all_or_nothing::restore_worker", RESTORE_WORKER_ENV, spec);
    // Killed once a good part of the documents is loaded.
    let waited = std::time::Instant::now();
    loop {
        let loaded = raw_count(&copy, "odm_restore_tmp.shop_item").await + raw_count(&copy, "shop_item").await;
        if loaded >= 200 {
            break;
        }
        assert!(waited.elapsed().as_secs() < 60, "the worker never loaded the items");
        assert!(child.try_wait().expect("worker status").is_none(), "the worker ended before it was killed");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // SIGKILL: nothing of the restore runs after it, as after a crash.
    child.kill().expect("kill the worker");
    child.wait().expect("reap the worker");
    let count = raw_count(&copy, "shop_item").await;
    assert!(count == 0 || count == 1000, "the target is untouched or whole, never half: {count} documents");
    assert_eq!(count, 0, "killed in the middle: the target is untouched");
    assert!(names(&copy).await.contains(&"odm_restore_tmp.shop_item".to_owned()), "the killed load's collection");
    // Another restore's temporary collection, of a collection this one does not load: named, not touched.
    let (code, shell) = support::shell::mongosh(&format!(
        r#"db.getSiblingDB("{}").getCollection("odm_restore_tmp.crm_note").insertOne({{ n: 1 }});"#,
        copy.name()
    ));
    assert_eq!(code, 0, "mongosh: {shell}");

    // The re-run restores the items and says what it removed.
    let report = Restore::new(copy.client(), &*out)
        .database(src.name())
        .into_db(copy.name())
        .model::<Item>()
        .await
        .expect("the re-run");
    assert_eq!(report.removed, [format!("{}.odm_restore_tmp.shop_item", copy.name())], "{report}");
    assert_eq!(report.leftovers, [format!("{}.odm_restore_tmp.crm_note", copy.name())], "{report}");
    let text = report.to_string();
    assert!(
        text.contains("odm_restore_tmp.shop_item: the temporary collection of an interrupted restore, removed"),
        "{text}"
    );
    assert!(
        text.contains("odm_restore_tmp.crm_note: the temporary collection of an interrupted restore, left"),
        "{text}"
    );
    assert_eq!(raw_documents(&src, "shop_item").await, raw_documents(&copy, "shop_item").await);
    assert_eq!(names(&copy).await, ["odm_restore_tmp.crm_note", "shop_item"]);
    assert_eq!(collection_options(&src, "shop_item").await, collection_options(&copy, "shop_item").await);
    assert_eq!(indexes_by_name(&src, "shop_item").await, indexes_by_name(&copy, "shop_item").await);
}

/// The documents of `collection` (0 when it is missing).
async fn raw_count(db: &odm::mongodb::Database, collection: &str) -> u64 {
    db.collection::<Document>(collection).count_documents(doc! {}).await.expect("count")
}
