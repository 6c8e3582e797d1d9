//! `odm::subset` with the driver: a push that keeps what it cuts, and reading the overflow.

mod push;
mod read;

pub use push::{PushKeeping, Pushed};
pub use read::overflow_of;
