//! The schema side of a derived struct, read from its field table ([`TypeMeta`]): its validator fragment, whether
//! its values may carry run-time keys, and its counter checks. Generated code only points at these with its table,
//! so each struct costs a table, not a copy of the walks.

use crate::base::counters::CounterCheck;
use crate::base::meta::{FieldMeta, TypeMeta};
use bson::{doc, Bson, Document};

/// The `{bsonType: "object", …}` fragment of the struct `meta` describes, inside a document that is `within`
/// closed (or not): its own `closed`/`open` wins.
pub fn object(meta: &TypeMeta, within: bool) -> Document {
    let closed = meta.closed.unwrap_or(within);
    if !meta.variants.is_empty() {
        return polymorphic(meta, closed);
    }
    let mut s = ObjectSchema::new();
    for p in properties(meta, closed) {
        s.field(p.key, p.schema, p.required);
    }
    s.finish(closed, meta.description)
}

/// The fragment of a tagged enum's struct variant, whose table `meta` holds the tag value serde writes into the
/// variant's document (`#[serde(tag = "t")]`), inside an enum that is `closed` (or not): the tag first, required to
/// hold that value, then the fields; `description` is the variant's.
pub fn tagged_variant(meta: &TypeMeta, closed: bool, description: Option<&str>) -> Document {
    let mut s = ObjectSchema::new();
    if let Some((tag, value)) = meta.tag {
        s.field(tag, doc! { "enum": [value] }, true);
    }
    for f in meta.fields {
        s.field(f.key, field_schema(f, closed), !f.optional);
    }
    s.finish(closed, description)
}

/// The fragment of an adjacently tagged enum's struct variant (`#[serde(tag = "t", content = "c")]`), inside an
/// enum that is `closed` (or not): the tag, required to hold `value`, and the variant's document, which `meta`
/// describes, under `content`; `description` is the variant's.
pub fn adjacent_variant(
    meta: &TypeMeta,
    tag: &str,
    value: &str,
    content: &str,
    closed: bool,
    description: Option<&str>,
) -> Document {
    let mut s = ObjectSchema::new();
    s.field(tag, doc! { "enum": [value] }, true);
    s.field(content, object(meta, closed), true);
    s.finish(closed, description)
}

/// One property of a struct's schema: its key, its fragment, whether it is required, and the field table of the
/// struct its value is (when it is one), for the validator's parts to read.
pub(crate) struct Property {
    pub(crate) key: &'static str,
    pub(crate) schema: Document,
    pub(crate) required: bool,
    pub(crate) meta: Option<&'static TypeMeta>,
}

/// The properties of the struct `meta` describes (not a polymorphic one), inside a document that is `closed`, in
/// the order its schema lists them: `_id` when implicit (every stored document has one, rule
/// [`id-objectid`](crate::rules#id-objectid)), an enum variant's tag, then the fields.
pub(crate) fn properties(meta: &TypeMeta, closed: bool) -> Vec<Property> {
    let mut out = Vec::with_capacity(meta.fields.len() + 2);
    let declared = |key: &str| meta.tag.is_some_and(|(tag, _)| tag == key) || meta.fields.iter().any(|f| f.key == key);
    if meta.implicit_id && !declared("_id") {
        out.push(Property { key: "_id", schema: doc! { "bsonType": "objectId" }, required: false, meta: None });
    }
    if let Some((tag, value)) = meta.tag {
        let schema = doc! { "bsonType": "string", "enum": [value] };
        out.push(Property { key: tag, schema, required: true, meta: None });
    }
    for f in meta.fields {
        let nested = if f.fixed.is_some() { None } else { (f.ty.meta)() };
        out.push(Property { key: f.key, schema: field_schema(f, closed), required: !f.optional, meta: nested });
    }
    out
}

