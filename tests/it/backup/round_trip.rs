//! Dumps restored elsewhere: byte-equal documents with options and indexes, gzip or not; a whole database; every
//! instance of a templated model; a dump in mongodump's older metadata form.

use super::*;

#[tokio::test]
async fn a_dump_restored_elsewhere_is_the_same_byte_for_byte() {
    let src = odm::testing::database("bk_round").await;
    seed(&src, 2500).await;
    let expected_mode = ReadMode::of(src.client()).await.expect("hello");
    for gzip in [false, true] {
        let copy = odm::testing::database("bk_round_copy").await;
        let out = out_dir(&copy);
        let (mut batches, mut last) = (0, None);
        let mut dump = Dump::new(src.client(), &*out).database(src.name()).model::<Item>().model::<Entry>();
        if gzip {
            dump = dump.gzip();
        }
        let report = dump
            .batch_size(700)
            .on_progress(|p| {
                batches += 1;
                last = Some((p.done, p.total));
            })
            .await
            .expect("dump");
        // With a callback the total is the collections' counts from the start (asked for only then).
        assert_eq!(last, Some((2505, 2505)), "the last report: every document of the total");
        assert_eq!(report.read_mode, expected_mode, "{report}");
        let counts: Vec<(&str, u64)> =
            report.collections.iter().map(|c| (c.collection.as_str(), c.documents)).collect();
        assert_eq!(counts, [("shop_item", 2500), ("log_app_entry", 5)], "{report}");
        assert!(batches >= 4, "progress after every batch: {batches} calls");
        let gz = if gzip { ".gz" } else { "" };
        for name in ["shop_item", "log_app_entry"] {
            for file in [format!("{name}.bson{gz}"), format!("{name}.metadata.json{gz}")] {
                assert!(out.join(src.name()).join(&file).is_file(), "{file} written");
            }
        }
        assert!(partial_files(&out).is_empty(), "no temporary file left: {:?}", partial_files(&out));
        // The file is the documents exactly as the server returns them, in `_id` order, one after another (once
        // `gzip` itself has decompressed it).
        let stored = raw_documents(&src, "shop_item").await;
        let bytes: Vec<u8> = stored.iter().flat_map(|d| d.as_bytes().to_vec()).collect();
        let file = std::fs::read(out.join(src.name()).join(format!("shop_item.bson{gz}"))).expect("read the dump");
        let file = if gzip { gzip_tool(&["-dc"], &file) } else { file };
        assert!(file == bytes, "shop_item.bson{gz} is the stored documents, concatenated");
        assert_eq!(report.collections[0].bytes, bytes.len() as u64);

        let restored =
            Restore::new(copy.client(), &*out).database(src.name()).into_db(copy.name()).await.expect("restore");
        let counts: Vec<(&str, u64)> =
            restored.collections.iter().map(|c| (c.collection.as_str(), c.documents)).collect();
        assert_eq!(counts, [("log_app_entry", 5), ("shop_item", 2500)], "{restored}");
        for name in ["shop_item", "log_app_entry"] {
            let (a, b) = (raw_documents(&src, name).await, raw_documents(&copy, name).await);
            assert_eq!(a.len(), b.len(), "{name}: as many documents");
            for (x, y) in a.iter().zip(&b) {
                assert!(x.as_bytes() == y.as_bytes(), "{name}: byte-equal documents\n{x:?}\n{y:?}");
            }
            assert_eq!(collection_options(&src, name).await, collection_options(&copy, name).await, "{name} options");
            assert_eq!(indexes_by_name(&src, name).await, indexes_by_name(&copy, name).await, "{name} indexes");
        }
        // The capped log keeps its insertion order through the dump.
        let in_order = natural_order(&src, "log_app_entry").await;
        let copied = natural_order(&copy, "log_app_entry").await;
        assert_eq!(in_order, copied, "the capped log in its insertion order");
        assert_ne!(in_order, raw_documents(&src, "log_app_entry").await, "insertion order is not _id order here");
        let options = collection_options(&copy, "log_app_entry").await;
        assert_eq!((options.get_bool("capped").ok(), options.get("max").is_some()), (Some(true), true), "{options}");
        // The copy is in line with the models, as a synced database is.
        odm::SchemaSync::new(copy.client())
            .database(copy.name())
            .model::<Item>()
            .model::<Entry>()
            .mode(odm::SyncMode::Verify)
            .await
            .and_then(|r| r.require_in_sync())
            .expect("the restored collections match the models");
    }
}

