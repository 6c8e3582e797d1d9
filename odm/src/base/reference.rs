//! Extended references as declared: the `Copies` and `HoldsReferences` traits the derive implements (`traits`) and the
//! const checks that a copy fits its source (`fit`). Propagating and repairing copies is `crate::driver::reference`.
//! Users read the docs at `odm::reference` (src/reference.rs).

pub(crate) mod fit;
pub(crate) mod traits;

#[doc(hidden)]
pub use fit::{copy_fits, id_fits, misfit};
pub use traits::{Copies, HoldsReferences};
