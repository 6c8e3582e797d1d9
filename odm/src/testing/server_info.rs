//! What a server says it is: its product and version (`buildInfo`) and its deployment (`hello`).
//!
//! Tests and examples that depend on how a server behaves (a planner's choices, whether transactions run, which
//! commands exist) decide from this, never from how the harness found the server: a `MONGODB_URI` may name a
//! SecantusDB, and a harness-started `mongod` is standalone while one named by `MONGODB_URI` may be a replica set.

use crate::base::error::Result;
use bson::{doc, Document};
use mongodb::Client;
use std::fmt;

/// The program answering on the other end of the connection, as its `buildInfo` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Product {
    /// MongoDB itself (`mongod` or `mongos`).
    MongoDB,
    /// SecantusDB, a MongoDB-wire server (its `buildInfo` carries `secantusVersion`).
    SecantusDB {
        /// SecantusDB's own release, e.g. `0.7.0b3`.
        release: String,
    },
}

/// How the server is deployed, as its `hello` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deployment {
    /// A single server outside any replica set.
    Standalone,
    /// A member of a replica set (`hello` names the set).
    ReplicaSet {
        /// The set's name.
        name: String,
    },
    /// A sharded cluster's router (`hello` answers `msg: "isdbgrid"`).
    Sharded,
}

/// What a server says it is: its product and version (`buildInfo`) and its deployment (`hello`). Code that depends on
/// how a server behaves decides from this, never from how the harness found the server ([`super::ServerKind`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerInfo {
    /// The program.
    pub product: Product,
    /// The MongoDB version it reports (`buildInfo.version`), e.g. `8.0.4`; SecantusDB reports the version whose
    /// behaviour it follows.
    pub version: String,
    /// How it is deployed.
    pub deployment: Deployment,
    /// The newest wire protocol version it speaks (`hello.maxWireVersion`).
    pub max_wire_version: i32,
}

impl ServerInfo {
    /// Asks the server behind `client` (`buildInfo` and `hello` on `admin`).
    ///
    /// ```no_run
    /// # async fn demo() -> odm::error::Result<()> {
    /// let db = odm::testing::database("demo").await;
    /// let info = odm::testing::ServerInfo::of(db.client()).await?;
    /// if info.supports_transactions() {
    ///     // …
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn of(client: &Client) -> Result<ServerInfo> {
        let admin = client.database("admin");
        let build = admin.run_command(doc! { "buildInfo": 1 }).await?;
        let hello = admin.run_command(doc! { "hello": 1 }).await?;
        Ok(ServerInfo::from_replies(&build, &hello))
    }

    /// Reads the replies of `buildInfo` and `hello`.
    pub fn from_replies(build_info: &Document, hello: &Document) -> ServerInfo {
        let product = match build_info.get_str("secantusVersion") {
            Ok(release) => Product::SecantusDB { release: release.to_owned() },
            Err(_) => Product::MongoDB,
        };
        let deployment = if hello.get_str("msg").ok() == Some("isdbgrid") {
            Deployment::Sharded
        } else if let Ok(name) = hello.get_str("setName") {
            Deployment::ReplicaSet { name: name.to_owned() }
        } else {
            Deployment::Standalone
        };
        let max_wire_version = match hello.get("maxWireVersion") {
            Some(bson::Bson::Int32(v)) => *v,
            Some(bson::Bson::Int64(v)) => i32::try_from(*v).unwrap_or(i32::MAX),
            _ => 0,
        };
        let version = build_info.get_str("version").unwrap_or("unknown").to_owned();
        ServerInfo { product, version, deployment, max_wire_version }
    }

    /// True for SecantusDB, whose query planner and a few commands differ from mongod's (explain's plans among
    /// them): a test whose assertion depends on those asks this.
    pub fn is_secantus(&self) -> bool {
        matches!(self.product, Product::SecantusDB { .. })
    }

    /// True when the deployment can run multi-document transactions and change streams: a replica set member
    /// (MongoDB 4.0+) or a sharded cluster's router (4.2+). A standalone `mongod` refuses both.
    pub fn supports_transactions(&self) -> bool {
        match self.deployment {
            Deployment::Standalone => false,
            Deployment::ReplicaSet { .. } => self.max_wire_version >= 7,
            Deployment::Sharded => self.max_wire_version >= 8,
        }
    }

    /// True when the deployment has change streams: a replica set member or a sharded cluster's router (MongoDB
    /// 3.6+, wire version 6). A standalone `mongod` has none.
    pub fn supports_change_streams(&self) -> bool {
        !matches!(self.deployment, Deployment::Standalone) && self.max_wire_version >= 6
    }
}

impl fmt::Display for ServerInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.product {
            Product::MongoDB => write!(f, "MongoDB {}", self.version)?,
            Product::SecantusDB { release } => write!(f, "SecantusDB {release} (as MongoDB {})", self.version)?,
        }
        match &self.deployment {
            Deployment::Standalone => write!(f, ", standalone"),
            Deployment::ReplicaSet { name } => write!(f, ", replica set {name:?}"),
            Deployment::Sharded => write!(f, ", sharded cluster (mongos)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_as_the_server_states_them() {
        let secantus = ServerInfo::from_replies(
            &doc! { "version": "8.2.11", "secantusVersion": "0.7.0b3", "ok": 1 },
            &doc! { "isWritablePrimary": true, "setName": "secantus", "maxWireVersion": 27, "ok": 1 },
        );
        assert!(secantus.is_secantus() && secantus.supports_transactions());
        assert_eq!(secantus.to_string(), "SecantusDB 0.7.0b3 (as MongoDB 8.2.11), replica set \"secantus\"");

        let standalone = ServerInfo::from_replies(
            &doc! { "version": "7.0.2" },
            &doc! { "isWritablePrimary": true, "maxWireVersion": 21 },
        );
        assert_eq!(
            (standalone.product.clone(), standalone.deployment.clone()),
            (Product::MongoDB, Deployment::Standalone)
        );
        assert!(!standalone.supports_transactions());

        let router = ServerInfo::from_replies(
            &doc! { "version": "8.0.0" },
            &doc! { "msg": "isdbgrid", "maxWireVersion": 25_i64 },
        );
        assert_eq!(router.deployment, Deployment::Sharded);
        assert_eq!(router.to_string(), "MongoDB 8.0.0, sharded cluster (mongos)");
    }
}