#[tokio::test]
async fn a_dump_in_mongodumps_older_metadata_form_restores() {
    // What an older mongodump wrote: relaxed Extended JSON, `ns` in the index specs, no `type`, and the documents
    // gzip-compressed beside an uncompressed file of another collection.
    let copy = odm::testing::database("bk_mongodump").await;
    let out = out_dir(&copy);
    let dir = out.join("legacy");
    std::fs::create_dir_all(&dir).expect("dir");
    let docs = [doc! { "_id": 1, "n": "a", "d": 1.5 }, doc! { "_id": 2, "n": "b", "l": 7_i64 }];
    let mut bytes = Vec::new();
    for d in &docs {
        bytes.extend(RawDocumentBuf::try_from(d).expect("raw").as_bytes());
    }
    std::fs::write(dir.join("people.bson.gz"), gzip(&bytes)).expect("write");
    let meta = r#"{"options":{"validator":{"n":{"$type":"string"}},"validationLevel":"strict","validationAction":"error"},"indexes":[{"v":2,"key":{"_id":1},"name":"_id_","ns":"legacy.people"},{"v":2,"key":{"n":1},"name":"n_1","ns":"legacy.people","unique":true}],"uuid":"7c0d2cfa1b0a4d0f9a3f4f1c2b3a4d5e","collectionName":"people"}"#;
    std::fs::write(dir.join("people.metadata.json.gz"), gzip(meta.as_bytes())).expect("write");
    // A view (metadata alone, as mongodump writes one) is left out; a collection with metadata alone is created empty.
    let view =
        r#"{"options":{"viewOn":"people","pipeline":[]},"indexes":[],"collectionName":"people_view","type":"view"}"#;
    std::fs::write(dir.join("people_view.metadata.json"), view).expect("write");
    let empty = r#"{"indexes":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"at":-1},"name":"at_-1"}],"collectionName":"audit"}"#;
    std::fs::write(dir.join("audit.metadata.json"), empty).expect("write");
    // Documents without their metadata file (copied alone, or a dump cut off between a collection's two files):
    // restored, and the report says they came without options and indexes.
    std::fs::write(dir.join("notes.bson"), &bytes).expect("write");
    let report = Restore::new(copy.client(), &*out).database("legacy").into_db(copy.name()).await.expect("restore");
    let restored: Vec<(&str, u64, usize, bool)> =
        report.collections.iter().map(|c| (c.collection.as_str(), c.documents, c.indexes, c.metadata)).collect();
    assert_eq!(restored, [("audit", 0, 1, true), ("notes", 2, 0, false), ("people", 2, 1, true)], "{report}");
    let text = report.to_string();
    assert!(text.contains("notes: 2 document(s)") && text.contains("(no metadata file: created without"), "{text}");
    assert!(!collection_options(&copy, "notes").await.contains_key("validator"));
    assert_eq!(report.skipped, [("legacy.people_view".to_owned(), "view".to_owned())], "{report}");
    assert_eq!(support::server::index_names(&copy, "audit").await, ["_id_", "at_-1"]);
    let stored: Vec<Document> = copy
        .collection::<Document>("people")
        .find(doc! {})
        .sort(doc! { "_id": 1 })
        .await
        .expect("find")
        .try_collect()
        .await
        .expect("read");
    assert_eq!(stored, docs);
    let options = collection_options(&copy, "people").await;
    assert_eq!(options.get_document("validator").ok(), Some(&doc! { "n": { "$type": "string" } }));
    let unique = indexes_by_name(&copy, "people").await.into_iter().find(|i| i.get_str("name").ok() == Some("n_1"));
    assert_eq!(unique.and_then(|i| i.get_bool("unique").ok()), Some(true));
}

