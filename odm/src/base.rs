//! The driver-free layer: what odm is with `bson` and `serde` alone (models, validators, index specs, typed paths,
//! filters, updates, diffs, pipelines, the sync plan, errors). Nothing here names `crate::driver`, and the compiler
//! holds it to that: this layer builds without the `driver` feature. docs/layout.md orders its topics.

pub mod aggregate;
pub mod bucket;
pub mod codec;
pub mod computed;
pub mod connection;
pub mod counters;
pub mod diff;
pub(crate) mod document;
pub mod error;
pub mod explain;
pub mod failing_path;
pub mod filter;
pub mod impls;
pub mod index;
pub mod introspect;
pub mod keys;
pub mod kind;
pub mod meta;
pub mod migrate;
pub mod model;
pub mod operator;
pub mod path;
pub mod plan;
pub mod progress;
pub mod pull;
pub mod reference;
pub mod schema;
pub mod set_element;
pub mod shard;
pub mod size;
pub mod subset;
pub mod sync;
pub mod template;
pub mod text;
pub mod timeseries;
pub mod update;
pub mod validator;
pub mod version;
pub mod view;
