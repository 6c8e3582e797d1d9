//! Collections named at run time: a model whose collection name holds one placeholder,
//! `#[odm(collection = "log_app_event_{yyyymm}")]`, stores its documents in one collection per period (or per
//! name given at run time, `{name}`: a tenant), each created with the model's validator and indexes.
//!
//! The derive checks the template's fixed text by the naming rules and fills [`crate::Model::TEMPLATE`]; this
//! module names an instance ([`NameTemplate::name_of`]), recognises the live ones exactly
//! ([`NameTemplate::parse`]: a name that does not match the template, digit for digit and with a real date, is never
//! taken for an instance) and tells which periods a retention of `keep_periods` has expired
//! ([`NameTemplate::expired`]). Opening, listing, dropping and syncing instances talk to the server
//! ([`crate::collection::Collection::instance`], [`crate::collection::instances`],
//! [`crate::collection::drop_expired`], [`crate::sync::SchemaSync::instance`]).
//!
//! Periods are calendar periods in UTC: `{yyyy}` a year, `{yyyymm}` a month, `{yyyymmdd}` a day.

pub use crate::base::template::{Instance, InstanceKey, InstanceKeyError, NameTemplate, Placeholder};
