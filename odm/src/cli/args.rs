//! The command line's arguments, as clap parses them: the global options and one struct per subcommand.

use crate::base::migrate::Guard;
use crate::base::plan::StaleHandling;
use crate::base::sync::{Topology, ValidatorRollout};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The whole command line.
#[derive(Parser, Debug)]
#[command(about = "Review, sync, check and migrate the collections of this application's models")]
pub(super) struct Cli {
    /// Options every subcommand takes.
    #[command(flatten)]
    pub global: Global,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand takes (before or after its name), listed apart in each subcommand's help.
#[derive(Args, Debug)]
#[command(next_help_heading = "Global options")]
pub(super) struct Global {
    /// The server's connection string (default: the MONGODB_URI environment variable)
    #[arg(long, global = true, value_name = "URI")]
    pub uri: Option<String>,
    /// The database of every selected model, instead of the one the model names
    #[arg(long, global = true, value_name = "NAME")]
    pub db: Option<String>,
    /// A model to act on, by its Rust type name (repeat for several; default: every model)
    #[arg(long = "model", global = true, value_name = "NAME")]
    pub models: Vec<String>,
    /// Print one JSON document on standard output instead of text
    #[arg(long, global = true)]
    pub json: bool,
    /// Print no report and no progress: the exit code tells the outcome (errors are still printed)
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// The longest to wait, in seconds: to reach the server (server selection and connecting; default: the
    /// connection string's, else 30), and for `plan`, `verify`, `apply` and `export` to finish (default: 600;
    /// index builds on large collections take a while)
    #[arg(long, global = true, value_name = "SECONDS")]
    pub timeout: Option<u64>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// Print what a sync would change, changing nothing
    Plan(SyncArgs),
    /// Read only: exit with code 3 when the database differs from the models
    Verify(SyncArgs),
    /// Bring the database in line with the models (validators, indexes, collections)
    Apply(ApplyArgs),
    /// Write the plan as a mongosh script and/or JSON, for review or to run elsewhere
    Export(ExportArgs),
    /// Find stored documents the models' validators refuse: counts and sample _ids
    Check(CheckArgs),
    /// Store every document of the versioned models at their current version
    Migrate(MigrateArgs),
    /// List the models: Rust name, database.collection, version
    List,
    /// Write the models' collections to a directory in mongodump's layout (documents, options, indexes)
    Dump(DumpArgs),
    /// Restore a dump directory (odm's or mongodump's): everything in it, or the --model ones
    Restore(RestoreArgs),
    /// Drop the collections of periods a model's retention (`keep_periods`) has expired; nothing else
    Expire(ExpireArgs),
    /// Check what a database holds against odm's rules, whoever wrote it: exit with code 7 on findings
    Audit(AuditArgs),
    /// Write a Rust model for each collection of a database, read from its documents, into a directory
    Pull(PullArgs),
}

/// How a sync plans, shared by `plan`, `verify`, `apply` and `export`.
#[derive(Args, Debug, Clone)]
pub(super) struct SyncArgs {
    /// What to do with indexes odm created that no model declares any more (acted on by `apply` only)
    #[arg(long, value_enum, default_value_t = Stale::Keep)]
    pub stale: Stale,
    /// Adopt the indexes named like odm's (`idx_…`) that odm has no record of creating, such as those an odm
    /// release created before it kept records: odm records them as its own, so later syncs may rebuild or drop them.
    /// Review `plan --adopt-indexes` first: a DBA's `idx_…` index is adopted too
    #[arg(long)]
    pub adopt_indexes: bool,
    /// How a changed validator reaches a collection that holds documents
    #[arg(long, value_enum, default_value_t = Rollout::Staged)]
    pub rollout: Rollout,
    /// With `--rollout direct`: apply a validator even when stored documents fail it (they stay, and the report
    /// counts them); without it, a direct rollout leaves such a validator unapplied and exits with the drift code
    #[arg(long)]
    pub tighten_anyway: bool,
    /// Whether to plan for a sharded cluster (`detect`: ask the server)
    #[arg(long, value_enum, default_value_t = TopologyArg::Detect)]
    pub topology: TopologyArg,
    /// For models with one collection per period (`log_app_event_{yyyymm}`): also the current period's collection
    /// and the N-1 after it (0: only the collections that exist)
    // What each subcommand does with a missing one is in its own help: `periods_help`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub periods: u32,
}

/// `--periods`'s help for each subcommand that takes it: what each does with a period's collection that is missing
/// (only `apply` creates one).
fn periods_help(subcommand: &str) -> &'static str {
    match subcommand {
        "verify" => {
            "For models with one collection per period (`log_app_event_{yyyymm}`): also the current period's \
             collection and the N-1 after it, a missing one reported as drift (0: only the collections that exist)"
        }
        "apply" => {
            "For models with one collection per period (`log_app_event_{yyyymm}`): also the current period's \
             collection and the N-1 after it, created when missing (0: only the collections that exist)"
        }
        _ => {
            "For models with one collection per period (`log_app_event_{yyyymm}`): also the current period's \
             collection and the N-1 after it, a missing one planned for creation (0: only the collections that exist)"
        }
    }
}

