//! The connection checklist: settings of the connection that contradict what the models need, found at startup
//! rather than in production.
//!
//! Each item is a [`ConnectionWarning`] whose text says what is wrong and what to change:
//!
//! - **a standalone server** ([`ConnectionWarning::Standalone`]): `hello` names no replica set and the server is no
//!   `mongos`, so transactions and change streams are refused, and there is no failover; the models that declare
//!   what only a replica set gives (a `majority` write or read concern, a `linearizable` or `snapshot` read, a read
//!   preference other than `primary`) are named;
//! - **the pool size left at the driver's default** of 10 connections per server (no `maxPoolSize`: size the pool
//!   for the service and for what the server can hold across its replicas) ([`ConnectionWarning::PoolSizeDefault`]);
//! - **a read preference of the connection that contradicts a model's** `read_preference`
//!   ([`ConnectionWarning::ReadPreferenceContradicts`]);
//! - **unacknowledged writes** (`w=0`) for models that set no write concern of their own: odm could report no
//!   matched count, conflict or refusal of their writes ([`ConnectionWarning::UnacknowledgedWrites`]);
//! - **retryable writes off** (`retryWrites=false`; the driver retries once by default)
//!   ([`ConnectionWarning::RetryWritesOff`]).
//!
//! What the server is, odm asks it (`hello`); what the connection says, it reads from the client's options. The
//! driver does not show a built `Client`'s pool size nor `retryWrites`, so those two are checked only when the
//! options the client was built from are given; otherwise the list says they were not checked
//! ([`ConnectionWarning::OptionsNotGiven`]).
//!
//! Every [`SchemaSync`](crate::SchemaSync) report lists them ([`SyncReport::connection`](crate::sync::SyncReport)), in
//! every mode, and logs each as a `tracing` warning (target `odm::connection`; that the options were not given, at
//! `INFO`); [`Checklist`] runs them alone:
//!
//! ```no_run
//! # #[derive(odm::Model, serde::Serialize, serde::Deserialize)]
//! # #[odm(collection = "shop_order", write_concern(w = "majority"))]
//! # struct Order { #[serde(rename = "n")] name: String }
//! # async fn demo() -> odm::error::Result<()> {
//! use odm::mongodb::{options::ClientOptions, Client};
//! let options = ClientOptions::parse("mongodb://db1,db2,db3/?replicaSet=rs0&maxPoolSize=50").await?;
//! let client = Client::with_options(options.clone())?;
//! for warning in odm::connection::Checklist::new(&client).options(&options).model::<Order>().await? {
//!     eprintln!("connection: {warning}");
//! }
//! // The same list, in the sync report.
//! let report = odm::SchemaSync::new(&client).client_options(&options).model::<Order>().await?;
//! assert!(report.connection.iter().all(|w| !matches!(w, odm::connection::ConnectionWarning::OptionsNotGiven)));
//! # Ok(()) }
//! ```

pub use crate::base::connection::{ConnectionWarning, DRIVER_DEFAULT_POOL_SIZE};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::connection::Checklist;
