//! Rust models written from what a collection's documents hold (`ModelWriter`, driver-free); pulling them from a
//! live database is `crate::driver::pull`. Users read the docs at `odm::pull` (src/pull.rs).

mod emit;
mod layout;
mod names;
mod plan;
mod report;
mod text;
mod tree;
mod versioned;
mod writer;

pub use report::{Note, PulledModel, Unpullable};
pub use text::{date_from_text, number_from_text, optional_date_from_text, optional_number_from_text};
pub use writer::ModelWriter;