/// The command line as clap parses it, with the help texts that differ between subcommands sharing an option.
pub(super) fn command() -> clap::Command {
    use clap::CommandFactory;
    ["plan", "verify", "apply", "export"].into_iter().fold(Cli::command(), |command, name| {
        command.mut_subcommand(name, |sub| sub.mut_arg("periods", |arg| arg.help(periods_help(name))))
    })
}

/// `apply`'s arguments.
#[derive(Args, Debug)]
pub(super) struct ApplyArgs {
    /// Only create missing collections and indexes; report every other difference (the safe startup default)
    #[arg(long)]
    pub create_missing: bool,
    /// How the sync plans.
    #[command(flatten)]
    pub sync: SyncArgs,
}

/// `export`'s arguments.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("output").required(true).multiple(true).args(["mongosh", "plan_json"]))]
pub(super) struct ExportArgs {
    /// Write the plan as a mongosh script to FILE (`-`: standard output)
    #[arg(long, value_name = "FILE")]
    pub mongosh: Option<PathBuf>,
    /// Write the plan as JSON to FILE (`-`: standard output)
    #[arg(long, value_name = "FILE")]
    pub plan_json: Option<PathBuf>,
    /// How the sync plans.
    #[command(flatten)]
    pub sync: SyncArgs,
}

/// `check`'s arguments.
#[derive(Args, Debug, Clone)]
pub(super) struct CheckArgs {
    /// Sample _ids kept per finding
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub samples: usize,
    /// Documents read per batch
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub batch_size: usize,
}

/// `audit`'s arguments.
#[derive(Args, Debug, Clone)]
pub(super) struct AuditArgs {
    #[command(flatten)]
    pub survey: SurveyArgs,
}

/// What `audit` and `pull` read of a database: which collections, and how many documents of each.
#[derive(Args, Debug, Clone)]
pub(super) struct SurveyArgs {
    /// A collection to read (repeat for several; default: every collection of the database)
    #[arg(long = "collection", value_name = "NAME")]
    pub collections: Vec<String>,
    /// Collections of at most this many documents are read whole; larger ones are sampled
    #[arg(long, value_name = "N", default_value_t = crate::driver::introspect::READ_ALL_UP_TO)]
    pub read_all_up_to: u64,
    /// Documents sampled from a collection too large to read whole
    #[arg(long, value_name = "N", default_value_t = crate::driver::introspect::SAMPLE)]
    pub sample: u64,
}

/// `pull`'s arguments.
#[derive(Args, Debug, Clone)]
pub(super) struct PullArgs {
    /// The directory the models are written to (created if needed; no file in it is replaced)
    #[arg(long, value_name = "DIR")]
    pub out: std::path::PathBuf,
    /// Write each model as version 2, following the rules where the data allows, with the shape as found as
    /// version 1 and the step between them
    #[arg(long)]
    pub versioned: bool,
    #[command(flatten)]
    pub survey: SurveyArgs,
}

/// `expire`'s arguments.
#[derive(Args, Debug, Clone)]
pub(super) struct ExpireArgs {
    /// List the collections that would be dropped, dropping none
    #[arg(long)]
    pub dry_run: bool,
}

