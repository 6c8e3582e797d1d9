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
        let mut out = String::new();
        let mut current: Option<&'static TypeMeta> = Some(self);
        for seg in stored {
            if seg.parse::<usize>().is_ok() {
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
                None => {
                    out.push_str(seg);
                    current = None;
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
}
