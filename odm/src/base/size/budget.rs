//! The vocabulary of sizes: what a type says about its values' stored size, a settled worst case, why one has no
//! bound, and the arithmetic of BSON's encoding (strings, arrays, elements). A leaf: the field tables
//! ([`crate::meta`]) hold these, and the walks over tables ([`super::tables`]) add them up.

use crate::base::kind::BsonKind;

/// The most bytes MongoDB stores in one document (`BSONObjMaxUserSize`): 16 MiB.
pub const DOCUMENT_LIMIT: u64 = 16 * 1024 * 1024;

/// What a type says about the stored size of its values: [`BsonSchema::SIZE`](crate::BsonSchema::SIZE). Sizes
/// count a value's own bytes, not the type byte and key of the element holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// At most this many bytes, whatever the field declares.
    AtMost(u64),
    /// A string whose length the field bounds with `max_len` (in characters): `4 + 4·max_len + 1` bytes.
    Text,
    /// An array whose length the field bounds with `max_items`, each element at most `item`.
    Array {
        /// The worst case of one element.
        item: Budget,
    },
    /// No bound, and why.
    Unbounded(Unbounded),
}

/// A worst case that is settled: at most so many bytes, or no bound at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// At most this many bytes.
    AtMost(u64),
    /// No bound, and which field has none.
    Unbounded(Unbounded),
}

/// Why a size has no bound, and where: the struct and field holding the unbounded part, innermost, and the outermost
/// field that leads to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unbounded {
    /// What has no bound.
    pub reason: Reason,
    /// The type (`Line`, or a variant `Event::Click`) and field holding it; `None` for a value outside any struct.
    pub holder: Option<(&'static str, &'static str)>,
    /// The type and field of the outermost document that lead to `holder`, when it is nested deeper.
    pub via: Option<(&'static str, &'static str)>,
}

/// What has no bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A string without `max_len`.
    Text,
    /// The strings of an array (or set), which `max_len` on the array cannot bound: the element type carries the
    /// bound (`struct Name(#[odm(max_len = N)] String)`, held as `Vec<Name>`).
    TextItems,
    /// An array without `max_items` (declared `unbounded`).
    Items,
    /// A map: its keys, and how many, are chosen at run time, and no attribute bounds them (a bound on its values,
    /// `HashMap<String, Name>` with `struct Name(#[odm(max_len = N)] String)`, is checked by the validator but leaves
    /// the keys free); its entries held as a bounded array of `{key, value}` documents are bounded.
    Map,
    /// A value of any shape: a `bson::Document`, a `mixed` field, a converter that writes a document or an array.
    Free,
    /// Binary data, whose length odm does not bound.
    Binary,
    /// A type whose `BsonSchema` impl does not set `SIZE`.
    Undeclared,
}

impl Size {
    /// No bound for `reason`, not yet tied to a field.
    pub const fn unbounded(reason: Reason) -> Size {
        Size::Unbounded(Unbounded { reason, holder: None, via: None })
    }

    /// The size of a value whose BSON type a converter or `#[odm(bson_type)]` fixes.
    pub const fn of_kind(kind: BsonKind) -> Size {
        match kind {
            BsonKind::Int => Size::AtMost(4),
            BsonKind::Long | BsonKind::Double | BsonKind::Date | BsonKind::Timestamp => Size::AtMost(8),
            BsonKind::Decimal => Size::AtMost(16),
            BsonKind::ObjectId => Size::AtMost(12),
            BsonKind::Bool => Size::AtMost(1),
            BsonKind::String => Size::Text,
            BsonKind::Binary => Size::unbounded(Reason::Binary),
            BsonKind::Map => Size::unbounded(Reason::Map),
            BsonKind::Object | BsonKind::Array | BsonKind::Other => Size::unbounded(Reason::Free),
        }
    }

    /// An array of elements of type size `item`, bounded by its field. Strings without a bound of their own are
    /// [`Reason::TextItems`]: the array's field cannot bound them, their type can.
    pub const fn array_of(item: Size) -> Size {
        match item {
            Size::Text => Size::Array {
                item: Budget::Unbounded(Unbounded { reason: Reason::TextItems, holder: None, via: None }),
            },
            item => Size::Array { item: item.settle() },
        }
    }

    /// An array of exactly `len` elements of type size `item` (`[T; N]`).
    pub const fn fixed_array(item: Size, len: u64) -> Size {
        match item.settle() {
            Budget::AtMost(each) => Size::AtMost(array_bytes(len, each)),
            Budget::Unbounded(u) => Size::Unbounded(u),
        }
    }

