//! `dump` and `restore`: [`crate::backup`]'s [`Dump`] and [`Restore`] over the selected models, in mongodump's
//! directory layout.
//!
//! Each model is added to a dump or a restore as a model in the database this run uses for it (`--db`, else the one
//! it names: [`Dump::model_in`], [`Restore::model_in`]), so a restore names a refused document's fields by their Rust
//! paths, a model named at run time stands for each of its instances, and a model whose collection is absent is
//! reported as absent: a dump never falls back to a whole database.

use super::args::{DumpArgs, RestoreArgs};
use super::exit::OK;
use super::failure::Failure;
use super::models::Entry;
use super::output::{self, Done};
use super::progress::Display;
use crate::backup::{Dump, Restore};
use mongodb::Client;
use std::future::IntoFuture;

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
        dump = (entry.dump)(dump, &entry.database(db)?);
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
        restore = (entry.restore)(restore, &entry.database(db)?);
    }
    let label = format!("restore from {}", args.from.display());
    let report = display.track(label, |t| restore.on_progress(move |p| t.update(p)).into_future()).await?;
    Ok(Done { code: OK, text: report.to_string(), json: output::restore_report(&report) })
}
