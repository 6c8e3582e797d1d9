//! `odm::reference` with the driver: propagating a source's change to its copies, and repairing stale copies.

mod keys;
mod propagate;
mod repair;

pub use propagate::Propagate;
pub use repair::Repair;