    /// This size with the bounds a field declares (its validator keywords: `maxLength`, `maxItems`) applied.
    pub const fn bounded(self, keywords: &[(&str, i64)]) -> Size {
        let mut i = 0;
        while i < keywords.len() {
            let (keyword, n) = keywords[i];
            let n = if n < 0 { 0 } else { n as u64 };
            match self {
                Size::Text if matches!(keyword.as_bytes(), b"maxLength") => {
                    return Size::AtMost(string_bytes(n));
                }
                Size::Array { item: Budget::AtMost(each) } if matches!(keyword.as_bytes(), b"maxItems") => {
                    return Size::AtMost(array_bytes(n, each));
                }
                _ => {}
            }
            i += 1;
        }
        self
    }

    /// The worst case as it stands: a string or an array whose field declares no bound has none.
    pub const fn settle(self) -> Budget {
        match self {
            Size::AtMost(n) => Budget::AtMost(n),
            Size::Text => Budget::Unbounded(Unbounded { reason: Reason::Text, holder: None, via: None }),
            Size::Array { item: Budget::Unbounded(u) } => Budget::Unbounded(u),
            Size::Array { .. } => Budget::Unbounded(Unbounded { reason: Reason::Items, holder: None, via: None }),
            Size::Unbounded(u) => Budget::Unbounded(u),
        }
    }
}

impl Budget {
    /// The bound in bytes, if there is one.
    pub const fn bytes(self) -> Option<u64> {
        match self {
            Budget::AtMost(n) => Some(n),
            Budget::Unbounded(_) => None,
        }
    }

    /// True when the worst case is over what MongoDB stores in one document ([`DOCUMENT_LIMIT`]).
    pub const fn exceeds_document_limit(self) -> bool {
        matches!(self, Budget::AtMost(n) if n > DOCUMENT_LIMIT)
    }

    /// As a [`Size`] (a type's budget, whatever field holds it).
    pub const fn size(self) -> Size {
        match self {
            Budget::AtMost(n) => Size::AtMost(n),
            Budget::Unbounded(u) => Size::Unbounded(u),
        }
    }
}

impl Reason {
    /// What has no bound, as messages say it.
    pub const fn describe(self) -> &'static str {
        match self {
            Reason::Text => "a string without a length bound (`max_len`)",
            Reason::TextItems => {
                "strings without a length bound (`max_len` on an array bounds nothing inside it; hold elements of a \
                 type that declares one: `#[derive(Embedded, Serialize, Deserialize)] struct Name(#[odm(max_len = N)] \
                 String);` and \
                 `Vec<Name>`)"
            }
            Reason::Items => "an array without a length bound (`max_items`)",
            Reason::Map => {
                "a map, whose keys and how many are chosen at run time, which no attribute bounds (for a bounded \
                 budget, hold its entries as an array: `#[derive(Embedded, Serialize, Deserialize)] struct Entry { \
                 #[odm(max_len = N)] key: String, value: V }`, `V` the map's value type, and `#[odm(max_items = N)] \
                 Vec<Entry>`)"
            }
            Reason::Free => "a value of any shape (a `bson::Document`, a `mixed` field, a converter's document)",
            Reason::Binary => "binary data, whose length odm does not bound",
            Reason::Undeclared => "a type whose `BsonSchema` impl does not declare its `SIZE`",
        }
    }
}

/// A string of at most `chars` characters: length, UTF-8 bytes at 4 a character, NUL.
pub const fn string_bytes(chars: u64) -> u64 {
    chars.saturating_mul(4).saturating_add(5)
}

/// An array of `count` elements of at most `each` bytes: a document whose keys are `"0"`, `"1"`, ….
pub const fn array_bytes(count: u64, each: u64) -> u64 {
    // Each element: type byte, key digits, NUL, value.
    let elements = count.saturating_mul(each.saturating_add(2)).saturating_add(digits_below(count));
    elements.saturating_add(5)
}

/// The number of decimal digits written for the keys `0`, `1`, …, `count - 1`.
const fn digits_below(count: u64) -> u64 {
    let (mut total, mut low, mut width) = (0u64, 0u64, 1u64);
    while low < count {
        // Keys of `width` digits run from `low` (0, 10, 100, …) up to, not including, `high`.
        let high = if low == 0 { 10 } else { low.saturating_mul(10) };
        let end = if count < high { count } else { high };
        total = total.saturating_add((end - low).saturating_mul(width));
        low = high;
        width += 1;
    }
    total
}

/// One element: type byte, key, NUL, value.
pub(crate) const fn element(key: &str, value: u64) -> u64 {
    value.saturating_add(key.len() as u64 + 2)
}
