//! Field metadata of derived types: Rust names beside stored keys, so server errors (which speak in stored keys)
//! can be reported in Rust terms (`Order.items[2].price`).

use std::fmt::{self, Write};

/// The fields of a derived struct.
#[derive(Debug)]
pub struct TypeMeta {
    /// The Rust type name.
    pub name: &'static str,
    /// Its stored fields, in declaration order.
    pub fields: &'static [FieldMeta],
}

/// One stored field.
#[derive(Debug)]
pub struct FieldMeta {
    /// The Rust field name.
    pub name: &'static str,
    /// The key serde writes (short key).
    pub key: &'static str,
    /// The metadata of the field's embedded type, looking through `Option`, `Vec`, `Box`, … (`None` for scalars).
    pub nested: fn() -> Option<&'static TypeMeta>,
    /// For a counted array: the Rust name of the integer field kept equal to its length.
    pub counter: Option<&'static str>,
    /// True for a map: the next segment of a stored path is a key chosen at run time, shown as `field["key"]`.
    pub map: bool,
}

impl TypeMeta {
    /// The counted arrays of this type, as `(array, counter)` Rust names.
    pub fn counted_arrays(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.fields.iter().filter_map(|f| f.counter.map(|c| (f.name, c)))
    }

    /// The field stored under `key`.
    pub fn field_by_key(&self, key: &str) -> Option<&'static FieldMeta> {
        self.fields.iter().find(|f| f.key == key)
    }

    /// Translates a stored path (`["it", "2", "p"]`) into a Rust path (`items[2].price`). Unknown segments are kept
    /// as stored, so nothing the server reported is lost.
    pub fn rust_path<'a>(&'static self, stored: impl IntoIterator<Item = &'a str>) -> String {
        self.walk(stored, false).unwrap_or_default()
    }

    /// Translates a stored path into a Rust path only when every field segment is known: `it.$[x].p` becomes
    /// `items[$[x]].price`. Array indexes and positional segments (`$`, `$[id]`) are kept in brackets; `$[]` (every
    /// element) becomes `[]`.
    pub fn rust_path_exact(&'static self, stored: &str) -> Option<String> {
        self.walk(stored.split('.'), true).filter(|p| !p.is_empty())
    }

    /// A Rust path under the type's name, as messages show it: `items[2].price` becomes `Order.items[2].price`.
    pub fn qualified(&self, rust_path: &str) -> String {
        if rust_path.starts_with('[') {
            format!("{}{rust_path}", self.name)
        } else {
            format!("{}.{rust_path}", self.name)
        }
    }

    /// The one walk behind both: `strict` gives up on an unknown segment instead of keeping it.
    fn walk<'a>(&'static self, stored: impl IntoIterator<Item = &'a str>, strict: bool) -> Option<String> {
        let mut out = String::new();
        let mut current: Option<&'static TypeMeta> = Some(self);
        let mut map_key_next = false;
        for seg in stored {
            if std::mem::take(&mut map_key_next) {
                out.push_str(&format!("[{seg:?}]"));
                continue;
            }
            if seg == "$[]" {
                out.push_str("[]");
                continue;
            }
            if seg.parse::<usize>().is_ok() || seg == "$" || (seg.starts_with("$[") && seg.ends_with(']')) {
                out.push_str(&format!("[{seg}]"));
                continue;
            }
            let field = current.and_then(|m| m.field_by_key(seg));
            if !out.is_empty() {
                out.push('.');
            }
            match field {
                Some(f) => {
                    out.push_str(f.name);
                    current = (f.nested)();
                    map_key_next = f.map;
                }
                None if strict => return None,
                None => {
                    out.push_str(seg);
                    current = None;
                }
            }
        }
        Some(out)
    }
}

/// Opens and closes a stored path inside an error message (see [`Marked`]). No stored key holds a NUL: BSON keys end
/// at the first one.
const MARK: char = '\0';

/// A stored path inside an error message, marked so that only paths, never the explanation around them, are shown
/// as Rust paths when the message reaches the user ([`name_paths`]). Messages are built as text far from the model
/// (paths, filters and updates know stored keys only); the mark says exactly which parts are paths.
pub(crate) struct Marked<'a>(pub(crate) &'a str);

impl fmt::Display for Marked<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char(MARK)?;
        // A refused key may hold a NUL: escaped, it cannot close the mark early.
        for (i, part) in self.0.split(MARK).enumerate() {
            if i > 0 {
                f.write_str("\\0")?;
            }
            f.write_str(part)?;
        }
        f.write_char(MARK)
    }
}

