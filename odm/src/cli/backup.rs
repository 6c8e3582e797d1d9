//! `dump` and `restore`: [`crate::backup`]'s [`Dump`] and [`Restore`] over the selected models, in mongodump's
//! directory layout.
//!
//! A model is added to a dump or a restore as a model (so a restore names a refused document's fields by their Rust
//! paths, and a model named at run time stands for each of its instances), except when `--db` moves it away from the
//! database it names: then its collections are added by name in that database, as found on the server (dump) or in
//! the dump directory (restore).

use super::args::{DumpArgs, RestoreArgs};
use super::exit::OK;
use super::failure::Failure;
use super::models::Entry;
use super::output::{self, Done};
use super::progress::Display;
use crate::backup::layout::unescape_name;
use crate::backup::{Dump, Restore};
use crate::error::Error;
use mongodb::Client;
use std::future::IntoFuture;
use std::path::Path;

/// `dump`: the selected models' collections written to `--out`.
pub(super) async fn dump(
    client: &Client,
    entries: &[&Entry],
    db: Option<&str>,
    args: &DumpArgs,
    display: Display,
) -> Result<Done, Failure> {
    let mut dump = Dump::new(client, &args.out).batch_size(args.batch_size);
    if args.gzip {
        dump = dump.gzip();
    }
    if let Some(db) = db {
        dump = dump.database(db);
    }
    for entry in entries {
        let target = entry.database(db)?;
        if moved(entry, &target) {
            let names = client.database(&target).list_collection_names().await.map_err(Error::from)?;
            for name in names.into_iter().filter(|n| entry.names(n)) {
                dump = dump.collection(&target, name);
            }
        } else {
            dump = (entry.dump)(dump);
        }
    }
    let label = format!("dump to {}", args.out.display());
    let report = display.track(label, |t| dump.on_progress(move |p| t.update(p)).into_future()).await?;
    Ok(Done { code: OK, text: report.to_string(), json: output::dump_report(&report) })
}

/// `restore`: a dump directory (odm's or mongodump's) restored; everything in it (of `--db`'s database when given)
/// unless `--model` names models, which restores theirs alone.
pub(super) async fn restore(
    client: &Client,
    entries: &[&Entry],
    chosen: bool,
    db: Option<&str>,
    args: &RestoreArgs,
    display: Display,
) -> Result<Done, Failure> {
    let mut restore = Restore::new(client, &args.from).batch_size(args.batch_size);
    if let Some(into) = &args.into_db {
        restore = restore.into_db(into);
    }
    if args.drop_existing {
        restore = restore.drop_existing();
    }
    if args.bypass_validation {
        restore = restore.bypass_validation();
    }
    if let Some(db) = db {
        restore = restore.database(db);
    }
    // Without `--model`, the whole dump: a model whose collection was absent when dumped has no file to restore.
    for entry in entries.iter().filter(|_| chosen) {
        let source = entry.database(db)?;
        if moved(entry, &source) {
            for name in dumped(&args.from.join(&source), entry)? {
                restore = restore.collection(&source, name);
            }
        } else {
            restore = (entry.restore)(restore);
        }
    }
    let label = format!("restore from {}", args.from.display());
    let report = display.track(label, |t| restore.on_progress(move |p| t.update(p)).into_future()).await?;
    Ok(Done { code: OK, text: report.to_string(), json: output::restore_report(&report) })
}

/// True when `--db` moves `entry` away from the database its model names, so it is added by collection name.
fn moved(entry: &Entry, db: &str) -> bool {
    entry.spec.db.is_some_and(|own| own != db)
}

/// The collections of `entry` dumped into `dir` (`<dump>/<db>`), by their documents files (`.bson`, `.bson.gz`;
/// hidden files are unfinished ones).
fn dumped(dir: &Path, entry: &Entry) -> Result<Vec<String>, Failure> {
    let unreadable =
        |e: std::io::Error| Failure::Message(format!("cannot read the dump directory {}: {e}", dir.display()));
    let mut names = Vec::new();
    for file in std::fs::read_dir(dir).map_err(unreadable)? {
        let file = file.map_err(unreadable)?.file_name().to_string_lossy().into_owned();
        let stem = file.strip_suffix(".bson").or_else(|| file.strip_suffix(".bson.gz"));
        match stem.filter(|s| !s.starts_with('.')).and_then(unescape_name) {
            Some(name) if entry.names(&name) => names.push(name),
            _ => {}
        }
    }
    names.sort();
    Ok(names)
}
