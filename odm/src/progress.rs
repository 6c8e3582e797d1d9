//! How far a long job has come: the one [`Progress`] type the schema checker ([`SchemaCheck::on_progress`]), the
//! migration ([`Migration::on_progress`]), and a dump or a restore (`odm::backup`, feature `backup`) give their
//! callbacks, with its rate, time left and fraction done.
//!
//! [`SchemaCheck::on_progress`]: crate::check::SchemaCheck::on_progress
//! [`Migration::on_progress`]: crate::migrate::Migration::on_progress

pub use crate::base::progress::Progress;
