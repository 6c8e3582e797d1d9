//! Surveying stored documents path by path (`Survey`, `Shape`): driver-free, so documents read any way can be
//! surveyed; reading a live database's collections into one is `crate::driver::introspect`. Users read the docs at
//! `odm::introspect` (src/introspect.rs).

mod bounds;
mod lengths;
mod strings;
mod survey;

pub(crate) use bounds::{type_alias, validator_max_items};
pub use lengths::Lengths;
pub use survey::{CounterPair, MapKeys, PathShape, Seen, Shape, Survey, NEAR_LIMIT, SAMPLE_IDS};
