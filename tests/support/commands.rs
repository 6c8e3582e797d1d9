//! Clients of the test server made for one test: one that records the commands it sends and the replies it gets
//! (to check what odm sends, not only what comes back), and one with an application name a fail point can single out.

use odm::bson::Document;
use odm::mongodb::event::{command::CommandEvent, EventHandler};
use odm::mongodb::options::ClientOptions;
use odm::mongodb::Client;
use std::sync::{Arc, Mutex};

/// The commands a recording client started and the replies it received, each with its command name, in order.
#[derive(Clone, Default)]
pub struct Recorded {
    started: Arc<Mutex<Vec<(String, Document)>>>,
    replies: Arc<Mutex<Vec<(String, Document)>>>,
}

impl Recorded {
    /// Every command started so far: (command name, command as sent).
    pub fn started(&self) -> Vec<(String, Document)> {
        self.started.lock().unwrap().clone()
    }

    /// The names of every command started so far.
    pub fn names(&self) -> Vec<String> {
        self.started().into_iter().map(|(name, _)| name).collect()
    }

    /// Every successful reply so far: (command name, reply).
    pub fn replies(&self) -> Vec<(String, Document)> {
        self.replies.lock().unwrap().clone()
    }
}

/// The test server's client options.
pub async fn options() -> ClientOptions {
    ClientOptions::parse(odm::testing::server().uri()).await.expect("the test server's URI")
}

/// A client of the test server recording every command it starts and every successful reply.
pub async fn recording_client() -> (Client, Recorded) {
    let recorded = Recorded::default();
    let sink = recorded.clone();
    let mut opts = options().await;
    opts.command_event_handler = Some(EventHandler::callback(move |e: CommandEvent| match e {
        CommandEvent::Started(s) => sink.started.lock().unwrap().push((s.command_name.clone(), s.command.clone())),
        CommandEvent::Succeeded(s) => sink.replies.lock().unwrap().push((s.command_name.clone(), s.reply.clone())),
        _ => {}
    }));
    (Client::with_options(opts).expect("client"), recorded)
}

/// A client of the test server whose commands a fail point can single out by application name.
pub async fn client_named(app: &str) -> Client {
    let mut opts = options().await;
    opts.app_name = Some(app.to_owned());
    Client::with_options(opts).expect("client")
}
