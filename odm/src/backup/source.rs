//! Finding a dump's collections: the database directories of a dump, each collection's documents file and metadata
//! file (gzip or not, names escaped as mongodump escapes them), narrowed to what a restore asks for.

use super::files::{io_error, read_all};
use super::layout::{unescape_name, Metadata, BSON_SUFFIX, GZIP_SUFFIX, METADATA_SUFFIX};
use super::report::Skipped;
use super::select::{Choice, ModelRef};
use crate::base::error::{BackupError, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One collection of the dump to restore.
pub(crate) struct Source {
    /// The database it was dumped from.
    pub(crate) db: String,
    /// Its name.
    pub(crate) collection: String,
    /// Its documents file; `None` for a collection the dump has metadata alone for (restored empty).
    pub(crate) bson: Option<PathBuf>,
    /// Its metadata file, read.
    pub(crate) metadata: Option<Metadata>,
    /// Where it was found (its documents file, else its metadata file), for the report.
    pub(crate) file: PathBuf,
    /// The model it belongs to, when the restore was given it.
    pub(crate) model: Option<ModelRef>,
}

/// What a restore asks for of the dump in `dir`.
pub(crate) struct Wanted<'a> {
    pub(crate) dir: &'a Path,
    /// [`Restore::database`](super::Restore::database).
    pub(crate) source_db: Option<&'a str>,
    /// True when restoring into another database, which takes one source database.
    pub(crate) into_other: bool,
    /// The models and collections asked for (none: all).
    pub(crate) choices: &'a [Choice],
}

/// The files of one collection in a database directory.
#[derive(Default)]
struct Files {
    bson: Option<PathBuf>,
    metadata: Option<PathBuf>,
}

impl Wanted<'_> {
    /// The collections to restore, by database then file name, and those left out for their type (`view`,
    /// `timeseries`) as `(<db>.<collection>, type)` when the whole dump (or database) is restored.
    pub(crate) fn find(&self) -> Result<(Vec<Source>, Skipped)> {
        let dbs = self.databases()?;
        let (mut sources, mut skipped) = (Vec::new(), Vec::new());
        for db in &dbs {
            let dir = self.dir.join(db);
            if !dir.is_dir() {
                return Err(no_source(&dir, "the dump has no directory for this database".to_owned()));
            }
            for (escaped, files) in collection_files(&dir)? {
                let Some(source) = self.source(db, &escaped, files)? else { continue };
                match source.metadata.as_ref().map(|m| m.kind.as_str()) {
                    Some(kind) if kind != "collection" && self.choices.is_empty() => {
                        skipped.push((format!("{db}.{}", source.collection), kind.to_owned()));
                    }
                    _ => sources.push(source),
                }
            }
        }
        for choice in self.choices {
            let db = choice.db(self.source_db)?;
            if let Some(name) = choice.exact() {
                if !sources.iter().any(|s| s.db == db && s.collection == name) {
                    let reason = format!("the dump holds no `{name}.bson` (or `.bson.gz`) for {db}.{name}");
                    return Err(no_source(&self.dir.join(&db), reason));
                }
            }
        }
        if sources.is_empty() {
            return Err(no_source(self.dir, "no `<db>/<collection>.bson` files in it".to_owned()));
        }
        Ok((sources, skipped))
    }

    /// The dump's databases to read: those the choices name, else the one asked for, else every directory.
    fn databases(&self) -> Result<Vec<String>> {
        let mut dbs: Vec<String> = Vec::new();
        if !self.choices.is_empty() {
            for choice in self.choices {
                let db = choice.db(self.source_db)?;
                if !dbs.contains(&db) {
                    dbs.push(db);
                }
            }
        } else if let Some(db) = self.source_db {
            dbs.push(db.to_owned());
        } else {
            for entry in std::fs::read_dir(self.dir).map_err(io_error(self.dir, "read the directory"))? {
                let entry = entry.map_err(io_error(self.dir, "read the directory"))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.path().is_dir() && !name.starts_with('.') {
                    dbs.push(name);
                }
            }
        }
        dbs.sort();
        if self.into_other && dbs.len() > 1 {
            let reason = format!(
                "it holds the databases {}, and `into_db` takes one: restore them one at a time with `database(…)`",
                dbs.join(", ")
            );
            return Err(no_source(self.dir, reason));
        }
        Ok(dbs)
    }

    /// The collection whose (escaped) file name is `escaped`, when it is one asked for.
    fn source(&self, db: &str, escaped: &str, files: Files) -> Result<Option<Source>> {
        let metadata = match &files.metadata {
            Some(path) => Some(Metadata::from_json(&read_all(path)?, path)?),
            None => None,
        };
        let collection = match metadata.as_ref().filter(|m| !m.collection_name.is_empty()) {
            Some(m) => m.collection_name.clone(),
            None => unescape_name(escaped).unwrap_or_else(|| escaped.to_owned()),
        };
        // The server's own collections (users, roles, a time-series collection's buckets) are not data to restore.
        if collection.starts_with("system.") {
            return Ok(None);
        }
        let model = if self.choices.is_empty() {
            None
        } else {
            let chosen =
                self.choices.iter().find(|c| c.db(self.source_db).is_ok_and(|d| d == db) && c.matches(&collection));
            match chosen {
                Some(choice) => choice.model,
                None => return Ok(None),
            }
        };
        let file = files.bson.clone().or(files.metadata).unwrap_or_default();
        Ok(Some(Source { db: db.to_owned(), collection, bson: files.bson, metadata, file, model }))
    }
}

/// Which file of a collection a name is.
enum Slot {
    Bson,
    Metadata,
}

/// The dump files of a database directory by escaped collection name, in name order. Hidden files (a dump's
/// temporary `.…partial` files among them) and files of other kinds are not read.
fn collection_files(dir: &Path) -> Result<BTreeMap<String, Files>> {
    let mut found: BTreeMap<String, Files> = BTreeMap::new();
    for entry in std::fs::read_dir(dir).map_err(io_error(dir, "read the directory"))? {
        let path = entry.map_err(io_error(dir, "read the directory"))?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.starts_with('.') {
            continue;
        }
        let plain = name.strip_suffix(GZIP_SUFFIX).unwrap_or(&name);
        let (escaped, slot) = if let Some(escaped) = plain.strip_suffix(BSON_SUFFIX) {
            (escaped, Slot::Bson)
        } else if let Some(escaped) = plain.strip_suffix(METADATA_SUFFIX) {
            (escaped, Slot::Metadata)
        } else {
            continue;
        };
        let files = found.entry(escaped.to_owned()).or_default();
        let slot = match slot {
            Slot::Bson => &mut files.bson,
            Slot::Metadata => &mut files.metadata,
        };
        // `x.bson` beside `x.bson.gz`: two dumps of one collection, and no telling which is meant.
        if let Some(first) = slot.replace(path.clone()) {
            return Err(BackupError::Ambiguous { first, second: path }.into());
        }
    }
    Ok(found)
}

fn no_source(path: &Path, reason: String) -> crate::base::error::Error {
    BackupError::NoSource { path: path.to_owned(), reason }.into()
}
