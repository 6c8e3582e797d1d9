//! What the server plans to do with a query: `.explain()` on a read or a write that has not run yet
//! ([`Find::explain`](crate::collection::Find::explain), [`FindOne`](crate::collection::FindOne::explain),
//! [`Count`](crate::collection::Count::explain), [`UpdateOne`](crate::collection::UpdateOne::explain),
//! [`UpdateMany`](crate::collection::UpdateMany::explain), [`DeleteOne`](crate::collection::DeleteOne::explain),
//! [`DeleteMany`](crate::collection::DeleteMany::explain)) runs `explain` (with execution statistics, writing nothing)
//! and sums the answer up: the winning plan's stages, the index it uses, how many keys and documents it examined, and
//! whether it sorts in memory. `.hint(…)` ([`Find::hint`](crate::collection::Find::hint)) forces an index by name.
//!
//! The summary reads mongod's classic plans, slot-based plans (`winningPlan.queryPlan`, 7.0+) and a router's plans
//! (`winningPlan.shards[…]`) alike; [`Explain::raw`] keeps the whole reply.

pub use crate::base::explain::Explain;
