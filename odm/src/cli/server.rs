//! The server the command line talks to: the connection string it is given, parsed once, so the sync's connection
//! checklist also reads its pool size and `retryWrites` ([`crate::connection`]).

use super::failure::Failure;
use crate::error::Error;
use mongodb::options::ClientOptions;
use mongodb::Client;
use std::time::Duration;

/// The longest the command line waits, once done, for the client to end its sessions and close its connections.
const CLOSE_GRACE: Duration = Duration::from_secs(5);

/// A client, and the options it was built from.
pub(super) struct Server {
    pub(super) client: Client,
    pub(super) options: ClientOptions,
}

impl Server {
    /// A client for `uri`, else `MONGODB_URI`; an error that says what to set when neither is given.
    pub(super) async fn connect(uri: Option<&str>) -> Result<Server, Failure> {
        let from_env = std::env::var("MONGODB_URI").ok().filter(|u| !u.trim().is_empty());
        let Some(uri) = uri.map(str::to_owned).or(from_env) else {
            return Err(Failure::Message(
                "no server to connect to: pass `--uri <connection string>` or set the MONGODB_URI environment variable"
                    .to_owned(),
            ));
        };
        let options = ClientOptions::parse(&uri).await.map_err(Error::from)?;
        let client = Client::with_options(options.clone()).map_err(Error::from)?;
        Ok(Server { client, options })
    }

    /// Ends the client's sessions and closes its connections before `main` returns: a client merely dropped while the
    /// runtime shuts down ends its sessions from a task the runtime may no longer serve.
    pub(super) async fn close(self) {
        if tokio::time::timeout(CLOSE_GRACE, self.client.clone().shutdown()).await.is_err() {
            self.client.shutdown().immediate(true).await;
        }
    }
}
