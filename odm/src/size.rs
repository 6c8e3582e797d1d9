//! The document-size budget: the most bytes a stored document of a model can take, computed at compile time from the
//! bounds its types declare (rule [`model-size`](crate::rules#model-size)).
//!
//! Every type says what it knows about the stored size of its values in [`BsonSchema::SIZE`]: a fixed number of
//! bytes (`i32`: 4, `ObjectId`: 12), a string or an array whose bound the field declares (`max_len`, `max_items`), or
//! no bound at all (a map, a `bson::Document`, a `mixed` value). A derived struct's size is read from its field table
//! ([`document`]), so it costs no generated code: BSON's overhead (the 4-byte length and trailing 0 of a document,
//! each element's type byte and key) plus each field's worst case, the string bound counted at 4 bytes a character
//! (the validator's `maxLength` counts code points, and UTF-8 takes up to 4 bytes for one). A model whose worst case
//! is over [`DOCUMENT_LIMIT`] is refused at compile time on its largest field, unless it says
//! `#[odm(size_budget = "warn")]`; [`Model::size_budget`](crate::Model::size_budget) gives the budget at run time,
//! and every sync report lists it per model.
//!
//! ```
//! use odm::{Model, size::Budget};
//! #[derive(Model, serde::Serialize, serde::Deserialize)]
//! #[odm(collection = "shop_note")]
//! struct Note {
//!     #[serde(rename = "_id")]
//!     id: odm::bson::oid::ObjectId,
//!     #[serde(rename = "t")]
//!     #[odm(max_len = 10)]
//!     text: String,
//! }
//! // 4 + (1 + 4 + 12) + (1 + 2 + 4 + 4·10 + 1) + 1
//! assert_eq!(Note::size_budget(), Budget::AtMost(70));
//! assert_eq!(Note::size_budget().to_string(), "at most 70 bytes");
//! ```
//!
//! [`BsonSchema::SIZE`]: crate::BsonSchema::SIZE

mod text;

use text::Message;

use crate::kind::BsonKind;
use crate::meta::{FieldMeta, TypeMeta};
use crate::path::shared::same_str;
use std::fmt;

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
    /// An array without `max_items` (declared `unbounded`).
    Items,
    /// A map: its keys, and how many, are chosen at run time.
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

    /// An array of elements of type size `item`, bounded by its field.
    pub const fn array_of(item: Size) -> Size {
        Size::Array { item: item.settle() }
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
                Size::Text if same_str(keyword, "maxLength") => {
                    return Size::AtMost(string_bytes(n));
                }
                Size::Array { item: Budget::AtMost(each) } if same_str(keyword, "maxItems") => {
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

impl fmt::Display for Budget {
    /// `at most 8.3 KiB (8,397 bytes)`, or `unbounded: `Order.notes` holds a string without a length bound
    /// (`max_len`)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = Message::new();
        match *self {
            Budget::AtMost(n) => {
                m.push("at most ");
                m.size(n);
            }
            Budget::Unbounded(u) => {
                m.push("unbounded: ");
                m.unbounded(u);
            }
        }
        f.write_str(m.as_str())
    }
}

impl fmt::Display for Unbounded {
    /// `` `Order.items` holds `Line.notes`, which holds a string without a length bound (`max_len`) ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = Message::new();
        m.unbounded(*self);
        f.write_str(m.as_str())
    }
}

