//! The driver layer (feature `driver`): what talks to a server. Each topic here is named as its driver-free half in
//! `crate::base` is, and `odm::<topic>` shows both.

pub mod aggregate;
pub mod audit;
pub mod bucket;
pub mod bulk;
pub mod check;
pub mod collection;
pub mod connection;
pub mod error;
pub mod introspect;
pub mod live;
pub mod migrate;
pub mod observe;
pub mod progress;
pub mod pull;
pub mod reference;
pub mod session;
pub mod subset;
pub mod sync;
pub mod to_driver;
pub mod transaction;
pub mod update;
pub mod version;
pub mod watch;
