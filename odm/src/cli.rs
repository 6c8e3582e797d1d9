//! The operator's command line, inside the application: one call from the application's own admin binary (its
//! models compiled in) gives a DBA or an operator subcommands to review, sync, check, migrate, dump and restore the
//! collections, without writing a program. Needs the feature `cli` (which turns on `driver` and `backup`).
//!
//! ```no_run
//! // src/bin/admin.rs of the application
//! # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(db = "shop", collection = "order_header")]
//! # struct Order { #[serde(rename = "n")] name: String }
//! # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(db = "shop", collection = "log_order_event", capped(size = 1048576))]
//! # struct OrderEvent { #[serde(rename = "n")] name: String }
//! #[tokio::main]
//! async fn main() -> odm::cli::Exit {
//!     odm::cli::Admin::new("shop-admin").model::<Order>().model::<OrderEvent>().await
//! }
//! ```
//!
//! ```text
//! shop-admin --uri mongodb://db1.example:27017 verify
//! shop-admin apply --stale hide
//! shop-admin export --mongosh plan.js --plan-json plan.json
//! shop-admin check --model Order --json
//! ```
//!
//! # Subcommands
//!
//! | subcommand | what it does                                                                                      |
//! |------------|---------------------------------------------------------------------------------------------------|
//! | `plan`     | prints what a sync would change (the [`Plan`](crate::sync::plan::Plan)); changes nothing            |
//! | `verify`   | read only ([`SyncMode::Verify`](crate::SyncMode::Verify)): exits with [`exit::DRIFT`] when the database differs              |
//! | `apply`    | [`SyncMode::Apply`](crate::SyncMode::Apply) (`--create-missing`: [`SyncMode::CreateMissing`](crate::SyncMode::CreateMissing)); `--stale keep\|hide\|drop` for indexes odm created that no model declares, `--rollout staged\|direct` for changed validators |
//! | `export`   | `--mongosh FILE` the plan as a mongosh script, `--plan-json FILE` as JSON (`-`: standard output)    |
//! | `check`    | the schema checker ([`crate::check`]) on each model's collections: counts and sample `_id`s         |
//! | `migrate`  | each versioned model's batch migration ([`crate::migrate`]); other models have nothing to migrate  |
//! | `list`     | the models: Rust name, `database.collection`, version (no server needed)                           |
//! | `dump`     | `--out DIR [--gzip]`: the models' collections in mongodump's layout ([`crate::backup::Dump`])       |
//! | `restore`  | `--from DIR [--into-db NAME] [--drop-existing] [--bypass-validation]`: a dump, odm's or mongodump's ([`crate::backup::Restore`]): everything in it (of `--db`'s database when given), or the `--model` ones |
//! | `expire`   | `[--dry-run]`: drops the collections of the periods each model's retention (`keep_periods`) has expired ([`crate::collection::drop_expired`]), never a collection its name template does not name; other models have nothing to expire |
//! | `audit`    | `[--collection NAME]... [--read-all-up-to N] [--sample N]`: the database (`--db`'s, or the models') checked against the rules whoever wrote it ([`crate::audit`]): every finding by rule id with its count and sample `_id`s; exits with [`exit::FINDINGS`] on any |
//! | `pull`     | `--out DIR [--versioned] [--collection NAME]... [--read-all-up-to N] [--sample N]`: a Rust model per collection of the database (`--db`'s, or the models'), read from its documents ([`crate::pull`]), saved as `DIR/<module>.rs` and `DIR/mod.rs` (`--versioned`: each as version 2 following the rules, the shape as found as version 1, and the step between them); all or nothing: no file replaced, and nothing written when a collection cannot be modelled or is absent ([`exit::NOT_PULLED`]) |
//!
//! `plan`, `verify`, `apply` and `export` also take `--topology detect|sharded|not-sharded` and `--periods N` (for a
//! model with one collection per period, also this period's collection and the N-1 after it: `apply` creates a
//! missing one, `verify` reports it as drift); `check` takes `--samples N` and `--batch-size N`; `migrate` takes
//! `--batch-size N`, `--docs-per-second RATE` or `--pause-ms MS`, and `--guard document|version`.
//!
//! Every subcommand takes the global options, before or after its name: `--uri URI` (else the `MONGODB_URI`
//! environment variable; with neither, an error says to set one; a malformed one is a usage error naming it), `--db
//! NAME` (every selected model's database instead of the one it names; needed for models that name none), `--model
//! NAME` (a model by its Rust type name, repeatable; default all), `--timeout SECONDS` (the longest to wait to reach
//! the server, and for a sync to finish; default: the connection string's server selection timeout, and 600 s for a
//! sync), `--json` (one JSON document on standard output, with `command` and `exitCode`, instead of text; errors
//! too) and `--quiet` (no report, no progress; errors are still printed). The plan's JSON file of `export` is
//! `--plan-json`, so that `--json` means the same everywhere. `--version` prints the application's version
//! ([`Admin::version`]) beside odm's.
//!
//! `check`, `migrate`, `dump` and `restore` show progress only where a person watches: a bar on standard error when
//! it is a terminal, a plain line every few seconds when it is not, nothing under `--json` or `--quiet`; the rate and
//! time left are computed from the time that has passed. Standard output carries only the report.
//!
//! # Exit codes
//!
//! One constant each in [`exit`], fit for CI:
//!
//! | code | constant             | meaning                                                                     |
//! |------|----------------------|-----------------------------------------------------------------------------|
//! | 0    | [`exit::OK`]         | done: nothing differs, fails or is left                                      |
//! | 1    | [`exit::ERROR`]      | an error: no connection string, the server unreachable or refusing, a file that cannot be written, a dump that would overwrite one, a restore into a collection holding documents without `--drop-existing` |
//! | 2    | [`exit::USAGE`]      | wrong arguments (clap's usage error; also an unknown `--model`, a malformed `--uri`) |
//! | 3    | [`exit::DRIFT`]      | `verify` found drift, or `apply` left something that still differs          |
//! | 4    | [`exit::FAILING`]    | `check` found stored documents the validator refuses                        |
//! | 5    | [`exit::INCOMPLETE`] | `migrate` left documents at an older version                                |
//! | 6    | [`exit::NOTHING_DUMPED`] | `dump` selected nothing on the server (the database, or every selected model's collection, absent): nothing written, no directory made |
//!
//! Errors are printed as odm's readable messages ([`Error`](crate::Error)'s `Display`) on standard error, naming the
//! flags the operator typed (`--drop-existing`, not the library's `drop_existing()`). The server is reached once
//! before any work; when it cannot be within `--timeout`, the message says what to check, and the driver's
//! description of the servers it tried is the JSON document's `detail`.

