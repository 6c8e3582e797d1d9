//! Rust models for a database that already exists: one module per collection, written from what its documents hold,
//! that reads every document as it is stored.
//!
//! [`ModelWriter`] writes one model from a [`Shape`](crate::introspect::Shape) (driver-free); [`Pull`] surveys a
//! live database's collections and writes a model for each (feature `driver`), and `admin pull --out DIR` saves them
//! as files. The models compile under odm's rules as they are: where the data breaks one, the code says so with the
//! opt-out the rule allows and a comment naming the rule and the numbers, so a reviewer sees every exception, and a
//! second, rule-following version of the model takes the data the rest of the way: [`ModelWriter::versioned`] writes
//! it as version 2 beside the shape as found, with the step between them, for `migrate` to run
//! ([the adoption guide](crate::guide::existing_database)).

pub use crate::base::pull::{
    date_from_text, number_from_text, optional_date_from_text, optional_number_from_text, ModelWriter, Note,
    PulledModel, Unpullable,
};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::pull::{Pull, PullReport};
