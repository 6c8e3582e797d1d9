//! The field table of a derived type (`TypeMeta`, `FieldMeta`, `FieldType`, `field`), the lookups from stored keys to
//! Rust names (`rust_name`), and the walks over tables (`tables`). Users read the docs at `odm::meta` (src/meta.rs).

// The size budget of a field table: above the table, which names the size vocabulary.
pub(crate) mod tables;

use crate::base::counters::aggregate::Computed;
use crate::base::counters::CounterCheck;
use crate::base::index::DeclaredIndex;
use crate::base::kind::BsonKind;
use crate::base::size::{Reason, Size};
use bson::Document;

/// The fields of a derived struct: the one table generated per struct. Server errors are named in Rust terms from
/// it, the struct's validator fragment and counter checks are built from it, its typed paths read their stored keys
/// and counters from it, and other derives read it at compile time to resolve nested index paths (`items.name`).
#[derive(Debug)]
pub struct TypeMeta {
    /// The Rust type name.
    pub name: &'static str,
    /// Its stored fields, in declaration order.
    pub fields: &'static [FieldMeta],
    /// `Some(true)` for `#[odm(closed)]`, `Some(false)` for `#[odm(open)]`, `None` to follow the enclosing document.
    pub closed: Option<bool>,
    /// The doc comment, as the schema's `description`.
    pub description: Option<&'static str>,
    /// True for a collection model: every stored document has an `_id`, declared or not.
    pub implicit_id: bool,
    /// A struct model's collection name (or name template), which [`Model::COLLECTION`](crate::Model::COLLECTION)
    /// reads: held by the table, an entry of it costing the compiler less than an item of its own in every model.
    pub collection: Option<&'static str>,
    /// For a struct with serde's `tag`, or one variant of a polymorphic model: the tag key and the value serde
    /// writes under it.
    pub tag: Option<(&'static str, &'static str)>,
    /// For a polymorphic model (`#[derive(Model)]` on an internally tagged enum): one table per stored variant,
    /// each with its [`TypeMeta::tag`] (the discriminator key and the variant's value). Empty for a struct; then
    /// [`TypeMeta::fields`] are the document's, else every variant's document is told apart by its tag.
    pub variants: &'static [TypeMeta],
    /// The indexes a collection model declares as data (top-level keys, no option that needs a document), which
    /// [`Model::indexes`](crate::Model::indexes) builds: held by the table, since a table entry costs the compiler
    /// less than an item of its own in every model. Empty for other types, and for a model whose indexes its
    /// generated `indexes()` builds.
    pub indexes: &'static [DeclaredIndex],
}

/// One stored field.
#[derive(Debug)]
pub struct FieldMeta {
    /// The Rust field name.
    pub name: &'static str,
    /// The key serde writes (short key).
    pub key: &'static str,
    /// What the field's Rust type says about its stored form.
    pub ty: &'static FieldType,
    /// A BSON type fixed by a converter or `#[odm(bson_type)]` (`"string"`), overriding the type's own schema.
    pub fixed: Option<&'static str>,
    /// True when serialization may leave the key out (`skip_serializing_if`): not required, and `None` is `$unset`.
    pub optional: bool,
    /// For a counted array: the index in the table of the integer field kept equal to its length.
    pub counter: Option<usize>,
    /// For an array declared `keep_last`: how many elements pushes keep.
    pub keep_last: Option<u32>,
    /// True when an index over every document (not partial) of the model starts with this field, ascending,
    /// descending or hashed: an equality on its key is served by an index. Set by the derive; the subset pattern
    /// checks with it that an overflow model's owner field is indexed (rule
    /// [`array-overflow`](crate::rules#array-overflow)).
    pub leads_index: bool,
    /// For a `keep_last` array with an overflow collection (`#[odm(overflow(…))]`): pushes go through
    /// [`crate::subset::PushKeeping`], which keeps what they cut.
    pub overflows: bool,
    /// Integer keywords the field declares (`maxItems`, `minLength`, …), in the order they apply.
    pub keywords: &'static [(&'static str, i64)],
    /// True for `#[odm(nullable)]`: `null` is accepted too.
    pub nullable: bool,
    /// True for an array declared a set (`#[odm(unique_items)]`): the validator refuses duplicate elements.
    pub unique_items: bool,
    /// For an array: the fields of the same table computed from its elements (`#[odm(sum = "…")]`, `min`, `max`),
    /// kept in step by typed updates and checked by the validator (see [`crate::computed`]).
    pub computes: &'static [Computed],
    /// For a field holding the sum of other fields (`#[odm(sum = "subtotal, shipping")]`): their stored keys, which
    /// the validator adds up.
    pub sums: &'static [&'static str],
    /// The doc comment, as the field's `description`.
    pub description: Option<&'static str>,
}

