//! `odm::aggregate` without a server (users read its documentation on the module, `src/aggregate.rs`): typed aggregation: a pipeline builder over typed paths, whose stages that change the documents' shape move it to a declared output type, and whose results decode as that type.

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
