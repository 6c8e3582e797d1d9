//! Which filters reach one shard. On a sharded collection, a single-document read or write whose filter does not pin
//! the whole shard key (or `_id`) by equality is sent to every shard (scatter-gather): slower as the cluster grows,
//! and, before MongoDB 7.1, refused for `updateOne`/`deleteOne`/`findAndModify`. odm checks it before sending, per
//! the model's [`Scatter`](crate::model::Scatter) policy (rule [`shard-scatter`](crate::rules#shard-scatter)).

pub use crate::base::shard::unpinned;
