//! A model's time-series declaration: `TimeSeries` (stored keys, as `create` takes them) and `Granularity`. Comparing
//! it with a live collection is `crate::driver::sync::timeseries`. Users read the docs at `odm::timeseries`
//! (src/timeseries.rs).

use bson::{doc, Document};

/// How far apart a series' measurements usually are: the server sizes its internal buckets by it.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Granularity {
    /// `seconds` (the server's default).
    Seconds,
    /// `minutes`.
    Minutes,
    /// `hours`.
    Hours,
}

impl Granularity {
    /// The server's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Granularity::Seconds => "seconds",
            Granularity::Minutes => "minutes",
            Granularity::Hours => "hours",
        }
    }

    /// The granularity the server spells `s`.
    pub fn parse(s: &str) -> Option<Self> {
        [Granularity::Seconds, Granularity::Minutes, Granularity::Hours].into_iter().find(|g| g.as_str() == s)
    }
}

/// A model's time-series settings (see the [module](crate::timeseries) docs): stored keys, as the server's `create` takes them.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TimeSeries {
    /// The stored key of the date of each measurement (`timeField`).
    pub time: &'static str,
    /// The stored key of the field naming the series (`metaField`).
    pub meta: Option<&'static str>,
    /// `granularity`, when declared.
    pub granularity: Option<Granularity>,
    /// `expireAfterSeconds`: the server removes measurements this many seconds after their time.
    pub expire_after: Option<u64>,
}

impl TimeSeries {
    /// The `timeseries` option of `create`: `{timeField, metaField, granularity}`.
    pub fn to_document(&self) -> Document {
        let mut d = doc! { "timeField": self.time };
        if let Some(meta) = self.meta {
            d.insert("metaField", meta);
        }
        if let Some(g) = self.granularity {
            d.insert("granularity", g.as_str());
        }
        d
    }
}
