//! The server the command line talks to: the connection string it is given, parsed once, so the sync's connection
//! checklist also reads its pool size and `retryWrites` ([`crate::connection`]), and reached once before any work,
//! within `--timeout`.

use super::failure::Failure;
use crate::base::error::Error;
use mongodb::error::ErrorKind;
use mongodb::options::ClientOptions;
use mongodb::Client;
use std::time::Duration;

/// The longest the command line waits, once done, for the client to end its sessions and close its connections.
const CLOSE_GRACE: Duration = Duration::from_secs(5);

/// A client, the options it was built from, and how long the operator lets it wait.
pub(super) struct Server {
    pub(super) client: Client,
    pub(super) options: ClientOptions,
    /// `--timeout`, when given.
    pub(super) timeout: Option<Duration>,
}

impl Server {
    /// A client for `uri`, else `MONGODB_URI`; an error that says what to set when neither is given, a usage error
    /// naming where a malformed connection string came from. With `timeout` (`--timeout`), server selection and
    /// connecting give up after it. The server is pinged once, so an unreachable one fails here, before any work.
    pub(super) async fn connect(uri: Option<&str>, timeout: Option<Duration>) -> Result<Server, Failure> {
        let from_env = std::env::var("MONGODB_URI").ok().filter(|u| !u.trim().is_empty());
        let (uri, source) = match (uri, from_env) {
            (Some(uri), _) => (uri.to_owned(), "`--uri`"),
            (None, Some(uri)) => (uri, "the MONGODB_URI environment variable"),
            (None, None) => {
                return Err(Failure::Message(
                    "no server to connect to: pass `--uri <connection string>` or set the MONGODB_URI environment \
                     variable"
                        .to_owned(),
                ))
            }
        };
        let mut options = match ClientOptions::parse(&uri).await {
            Ok(options) => options,
            // What the operator typed is wrong; a failed DNS lookup of a `mongodb+srv` host is not.
            Err(e) if matches!(*e.kind, ErrorKind::InvalidArgument { .. }) => {
                return Err(Failure::Usage(format!("{source} is not a valid connection string: {}", Error::from(e))))
            }
            Err(e) => return Err(Error::from(e).into()),
        };
        if let Some(timeout) = timeout {
            options.server_selection_timeout = Some(timeout);
            options.connect_timeout = Some(timeout);
        }
        let client = Client::with_options(options.clone()).map_err(Error::from)?;
        let server = Server { client, options, timeout };
        let ping = server.client.database("admin").run_command(bson::doc! { "ping": 1 }).await;
        if let Err(e) = ping {
            // Nothing was started: no session to end, no reason to wait for monitors of an unreachable server.
            server.client.shutdown().immediate(true).await;
            return Err(Error::from(e).into());
        }
        Ok(server)
    }

    /// Ends the client's sessions and closes its connections before `main` returns: a client merely dropped while the
    /// runtime shuts down ends its sessions from a task the runtime may no longer serve.
    pub(super) async fn close(self) {
        if tokio::time::timeout(CLOSE_GRACE, self.client.clone().shutdown()).await.is_err() {
            self.client.shutdown().immediate(true).await;
        }
    }
}
