//! The records of the indexes odm created ([`ownership`](crate::sync::plan::ownership)) of each dumped collection, so
//! that what odm owned before a dump it owns after the restore, and nothing else.
//!
//! They travel in the collection's own metadata file, as the top-level key `odmIndexes` (the `index` of each record:
//! key pattern and options as odm created them), rather than as a dump of the `odm_index` collection: the records
//! then follow their collection whatever is selected (one model, `--into-db` another database), a restore writes
//! them only for the indexes it built, and mongorestore, which ignores unknown top-level keys of a metadata file,
//! still reads the file (restored by mongorestore, the indexes are simply not odm's: never dropped).

use crate::base::error::Result;
use crate::base::index::IndexSpec;
use crate::base::plan::ownership::{record_document_command, Ownership, Records, OWNED_INDEXES};
use crate::driver::observe::Op;
use bson::{doc, Document};
use futures_util::TryStreamExt;
use mongodb::Database;

/// What a dump of a whole database reports of odm's own collections (`odm_index`, `odm_sync_lock`), which it
/// leaves out: the records travel with their collections, and a lease is of no use in a backup.
pub(crate) const METADATA_KIND: &str =
    "collection of odm's metadata (its records travel in each dumped collection's metadata file)";

/// The key of a metadata file holding the records.
pub(crate) const METADATA_KEY: &str = "odmIndexes";

/// The recorded index documents of `collection` whose live index (among `indexes`, as listed) is still as odm
/// recorded it: the indexes odm owns.
pub(super) async fn recorded(db: &Database, collection: &str, indexes: &[Document]) -> Result<Vec<Document>> {
    let records = db.collection::<Document>(OWNED_INDEXES);
    let filter = doc! { "_id.c": collection };
    let find = records.find(filter.clone());
    let op = Op::on(&records, "find").values(|| doc! { "filter": &filter });
    let found: Vec<Document> = op.run(async { find.await?.try_collect().await }).await?;
    let of = Records::of(collection, &found);
    let owned = indexes.iter().filter_map(IndexSpec::from_listed).filter(|l| of.owns(l) == Ownership::Owned);
    Ok(owned.filter_map(|l| Some(of.get(&l.name)?.to_document())).collect())
}

/// Records as odm's, in `db`, the indexes of `collection` that the dump recorded (`recorded`) and the restore built
/// (`built`, by name). Returns how many.
pub(super) async fn restore(
    db: &Database,
    collection: &str,
    recorded: &[Document],
    built: &[Document],
) -> Result<usize> {
    let built: Vec<&str> = built.iter().filter_map(|i| i.get_str("name").ok()).collect();
    let mut count = 0;
    for index in recorded {
        let Ok(name) = index.get_str("name") else { continue };
        if built.contains(&name) {
            crate::driver::sync::write_record(db, &record_document_command(collection, name, index.clone())).await?;
            count += 1;
        }
    }
    Ok(count)
}