mod args;
mod audit;
mod backup;
mod check;
pub mod exit;
mod expire;
mod failure;
mod list;
mod message;
mod migrate;
mod models;
mod output;
mod progress;
mod pull;
mod server;
mod sync;

use crate::base::model::Model;
use args::{Cli, Command};
use clap::FromArgMatches;
use failure::Failure;
use models::Entry;
use output::{Done, Printer};
use server::Server;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::time::Duration;

/// An application's admin command line: its name and the models it manages (see the [module docs](self)).
#[must_use = "an `Admin` does nothing until it is awaited"]
pub struct Admin {
    program: String,
    version: Option<String>,
    entries: Vec<Entry>,
    args: Option<Vec<OsString>>,
}

impl Admin {
    /// A command line named `program` (as its help and usage errors show it), managing no model yet.
    pub fn new(program: impl Into<String>) -> Self {
        Admin { program: program.into(), version: None, entries: Vec::new(), args: None }
    }

    /// The application's version, which `--version` prints beside odm's: usually `env!("CARGO_PKG_VERSION")` of
    /// the admin binary's package. Without it, `--version` prints odm's alone.
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.version = Some(version.into());
        self
    }

    /// Adds model `M`, which `--model` names by its Rust type name (`Order`).
    pub fn model<M: Model>(mut self) -> Self {
        self.entries.push(Entry::of::<M>());
        self
    }

    /// Parses `args` instead of the process's arguments ([`std::env::args_os`]): the program name first, as
    /// `args_os` gives it. For tests, or an application that runs the admin from its own command line.
    pub fn args<I, T>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString>,
    {
        self.args = Some(args.into_iter().map(Into::into).collect());
        self
    }

    /// Parses the arguments, runs the subcommand, prints its report and returns its exit code.
    async fn code(self) -> u8 {
        let args = match &self.args {
            Some(args) => args.clone(),
            None => std::env::args_os().collect(),
        };
        let odm = concat!("odm-mongo ", env!("CARGO_PKG_VERSION"));
        let version = match &self.version {
            Some(app) => format!("{app} ({odm})"),
            None => format!("(built with {odm})"),
        };
        let mut command = args::command().name(self.program.clone()).bin_name(self.program.clone()).version(version);
        let cli = match command.try_get_matches_from_mut(args).and_then(|m| Cli::from_arg_matches(&m)) {
            Ok(cli) => cli,
            Err(e) => {
                // `--help` and `--version` come here too, with code 0; usage errors with clap's 2.
                let _ = e.print();
                return u8::try_from(e.exit_code()).unwrap_or(exit::ERROR);
            }
        };
        let printer = Printer { json: cli.global.json, quiet: cli.global.quiet };
        let name = subcommand_name(&cli.command);
        match self.execute(&cli).await {
            Ok(done) => {
                let code = done.code;
                printer.report(name, done);
                code
            }
            Err(Failure::Odm(e)) => {
                let code = exit::of_error(&e);
                let (message, detail) = message::of(&e, cli.global.timeout.map(Duration::from_secs));
                let mut fields = output::error_fields(&e);
                if let Some(detail) = detail {
                    // The driver's description of the servers it tried, kept out of the message.
                    fields.insert("detail".into(), detail.into());
                }
                printer.error_with(name, code, &message, fields);
                code
            }
            Err(Failure::Message(message)) => {
                printer.error(name, exit::ERROR, &message);
                exit::ERROR
            }
            Err(Failure::Usage(message)) => {
                if printer.json {
                    printer.json_error(name, exit::USAGE, &message);
                }
                // clap's layout for usage errors: the message, the usage line, where to find help.
                let _ = command.error(clap::error::ErrorKind::InvalidValue, message).print();
                exit::USAGE
            }
        }
    }

    /// Runs the parsed command line.
    async fn execute(&self, cli: &Cli) -> Result<Done, Failure> {
        let global = &cli.global;
        let entries = models::select(&self.entries, &global.models)?;
        let db = global.db.as_deref();
        if let Command::List = cli.command {
            return Ok(list::list(&entries, db));
        }
        if let Command::Export(export) = &cli.command {
            let to_stdout = [&export.mongosh, &export.plan_json].into_iter().flatten().filter(|p| sync::is_stdout(p));
            let to_stdout = to_stdout.count();
            if to_stdout > 1 {
                return Err(Failure::Usage(
                    "the script and the JSON cannot both go to standard output (`-`): give one a file name".to_owned(),
                ));
            }
            if global.json && to_stdout > 0 {
                return Err(Failure::Usage(
                    "`--json` prints the report on standard output, where `-` would write the plan too: give \
                     `export` file names, or leave out `--json`"
                        .to_owned(),
                ));
            }
        }
        let server = Server::connect(global.uri.as_deref(), global.timeout.map(Duration::from_secs)).await?;
        let client = &server.client;
        let display = progress::Display::choose(global.quiet, global.json, std::io::stderr().is_terminal());
        let done = match &cli.command {
            Command::Plan(args) => sync::plan(&server, &entries, db, args).await,
            Command::Verify(args) => sync::verify(&server, &entries, db, args).await,
            Command::Apply(args) => sync::apply(&server, &entries, db, args).await,
            Command::Export(args) => sync::export(&server, &entries, db, args).await,
            Command::Check(args) => check::check(client, &entries, db, args, display).await,
            Command::Migrate(args) => migrate::migrate(client, &entries, db, args, display).await,
            Command::List => Ok(list::list(&entries, db)),
            Command::Dump(args) => backup::dump(client, &entries, db, args, display).await,
            Command::Restore(args) => {
                backup::restore(client, &entries, !global.models.is_empty(), db, args, display).await
            }
            Command::Expire(args) => expire::expire(client, &entries, db, args).await,
            Command::Audit(args) => audit::audit(client, &entries, db, args, display).await,
            Command::Pull(args) => pull::pull(client, &entries, db, args, display).await,
        };
        server.close().await;
        done
    }
}

