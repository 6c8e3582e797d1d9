//! Why a subcommand did not finish, which decides its exit code and how it is printed.

use crate::base::error::Error;

/// Why a subcommand did not finish.
pub(super) enum Failure {
    /// An error of odm or the server: exit code 1.
    Odm(Error),
    /// An error the command line found (no connection string, a file it cannot write): exit code 1.
    Message(String),
    /// Arguments clap accepted but the command line cannot use (an unknown model): exit code 2.
    Usage(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Odm(e)
    }
}
