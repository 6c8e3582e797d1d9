//! Which keys MongoDB cannot take: one rule for inserts, path entries, updates and diffs.

/// Why a key chosen at run time (a map key) cannot be stored, if it cannot.
pub(crate) fn defect(key: &str) -> Option<&'static str> {
    if key.starts_with('$') {
        Some("keys starting with `$` are reserved for operators")
    } else if key.contains('.') {
        Some("`.` separates path segments, so the key could never be queried or updated")
    } else if key.contains('\0') {
        Some("BSON keys end at the first NUL, so the key would be cut short")
    } else {
        None
    }
}

/// Why a key cannot name a path segment: any storage defect, or being empty.
pub(crate) fn path_defect(key: &str) -> Option<&'static str> {
    if key.is_empty() {
        Some("an empty key cannot be addressed in a path")
    } else {
        defect(key)
    }
}

/// The first key in a value tree that MongoDB cannot store: its path below `value` (`a.0.b`), the key itself, and
/// why. Allocates only when it finds one.
pub(crate) fn first_bad(value: &bson::Bson) -> Option<(String, &str, &'static str)> {
    match value {
        bson::Bson::Document(d) => d.iter().find_map(|(k, v)| match defect(k) {
            Some(why) => Some((k.clone(), k.as_str(), why)),
            None => first_bad(v).map(|(path, key, why)| (format!("{k}.{path}"), key, why)),
        }),
        bson::Bson::Array(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, v)| first_bad(v).map(|(path, key, why)| (format!("{i}.{path}"), key, why))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_operators_separators_and_nul() {
        for bad in ["$set", "a.b", "nul\0key"] {
            assert!(defect(bad).is_some(), "{bad:?}");
            assert!(path_defect(bad).is_some(), "{bad:?}");
        }
        assert_eq!(defect(""), None, "an empty key can be stored");
        assert!(path_defect("").is_some());
        assert_eq!(path_defect("price$usd"), None, "only a leading `$` is an operator");
    }

    #[test]
    fn first_bad_names_the_path_below_the_value() {
        let v = bson::bson!({ "ok": [{ "fine": 1 }, { "a.b": 2 }] });
        assert_eq!(first_bad(&v).map(|(path, key, _)| (path, key.to_owned())), Some(("ok.1.a.b".into(), "a.b".into())));
        assert_eq!(first_bad(&bson::bson!({ "ok": { "fine": [1, 2] } })), None);
    }
}
