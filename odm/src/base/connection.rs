//! The connection checklist's items as data (`ConnectionWarning`), driver-free because the sync report carries them.
//! Running the checklist is `crate::driver::connection`. Users read the docs at `odm::connection` (src/connection.rs).

mod warning;

pub use warning::{ConnectionWarning, DRIVER_DEFAULT_POOL_SIZE};