/// The fragment of a polymorphic model: the discriminator names a variant, and `oneOf` the variants' documents, each
/// requiring its own tag value (rule [`poly-tagged`](crate::rules#poly-tagged)). The tag values differ, so at most
/// one branch can match: `oneOf` accepts exactly what `anyOf` would, and says that a document is one variant.
fn polymorphic(meta: &TypeMeta, closed: bool) -> Document {
    let tag = meta.discriminator().unwrap_or_default();
    let values: Vec<&str> = meta.variants.iter().filter_map(|v| Some(v.tag?.1)).collect();
    let branches: Vec<Document> = meta.variants.iter().map(|v| object(v, closed)).collect();
    let mut d = doc! { "bsonType": "object" };
    if let Some(desc) = meta.description {
        d.insert("description", desc);
    }
    d.insert("required", [tag]);
    d.insert("properties", doc! { tag: { "bsonType": "string", "enum": values } });
    d.insert("oneOf", branches);
    d
}

/// One field's fragment with the keywords it declares.
fn field_schema(f: &FieldMeta, closed: bool) -> Document {
    let mut schema = match f.fixed {
        Some(alias) => doc! { "bsonType": alias },
        None => (f.ty.schema)(closed),
    };
    for &(keyword, n) in f.keywords {
        schema.insert(keyword, n);
    }
    if f.unique_items {
        schema.insert("uniqueItems", true);
    }
    if f.nullable {
        schema = nullable(schema);
    }
    if let Some(description) = f.description {
        schema.insert("description", description);
    }
    schema
}

/// [`BsonSchema::dynamic_keys`](super::BsonSchema::dynamic_keys) of the struct: `true` at depth 0 (the safe side),
/// else when a field's type may carry run-time keys.
#[inline]
pub fn dynamic_keys(meta: &TypeMeta, depth: u8) -> bool {
    // A scalar kind holds no keys at all: only documents, arrays and unknown kinds are asked.
    depth == 0
        || meta.fields.iter().any(|f| !f.ty.kind.is_scalar() && (f.ty.dynamic_keys)(depth - 1))
        || meta.variants.iter().any(|v| dynamic_keys(v, depth))
}

/// [`BsonSchema::counter_checks`](super::BsonSchema::counter_checks) of the struct at the aggregation expression
/// `value` (`"$$e0"`): its fields' checks, then its own counters'.
pub fn counter_checks(meta: &TypeMeta, value: &str, depth: usize, out: &mut Vec<CounterCheck>) {
    checks_under(meta, &format!("{value}."), depth, out)
}

/// The checks of a struct whose fields are the expressions `<prefix><key>` (`"$"` for a model's own fields).
pub(crate) fn checks_under(meta: &TypeMeta, prefix: &str, depth: usize, out: &mut Vec<CounterCheck>) {
    for v in meta.variants {
        // Each variant's checks hold for its own documents only: guarded by the discriminator.
        let mut inner = Vec::new();
        checks_under(v, prefix, depth, &mut inner);
        if let Some((tag, value)) = v.tag {
            out.extend(inner.into_iter().map(|check| check.for_variant(&format!("{prefix}{tag}"), value)));
        }
    }
    for f in meta.fields {
        (f.ty.counter_checks)(&format!("{prefix}{}", f.key), depth, out);
    }
    for f in meta.fields {
        if let Some(counter) = f.counter.and_then(|c| meta.fields.get(c)) {
            out.push(CounterCheck::new(&format!("{prefix}{}", f.key), &format!("{prefix}{}", counter.key)));
        }
        if !f.sums.is_empty() {
            let inputs: Vec<String> = f.sums.iter().map(|k| format!("{prefix}{k}")).collect();
            out.push(CounterCheck::sum_of_fields(&inputs, &format!("{prefix}{}", f.key)));
        }
        // A field a sum of fields adds up carries that sum too, for updates; its check is the sum's own.
        for c in f.computes.iter().filter(|c| !c.addend) {
            let array = format!("{prefix}{}", f.key);
            out.push(CounterCheck::computed(c.aggregate, &array, c.of, &format!("{prefix}{}", c.key)));
        }
    }
}

/// An object schema under construction (field order is preserved, as serialization writes it).
pub struct ObjectSchema {
    properties: Document,
    required: Vec<Bson>,
}

impl Default for ObjectSchema {
    fn default() -> Self {
        Self::new()
    }
}

impl ObjectSchema {
    /// An empty object schema.
    pub fn new() -> Self {
        ObjectSchema { properties: Document::new(), required: Vec::new() }
    }

