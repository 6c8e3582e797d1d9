//! Field metadata of derived types: Rust names beside stored keys, so server errors (which speak in stored keys)
//! can be reported in Rust terms (`Order.items[2].price`).

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
    /// `items[$[x]].price`. Array indexes and positional segments (`$`, `$[]`, `$[id]`) are kept in brackets.
    pub fn rust_path_exact(&'static self, stored: &str) -> Option<String> {
        self.walk(stored.split('.'), true).filter(|p| !p.is_empty())
    }

    /// The one walk behind both: `strict` gives up on an unknown segment instead of keeping it.
    fn walk<'a>(&'static self, stored: impl IntoIterator<Item = &'a str>, strict: bool) -> Option<String> {
        let mut out = String::new();
        let mut current: Option<&'static TypeMeta> = Some(self);
        for seg in stored {
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

    /// Rewrites every backquoted stored path in `message` as its Rust path, keeping the stored one beside it:
    /// `` `it.$[].p` `` becomes `` `Order.items[$[]].price` (stored `it.$[].p`) ``.
    pub fn name_paths(&'static self, message: &str) -> String {
        let mut out = String::with_capacity(message.len() + 32);
        let mut parts = message.split('`');
        if let Some(first) = parts.next() {
            out.push_str(first);
        }
        let rest: Vec<&str> = parts.collect();
        let mut i = 0;
        while i < rest.len() {
            let quoted = rest[i];
            let closed = i + 1 < rest.len();
            match (closed, self.rust_path_exact(quoted)) {
                (true, Some(rust)) => {
                    out.push_str(&format!("`{}.{rust}` (stored `{quoted}`)", self.name));
                    out.push_str(rest[i + 1]);
                    i += 2;
                }
                (true, None) => {
                    out.push('`');
                    out.push_str(quoted);
                    out.push('`');
                    out.push_str(rest[i + 1]);
                    i += 2;
                }
                (false, _) => {
                    out.push('`');
                    out.push_str(quoted);
                    i += 1;
                }
            }
        }
        out
    }
}

/// A `nested` function for fields without metadata.
#[doc(hidden)]
pub fn no_meta() -> Option<&'static TypeMeta> {
    None
}

/// A stored field as other derives see it at compile time: its key and BSON type family (for index paths
/// such as `items.name`, and the index rules that depend on types).
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct FieldInfo {
    /// The stored key.
    pub key: &'static str,
    /// The field's BSON type family.
    pub kind: crate::schema::BsonKind,
    /// For an array field, its elements' type family.
    pub item: Option<crate::schema::BsonKind>,
}

#[cfg(test)]
mod tests {
    use super::{no_meta, FieldMeta, TypeMeta};

    static LINE: TypeMeta =
        TypeMeta { name: "Line", fields: &[FieldMeta { name: "price", key: "p", nested: no_meta, counter: None }] };
    fn line() -> Option<&'static TypeMeta> {
        Some(&LINE)
    }
    static ORDER: TypeMeta = TypeMeta {
        name: "Order",
        fields: &[
            FieldMeta { name: "items", key: "it", nested: line, counter: Some("item_count") },
            FieldMeta { name: "item_count", key: "ic", nested: no_meta, counter: None },
        ],
    };

    #[test]
    fn stored_paths_in_messages_become_rust_paths() {
        assert_eq!(ORDER.rust_path_exact("it.$[big].p").as_deref(), Some("items[$[big]].price"));
        assert_eq!(ORDER.rust_path_exact("it.2.p").as_deref(), Some("items[2].price"));
        assert_eq!(ORDER.rust_path_exact("it.x"), None);
        assert_eq!(
            ORDER.name_paths("`ic` is updated twice ($set and $inc): use `pop` or `it.$.p`"),
            "`Order.item_count` (stored `ic`) is updated twice ($set and $inc): use `pop` or `Order.items[$].price` \
             (stored `it.$.p`)"
        );
        assert_eq!(ORDER.name_paths("unclosed `ic"), "unclosed `ic");
    }
}
