//! The BSON type family of a stored type: the one vocabulary the field tables ([`crate::meta`]), the schema
//! fragments ([`crate::schema`]) and the paths share, so none of them has to import another for it.

/// The BSON type family of a Rust type, available in `const` context so the derive can assert on it
/// (e.g. "a counter is an integer", "an array declares its bound") even through type aliases.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BsonKind {
    /// `int` (32-bit).
    Int,
    /// `long` (64-bit).
    Long,
    /// `double`.
    Double,
    /// `decimal`.
    Decimal,
    /// `string`.
    String,
    /// `bool`.
    Bool,
    /// `objectId`.
    ObjectId,
    /// `date`.
    Date,
    /// `timestamp`.
    Timestamp,
    /// `binData`.
    Binary,
    /// A document with known fields (embedded structs, tagged enums).
    Object,
    /// A document with dynamic keys (maps).
    Map,
    /// `array`.
    Array,
    /// Anything else.
    Other,
}

impl BsonKind {
    /// True for `array`.
    pub const fn is_array(self) -> bool {
        matches!(self, BsonKind::Array)
    }

    /// True for a document with keys chosen at run time (maps, `bson::Document`).
    pub const fn is_map(self) -> bool {
        matches!(self, BsonKind::Map)
    }

    /// True for a value with no keys and no elements: anything but a document, an array or an unknown type.
    pub const fn is_scalar(self) -> bool {
        !matches!(self, BsonKind::Object | BsonKind::Map | BsonKind::Array | BsonKind::Other)
    }

    /// True for `int` and `long`, the types a counter may have.
    pub const fn is_integer(self) -> bool {
        matches!(self, BsonKind::Int | BsonKind::Long)
    }
}
