//! Comparing stored values where plain `==` says too much (key order of maps) or too little (NaN).

use odm::bson::Bson;

/// Semantic BSON equality for round trips: documents compare as maps (a `HashMap` field may serialize its keys in
/// another order after decoding), doubles compare by bit pattern (so NaN equals itself).
pub fn same_bson(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Double(x), Bson::Double(y)) => x.to_bits() == y.to_bits(),
        (Bson::Document(x), Bson::Document(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_bson(v, w)))
        }
        (Bson::Array(x), Bson::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_bson(v, w)),
        _ => a == b,
    }
}
