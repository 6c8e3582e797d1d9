//! The connection checklist's items as data ([`ConnectionWarning`]), driver-free because the sync report carries them.
//! Running the checklist is `crate::driver::connection`. Users read the docs at `odm::connection` (src/connection.rs).

use crate::base::model::ReadPreferenceMode;
use std::fmt;

/// The driver's pool size when `maxPoolSize` is not set (`ClientOptions::max_pool_size`: "The default value is
/// 10").
pub const DRIVER_DEFAULT_POOL_SIZE: u32 = 10;

/// One setting of the connection that contradicts what the models need (see the [module docs](crate::connection)).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConnectionWarning {
    /// The server is a standalone `mongod`: no transactions, no change streams, no failover.
    Standalone {
        /// The models that declare what only a replica set gives, each with what it declares.
        needing: Vec<(&'static str, String)>,
    },
    /// `maxPoolSize` is not set: each server gets the driver's default pool.
    PoolSizeDefault {
        /// The driver's default ([`DRIVER_DEFAULT_POOL_SIZE`]).
        default: u32,
    },
    /// The connection's read preference is not the one a model declares.
    ReadPreferenceContradicts {
        /// The model (its Rust type).
        model: &'static str,
        /// What the model declares.
        declared: ReadPreferenceMode,
        /// What the connection asks for.
        connection: ReadPreferenceMode,
    },
    /// The connection writes with `w: 0`, and these models set no write concern of their own.
    UnacknowledgedWrites {
        /// The models whose writes go unacknowledged (their Rust types); empty when no model was given.
        models: Vec<&'static str>,
    },
    /// Retryable writes are off (`retryWrites=false`).
    RetryWritesOff,
    /// The pool size and `retryWrites` were not checked: the client's options were not given.
    OptionsNotGiven,
}

impl fmt::Display for ConnectionWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnectionWarning::Standalone { needing } => {
                f.write_str(
                    "the server is a standalone mongod (`hello` names no replica set): transactions and change \
                     streams need a replica set, and a standalone has no failover",
                )?;
                if !needing.is_empty() {
                    let named: Vec<String> = needing.iter().map(|(m, why)| format!("`{m}` ({why})")).collect();
                    write!(f, "; {} declare(s) what only a replica set gives", named.join(", "))?;
                }
                f.write_str(
                    ". Connect to a replica set (`replicaSet=` in the connection string), or run one (a single-node \
                     replica set will do for development)",
                )
            }
            ConnectionWarning::PoolSizeDefault { default } => write!(
                f,
                "the connection pool is left at the driver's default of {default} connections per server \
                 (`maxPoolSize` is not set): set `maxPoolSize` in the connection string to what this service needs \
                 and the server can hold for all its replicas"
            ),
            ConnectionWarning::ReadPreferenceContradicts { model, declared, connection } => write!(
                f,
                "model `{model}` declares read preference `{}` but the connection asks for `{}`: odm reads the model \
                 with its own, every other read of this client goes by the connection's; make them agree \
                 (`readPreference=` in the connection string, or the model's `read_preference`)",
                declared.as_str(),
                connection.as_str()
            ),
            ConnectionWarning::UnacknowledgedWrites { models } => {
                f.write_str("the connection writes with `w: 0` (unacknowledged)")?;
                if !models.is_empty() {
                    let named: Vec<String> = models.iter().map(|m| format!("`{m}`")).collect();
                    write!(f, " and {} set(s) no write concern of its own", named.join(", "))?;
                }
                f.write_str(
                    ": no matched count, conflict, duplicate key or validator refusal of such a write is ever \
                     reported; remove `w=0` from the connection string, or give the models a `write_concern`",
                )
            }
            ConnectionWarning::RetryWritesOff => f.write_str(
                "retryable writes are off (`retryWrites=false`): a write cut by a failover or a network error fails \
                 instead of being retried once; remove `retryWrites=false` from the connection string",
            ),
            ConnectionWarning::OptionsNotGiven => f.write_str(
                "the pool size and `retryWrites` were not checked: the driver does not show them on a client; give \
                 the options the client was built from (`SchemaSync::client_options`, `Checklist::options`)",
            ),
        }
    }
}
