//! The switch that lets spans carry the values odm sends: off unless `ODM_TRACE_VALUES=1` or [`trace_values`].

use std::sync::atomic::{AtomicU8, Ordering};

/// Unknown until the first read of the environment, then on or off (a call of [`trace_values`] overrides it).
static SWITCH: AtomicU8 = AtomicU8::new(UNREAD);
const UNREAD: u8 = 0;
const OFF: u8 = 1;
const ON: u8 = 2;

/// Turns on (or off again) the `TRACE` event with each operation's command body (target `odm::op::values`; see
/// [the module docs](crate::observe)). It overrides `ODM_TRACE_VALUES`. Filters, updates and documents may hold personal
/// data: switch this on only where the logs may hold them too.
pub fn trace_values(on: bool) {
    SWITCH.store(if on { ON } else { OFF }, Ordering::Relaxed);
}

/// True when the values may be traced; reads `ODM_TRACE_VALUES` the first time it is asked.
pub(crate) fn values_on() -> bool {
    match SWITCH.load(Ordering::Relaxed) {
        UNREAD => {
            let on = std::env::var("ODM_TRACE_VALUES").is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"));
            // A concurrent `trace_values` wins over the environment.
            let _ = SWITCH.compare_exchange(UNREAD, if on { ON } else { OFF }, Ordering::Relaxed, Ordering::Relaxed);
            SWITCH.load(Ordering::Relaxed) == ON
        }
        state => state == ON,
    }
}
