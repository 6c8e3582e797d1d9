//! One test's database: [`database`], unique names (`t_<hint>_<pid>_<tag>_<n>`), and closing it.

use super::launch::server_async;
use super::server_info::ServerInfo;
use mongodb::{Client, Database};
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Longest hint kept in a database name.
const MAX_HINT_LEN: usize = 20;
static NEXT_DATABASE: AtomicU64 = AtomicU64::new(0);

/// A fresh database for one test, on [`server`](crate::testing::server()): a new client, and a database whose name is
/// unique within this process and across processes (`t_<hint>_<pid>_<tag>_<n>`, where the hint
/// is reduced to at most 20 characters of `[a-z0-9_]` and the tag is random per process).
/// The database is dropped first, so it is empty even on a long-lived `MONGODB_URI` server.
///
/// # Panics
///
/// If no server can be had (see [`server`](crate::testing::server())), or if the server does not answer.
pub async fn database(hint: &str) -> TestDatabase {
    let server = server_async().await;
    let name = database_name(hint, std::process::id(), process_tag(), NEXT_DATABASE.fetch_add(1, Ordering::Relaxed));
    let client = server.client().await;
    let db = client.database(&name);
    if let Err(e) = db.drop().await {
        panic!(
            "odm::testing: cannot prepare the test database {name:?} on the {:?} server at {}: {}",
            server.kind,
            server.uri,
            crate::base::error::driver::Readable(&e)
        );
    }
    TestDatabase { client, db }
}

/// One test's database and the client it was opened with; see [`database`].
///
/// It dereferences to [`mongodb::Database`].
#[derive(Debug, Clone)]
pub struct TestDatabase {
    client: Client,
    db: Database,
}

impl TestDatabase {
    /// The database.
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// Closes the client: waits up to [`CLOSE_GRACE`] for its sessions and cursors to be dropped, ends its sessions
    /// on the server and closes its connections. Call it at the end of a `main` that owns the runtime: a client
    /// merely dropped there ends its sessions from a task the shutting-down runtime may no longer serve (the driver
    /// then panics in that task).
    ///
    /// A cursor or session still alive after the grace period (a stream not read to its end and not dropped, an
    /// [`odm::Session`](crate::Session) kept in a variable) would make the driver wait forever; the client is then
    /// closed without waiting for it, and the result (also printed on standard error) says so.
    pub async fn close(self) -> Closed {
        self.close_within(CLOSE_GRACE).await
    }

    /// [`close`](Self::close) with a grace period of `grace` instead of [`CLOSE_GRACE`].
    pub async fn close_within(self, grace: Duration) -> Closed {
        let TestDatabase { client, db } = self;
        drop(db);
        if tokio::time::timeout(grace, client.clone().shutdown()).await.is_ok() {
            return Closed::Cleanly;
        }
        let closed = Closed::WithoutWaiting { waited: grace };
        eprintln!("odm::testing: {closed}");
        client.shutdown().immediate(true).await;
        closed
    }

    /// What the server behind this database says it is ([`ServerInfo::of`] on this database's client).
    pub async fn server_info(&self) -> crate::base::error::Result<ServerInfo> {
        ServerInfo::of(&self.client).await
    }

    /// The client the database was opened with (made for this test alone).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        self.db.name()
    }
}

/// How long [`TestDatabase::close`] waits for the client's cursors and sessions to be dropped.
pub const CLOSE_GRACE: Duration = Duration::from_secs(10);

/// How [`TestDatabase::close`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// Every cursor and session had been dropped: the client ended its sessions and closed its connections.
    Cleanly,
    /// A cursor or session of the client was still alive after `waited`: the client was closed without waiting for
    /// it (its sessions ended on the server, its connections closed; the live handle fails if used again).
    WithoutWaiting {
        /// The grace period that ran out.
        waited: Duration,
    },
}

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Closed::Cleanly => f.write_str("the client closed cleanly"),
            Closed::WithoutWaiting { waited } => write!(
                f,
                "closing the client waited {waited:?} for a cursor or session that is still alive (a stream not read \
                 to its end and not dropped, a find or change stream, an odm::Session or driver session held in a \
                 variable); closed it without waiting: drop such handles before close()"
            ),
        }
    }
}

impl Deref for TestDatabase {
    type Target = Database;

    fn deref(&self) -> &Database {
        &self.db
    }
}

// ---------------------------------------------------------------------------------------------
// Finding and starting the server.

/// A database name `t_<hint>_<pid>_<tag>_<n>`: only `[a-z0-9_]`, shorter than 64 bytes.
fn database_name(hint: &str, pid: u32, tag: &str, counter: u64) -> String {
    format!("t_{}_{pid}_{tag}_{counter}", sanitize_hint(hint))
}

/// The hint lowercased, anything outside `[a-z0-9_]` replaced by `_`, cut to 20 characters;
/// `db` if that leaves nothing.
fn sanitize_hint(hint: &str) -> String {
    let cleaned: String = hint
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(MAX_HINT_LEN)
        .collect();
    if cleaned.is_empty() {
        "db".to_owned()
    } else {
        cleaned
    }
}

/// Four random base-36 characters, fixed for this process: with the pid, they keep database
/// names apart across processes and machines sharing one `MONGODB_URI` server.
pub(super) fn process_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        base36(hasher.finish(), 4)
    })
}

/// The lowest `width` base-36 digits of `n`.
fn base36(mut n: u64, width: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = vec![b'0'; width];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(n % 36) as usize];
        n /= 36;
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_is_sanitized() {
        assert_eq!(sanitize_hint("Orders"), "orders");
        assert_eq!(sanitize_hint("a-b.c d/é$"), "a_b_c_d___");
        assert_eq!(sanitize_hint("snake_case_9"), "snake_case_9");
        assert_eq!(sanitize_hint(""), "db");
        assert_eq!(sanitize_hint("a_very_long_hint_that_goes_on_and_on"), "a_very_long_hint_tha");
        assert_eq!(sanitize_hint(&"ß".repeat(30)).len(), MAX_HINT_LEN);
    }

    #[test]
    fn database_names_are_valid_and_distinct() {
        let longest = database_name(&"x".repeat(100), u32::MAX, "zzzz", u64::MAX);
        assert!(longest.len() < 64, "{longest} is {} bytes", longest.len());
        for name in [longest.as_str(), &database_name("Order Items!", 42, process_tag(), 7)] {
            assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'), "{name}");
        }
        assert_eq!(database_name("Orders", 42, "ab12", 7), "t_orders_42_ab12_7");
        assert_ne!(database_name("x", 1, "aaaa", 0), database_name("x", 1, "aaaa", 1));
        assert_ne!(database_name("x", 1, "aaaa", 0), database_name("x", 2, "aaaa", 0));
    }

    #[test]
    fn process_tag_is_stable_base36() {
        let tag = process_tag();
        assert_eq!(tag.len(), 4);
        assert!(tag.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
        assert_eq!(process_tag(), tag);
        assert_eq!(base36(0, 4), "0000");
        assert_eq!(base36(35, 4), "000z");
        assert_eq!(base36(36, 4), "0010");
        assert_eq!(base36(36u64.pow(4) + 1, 4), "0001");
    }
}
