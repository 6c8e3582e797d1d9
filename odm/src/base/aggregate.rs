//! Building typed pipelines, driver-free: `Pipeline` and the stages that keep the type (`pipeline`), those into a
//! declared output type (`group`, `project`, `facet`), the output-type markers (`shape`), the stage-order optimizer
//! and the linter. Running a pipeline is `crate::driver::aggregate`. Users read the docs at `odm::aggregate`
//! (src/aggregate.rs).

mod facet;
mod group;
pub(crate) mod lint;
mod optimize;
pub(crate) mod parts;
pub(crate) mod pipeline;
mod project;
pub(crate) mod shape;

pub use facet::Facet;
pub use group::Group;
pub use pipeline::Pipeline;
pub use project::Project;
pub use shape::{
    fields, Averageable, AvgOf, CountField, Detached, ExtremeOf, FieldHolds, GathersInto, Holds, ItemOf, Joins,
    NoValue, Shape, SumOf,
};