/// What a Rust type says about its stored form, for the field tables: [`BsonSchema::FIELD_TYPE`] of the type.
///
/// [`BsonSchema::FIELD_TYPE`]: crate::BsonSchema::FIELD_TYPE
#[derive(Debug)]
pub struct FieldType {
    /// The type family.
    pub kind: BsonKind,
    /// For an array, its elements' type family.
    pub item: Option<BsonKind>,
    /// The field tables of an embedded type, looking through `Option`, `Vec`, `Box`, … (`None` for scalars).
    pub meta: fn() -> Option<&'static TypeMeta>,
    /// The validator fragment inside a closed document (or not).
    pub schema: fn(bool) -> Document,
    /// Whether values may carry keys chosen at run time, within a depth.
    pub dynamic_keys: fn(u8) -> bool,
    /// The counter checks of a value at an aggregation expression.
    pub counter_checks: fn(&str, usize, &mut Vec<CounterCheck>),
    /// The stored size of a value, before the field's bounds apply (see [`crate::size`]).
    pub size: Size,
}

fn no_meta() -> Option<&'static TypeMeta> {
    None
}
fn any_schema(_closed: bool) -> Document {
    Document::new()
}
fn keys_fixed(_depth: u8) -> bool {
    false
}
fn keys_chosen_at_run_time(_depth: u8) -> bool {
    true
}
fn no_counter_checks(_value: &str, _depth: usize, _out: &mut Vec<CounterCheck>) {}

/// [`FieldMeta::new`], under a short name for generated tables.
pub const fn field(name: &'static str, key: &'static str, ty: &'static FieldType) -> FieldMeta {
    FieldMeta::new(name, key, ty)
}

impl FieldType {
    /// A field whose BSON type a converter or `#[odm(bson_type)]` fixes: of family `kind`, no keys of its own.
    pub const fn fixed(kind: BsonKind) -> FieldType {
        FieldType {
            kind,
            item: None,
            meta: no_meta,
            schema: any_schema,
            dynamic_keys: keys_fixed,
            counter_checks: no_counter_checks,
            size: Size::of_kind(kind),
        }
    }

    /// A `#[odm(mixed)]` field: any value, keys chosen at run time.
    pub const MIXED: FieldType = FieldType {
        kind: BsonKind::Other,
        item: None,
        meta: no_meta,
        schema: any_schema,
        dynamic_keys: keys_chosen_at_run_time,
        counter_checks: no_counter_checks,
        size: Size::unbounded(Reason::Free),
    };
}

impl FieldMeta {
    /// A required field `name` stored under `key`, of a type described by `ty`. Generated code sets the rest with
    /// the builder methods below.
    pub const fn new(name: &'static str, key: &'static str, ty: &'static FieldType) -> FieldMeta {
        FieldMeta {
            name,
            key,
            ty,
            fixed: None,
            optional: false,
            counter: None,
            keep_last: None,
            leads_index: false,
            overflows: false,
            keywords: &[],
            nullable: false,
            unique_items: false,
            computes: &[],
            sums: &[],
            description: None,
        }
    }

    /// Stored as the BSON type `alias`, whatever the Rust type.
    pub const fn fixed(mut self, alias: &'static str) -> Self {
        self.fixed = Some(alias);
        self
    }

    /// May be left out by serialization.
    pub const fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// Counted by the field at `index` of the same table.
    pub const fn counter(mut self, index: usize) -> Self {
        self.counter = Some(index);
        self
    }