impl std::future::IntoFuture for Admin {
    type Output = Exit;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Exit> + Send>>;

    /// Parses the arguments (the process's, or those given to [`Admin::args`]), runs the subcommand, prints its
    /// report and gives its exit code, for `main` to return.
    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move { Exit(self.code().await) })
    }
}

/// How an [`Admin`] run ended: its exit code (one of [`exit`]'s constants). `main` returns it as it is
/// (it is a [`Termination`](std::process::Termination)); [`Exit::code`] gives the number to a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "return it from `main`, or look at its `code()`"]
pub struct Exit(u8);

impl Exit {
    /// The exit code: [`exit::OK`], [`exit::DRIFT`], ….
    pub fn code(self) -> u8 {
        self.0
    }
}

impl std::process::Termination for Exit {
    fn report(self) -> std::process::ExitCode {
        std::process::ExitCode::from(self.0)
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit.0)
    }
}

/// The subcommand's name, as the JSON document's `command` gives it.
fn subcommand_name(command: &Command) -> &'static str {
    match command {
        Command::Plan(_) => "plan",
        Command::Verify(_) => "verify",
        Command::Apply(_) => "apply",
        Command::Export(_) => "export",
        Command::Check(_) => "check",
        Command::Migrate(_) => "migrate",
        Command::List => "list",
        Command::Dump(_) => "dump",
        Command::Restore(_) => "restore",
        Command::Expire(_) => "expire",
        Command::Audit(_) => "audit",
        Command::Pull(_) => "pull",
    }
}
