//! `odm::connection` with the driver: reading a client's settings and checking them against the models.

mod assess;
pub(crate) mod check;

pub(crate) use assess::{assess, Settings};
pub use check::Checklist;