impl Reason {
    /// What has no bound, as messages say it.
    pub const fn describe(self) -> &'static str {
        match self {
            Reason::Text => "a string without a length bound (`max_len`)",
            Reason::Items => "an array without a length bound (`max_items`)",
            Reason::Map => "a map, whose keys are chosen at run time",
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
const fn element(key: &str, value: u64) -> u64 {
    value.saturating_add(key.len() as u64 + 2)
}

/// The worst case of one field of a table: its type's size with the field's bounds, tied to the field when it has
/// no bound (`owner` is the table's type name).
pub const fn field_value(owner: &'static str, field: &FieldMeta) -> Budget {
    match field.ty.size.bounded(field.keywords).settle() {
        Budget::AtMost(n) => Budget::AtMost(n),
        Budget::Unbounded(mut u) => {
            match u.holder {
                None => u.holder = Some((owner, field.name)),
                Some(_) => u.via = Some((owner, field.name)),
            }
            Budget::Unbounded(u)
        }
    }
}

/// The worst case of one field as an element of its document (type byte and key included).
const fn field_element(owner: &'static str, field: &FieldMeta) -> Budget {
    match field_value(owner, field) {
        Budget::AtMost(n) => Budget::AtMost(element(field.key, n)),
        unbounded => unbounded,
    }
}

/// The worst case of a document described by a field table: a struct, or a polymorphic model (its largest
/// variant). A model's document always has an `_id`: an ObjectId the driver adds when no field is stored as `_id`.
pub const fn document(meta: &TypeMeta) -> Budget {
    if !meta.variants.is_empty() {
        return largest_variant(meta.variants);
    }
    let mut total = 5u64;
    if let Some((tag, value)) = meta.tag {
        total = total.saturating_add(element(tag, string_value(value)));
    }
    let mut has_id = false;
    let mut i = 0;
    while i < meta.fields.len() {
        let field = &meta.fields[i];
        has_id = has_id || same_str(field.key, "_id");
        match field_element(meta.name, field) {
            Budget::AtMost(n) => total = total.saturating_add(n),
            unbounded => return unbounded,
        }
        i += 1;
    }
    if meta.implicit_id && !has_id {
        total = total.saturating_add(element("_id", 12));
    }
    Budget::AtMost(total)
}

/// The largest of the variants' documents; unbounded if any is.
const fn largest_variant(variants: &[TypeMeta]) -> Budget {
    let mut largest = 0u64;
    let mut i = 0;
    while i < variants.len() {
        match document(&variants[i]) {
            Budget::AtMost(n) if n > largest => largest = n,
            Budget::AtMost(_) => {}
            unbounded => return unbounded,
        }
        i += 1;
    }
    Budget::AtMost(largest)
}

/// A string whose bytes are known (a tag value, a unit variant's name).
const fn string_value(s: &str) -> u64 {
    s.len() as u64 + 5
}

/// The size of a derived struct's values: its document ([`document`]). A field table without fields of its own or
/// variants cannot be told from an empty struct, which is what it describes.
pub const fn of_table(meta: &TypeMeta) -> Size {
    document(meta).size()
}

/// An internally tagged newtype variant: the wrapped struct's document with the tag added to it.
pub const fn tagged(inner: Size, tag: &str, value: &str) -> Size {
    match inner.settle() {
        Budget::AtMost(n) => Size::AtMost(n.saturating_add(element(tag, string_value(value)))),
        Budget::Unbounded(u) => Size::Unbounded(u),
    }
}

/// An adjacently tagged variant `{tag: value, content: inner}` of the type `owner` (the content is a field of it).
pub const fn adjacent(owner: &'static str, tag: &str, value: &str, content: &'static str, inner: Size) -> Size {
    match inner.settle() {
        Budget::AtMost(n) => Size::AtMost(5 + element(tag, string_value(value)) + element(content, n)),
        Budget::Unbounded(mut u) => {
            match u.holder {
                None => u.holder = Some((owner, content)),
                Some(_) => u.via = Some((owner, content)),
            }
            Size::Unbounded(u)
        }
    }
}

/// The largest of an enum's variants; unbounded if any is.
pub const fn one_of(variants: &[Size]) -> Size {
    let mut largest = 0u64;
    let mut i = 0;
    while i < variants.len() {
        match variants[i].settle() {
            Budget::AtMost(n) if n > largest => largest = n,
            Budget::AtMost(_) => {}
            Budget::Unbounded(u) => return Size::Unbounded(u),
        }
        i += 1;
    }
    Size::AtMost(largest)
}

/// A model whose worst case is over [`DOCUMENT_LIMIT`], refused at compile time: where to point and what to say.
#[doc(hidden)]
pub struct Refusal {
    /// The stored field (for a struct) or variant (for a polymorphic model) the error points at, by its index in the
    /// field table; `usize::MAX` for the model itself.
    pub at: usize,
    message: Message,
}

impl Refusal {
    /// The error's text, ending with the rule id.
    pub const fn message(&self) -> &str {
        self.message.as_str()
    }
}

/// The refusal of a model `meta` whose worst case is `budget`, if it is over the limit. Used by generated code.
#[doc(hidden)]
pub const fn oversize(meta: Option<&TypeMeta>) -> Option<Refusal> {
    let Some(meta) = meta else { return None };
    let Budget::AtMost(total) = document(meta) else { return None };
    if total <= DOCUMENT_LIMIT {
        return None;
    }
    let mut m = Message::new();
    let (doc, at) = match largest_over(meta) {
        Some(v) => {
            m.push("variant `");
            m.push(meta.variants[v].name);
            m.push("`: ");
            (&meta.variants[v], v)
        }
        None => (meta, usize::MAX),
    };
    let Budget::AtMost(size) = document(doc) else { return None };
    m.push("one `");
    m.push(meta.name);
    m.push("` document can take ");
    m.size(size);
    m.push(" in the worst case, over the 16 MiB (16,777,216 bytes) MongoDB stores in one document");
    let at = match largest_field(doc) {
        Some((i, bytes)) => {
            m.push("; field `");
            m.push(doc.fields[i].name);
            m.push("` alone takes up to ");
            m.size(bytes);
            if meta.variants.is_empty() && bytes.saturating_mul(2) > size {
                i
            } else {
                at
            }
        }
        None => at,
    };
    m.push(
        ": lower the bounds of the largest fields (`max_items`, `max_len`, or those of the types they hold), or move \
         a large array into a collection of its own; to store such documents anyway, add \
         `#[odm(size_budget = \"warn\")]` to the model, and sync reports the budget instead (rule `model-size`)",
    );
    Some(Refusal { at, message: m })
}

/// The variant of a polymorphic model whose document is the largest, if it has variants.
const fn largest_over(meta: &TypeMeta) -> Option<usize> {
    let mut best: Option<(usize, u64)> = None;
    let mut i = 0;
    while i < meta.variants.len() {
        if let Budget::AtMost(n) = document(&meta.variants[i]) {
            match best {
                Some((_, b)) if b >= n => {}
                _ => best = Some((i, n)),
            }
        }
        i += 1;
    }
    match best {
        Some((i, _)) => Some(i),
        None => None,
    }
}

/// The field of a table taking the most bytes, with how many.
const fn largest_field(meta: &TypeMeta) -> Option<(usize, u64)> {
    let mut best: Option<(usize, u64)> = None;
    let mut i = 0;
    while i < meta.fields.len() {
        if let Budget::AtMost(n) = field_element(meta.name, &meta.fields[i]) {
            match best {
                Some((_, b)) if b >= n => {}
                _ => best = Some((i, n)),
            }
        }
        i += 1;
    }
    best
}

#[cfg(test)]
mod tests;
