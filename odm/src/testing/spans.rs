//! Capturing odm's spans in a test: a small `tracing` subscriber of odm's own ([`SpanCapture`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread::ThreadId;
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// A capture of odm's spans in a test: a small `tracing` subscriber of odm's own that keeps every span odm opens (its
/// name, target, parent and each value recorded into each field) and every event, so a test can check what odm
/// reports about the commands it sends — one `odm.op` span per command, its settings, its counts — without a
/// logging stack of its own.
///
/// ```no_run
/// # async fn demo(orders: odm::mongodb::Collection<odm::bson::Document>) {
/// let capture = odm::testing::SpanCapture::new();
/// let _on = capture.install();
/// // … operations through odm …
/// for op in capture.ops() {
///     println!("{} {:?} write_concern={:?}", op.name(), op.get("command"), op.get("write_concern"));
/// }
/// # }
/// ```
///
/// [`install`](SpanCapture::install) makes the capture the current thread's subscriber until the guard is dropped:
/// spans are captured when they are opened on that thread, which is every span of a test on a current-thread
/// runtime (`#[tokio::test]`'s default). Values recorded later, from any thread, reach the capture too. Only
/// targets starting with `odm` are captured.
///
/// Cheap to clone: every clone sees the same spans.
#[derive(Clone, Default)]
pub struct SpanCapture {
    seen: Arc<Mutex<Seen>>,
}

/// One span as captured: its name, target, parent, and every value recorded into each field, in order.
#[derive(Clone, Debug)]
pub struct CapturedSpan {
    name: &'static str,
    target: String,
    parent: Option<usize>,
    fields: Vec<(&'static str, String)>,
}

impl CapturedSpan {
    /// The span's name: `odm.op` for an operation, `odm.transaction` for a transaction's attempt.
    pub fn name(&self) -> &str {
        self.name
    }

    /// The span's target (`odm::op`).
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The index (in [`SpanCapture::spans`]) of the span this one was opened in, if any.
    pub fn parent(&self) -> Option<usize> {
        self.parent
    }

    /// The last value recorded into `field`, as text (`None` if nothing was).
    pub fn get(&self, field: &str) -> Option<&str> {
        self.fields.iter().rev().find(|(f, _)| *f == field).map(|(_, v)| v.as_str())
    }

    /// Every value recorded into `field`, in order: a field recorded once has one.
    pub fn recorded(&self, field: &str) -> Vec<&str> {
        self.fields.iter().filter(|(f, _)| *f == field).map(|(_, v)| v.as_str()).collect()
    }

    /// Every recorded `(field, value)`, in the order recorded.
    pub fn fields(&self) -> impl Iterator<Item = (&str, &str)> {
        self.fields.iter().map(|(f, v)| (*f, v.as_str()))
    }
}

/// One event as captured: its target, the span it was emitted in, and its fields.
#[derive(Clone, Debug)]
pub struct CapturedEvent {
    target: String,
    span: Option<usize>,
    fields: Vec<(&'static str, String)>,
}

impl CapturedEvent {
    /// The event's target (`odm::op::values` for a command's body).
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The index (in [`SpanCapture::spans`]) of the span it was emitted in, if any.
    pub fn span(&self) -> Option<usize> {
        self.span
    }