    /// Leads an index over every document.
    pub const fn leads_index(mut self) -> Self {
        self.leads_index = true;
        self
    }

    /// Pushes keep the last `n` elements.
    pub const fn keep_last(mut self, n: u32) -> Self {
        self.keep_last = Some(n);
        self
    }

    /// Keeps what pushes cut in an overflow collection.
    pub const fn overflows(mut self) -> Self {
        self.overflows = true;
        self
    }

    /// Integer schema keywords.
    pub const fn keywords(mut self, keywords: &'static [(&'static str, i64)]) -> Self {
        self.keywords = keywords;
        self
    }

    /// Accepts `null`.
    pub const fn nullable(mut self) -> Self {
        self.nullable = true;
        self
    }

    /// An array declared a set: `uniqueItems: true`.
    pub const fn unique_items(mut self) -> Self {
        self.unique_items = true;
        self
    }

    /// Holds the sum of the fields stored under `keys`.
    pub const fn sums(mut self, keys: &'static [&'static str]) -> Self {
        self.sums = keys;
        self
    }

    /// The fields computed from this array's elements, or from this field (a sum of fields).
    pub const fn computes(mut self, computes: &'static [Computed]) -> Self {
        self.computes = computes;
        self
    }

    /// The field's `description`.
    pub const fn describe(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    /// The metadata of the field's embedded type.
    pub fn nested(&self) -> Option<&'static TypeMeta> {
        (self.ty.meta)()
    }

    /// True for a map: the next segment of a stored path is a key chosen at run time, shown as `field["key"]`.
    pub fn is_map(&self) -> bool {
        self.ty.kind.is_map()
    }
}

impl TypeMeta {
    /// The table of struct `name` with these fields, following the enclosing document's `closed`.
    pub const fn new(name: &'static str, fields: &'static [FieldMeta]) -> TypeMeta {
        TypeMeta {
            name,
            fields,
            closed: None,
            description: None,
            implicit_id: false,
            collection: None,
            tag: None,
            variants: &[],
            indexes: &[],
        }
    }

    /// `#[odm(closed)]` (`true`) or `#[odm(open)]` (`false`).
    pub const fn closed(mut self, closed: bool) -> Self {
        self.closed = Some(closed);
        self
    }

    /// The struct's `description`.
    pub const fn describe(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    /// The indexes a collection model declares as data.
    pub const fn indexes(mut self, indexes: &'static [DeclaredIndex]) -> Self {
        self.indexes = indexes;
        self
    }

    /// A struct model stored in `collection` (see [`TypeMeta::model`]).
    pub const fn collection(mut self, collection: &'static str) -> Self {
        self.implicit_id = true;
        self.collection = Some(collection);
        self
    }

    /// A collection model: `_id` is in the schema even when undeclared.
    pub const fn model(mut self) -> Self {
        self.implicit_id = true;
        self
    }

    /// Serialized with serde's `tag`: `value` under `tag`, first.
    pub const fn tagged(mut self, tag: &'static str, value: &'static str) -> Self {
        self.tag = Some((tag, value));
        self
    }

    /// The table of a newtype variant `name` of a polymorphic model, holding the fields of the struct it wraps
    /// (whose table is `inner`; `None` for a type without one, which the derive refuses).
    pub const fn wrapping(name: &'static str, inner: Option<&'static TypeMeta>) -> TypeMeta {
        match inner {
            Some(inner) => TypeMeta { name, fields: inner.fields, closed: inner.closed, ..TypeMeta::new(name, &[]) },
            None => TypeMeta::new(name, &[]),
        }
    }

    /// A polymorphic model whose documents are these variants, each told apart by its tag.
    pub const fn variants(mut self, variants: &'static [TypeMeta]) -> Self {
        self.variants = variants;
        self
    }

    /// For a polymorphic model: the discriminator's stored key (the tag every variant writes).
    pub fn discriminator(&self) -> Option<&'static str> {
        Some(self.variants.first()?.tag?.0)
    }

