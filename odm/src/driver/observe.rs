//! `odm::observe` with the driver (users read its documentation on the module, `src/observe.rs`): seeing what odm sends: one `tracing` span per operation, values only when asked.

mod concerns;
mod op;
mod values;

pub(crate) use concerns::{read_concern_text, write_concern_text, Concerns};
pub(crate) use op::{raw_value, transaction_span, Op, Returned};
pub use values::trace_values;