/// The Rust path under the type's name (`Order.items[0].quantity`) of the field at a stored path, when `meta` knows
/// it. `strict` answers only for paths whose every field segment is known (a path built from stored keys may reach
/// into a map); otherwise unknown segments are kept as stored.
pub(crate) fn rust_name(meta: Option<&'static TypeMeta>, stored: &str, strict: bool) -> Option<String> {
    let m = meta?;
    let rust = if strict { m.rust_path_exact(stored)? } else { m.rust_path(stored.split('.')) };
    (!rust.is_empty()).then(|| m.qualified(&rust))
}

/// How every odm message names a field: its Rust path with the stored path beside
/// (`` `Order.items[0].quantity` (stored `it.0.q`) ``), or the stored path alone when there is no Rust path.
pub(crate) fn named(rust: Option<&str>, stored: &str) -> String {
    match rust {
        Some(rust) => format!("`{rust}` (stored `{stored}`)"),
        None => format!("`{stored}`"),
    }
}

/// Shows the paths marked in `message` ([`Marked`]) as [`named`] names them, in Rust terms only when every field
/// segment is known. Text outside marks is never touched.
pub(crate) fn name_paths(message: &str, meta: Option<&'static TypeMeta>) -> String {
    let mut out = String::with_capacity(message.len() + 32);
    for (i, part) in message.split(MARK).enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        } else {
            out.push_str(&named(rust_name(meta, part, true).as_deref(), part));
        }
    }
    out
}

/// What generated code needs for its field tables; reachable through `odm::__private` only.
pub(crate) mod generated {
    use super::TypeMeta;

    /// A `nested` function for fields without metadata.
    pub fn no_meta() -> Option<&'static TypeMeta> {
        None
    }

    /// A stored field as other derives see it at compile time: its key and BSON type family (for index paths
    /// such as `items.name`, and the index rules that depend on types).
    #[derive(Debug, Clone, Copy)]
    pub struct FieldInfo {
        /// The stored key.
        pub key: &'static str,
        /// The field's BSON type family.
        pub kind: crate::kind::BsonKind,
        /// For an array field, its elements' type family.
        pub item: Option<crate::kind::BsonKind>,
    }
}

#[cfg(test)]
mod tests {
    use super::generated::no_meta;
    use super::{name_paths, FieldMeta, Marked, TypeMeta};

    static LINE: TypeMeta = TypeMeta {
        name: "Line",
        fields: &[FieldMeta { name: "price", key: "p", nested: no_meta, counter: None, map: false }],
    };
    fn line() -> Option<&'static TypeMeta> {
        Some(&LINE)
    }
    static ORDER: TypeMeta = TypeMeta {
        name: "Order",
        fields: &[
            FieldMeta { name: "items", key: "it", nested: line, counter: Some("item_count"), map: false },
            FieldMeta { name: "lines", key: "l", nested: line, counter: None, map: true },
            FieldMeta { name: "item_count", key: "ic", nested: no_meta, counter: None, map: false },
        ],
    };

    #[test]
    fn stored_paths_in_messages_become_rust_paths() {
        assert_eq!(ORDER.rust_path_exact("it.$[big].p").as_deref(), Some("items[$[big]].price"));
        assert_eq!(ORDER.rust_path_exact("it.$[].p").as_deref(), Some("items[].price"));
        assert_eq!(ORDER.rust_path_exact("it.2.p").as_deref(), Some("items[2].price"));
        assert_eq!(ORDER.rust_path_exact("it.x"), None);
        // A map's next segment is a key chosen at run time; its value's fields are named again after it.
        assert_eq!(ORDER.rust_path_exact("l.home.p").as_deref(), Some("lines[\"home\"].price"));
        assert_eq!(ORDER.rust_path(["l", "a b", "p", "zz"]), "lines[\"a b\"].price.zz");
        let message = format!("{} is updated twice ($set and $inc): use `pop` or {}", Marked("ic"), Marked("it.$.p"));
        assert_eq!(
            name_paths(&message, Some(&ORDER)),
            "`Order.item_count` (stored `ic`) is updated twice ($set and $inc): use `pop` or `Order.items[$].price` \
             (stored `it.$.p`)"
        );
        assert_eq!(name_paths(&message, None), "`ic` is updated twice ($set and $inc): use `pop` or `it.$.p`");
    }

    #[test]
    fn only_marked_paths_are_rewritten() {
        // Quoted text in the explanation is never a path, even when it reads like a stored key.
        let message =
            format!("map key \"$where\" under {} cannot be addressed: keys starting with `$` or `ic`", Marked("it"));
        assert_eq!(
            name_paths(&message, Some(&ORDER)),
            "map key \"$where\" under `Order.items` (stored `it`) cannot be addressed: keys starting with `$` or `ic`"
        );
        // A NUL inside a refused key cannot end the mark early.
        assert_eq!(name_paths(&format!("{} refused", Marked("it.a\0b")), Some(&ORDER)), "`it.a\\0b` refused");
    }
}