#[tokio::test]
async fn a_database_given_alone_is_dumped_whole() {
    let src = odm::testing::database("bk_whole").await;
    seed(&src, 10).await;
    src.collection::<Document>("misc_note").insert_one(doc! { "_id": 1, "t": "no model" }).await.expect("insert");
    let view = src.create_collection("shop_item_view").view_on("shop_item".to_owned()).pipeline(vec![]).await;
    let out = out_dir(&src);
    let report = Dump::new(src.client(), &*out).database(src.name()).await.expect("dump");
    let mut names: Vec<&str> = report.collections.iter().map(|c| c.collection.as_str()).collect();
    names.sort();
    assert_eq!(names, ["log_app_entry", "misc_note", "shop_item"], "{report}");
    // odm's own records (`odm_index`, written by the sync) travel in each collection's metadata file instead.
    let (odm, skipped): (Vec<_>, Vec<_>) =
        report.skipped.iter().cloned().partition(|(ns, _)| ns.ends_with(".odm_index"));
    assert_eq!(odm.len(), 1, "{report}");
    match view {
        Ok(()) => {
            assert_eq!(skipped, [(format!("{}.shop_item_view", src.name()), "view".to_owned())], "{report}")
        }
        Err(e) => eprintln!("no view to leave out: the server refused to create one: {e}"),
    }
    // A collection asked for that is not there is reported; one asked for twice is dumped once.
    let absent = Dump::new(src.client(), out.join("absent"))
        .database(src.name())
        .collection(src.name(), "misc_gone")
        .model::<Item>()
        .collection(src.name(), "shop_item")
        .await
        .expect("dump");
    assert_eq!(absent.absent, [format!("{}.misc_gone", src.name())], "{absent}");
    let names: Vec<&str> = absent.collections.iter().map(|c| c.collection.as_str()).collect();
    assert_eq!(names, ["shop_item"], "{absent}");
    assert!(!out.join("absent").join(src.name()).join("misc_gone.bson").exists());
    let nothing = Dump::new(src.client(), &*out).await.expect_err("nothing to dump");
    assert!(matches!(backup_error(nothing), BackupError::NothingChosen));
}

#[tokio::test]
async fn every_live_instance_of_a_templated_model_is_dumped() {
    let src = odm::testing::database("bk_periods").await;
    let months = ["log_app_event_202611", "log_app_event_202612"];
    for (month, at) in months.iter().zip([11, 12]) {
        let start = DateTime::builder().year(2026).month(at).day(2).build().expect("a date");
        odm::SchemaSync::new(src.client())
            .database(src.name())
            .instance::<Event>(start)
            .expect("key")
            .await
            .and_then(|r| r.require_in_sync())
            .expect("sync");
        let docs: Vec<Document> =
            (0..3).map(|i| doc! { "_id": ObjectId::new(), "k": format!("{month}-{i}") }).collect();
        src.collection::<Document>(month).insert_many(docs).await.expect("insert");
    }
    // Not an instance: the template does not name it.
    src.collection::<Document>("log_app_event_backup").insert_one(doc! { "k": "x" }).await.expect("insert");
    let out = out_dir(&src);
    let report = Dump::new(src.client(), &*out).database(src.name()).model::<Event>().await.expect("dump");
    let names: Vec<&str> = report.collections.iter().map(|c| c.collection.as_str()).collect();
    assert_eq!(names, months, "{report}");
    let copy = odm::testing::database("bk_periods_copy").await;
    Restore::new(copy.client(), &*out)
        .database(src.name())
        .into_db(copy.name())
        .model::<Event>()
        .await
        .expect("restore");
    for month in months {
        assert_eq!(raw_documents(&src, month).await, raw_documents(&copy, month).await, "{month}");
        assert_eq!(indexes_by_name(&src, month).await, indexes_by_name(&copy, month).await, "{month}");
    }
}

#[tokio::test]
async fn a_dump_reads_in_the_mode_asked_for() {
    let src = odm::testing::database("bk_modes").await;
    seed(&src, 50).await;
    let best = ReadMode::of(src.client()).await.expect("hello");
    for (asked, level) in [(None, None), (Some(ReadMode::Majority), Some("majority")), (Some(ReadMode::Plain), None)] {
        let copy = odm::testing::database("bk_modes_copy").await;
        let out = out_dir(&copy);
        let (client, recorded) = support::commands::recording_client().await;
        let mut dump = Dump::new(&client, &*out).database(src.name()).model::<Item>().model::<Entry>().batch_size(20);
        if let Some(mode) = asked {
            dump = dump.read_mode(mode);
        }
        let report = dump.await.expect("dump");
        let mode = asked.unwrap_or(best);
        assert_eq!(report.read_mode, mode, "{report}");
        assert!(report.collections.iter().all(|c| c.read_mode == mode), "{report}");
        // Every find carries the read concern of its mode; a snapshot's finds share one session and one moment.
        // (odm's records of its indexes, read beside the indexes, are not the collections' documents.)
        let finds: Vec<Document> = recorded
            .started()
            .into_iter()
            .filter(|(n, c)| n == "find" && c.get_str("find").ok() != Some("odm_index"))
            .map(|(_, c)| c)
            .collect();
        assert_eq!(finds.len(), 2, "one find per collection");
        let level = if mode == ReadMode::Snapshot { Some("snapshot") } else { level };
        for find in &finds {
            let sent = find.get_document("readConcern").ok().and_then(|r| r.get_str("level").ok());
            assert_eq!(sent, level, "{mode}: {find}");
        }
        if mode == ReadMode::Snapshot {
            let at = finds[1].get_document("readConcern").ok().and_then(|r| r.get_timestamp("atClusterTime").ok());
            assert!(at.is_some(), "the second collection is read at the first one's moment: {}", finds[1]);
            assert_eq!(finds[0].get_document("lsid").ok(), finds[1].get_document("lsid").ok(), "one session");
        }
        Restore::new(copy.client(), &*out).database(src.name()).into_db(copy.name()).await.expect("restore");
        assert_eq!(raw_documents(&src, "shop_item").await, raw_documents(&copy, "shop_item").await, "{mode}");
    }
}

