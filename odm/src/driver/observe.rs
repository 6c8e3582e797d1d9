//! Seeing what odm sends: each operation's `tracing` span (`op`), the concerns it is sent with as text (`concerns`),
//! and the switch for values (`values`, `trace_values`). Users read the docs at `odm::observe` (src/observe.rs).

mod concerns;
mod op;
mod values;

pub(crate) use concerns::{read_concern_text, write_concern_text, Concerns};
pub(crate) use op::{raw_value, transaction_span, Op, Returned};
pub use values::trace_values;