/// `migrate`'s arguments.
#[derive(Args, Debug, Clone)]
pub(super) struct MigrateArgs {
    /// Documents read and written per batch
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub batch_size: usize,
    /// At most this many documents per second on average, to spare a busy primary
    #[arg(long, value_name = "RATE", conflicts_with = "pause_ms")]
    pub docs_per_second: Option<f64>,
    /// A pause after every batch, in milliseconds
    #[arg(long, value_name = "MS")]
    pub pause_ms: Option<u64>,
    /// How each rewrite makes sure the document did not change since it was read
    #[arg(long, value_enum, default_value_t = GuardArg::Document)]
    pub guard: GuardArg,
}

/// `dump`'s arguments.
#[derive(Args, Debug)]
pub(super) struct DumpArgs {
    /// The directory to write (`<DIR>/<db>/<collection>.bson` and `.metadata.json`); existing files are never
    /// overwritten
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Compress the files with gzip, named as `mongodump --gzip` names them
    #[arg(long)]
    pub gzip: bool,
    /// Documents per server reply
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub batch_size: usize,
}

/// `restore`'s arguments.
#[derive(Args, Debug)]
pub(super) struct RestoreArgs {
    /// The dump directory
    #[arg(long = "from", value_name = "DIR")]
    pub from: PathBuf,
    /// Restore into this database instead of the one each collection was dumped from
    #[arg(long, value_name = "NAME")]
    pub into_db: Option<String>,
    /// Drop and recreate a target collection that exists (without it, one holding documents is refused)
    #[arg(long)]
    pub drop_existing: bool,
    /// Insert past the collections' validators, as the documents were stored
    #[arg(long)]
    pub bypass_validation: bool,
    /// Documents per insert command
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub batch_size: usize,
}

/// `--stale`.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub(super) enum Stale {
    /// Report them, leave them alone
    Keep,
    /// Hide them from the query planner (reversible)
    Hide,
    /// Drop them
    Drop,
}

impl From<Stale> for StaleHandling {
    fn from(s: Stale) -> Self {
        match s {
            Stale::Keep => StaleHandling::Keep,
            Stale::Hide => StaleHandling::Hide,
            Stale::Drop => StaleHandling::Drop,
        }
    }
}

/// `--rollout`.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub(super) enum Rollout {
    /// Apply as moderate/warn, tighten only when no stored document fails it
    Staged,
    /// Apply the model's validator, level and action at once, unless stored documents fail it (see
    /// --tighten-anyway)
    Direct,
}

impl From<Rollout> for ValidatorRollout {
    fn from(r: Rollout) -> Self {
        match r {
            Rollout::Staged => ValidatorRollout::Staged,
            Rollout::Direct => ValidatorRollout::Direct,
        }
    }
}

/// `--topology`.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub(super) enum TopologyArg {
    /// Ask the server, when a model declares a shard key
    Detect,
    /// Plan as for a sharded cluster (to export a cluster's plan from elsewhere)
    Sharded,
    /// Plan as for a server that is not a cluster
    NotSharded,
}

impl From<TopologyArg> for Topology {
    fn from(t: TopologyArg) -> Self {
        match t {
            TopologyArg::Detect => Topology::Detect,
            TopologyArg::Sharded => Topology::Sharded,
            TopologyArg::NotSharded => Topology::NotSharded,
        }
    }
}

/// `--guard`.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub(super) enum GuardArg {
    /// The whole document as read: exact against any writer
    Document,
    /// The version it was read at: exact when every writer runs this release or a newer one; cheaper
    Version,
}

impl From<GuardArg> for Guard {
    fn from(g: GuardArg) -> Self {
        match g {
            GuardArg::Document => Guard::Document,
            GuardArg::Version => Guard::Version,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// clap's own consistency checks (no two arguments with one name, defaults that parse, groups naming real
    /// arguments), which it otherwise runs only when a command line is parsed in a debug build.
    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn global_options_go_before_or_after_the_subcommand() {
        let before = Cli::try_parse_from(["admin", "--json", "--model", "Order", "check"]).unwrap();
        let after = Cli::try_parse_from(["admin", "check", "--model", "Order", "--json"]).unwrap();
        for cli in [before, after] {
            assert!(cli.global.json);
            assert_eq!(cli.global.models, ["Order"]);
            assert!(matches!(cli.command, Command::Check(CheckArgs { samples: 5, batch_size: 1000 })));
        }
    }
}