    /// For a polymorphic model: the variant whose documents hold `value` under the discriminator.
    pub fn variant(&self, value: &str) -> Option<&'static TypeMeta> {
        self.variants.iter().find(|v| v.tag.is_some_and(|(_, t)| t == value))
    }

    /// The counted arrays of this type, as `(array, counter)` Rust names.
    pub fn counted_arrays(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.fields.iter().filter_map(|f| Some((f.name, self.fields.get(f.counter?)?.name)))
    }

    /// True when a field (of a polymorphic model, a variant's) is stored under `_id`. Apart from
    /// [`TypeMeta::field_by_key`]: the key is known here, so each comparison is a few instructions rather than a call.
    pub fn has_id(&self) -> bool {
        self.fields.iter().any(|f| f.key == "_id") || self.variants.iter().any(TypeMeta::has_id)
    }

    /// The field stored under `key`; for a polymorphic model, the first variant's that has one.
    pub fn field_by_key(&self, key: &str) -> Option<&'static FieldMeta> {
        self.fields.iter().find(|f| f.key == key).or_else(|| self.variants.iter().find_map(|v| v.field_by_key(key)))
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
                    current = f.nested();
                    map_key_next = f.is_map();
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

/// The Rust path under the type's name (`Order.items[0].quantity`) of the field at a stored path, when `meta` knows
/// it; segments it does not know are kept as stored.
pub(crate) fn rust_name(meta: Option<&'static TypeMeta>, stored: &str) -> Option<String> {
    let m = meta?;
    let rust = m.rust_path(stored.split('.'));
    (!rust.is_empty()).then(|| m.qualified(&rust))
}

/// [`rust_name`] only for a path whose every field segment `meta` knows (a path built from stored keys may reach
/// into a map): `None` otherwise.
pub(crate) fn rust_name_exact(meta: Option<&'static TypeMeta>, stored: &str) -> Option<String> {
    let m = meta?;
    let rust = m.rust_path_exact(stored)?;
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

/// A small field table for unit tests that name paths: `Order { items: Vec<Line> (counted by item_count), lines:
/// map of Line, item_count }`, `Line { price }`.
#[cfg(test)]
pub(crate) mod tests {
    use super::{FieldMeta, FieldType, TypeMeta};
    use crate::base::kind::BsonKind;

    fn line() -> Option<&'static TypeMeta> {
        Some(&LINE)
    }
    const SCALAR: FieldType = FieldType::fixed(BsonKind::Long);
    const LINES: FieldType = FieldType { kind: BsonKind::Array, item: Some(BsonKind::Object), meta: line, ..SCALAR };
    const LINE_MAP: FieldType = FieldType { kind: BsonKind::Map, meta: line, ..SCALAR };
    pub(crate) static LINE: TypeMeta = TypeMeta::new("Line", &[FieldMeta::new("price", "p", &SCALAR)]);
    pub(crate) static ORDER: TypeMeta = TypeMeta::new(
        "Order",
        &[
            FieldMeta::new("items", "it", &LINES).counter(2),
            FieldMeta::new("lines", "l", &LINE_MAP),
            FieldMeta::new("item_count", "ic", &SCALAR),
        ],
    );

    #[test]
    fn counted_arrays_name_their_counters() {
        assert_eq!(ORDER.counted_arrays().collect::<Vec<_>>(), [("items", "item_count")]);
    }

    #[test]
    fn stored_paths_in_messages_become_rust_paths() {
        assert_eq!(ORDER.rust_path_exact("it.$[big].p").as_deref(), Some("items[$[big]].price"));
        assert_eq!(ORDER.rust_path_exact("it.$[].p").as_deref(), Some("items[].price"));
        assert_eq!(ORDER.rust_path_exact("it.2.p").as_deref(), Some("items[2].price"));
        assert_eq!(ORDER.rust_path_exact("it.x"), None);
        // A map's next segment is a key chosen at run time; its value's fields are named again after it.
        assert_eq!(ORDER.rust_path_exact("l.home.p").as_deref(), Some("lines[\"home\"].price"));
        assert_eq!(ORDER.rust_path(["l", "a b", "p", "zz"]), "lines[\"a b\"].price.zz");
    }
}
