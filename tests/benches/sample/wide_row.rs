//! The row of the view bench's wide sample with serde alone: the three fields its view reads, under the same keys,
//! and the document the server returns for that projection. Shared with the decode baseline built outside the
//! workspace (`baseline-decode`), so both decode the same bytes into the same struct.

use crate::bson::{doc, oid::ObjectId, DateTime, Document};
use serde::Deserialize;

/// The three fields, as serde's derive reads them (decoded, never read: the benches count the decode).
#[derive(Deserialize)]
#[allow(dead_code)]
pub struct SerdeWideRow {
    #[serde(rename = "nm")]
    pub name: String,
    #[serde(rename = "am")]
    pub amount: i64,
    #[serde(rename = "at")]
    pub at: DateTime,
}

/// A projected document as the server returns it: `_id` (which a projection keeps) and the three fields.
pub fn projected() -> Document {
    doc! {
        "_id": ObjectId::from_bytes([7; 12]),
        "nm": "customer 17",
        "am": 4117_i64,
        "at": DateTime::from_millis(1_700_000_000_017),
    }
}