    /// Adds a property; `required` when serialization always writes it.
    pub fn field(&mut self, key: &str, schema: Document, required: bool) -> &mut Self {
        self.properties.insert(key, schema);
        if required {
            self.required.push(Bson::String(key.to_owned()));
        }
        self
    }

    /// Adds `_id: objectId` unless the model declares its own `_id` field (every stored document has one; rule
    /// [`id-objectid`](crate::rules#id-objectid)).
    pub fn implicit_id(&mut self) -> &mut Self {
        if !self.properties.contains_key("_id") {
            let mut props = doc! { "_id": { "bsonType": "objectId" } };
            props.extend(std::mem::take(&mut self.properties));
            self.properties = props;
        }
        self
    }

    /// The finished `{bsonType: "object", …}` document.
    pub fn finish(&mut self, closed: bool, description: Option<&str>) -> Document {
        let mut d = doc! { "bsonType": "object" };
        if let Some(desc) = description {
            d.insert("description", desc);
        }
        if !self.required.is_empty() {
            d.insert("required", std::mem::take(&mut self.required));
        }
        d.insert("properties", std::mem::take(&mut self.properties));
        if closed {
            d.insert("additionalProperties", false);
        }
        d
    }
}

/// Adds `null` as an accepted value (`#[odm(nullable)]`, rule [`type-option-absent`](crate::rules#type-option-absent)).
pub fn nullable(mut schema: Document) -> Document {
    if let Ok(list) = schema.get_array_mut("enum") {
        list.push(Bson::Null);
        return schema;
    }
    if schema.contains_key("oneOf") {
        return doc! { "anyOf": [schema, { "bsonType": "null" }] };
    }
    match schema.get("bsonType").cloned() {
        Some(Bson::String(t)) => {
            schema.insert("bsonType", vec![Bson::String(t), Bson::String("null".into())]);
        }
        Some(Bson::Array(mut ts)) => {
            ts.push(Bson::String("null".into()));
            schema.insert("bsonType", ts);
        }
        _ => {}
    }
    schema
}

#[cfg(test)]
mod variant_tests {
    use super::{adjacent_variant, tagged_variant, ObjectSchema};
    use crate::base::meta::{FieldMeta, TypeMeta};
    use crate::base::schema::build::{describe, field_of, with};
    use crate::base::schema::BsonSchema;
    use bson::{doc, Document, RawDocumentBuf};

    const FIELDS: &[FieldMeta] = &[
        field_of::<i32>("count", "n"),
        field_of::<Option<String>>("note", "t").optional().keywords(&[("maxLength", 8)]).describe("A note."),
    ];

    fn bytes(d: &Document) -> Vec<u8> {
        RawDocumentBuf::try_from(d).expect("encodes").into_bytes()
    }

    /// The fields as an enum's validator lists them, each through its type's own fragment.
    fn add_fields(s: &mut ObjectSchema, closed: bool) {
        s.field("n", i32::bson_schema_within(closed), true);
        let note = with(Option::<String>::bson_schema_within(closed), "maxLength", 8);
        s.field("t", describe(note, "A note."), false);
    }

    /// A struct variant's fragment, read from its table, is the tag (holding the variant's value) and then the
    /// fields, byte for byte, closed when the enum is; adjacently tagged, the fields sit under `content`.
    #[test]
    fn a_struct_variants_fragment_is_its_tag_then_its_fields() {
        for closed in [false, true] {
            let mut s = ObjectSchema::new();
            s.field("k", doc! { "enum": ["card"] }, true);
            add_fields(&mut s, closed);
            let tagged = TypeMeta::new("Pay::Card", FIELDS).tagged("k", "card");
            let expected = s.finish(closed, Some("Paid by card."));
            assert_eq!(bytes(&tagged_variant(&tagged, closed, Some("Paid by card."))), bytes(&expected));

            let mut inner = ObjectSchema::new();
            add_fields(&mut inner, closed);
            let mut s = ObjectSchema::new();
            s.field("t", doc! { "enum": ["Moved"] }, true);
            s.field("c", inner.finish(closed, None), true);
            let untagged = TypeMeta::new("Event::Moved", FIELDS);
            let expected = s.finish(closed, None);
            assert_eq!(bytes(&adjacent_variant(&untagged, "t", "Moved", "c", closed, None)), bytes(&expected));
        }
    }
}
