//! The declaration of the subset pattern: the [`Subset`] trait the derive implements, and the const check of an
//! overflow model against the element (rule `array-overflow`).

use crate::kind::BsonKind;
use crate::meta::TypeMeta;
use crate::model::Model;
use crate::path::shared::{same_str, stored_alike};
use crate::reference::fit::bounds_cover;
use crate::schema::BsonSchema;
use crate::update::Update;

/// A model with an array declared `#[odm(max_items = N, keep_last, overflow(model = "O", owner = "…"))]`: the
/// array keeps the latest `N` elements, and the overflow model `O` keeps all of them. Implemented by the derive.
pub trait Subset<O: Model>: Model {
    /// The array's element type.
    type Element: BsonSchema + serde::Serialize;
    /// The Rust name of `O`'s field that holds the owner's `_id`.
    const OWNER: &'static str;

    /// The update that pushes `element` onto the array, keeping the last `N` elements (`$push` with `$each` and
    /// `$slice`), as [`Update::push`] writes it for the array.
    fn push_element(element: Self::Element) -> Update<Self>;
}

/// What does not fit in an overflow declaration, as [`overflow_fits`] finds it.
#[doc(hidden)]
pub mod fault {
    /// The declaration fits.
    pub const NONE: u8 = 0;
    /// The element is not a struct with named fields.
    pub const ELEMENT: u8 = 1;
    /// The overflow model has no field under one of the element's keys.
    pub const MISSING: u8 = 2;
    /// The overflow model stores one of the element's fields as another BSON type.
    pub const TYPE: u8 = 3;
    /// The element may leave a field absent or `null`, and the overflow model may not.
    pub const ABSENT: u8 = 4;
    /// The overflow model bounds one of the element's fields more narrowly.
    pub const BOUNDS: u8 = 5;
    /// The overflow model requires a field that is neither the element's, the owner, nor `_id`.
    pub const EXTRA: u8 = 6;
    /// The overflow model's `_id` is not an `ObjectId`.
    pub const ID: u8 = 7;
}

/// Whether the overflow model's table `overflow` holds documents built from an element of table `element`, its
/// owner field `owner` (Rust name) and a new `ObjectId` `_id` (a [`fault`] code). Used by generated code, in const
/// evaluation.
#[doc(hidden)]
pub const fn overflow_fits(element: Option<&TypeMeta>, overflow: Option<&TypeMeta>, owner: &str) -> u8 {
    let Some(element) = element else { return fault::ELEMENT };
    let Some(overflow) = overflow else { return fault::MISSING };
    if element.fields.is_empty() || !element.variants.is_empty() {
        return fault::ELEMENT;
    }
    let mut i = 0;
    while i < element.fields.len() {
        let e = &element.fields[i];
        let Some(o) = by_key(overflow, e.key) else { return fault::MISSING };
        if !stored_alike(o, e) {
            return fault::TYPE;
        }
        if (e.optional && !o.optional) || (e.nullable && !o.nullable) {
            return fault::ABSENT;
        }
        if !bounds_cover(o, e) {
            return fault::BOUNDS;
        }
        i += 1;
    }
    let mut i = 0;
    while i < overflow.fields.len() {
        let o = &overflow.fields[i];
        if same_str(o.key, "_id") {
            if o.ty.kind as u8 != BsonKind::ObjectId as u8 || o.fixed.is_some() {
                return fault::ID;
            }
        } else if !same_str(o.name, owner) && by_key(element, o.key).is_none() && !o.optional {
            return fault::EXTRA;
        }
        i += 1;
    }
    fault::NONE
}

const fn by_key<'a>(table: &'a TypeMeta, key: &str) -> Option<&'a crate::meta::FieldMeta> {
    let mut i = 0;
    while i < table.fields.len() {
        if same_str(table.fields[i].key, key) {
            return Some(&table.fields[i]);
        }
        i += 1;
    }
    None
}

/// The stored key of `O`'s owner field: the Rust name [`Subset::OWNER`] gives, as `O`'s field table stores it.
#[cfg(feature = "driver")]
pub(super) fn owner_key<M: Subset<O>, O: Model>() -> &'static str {
    O::type_meta().and_then(|t| crate::reference::fit::by_name(t, M::OWNER)).map_or(M::OWNER, |f| f.key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::{FieldMeta, FieldType};

    const STRING: FieldType = <String as BsonSchema>::FIELD_TYPE;
    const INT: FieldType = <i32 as BsonSchema>::FIELD_TYPE;
    const OID: FieldType = <bson::oid::ObjectId as BsonSchema>::FIELD_TYPE;

    const fn table(fields: &'static [FieldMeta]) -> TypeMeta {
        TypeMeta { name: "T", fields, closed: None, description: None, implicit_id: false, tag: None, variants: &[] }
    }

    const fn field(name: &'static str, key: &'static str, ty: &'static FieldType) -> FieldMeta {
        FieldMeta::new(name, key, ty)
    }

    const fn optional(mut f: FieldMeta) -> FieldMeta {
        f.optional = true;
        f
    }

    static ELEMENT: TypeMeta = table(&[field("author", "by", &STRING), field("stars", "s", &INT)]);

    #[test]
    fn an_overflow_model_fits_when_it_holds_every_element_field_the_owner_and_an_object_id() {
        static FITS: TypeMeta = table(&[
            field("id", "_id", &OID),
            field("product", "pr", &OID),
            field("author", "by", &STRING),
            field("stars", "s", &INT),
            optional(field("note", "nt", &STRING)),
        ]);
        assert_eq!(overflow_fits(Some(&ELEMENT), Some(&FITS), "product"), fault::NONE);
    }

    #[test]
    fn each_misfit_is_named() {
        static MISSING: TypeMeta = table(&[field("id", "_id", &OID), field("author", "by", &STRING)]);
        static RENAMED: TypeMeta =
            table(&[field("id", "_id", &OID), field("author", "a", &STRING), field("stars", "s", &INT)]);
        static TYPE: TypeMeta = table(&[field("author", "by", &STRING), field("stars", "s", &STRING)]);
        static EXTRA: TypeMeta =
            table(&[field("author", "by", &STRING), field("stars", "s", &INT), field("note", "nt", &STRING)]);
        static ID: TypeMeta =
            table(&[field("id", "_id", &STRING), field("author", "by", &STRING), field("stars", "s", &INT)]);
        let fits = |o: &'static TypeMeta| overflow_fits(Some(&ELEMENT), Some(o), "product");
        assert_eq!(fits(&MISSING), fault::MISSING);
        assert_eq!(fits(&RENAMED), fault::MISSING, "matched by stored key, not by Rust name");
        assert_eq!(fits(&TYPE), fault::TYPE);
        assert_eq!(fits(&EXTRA), fault::EXTRA);
        assert_eq!(fits(&ID), fault::ID);
        assert_eq!(overflow_fits(None, Some(&MISSING), "product"), fault::ELEMENT);
    }
}