#[tokio::test]
async fn large_documents_are_restored_in_commands_the_server_takes() {
    let src = odm::testing::database("bk_large").await;
    // 20 documents of 1.5 MiB: 30 MiB, more than one command can carry.
    let blob = Binary { subtype: odm::bson::spec::BinarySubtype::Generic, bytes: vec![7; 3 << 19] };
    let docs: Vec<Document> = (0..20).map(|i| doc! { "_id": i, "b": blob.clone() }).collect();
    for doc in docs {
        src.collection::<Document>("misc_blob").insert_one(doc).await.expect("insert");
    }
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).collection(src.name(), "misc_blob").await.expect("dump");
    let copy = odm::testing::database("bk_large_copy").await;
    let (client, recorded) = support::commands::recording_client().await;
    let report = Restore::new(&client, &*out).database(src.name()).into_db(copy.name()).await.expect("restore");
    assert_eq!(report.collections[0].documents, 20, "{report}");
    let inserts: Vec<Document> =
        recorded.started().into_iter().filter(|(n, _)| n == "insert").map(|(_, c)| c).collect();
    assert!(inserts.len() >= 2, "split by size: {} insert command(s)", inserts.len());
    for insert in &inserts {
        let size = odm::bson::serialize_to_vec(insert).expect("encode").len();
        assert!(size <= odm::error::MAX_STATEMENT_SIZE, "an insert of {size} bytes");
        assert_eq!(insert.get_bool("ordered").ok(), Some(true));
    }
    let counts: usize = inserts.iter().map(|i| i.get_array("documents").map_or(0, |d| d.len())).sum();
    assert_eq!(counts, 20, "every document sent once");
    assert_eq!(raw_documents(&src, "misc_blob").await, raw_documents(&copy, "misc_blob").await);
}

#[tokio::test]
async fn a_restores_progress_knows_its_total_before_the_first_write() {
    let src = odm::testing::database("bk_progress").await;
    seed(&src, 2500).await;
    let out = out_dir(&src);
    Dump::new(src.client(), &*out).database(src.name()).model::<Item>().model::<Entry>().gzip().await.expect("dump");
    let copy = odm::testing::database("bk_progress_copy").await;
    let mut seen: Vec<(u64, u64, usize)> = Vec::new();
    let (uri, db_name) = (odm::testing::server().uri().to_owned(), copy.name().to_owned());
    Restore::new(copy.client(), &*out)
        .database(src.name())
        .into_db(copy.name())
        .batch_size(400)
        .on_progress(|p| {
            // What is in the target databases when the report comes: the count follows the work done.
            let stored = std::thread::scope(|s| {
                s.spawn(|| {
                    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
                    runtime.block_on(async {
                        // A client of its own: the restore's runs on the runtime this callback holds up.
                        let client = odm::mongodb::Client::with_uri_str(&uri).await.expect("client");
                        let db = client.database(&db_name);
                        let mut n = 0;
                        for name in db.list_collection_names().await.expect("names") {
                            n += db.collection::<Document>(&name).count_documents(doc! {}).await.expect("count");
                        }
                        n as usize
                    })
                })
                .join()
                .expect("counted")
            });
            seen.push((p.done, p.total, stored));
        })
        .await
        .expect("restore");
    // Every report, the first included (before any document is written), has the whole dump's count as its total.
    assert_eq!(seen.first().map(|s| (s.0, s.1)), Some((0, 2505)), "{seen:?}");
    assert!(seen.iter().all(|s| s.1 == 2505), "the total never grows: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "done only grows: {seen:?}");
    assert!(seen.iter().all(|s| s.0 as usize == s.2), "done is what the server holds when reported: {seen:?}");
    assert_eq!(seen.last().map(|s| (s.0, s.1)), Some((2505, 2505)));
    assert!(seen.len() >= 8, "a report after each insert command of 400: {seen:?}");
}
