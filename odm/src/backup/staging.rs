//! Where a restore loads a collection before it becomes the target: a temporary collection of the target's
//! database (`odm_restore_tmp.<collection>`), renamed into place with `renameCollection` only once its documents
//! and indexes are all there. A rename within one database is atomic on the server, so the target is either as it
//! was or whole, whatever stops the restore (a refused document, a damaged file, a crash). A temporary collection a
//! crash left behind is found by the next restore into that database: removed when that restore loads the same
//! collection again, named in its report otherwise.
//!
//! Not every server keeps a collection's options through a rename as mongod does (the validator, capped size,
//! collation): a restore asks each target database once ([`rename_keeps_options`], on two collections of its own).
//! Where the options do not survive, those `collMod` sets (validator, validation level and action) are set again
//! right after the rename, and a collection with options only `create` sets (capped, collation, …) is loaded in place
//! instead, dropped again if the load fails ([`Placement`]).

use crate::base::error::Result;
use crate::driver::observe::Op;
use bson::{doc, Document};
use futures_util::TryStreamExt;
use mongodb::{Client, Database};

/// The prefix of a restore's temporary collections.
pub(crate) const PREFIX: &str = "odm_restore_tmp.";

/// The prefix of the collections [`rename_keeps_options`] makes and drops at once.
const PROBE_PREFIX: &str = "odm_restore_probe.";

/// The options `collMod` can set again on a collection; every other option is fixed when it is created.
const SETTABLE: [&str; 4] = ["validator", "validationLevel", "validationAction", "changeStreamPreAndPostImages"];

/// Where a restore loads a collection, decided from what the target database's server does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Into its temporary collection, renamed into place: the target is as it was or whole.
    Staged {
        /// True when the server's rename loses the options and those `collMod` sets are set again after it.
        reapply: bool,
    },
    /// Into the target itself (a server whose rename loses options `collMod` cannot set again): a failed load
    /// drops what it created.
    InPlace,
}

impl Placement {
    /// The placement of a collection with `options`, in a database whose rename keeps options or not.
    pub(crate) fn of(options: &Document, keeps: bool) -> Placement {
        if keeps {
            Placement::Staged { reapply: false }
        } else if options.keys().all(|k| SETTABLE.contains(&k.as_str())) {
            Placement::Staged { reapply: !options.is_empty() }
        } else {
            Placement::InPlace
        }
    }
}

/// What a dump of a whole database calls a restore's temporary collection it leaves out.
pub(crate) const STAGING_KIND: &str = "temporary collection of an interrupted restore";

/// The temporary collection a restore loads `collection` into.
pub(crate) fn name(collection: &str) -> String {
    format!("{PREFIX}{collection}")
}

/// True when `collection` is a restore's temporary collection (or a probe one a crash left).
pub(crate) fn is_staging(collection: &str) -> bool {
    collection.starts_with(PREFIX) || collection.starts_with(PROBE_PREFIX)
}

/// True when `collection` is a probe's, never anyone's data: a leftover one is always dropped.
pub(crate) fn is_probe(collection: &str) -> bool {
    collection.starts_with(PROBE_PREFIX)
}

/// The temporary collections in `db` (left by a restore that did not finish, or being loaded by one running).
pub(crate) async fn leftovers(db: &Database) -> Result<Vec<String>> {
    let pattern = format!("^({}|{})", regex_escape(PREFIX), regex_escape(PROBE_PREFIX));
    let filter = doc! { "name": { "$regex": pattern } };
    let command = doc! { "listCollections": 1, "filter": filter, "nameOnly": true };
    let op = Op::on_db(db, "", "listCollections");
    let entries: Vec<Document> = op.run(async { db.run_cursor_command(command).await?.try_collect().await }).await?;
    let mut names: Vec<String> = entries.iter().filter_map(|e| e.get_str("name").ok().map(str::to_owned)).collect();
    names.sort();
    Ok(names)
}

/// Drops the collection `name` of `db` (nothing when it is not there).
pub(crate) async fn drop(db: &Database, name: &str) -> Result<()> {
    let coll = db.collection::<Document>(name);
    Op::on(&coll, "drop").run(coll.drop()).await?;
    Ok(())
}

/// The options (`listCollections`' `options`) and secondary indexes of the collection `name` of `db`: what an
/// empty collection that exists keeps when a restore loads it.
pub(crate) async fn live(db: &Database, name: &str) -> Result<(Document, Vec<Document>)> {
    let list = doc! { "listCollections": 1, "filter": { "name": name } };
    let op = Op::on_db(db, name, "listCollections");
    let entries: Vec<Document> = op.run(async { db.run_cursor_command(list).await?.try_collect().await }).await?;
    let options = entries.first().and_then(|e| e.get_document("options").ok()).cloned().unwrap_or_default();
    let op = Op::on_db(db, name, "listIndexes");
    let command = doc! { "listIndexes": name };
    let indexes: Vec<Document> = op.run(async { db.run_cursor_command(command).await?.try_collect().await }).await?;
    let indexes = indexes
        .into_iter()
        .filter(|i| i.get_str("name").ok() != Some("_id_"))
        .map(|mut i| {
            i.remove("ns");
            i
        })
        .collect();
    Ok((options, indexes))
}

/// Renames `staging` of `db` to `target` (`renameCollection`, run on `admin`), replacing `target` when `replace`
/// (`dropTarget`). Without `replace`, a `target` that exists meanwhile makes the server refuse the rename.
pub(crate) async fn rename(client: &Client, db: &Database, staging: &str, target: &str, replace: bool) -> Result<()> {
    let command = doc! {
        "renameCollection": format!("{}.{staging}", db.name()),
        "to": format!("{}.{target}", db.name()),
        "dropTarget": replace,
    };
    let admin = client.database("admin");
    Op::on_db(db, target, "renameCollection").values(|| command.clone()).run(admin.run_command(command)).await?;
    Ok(())
}

/// True when the server behind `db` keeps a collection's options through `renameCollection`, as mongod does: a
/// collection of its own is created with a validator, renamed, read back and dropped.
pub(crate) async fn rename_keeps_options(client: &Client, db: &Database) -> Result<bool> {
    let id = bson::oid::ObjectId::new().to_hex();
    let (from, to) = (format!("{PROBE_PREFIX}{id}"), format!("{PROBE_PREFIX}{id}.renamed"));
    let validator = doc! { "$jsonSchema": { "bsonType": "object" } };
    let create = doc! { "create": &from, "validator": &validator };
    Op::command(db, &create).run(db.run_command(create.clone())).await?;
    let renamed = rename(client, db, &from, &to, false).await;
    let kept = match renamed {
        Ok(()) => live(db, &to).await.map(|(options, _)| options.get_document("validator").ok() == Some(&validator)),
        Err(e) => Err(e),
    };
    drop(db, &to).await?;
    drop(db, &from).await?;
    kept
}

/// Sets again with `collMod` the `options` a rename lost (those [`Placement::of`] lets through: the validator, the
/// validation level and action) on the collection `name` of `db`.
pub(crate) async fn reapply(db: &Database, name: &str, options: &Document) -> Result<()> {
    let mut command = doc! { "collMod": name };
    command.extend(options.iter().filter(|(k, _)| SETTABLE.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())));
    Op::command(db, &command).run(db.run_command(command.clone())).await?;
    Ok(())
}

/// `text` with the characters a regular expression gives a meaning escaped.
fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
