//! Pulling models from a live database: an introspection (`crate::driver::introspect`), then a model per collection
//! written by `crate::base::pull`, and the files they are saved as. Users read the docs at `odm::pull`
//! (src/pull.rs).

use crate::base::error::Result;
use crate::base::plan::ownership::METADATA_COLLECTIONS;
use crate::base::pull::{ModelWriter, PulledModel, Unpullable};
use crate::driver::introspect::{survey_options, Introspect, Read};
use crate::driver::live::LiveKind;
use futures_util::future::BoxFuture;
use mongodb::Database;
use std::collections::HashSet;
use std::fmt;
use std::future::IntoFuture;
use std::io;
use std::path::{Path, PathBuf};

/// Models for the collections of a live database, awaited for a [`PullReport`]: each collection surveyed as
/// [`Introspect`] surveys it (every document of a small one, a `$sample` of a large one), then written by a
/// [`ModelWriter`] with its live validator and capped options. It reads; it writes nothing to the database.
///
/// ```no_run
/// # async fn demo(client: odm::mongodb::Client) -> Result<(), Box<dyn std::error::Error>> {
/// let pulled = odm::pull::Pull::new(&client.database("sample_mflix")).collections(["theaters"]).await?;
/// for model in &pulled.models {
///     println!("{}.rs: {} ({} rules opted out)", model.module, model.model, model.notes.len());
/// }
/// pulled.write_to("src/models")?; // theaters.rs and mod.rs; refuses to replace a file
/// # Ok(()) }
/// ```
#[must_use = "a pull does nothing until it is awaited"]
pub struct Pull<'a> {
    introspect: Introspect<'a>,
    versioned: bool,
}

/// What a [`Pull`] wrote.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct PullReport {
    /// The database pulled from.
    pub database: String,
    /// A model per collection, in name order; module names are unique among them.
    pub models: Vec<PulledModel>,
    /// Collections that got no model, and why.
    pub unpullable: Vec<Unpullable>,
    /// Collections asked for by name that the database does not hold.
    pub missing: Vec<String>,
}

impl<'a> Pull<'a> {
    /// Models for every collection of `db` (not its views, nor `system.` collections, nor odm's own records).
    pub fn new(db: &Database) -> Self {
        Pull { introspect: Introspect::new(db), versioned: false }
    }

    survey_options!();

    /// Writes each model as version 2 of itself, following the rules where the data allows, with the shape as found
    /// as its version 1 and the step between them (see [`ModelWriter::versioned`]).
    pub fn versioned(mut self, versioned: bool) -> Self {
        self.versioned = versioned;
        self
    }

    async fn run(self) -> Result<PullReport> {
        let found = self.introspect.await?;
        let mut models: Vec<PulledModel> = Vec::new();
        let mut unpullable = Vec::new();
        let mut modules: HashSet<String> = HashSet::new();
        for surveyed in &found.collections {
            let live = &surveyed.live;
            if METADATA_COLLECTIONS.contains(&live.name.as_str()) {
                unpullable.push(Unpullable {
                    collection: live.name.clone(),
                    reason: "odm's own records (rule `name-system`), not an application's documents".to_owned(),
                });
                continue;
            }
            if live.kind == LiveKind::TimeSeries {
                unpullable.push(Unpullable {
                    collection: live.name.clone(),
                    reason: "a time-series collection's measurements, which pull does not model yet: write its \
                             model with `#[odm(timeseries(...))]`"
                        .to_owned(),
                });
                continue;
            }
            let mut writer = ModelWriter::new(&live.name, &surveyed.shape)
                .database(&found.database)
                .sampled(matches!(surveyed.read, Read::Sample(_)))
                .versioned(self.versioned);
            if let Some(validator) = &live.options.validator {
                writer = writer.validator(validator);
            }
            if let Some(capped) = &live.options.capped {
                writer = writer.capped(*capped);
            }
            match writer.write() {
                Ok(mut model) => {
                    // `UserEvents` and `user_events` would both be `user_events.rs`.
                    let mut module = model.module.clone();
                    let mut n = 2;
                    while modules.contains(&module) || module == "mod" {
                        module = format!("{}_{n}", model.module);
                        n += 1;
                    }
                    modules.insert(module.clone());
                    model.module = module;
                    models.push(model);
                }
                Err(why) => unpullable.push(why),
            }
        }
        Ok(PullReport { database: found.database, models, unpullable, missing: found.missing })
    }
}

impl<'a> IntoFuture for Pull<'a> {
    type Output = Result<PullReport>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}

impl PullReport {
    /// Saves each model as `<dir>/<module>.rs` and a `<dir>/mod.rs` declaring them, creating `dir` if needed. All
    /// or nothing: when any of those files exists already, nothing is written (an error names them), and a write
    /// that fails part way removes what it wrote. Gives the files written.
    pub fn write_to(&self, dir: impl AsRef<Path>) -> io::Result<Vec<PathBuf>> {
        let dir = dir.as_ref();
        let mut files: Vec<(PathBuf, String)> =
            self.models.iter().map(|m| (dir.join(format!("{}.rs", m.module)), m.source.clone())).collect();
        files.push((dir.join("mod.rs"), self.mod_rs()));
        let existing: Vec<String> =
            files.iter().filter(|(p, _)| p.exists()).map(|(p, _)| p.display().to_string()).collect();
        if !existing.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "nothing written: these files exist already, and a pull replaces none: {}",
                    existing.join(", ")
                ),
            ));
        }
        std::fs::create_dir_all(dir)?;
        let mut written = Vec::with_capacity(files.len());
        for (path, source) in &files {
            if let Err(e) = write_new(path, source) {
                for done in &written {
                    let _ = std::fs::remove_file(done);
                }
                return Err(io::Error::new(e.kind(), format!("{}: {e}; nothing is left written", path.display())));
            }
            written.push(path.clone());
        }
        Ok(written)
    }

    /// The `mod.rs` declaring every pulled module.
    fn mod_rs(&self) -> String {
        let mut out = format!("//! Models pulled by odm from the database `{}`.\n\n", self.database);
        let mut modules: Vec<&str> = self.models.iter().map(|m| m.module.as_str()).collect();
        modules.sort_unstable();
        for module in modules {
            out.push_str(&format!("pub mod {module};\n"));
        }
        out
    }
}

/// Writes a file that must not exist yet (`create_new`, so one made meanwhile by another program is not replaced).
fn write_new(path: &Path, text: &str) -> io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

impl fmt::Display for PullReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for model in &self.models {
            let embedded = match model.embedded.len() {
                0 => String::new(),
                n => format!(" and {n} embedded type(s)"),
            };
            writeln!(f, "{}.{}: {}.rs, `{}`{embedded}", self.database, model.collection, model.module, model.model)?;
            for note in &model.notes {
                let at = if note.path.is_empty() { String::new() } else { format!(" `{}`", note.path) };
                writeln!(f, "  [{}]{at}: {}", note.rule, note.message)?;
            }
        }
        for refused in &self.unpullable {
            writeln!(f, "{}.{}: no model: {}", self.database, refused.collection, refused.reason)?;
        }
        for name in &self.missing {
            writeln!(f, "{}.{name}: no such collection", self.database)?;
        }
        Ok(())
    }
}
