//! The walks over field tables: a derived struct's document, a polymorphic model's largest variant, an embedded
//! enum's variants, and the refusal of a model over the limit with its message.

use crate::base::meta::{FieldMeta, TypeMeta};
use crate::base::size::budget::{element, Budget, Size, Unbounded, DOCUMENT_LIMIT};
use crate::base::size::text::Message;

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
    match walk(meta) {
        (bytes, None) => Budget::AtMost(bytes),
        (_, Some(u)) => Budget::Unbounded(u),
    }
}

/// A document's bytes, counting its bounded parts only, and its first part without a bound, if any: with none, the
/// bytes are its worst case; with one, what its bounded parts alone take (so a document is known to be over the
/// limit even when one of its parts has no bound). Of a polymorphic model, the largest variant's.
const fn walk(meta: &TypeMeta) -> (u64, Option<Unbounded>) {
    if !meta.variants.is_empty() {
        let (mut largest, mut first) = (0u64, None);
        let mut i = 0;
        while i < meta.variants.len() {
            let (bytes, unbounded) = walk(&meta.variants[i]);
            if bytes > largest {
                largest = bytes;
            }
            if first.is_none() {
                first = unbounded;
            }
            i += 1;
        }
        return (largest, first);
    }
    let mut total = 5u64;
    if let Some((tag, value)) = meta.tag {
        total = total.saturating_add(element(tag, string_value(value)));
    }
    let (mut has_id, mut first) = (false, None);
    let mut i = 0;
    while i < meta.fields.len() {
        let field = &meta.fields[i];
        has_id = has_id || matches!(field.key.as_bytes(), b"_id");
        match field_element(meta.name, field) {
            Budget::AtMost(n) => total = total.saturating_add(n),
            Budget::Unbounded(u) => {
                if first.is_none() {
                    first = Some(u);
                }
            }
        }
        i += 1;
    }
    if meta.implicit_id && !has_id {
        total = total.saturating_add(element("_id", 12));
    }
    (total, first)
}

/// A string whose bytes are known (a tag value, a unit variant's name).
const fn string_value(s: &str) -> u64 {
    s.len() as u64 + 5
}

/// The size of a derived struct's values: its document ([`document`]). Used by generated code and by
/// [`BsonSchema::SIZE`](crate::BsonSchema::SIZE).
#[doc(hidden)]
pub const fn of_table(meta: &TypeMeta) -> Size {
    document(meta).size()
}

/// An internally tagged newtype variant: the wrapped struct's document with the tag added to it.
#[doc(hidden)]
pub const fn tagged(inner: Size, tag: &str, value: &str) -> Size {
    match inner.settle() {
        Budget::AtMost(n) => Size::AtMost(n.saturating_add(element(tag, string_value(value)))),
        Budget::Unbounded(u) => Size::Unbounded(u),
    }
}

/// An adjacently tagged variant `{tag: value, content: inner}` of the type `owner` (the content is a field of it).
#[doc(hidden)]
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
#[doc(hidden)]
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

/// Fails the compile-time evaluation with the refusal's message when it points at the stored field (or variant)
/// `at`. `#[track_caller]`, as are its callers (`schema::build::refuse_at`), so the error points at the generated
/// call, which carries that field's span: one call per field that may take most of a document, before [`refuse`].
#[doc(hidden)]
#[track_caller]
pub const fn refuse_at(meta: Option<&TypeMeta>, at: usize) {
    if let Some(r) = oversize(meta) {
        if r.at == at {
            panic!("{}", r.message())
        }
    }
}

/// Fails the compile-time evaluation with the refusal's message, if there is one: at the model, when no call of
/// [`refuse_at`] before it took the refusal (through `schema::build::refuse`, `#[track_caller]` too).
#[doc(hidden)]
#[track_caller]
pub const fn refuse(meta: Option<&TypeMeta>) {
    if let Some(r) = oversize(meta) {
        panic!("{}", r.message())
    }
}

/// The refusal of the model whose field table is `meta`, if its worst case is over the limit. Used by generated
/// code.
#[doc(hidden)]
pub const fn oversize(meta: Option<&TypeMeta>) -> Option<Refusal> {
    let Some(meta) = meta else { return None };
    // Parts without a bound do not keep a document whose bounded parts are over the limit from being refused.
    if walk(meta).0 <= DOCUMENT_LIMIT {
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
    let (size, unbounded) = walk(doc);
    m.push("one `");
    m.push(meta.name);
    m.push(if unbounded.is_some() { "` document can take more than " } else { "` document can take " });
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
        let (n, _) = walk(&meta.variants[i]);
        match best {
            Some((_, b)) if b >= n => {}
            _ => best = Some((i, n)),
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
