//! How a dump reads: from one snapshot where the server can, else with majority read concern, else plainly;
//! decided from what the server says (`hello`, `buildInfo`).

use crate::base::error::Result;
use crate::driver::observe::Op;
use bson::{doc, Bson, Document};
use mongodb::Client;
use std::fmt;

/// How a dump read its documents ([`DumpReport::read_mode`](super::DumpReport::read_mode)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadMode {
    /// Every collection read at one point in time: a session with snapshot reads (a replica set or a sharded
    /// cluster, MongoDB 5.0 or newer). Writes during the dump are not in it; the dump is a consistent copy.
    Snapshot,
    /// Read concern `majority` (a replica set or sharded cluster older than 5.0): only writes a majority has
    /// acknowledged, so nothing a failover rolls back, but each collection as it is when it is read.
    Majority,
    /// Plain reads (a standalone server, where majority is the same as local): each collection as it is when it is
    /// read.
    Plain,
}

impl ReadMode {
    /// The mode a dump uses against the server behind `client` (one `hello` and one `buildInfo`).
    pub async fn of(client: &Client) -> Result<ReadMode> {
        let admin = client.database("admin");
        let (hello, build) = (doc! { "hello": 1 }, doc! { "buildInfo": 1 });
        let hello = Op::command(&admin, &hello).run(admin.run_command(hello.clone())).await?;
        let build = Op::command(&admin, &build).run(admin.run_command(build.clone())).await?;
        Ok(ReadMode::from_replies(&hello, &build))
    }

    /// The mode the replies of `hello` and `buildInfo` allow: snapshot reads on a replica set member or a
    /// `mongos` of MongoDB 5.0 or newer, majority on older ones, plain reads on a standalone server.
    pub fn from_replies(hello: &Document, build_info: &Document) -> ReadMode {
        let replicated = hello.get_str("setName").is_ok() || hello.get_str("msg").ok() == Some("isdbgrid");
        let major = match build_info.get("versionArray") {
            Some(Bson::Array(parts)) => parts.first().and_then(|p| match p {
                Bson::Int32(n) => Some(i64::from(*n)),
                Bson::Int64(n) => Some(*n),
                _ => None,
            }),
            _ => None,
        }
        .or_else(|| build_info.get_str("version").ok()?.split('.').next()?.parse().ok())
        .unwrap_or(0);
        match (replicated, major >= 5) {
            (true, true) => ReadMode::Snapshot,
            (true, false) => ReadMode::Majority,
            (false, _) => ReadMode::Plain,
        }
    }

    /// The mode's name: `snapshot`, `majority` or `plain`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReadMode::Snapshot => "snapshot",
            ReadMode::Majority => "majority",
            ReadMode::Plain => "plain",
        }
    }
}

impl fmt::Display for ReadMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_follows_what_the_server_says() {
        let set = doc! { "setName": "rs0", "maxWireVersion": 21 };
        let router = doc! { "msg": "isdbgrid" };
        let standalone = doc! { "isWritablePrimary": true };
        let v8 = doc! { "version": "8.0.4", "versionArray": [8, 0, 4, 0] };
        let v4 = doc! { "version": "4.4.29" };
        assert_eq!(ReadMode::from_replies(&set, &v8), ReadMode::Snapshot);
        assert_eq!(ReadMode::from_replies(&router, &v8), ReadMode::Snapshot);
        assert_eq!(ReadMode::from_replies(&set, &v4), ReadMode::Majority);
        assert_eq!(ReadMode::from_replies(&standalone, &v8), ReadMode::Plain);
    }
}
