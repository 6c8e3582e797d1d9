//! Every command a dump or a restore sends runs inside one `odm::op` span: the spans of this test's thread compared,
//! command for command, with the driver's own command events of the test's client (a cursor's `getMore` belongs to
//! the span of its `find`).

use super::*;
use odm::mongodb::event::command::CommandEvent;
use odm::mongodb::event::EventHandler;
use std::sync::{Arc, Mutex};

/// The `command` field of each `odm::op` span opened on this thread, in order.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<String>>>);

struct Command<'a>(&'a mut Option<String>);

impl tracing::field::Visit for Command<'_> {
    fn record_str(&mut self, f: &tracing::field::Field, v: &str) {
        if f.name() == "command" {
            *self.0 = Some(v.to_owned());
        }
    }
    fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
}

impl tracing::Subscriber for Spans {
    fn enabled(&self, m: &tracing::Metadata<'_>) -> bool {
        m.target() == "odm::op"
    }
    fn new_span(&self, attrs: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let mut command = None;
        attrs.record(&mut Command(&mut command));
        let mut spans = self.0.lock().unwrap();
        spans.push(command.unwrap_or_default());
        tracing::span::Id::from_u64(spans.len() as u64)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// A client of the test server whose command events (but a cursor's later batches and the session's end) are kept.
async fn watched_client() -> (odm::mongodb::Client, Arc<Mutex<Vec<String>>>) {
    let commands = Arc::new(Mutex::new(Vec::new()));
    let seen = commands.clone();
    let mut options = odm::mongodb::options::ClientOptions::parse(odm::testing::server().uri()).await.expect("options");
    options.command_event_handler = Some(EventHandler::callback(move |event: CommandEvent| {
        if let CommandEvent::Started(e) = event {
            if !["getMore", "killCursors", "endSessions"].contains(&e.command_name.as_str()) {
                seen.lock().unwrap().push(e.command_name);
            }
        }
    }));
    (odm::mongodb::Client::with_options(options).expect("client"), commands)
}

/// `names`, sorted.
fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

#[tokio::test]
async fn every_command_of_a_dump_and_a_restore_is_one_span() {
    let src = odm::testing::database("bk_spans").await;
    seed(&src, 1200).await;
    let out = out_dir(&src);
    let copy = odm::testing::database("bk_spans_copy").await;
    let (client, commands) = watched_client().await;
    let spans = Spans::default();
    let _scope = tracing::subscriber::set_default(spans.clone());

    Dump::new(&client, &*out)
        .database(src.name())
        .model::<Item>()
        .model::<Entry>()
        .batch_size(500)
        .on_progress(|_| {})
        .await
        .expect("dump");
    Restore::new(&client, &*out).database(src.name()).into_db(copy.name()).batch_size(500).await.expect("restore");

    let (sent, traced) = (commands.lock().unwrap().clone(), spans.0.lock().unwrap().clone());
    assert!(sent.len() > 20, "a dump and a restore send many commands: {sent:?}");
    assert_eq!(
        sorted(traced.clone()),
        sorted(sent.clone()),
        "one span per command\nsent: {sent:?}\ntraced: {traced:?}"
    );
    for command in ["hello", "buildInfo", "listCollections", "listIndexes", "count", "find", "create", "insert"] {
        assert!(traced.iter().any(|c| c == command), "a `{command}` span: {traced:?}");
    }
    assert!(traced.iter().filter(|c| *c == "insert").count() >= 3, "1,200 items in inserts of 500: {traced:?}");
}
