//! Looking at the data a database already holds: for each collection, its validator, options and indexes, and what
//! its documents hold path by path: the BSON types seen at each path and how often, how often a key is present, the
//! lengths of arrays and strings, objects whose keys are data rather than fields, and strings that are dates or
//! numbers, each with the `_id`s of the first documents that show it.
//!
//! [`Introspect`] reads a live database (feature `driver`): every document of a small collection, a `$sample` of a
//! large one, streamed, with a progress callback. [`Survey`] is what it feeds, driver-free: any documents can be
//! surveyed, from wherever they were read.
//!
//! ```no_run
//! # async fn demo(client: odm::mongodb::Client) -> odm::error::Result<()> {
//! use odm::introspect::{Introspect, Read};
//!
//! let found = Introspect::new(&client.database("shop")).await?;
//! for c in &found.collections {
//!     let how = match c.read { Read::Every => "every document".to_owned(), Read::Sample(n) => format!("a sample of {n}") };
//!     println!("{} ({how} of about {:?}):", c.live.name, c.estimated);
//!     for p in &c.shape.paths {
//!         let types: Vec<String> = p.types.iter().map(|t| format!("{:?} ×{}", t.kind, t.count)).collect();
//!         println!("  {:<30} {}/{} {}", p.path, p.present, p.of, types.join(", "));
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! A path is spelled with the stored keys joined by `.`; `[]` stands for an array's elements (`items[].sku`) and
//! `{}` for the entries of an object whose keys are data (`daily{}`): keys that are numbers, dates, ObjectIds or
//! UUIDs, or more distinct keys than a struct would have (over 32). Such an object is surveyed as one path, so a
//! survey's size does not grow with the data.

pub use crate::base::introspect::{
    CounterPair, Lengths, MapKeys, PathShape, Seen, Shape, Survey, NEAR_LIMIT, SAMPLE_IDS,
};
#[cfg(feature = "driver")]
#[cfg_attr(docsrs, doc(cfg(feature = "driver")))]
pub use crate::driver::introspect::{Introspect, Introspection, Read, Surveyed, READ_ALL_UP_TO, SAMPLE};