    /// The value of `field`, as text.
    pub fn get(&self, field: &str) -> Option<&str> {
        self.fields.iter().rev().find(|(f, _)| *f == field).map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct Seen {
    spans: Vec<CapturedSpan>,
    events: Vec<CapturedEvent>,
    /// The spans each thread is in, innermost last: the parent of a span or event opened there.
    entered: HashMap<ThreadId, Vec<usize>>,
}

/// While alive, the capture is the current thread's subscriber ([`SpanCapture::install`]).
#[must_use = "the capture stops when the guard is dropped"]
pub struct CaptureGuard {
    _default: tracing::subscriber::DefaultGuard,
}

impl SpanCapture {
    /// An empty capture, not yet installed.
    pub fn new() -> SpanCapture {
        SpanCapture::default()
    }

    /// Makes this capture the current thread's subscriber until the guard is dropped.
    pub fn install(&self) -> CaptureGuard {
        keep_interest();
        let guard = CaptureGuard { _default: tracing::subscriber::set_default(Capture { seen: self.seen.clone() }) };
        // Whether a span's callsite is of interest is cached for every thread at once. A callsite first reached on
        // another thread while no capture was installed anywhere (another test, say) may be cached as of no
        // interest, racing this capture's registration; asking every callsite again makes this thread's see it.
        tracing::callsite::rebuild_interest_cache();
        guard
    }

    /// Every span captured, in the order they were opened.
    pub fn spans(&self) -> Vec<CapturedSpan> {
        self.lock().spans.clone()
    }

    /// The operations: the `odm.op` spans, in the order they were opened (one per command odm sends).
    pub fn ops(&self) -> Vec<CapturedSpan> {
        self.lock().spans.iter().filter(|s| s.name == "odm.op").cloned().collect()
    }

    /// Every event captured, in order.
    pub fn events(&self) -> Vec<CapturedEvent> {
        self.lock().events.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Keeps odm's callsites of interest for the rest of the process, once a capture was installed: a subscriber that is
/// registered but never anyone's default, answering `sometimes` for odm's targets (and dispatching nothing).
///
/// Without it, while one capture is the only subscriber alive, `tracing` asks only the registering thread's default
/// whether a callsite first reached is of interest: a callsite first reached on another thread (another test's, with
/// no capture) is then cached as of no interest, and the capture misses its spans until some other subscriber is
/// registered. With this one alive as well, every registration asks every live subscriber, captures included.
fn keep_interest() {
    static KEEPER: OnceLock<tracing::Dispatch> = OnceLock::new();
    KEEPER.get_or_init(|| tracing::Dispatch::new(Keeper));
}

/// True for odm's targets, the only ones captured.
fn is_odms(metadata: &Metadata<'_>) -> bool {
    metadata.target().starts_with("odm")
}

/// `sometimes` for odm's targets, not `always`: a capture is one thread's, and the cache is every thread's.
fn interest(metadata: &Metadata<'_>) -> tracing::subscriber::Interest {
    if is_odms(metadata) {
        tracing::subscriber::Interest::sometimes()
    } else {
        tracing::subscriber::Interest::never()
    }
}

/// The subscriber [`keep_interest`] registers.
struct Keeper;

impl Subscriber for Keeper {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> tracing::subscriber::Interest {
        interest(metadata)
    }

    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        is_odms(metadata)
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, _: &Event<'_>) {}

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// The subscriber: a span's id is its index in `spans` plus one (ids are never reused).
struct Capture {
    seen: Arc<Mutex<Seen>>,
}

impl Capture {
    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Collects fields as text.
struct Fields<'a>(&'a mut Vec<(&'static str, String)>);

impl tracing::field::Visit for Fields<'_> {
    fn record_str(&mut self, f: &tracing::field::Field, v: &str) {
        self.0.push((f.name(), v.to_owned()));
    }
    fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
        self.0.push((f.name(), format!("{v:?}")));
    }
}

fn index(id: &Id) -> usize {
    (id.into_u64() - 1) as usize
}

impl Subscriber for Capture {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> tracing::subscriber::Interest {
        interest(metadata)
    }

    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        is_odms(metadata)
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let mut fields = Vec::new();
        attrs.record(&mut Fields(&mut fields));
        let mut seen = self.lock();
        let parent = match attrs.parent() {
            Some(p) => Some(index(p)),
            None if attrs.is_contextual() => {
                seen.entered.get(&std::thread::current().id()).and_then(|s| s.last().copied())
            }
            None => None,
        };
        let name = attrs.metadata().name();
        seen.spans.push(CapturedSpan { name, target: attrs.metadata().target().to_owned(), parent, fields });
        Id::from_u64(seen.spans.len() as u64)
    }

    fn record(&self, id: &Id, values: &Record<'_>) {
        let mut seen = self.lock();
        if let Some(span) = seen.spans.get_mut(index(id)) {
            values.record(&mut Fields(&mut span.fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = Vec::new();
        event.record(&mut Fields(&mut fields));
        let mut seen = self.lock();
        let span = match event.parent() {
            Some(p) => Some(index(p)),
            None if event.is_contextual() => {
                seen.entered.get(&std::thread::current().id()).and_then(|s| s.last().copied())
            }
            None => None,
        };
        seen.events.push(CapturedEvent { target: event.metadata().target().to_owned(), span, fields });
    }

    fn enter(&self, id: &Id) {
        self.lock().entered.entry(std::thread::current().id()).or_default().push(index(id));
    }

    fn exit(&self, id: &Id) {
        let mut seen = self.lock();
        if let Some(stack) = seen.entered.get_mut(&std::thread::current().id()) {
            if let Some(at) = stack.iter().rposition(|s| *s == index(id)) {
                stack.remove(at);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_keep_every_recorded_value_and_their_parent() {
        let capture = SpanCapture::new();
        {
            let _on = capture.install();
            let outer = tracing::debug_span!(target: "odm::op", "odm.transaction", attempt = 1_u32);
            let _in = outer.enter();
            let op = tracing::debug_span!(target: "odm::op", "odm.op", command = "find", duration_ms = tracing::field::Empty);
            op.record("duration_ms", 1.5);
            op.record("duration_ms", 2.5);
            op.in_scope(|| tracing::trace!(target: "odm::op::values", values = "{}", "values sent"));
            tracing::debug!(target: "elsewhere", "not odm's");
        }
        let spans = capture.spans();
        assert_eq!(spans.len(), 2);
        let ops = capture.ops();
        assert_eq!(ops.len(), 1);
        assert_eq!((ops[0].get("command"), ops[0].parent()), (Some("find"), Some(0)));
        assert_eq!(ops[0].recorded("duration_ms"), ["1.5", "2.5"]);
        assert_eq!(spans[0].get("attempt"), Some("1"));
        let events = capture.events();
        assert_eq!(events.len(), 1, "only odm's targets: {events:?}");
        assert_eq!((events[0].target(), events[0].span()), ("odm::op::values", Some(1)));
    }
}
