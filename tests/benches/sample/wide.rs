//! The wide sample of the view bench: a model of fifty fields of the common BSON types, and the view a list of them
//! shows (three fields), with the same three fields in serde alone ([`super::wide_row`]).

use crate::bson::{oid::ObjectId, DateTime};
use odm::{Model, View};
use serde::{Deserialize, Serialize};

/// A document of fifty fields (besides `_id`).
#[derive(Model, Serialize, Deserialize, Clone)]
#[odm(collection = "bench_wide")]
pub struct Wide {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    #[serde(rename = "nm")]
    pub name: String,
    #[serde(rename = "am")]
    pub amount: i64,
    #[serde(rename = "at")]
    pub at: DateTime,
    #[serde(rename = "k03")]
    pub field03: bool,
    #[serde(rename = "k04")]
    pub field04: DateTime,
    #[serde(rename = "k05")]
    pub field05: String,
    #[serde(rename = "k06")]
    pub field06: i64,
    #[serde(rename = "k07")]
    pub field07: f64,
    #[serde(rename = "k08")]
    pub field08: bool,
    #[serde(rename = "k09")]
    pub field09: DateTime,
    #[serde(rename = "k10")]
    pub field10: String,
    #[serde(rename = "k11")]
    pub field11: i64,
    #[serde(rename = "k12")]
    pub field12: f64,
    #[serde(rename = "k13")]
    pub field13: bool,
    #[serde(rename = "k14")]
    pub field14: DateTime,
    #[serde(rename = "k15")]
    pub field15: String,
    #[serde(rename = "k16")]
    pub field16: i64,
    #[serde(rename = "k17")]
    pub field17: f64,
    #[serde(rename = "k18")]
    pub field18: bool,
    #[serde(rename = "k19")]
    pub field19: DateTime,
    #[serde(rename = "k20")]
    pub field20: String,
    #[serde(rename = "k21")]
    pub field21: i64,
    #[serde(rename = "k22")]
    pub field22: f64,
    #[serde(rename = "k23")]
    pub field23: bool,
    #[serde(rename = "k24")]
    pub field24: DateTime,
    #[serde(rename = "k25")]
    pub field25: String,
    #[serde(rename = "k26")]
    pub field26: i64,
    #[serde(rename = "k27")]
    pub field27: f64,
    #[serde(rename = "k28")]
    pub field28: bool,
    #[serde(rename = "k29")]
    pub field29: DateTime,
    #[serde(rename = "k30")]
    pub field30: String,
    #[serde(rename = "k31")]
    pub field31: i64,
    #[serde(rename = "k32")]
    pub field32: f64,
    #[serde(rename = "k33")]
    pub field33: bool,
    #[serde(rename = "k34")]
    pub field34: DateTime,
    #[serde(rename = "k35")]
    pub field35: String,
    #[serde(rename = "k36")]
    pub field36: i64,
    #[serde(rename = "k37")]
    pub field37: f64,
    #[serde(rename = "k38")]
    pub field38: bool,
    #[serde(rename = "k39")]
    pub field39: DateTime,
    #[serde(rename = "k40")]
    pub field40: String,
    #[serde(rename = "k41")]
    pub field41: i64,
    #[serde(rename = "k42")]
    pub field42: f64,
    #[serde(rename = "k43")]
    pub field43: bool,
    #[serde(rename = "k44")]
    pub field44: DateTime,
    #[serde(rename = "k45")]
    pub field45: String,
    #[serde(rename = "k46")]
    pub field46: i64,
    #[serde(rename = "k47")]
    pub field47: f64,
    #[serde(rename = "k48")]
    pub field48: bool,
    #[serde(rename = "k49")]
    pub field49: DateTime,
}

/// What a list of wide documents shows: three of the fifty fields.
#[derive(View)]
#[odm(of = "Wide")]
pub struct WideRow {
    pub name: String,
    pub amount: i64,
    pub at: DateTime,
}

/// The wide sample numbered `i`.
pub fn wide(i: usize) -> Wide {
    Wide {
        id: ObjectId::new(),
        name: format!("customer {i}"),
        amount: 4100 + i as i64,
        at: DateTime::from_millis(1_700_000_000_000 + i as i64),
        field03: i.is_multiple_of(3),
        field04: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 4),
        field05: format!("value {i} of field 05"),
        field06: (i as i64) * 6,
        field07: i as f64 / 7.0,
        field08: i.is_multiple_of(8),
        field09: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 9),
        field10: format!("value {i} of field 10"),
        field11: (i as i64) * 11,
        field12: i as f64 / 12.0,
        field13: i.is_multiple_of(13),
        field14: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 14),
        field15: format!("value {i} of field 15"),
        field16: (i as i64) * 16,
        field17: i as f64 / 17.0,
        field18: i.is_multiple_of(18),
        field19: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 19),
        field20: format!("value {i} of field 20"),
        field21: (i as i64) * 21,
        field22: i as f64 / 22.0,
        field23: i.is_multiple_of(23),
        field24: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 24),
        field25: format!("value {i} of field 25"),
        field26: (i as i64) * 26,
        field27: i as f64 / 27.0,
        field28: i.is_multiple_of(28),
        field29: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 29),
        field30: format!("value {i} of field 30"),
        field31: (i as i64) * 31,
        field32: i as f64 / 32.0,
        field33: i.is_multiple_of(33),
        field34: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 34),
        field35: format!("value {i} of field 35"),
        field36: (i as i64) * 36,
        field37: i as f64 / 37.0,
        field38: i.is_multiple_of(38),
        field39: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 39),
        field40: format!("value {i} of field 40"),
        field41: (i as i64) * 41,
        field42: i as f64 / 42.0,
        field43: i.is_multiple_of(43),
        field44: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 44),
        field45: format!("value {i} of field 45"),
        field46: (i as i64) * 46,
        field47: i as f64 / 47.0,
        field48: i.is_multiple_of(48),
        field49: DateTime::from_millis(1_700_000_000_000 + (i as i64) * 49),
    }
}
