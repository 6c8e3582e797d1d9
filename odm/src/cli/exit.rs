//! The exit codes of the command line, one constant each, so a CI job can tell drift from a failed connection.
//!
//! | code | constant        | meaning                                                                          |
//! |------|-----------------|----------------------------------------------------------------------------------|
//! | 0    | [`OK`]          | done; nothing differs, fails or is left                                          |
//! | 1    | [`ERROR`]       | an error: no connection string, the server unreachable or refusing, a file unwritable, a dump or restore refused |
//! | 2    | [`USAGE`]       | the arguments are wrong (clap's own code for usage errors)                       |
//! | 3    | [`DRIFT`]       | `verify` found drift, or `apply` left something that still differs               |
//! | 4    | [`FAILING`]     | `check` found stored documents the validator refuses                             |
//! | 5    | [`INCOMPLETE`]  | `migrate` left documents at an older version (failed or still changing)          |
//! | 6    | [`NOTHING_DUMPED`] | `dump` selected nothing on the server (a database or every model's collection absent): nothing written |
//! | 7    | [`FINDINGS`]    | `audit` found something that breaks a rule, or a collection asked for is not there |
//! | 8    | [`NOT_PULLED`]  | `pull` wrote nothing: a collection asked for is not there, or one has no model (named, with why) |

/// Done: nothing differs, fails or is left.
pub const OK: u8 = 0;
/// An error: no connection string, the server unreachable or refusing a command, a file that cannot be written, a
/// dump refused (it would overwrite a file) or a restore refused (a collection holding documents, a document the
/// validator refuses).
pub const ERROR: u8 = 1;
/// The arguments are wrong: an unknown subcommand, option or model, a missing value, a malformed `--uri` (clap's code
/// for usage errors).
pub const USAGE: u8 = 2;
/// `verify` found the database differing from the models, or `apply` left something that still differs (a conflict
/// with an index odm does not own, a validator the mode did not allow it to change).
pub const DRIFT: u8 = 3;
/// `check` found stored documents that the model's validator refuses.
pub const FAILING: u8 = 4;
/// `migrate` left documents at an older version: they failed to migrate, or kept changing under it.
pub const INCOMPLETE: u8 = 5;
/// `dump` selected no collection the server holds: the database (`--db`) is empty or not there, or every selected
/// model's collection is absent. Nothing was written and no directory was made; the absent ones are named.
pub const NOTHING_DUMPED: u8 = 6;
/// `audit` found something that breaks a rule (each finding names its rule id), or a `--collection` asked for is not
/// in the database.
pub const FINDINGS: u8 = 7;
/// `pull` wrote nothing, since it could not do all it was asked: a `--collection` is not in the database, or a
/// collection's documents cannot be modelled (a top-level key with `$` or `.`, a time-series collection); the report
/// names each with why. Pull the others with `--collection`.
pub const NOT_PULLED: u8 = 8;

/// The exit code of an odm error: [`NOTHING_DUMPED`] for a dump that selected nothing, else [`ERROR`].
pub(super) fn of_error(e: &crate::base::error::Error) -> u8 {
    match e {
        crate::base::error::Error::Backup(b)
            if matches!(**b, crate::base::error::BackupError::NothingToDump { .. }) =>
        {
            NOTHING_DUMPED
        }
        _ => ERROR,
    }
}
