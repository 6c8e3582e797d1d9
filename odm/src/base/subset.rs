//! The subset pattern as declared: the [`Subset`] trait the derive implements, and the const check of an overflow model
//! against the element (rule `array-overflow`). The push that keeps what it cuts is `crate::driver::subset`. Users
//! read the docs at `odm::subset` (src/subset.rs).

use crate::base::kind::BsonKind;
use crate::base::meta::TypeMeta;
use crate::base::model::Model;
use crate::base::path::shared::same_str;
use crate::base::reference::fit::{by_key, by_name, field_fits};
use crate::base::schema::BsonSchema;
use crate::base::update::Update;

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

/// What does not fit in an overflow declaration, as [`overflow_fits`] finds it: the codes of a copy that does not
/// fit its source (the overflow model holds each element field as a copy holds its source's), and three more.
#[doc(hidden)]
pub mod fault {
    pub use crate::base::reference::misfit::{ABSENT, BOUNDS, MISSING, NONE, TYPE};
    /// The element is not a struct with named fields.
    pub const ELEMENT: u8 = 5;
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
        let fits = field_fits(o, e);
        if fits != fault::NONE {
            return fits;
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

/// Whether an index of the overflow model starts with its owner field `owner` (Rust name; its table entry's
/// [`FieldMeta::leads_index`]), so reading one owner's overflow uses it. Used by generated code, in const evaluation.
///
/// [`FieldMeta::leads_index`]: crate::meta::FieldMeta::leads_index
#[doc(hidden)]
pub const fn owner_indexed(overflow: Option<&TypeMeta>, owner: &str) -> bool {
    match overflow {
        Some(t) => match by_name(t, owner) {
            Some(field) => field.leads_index,
            None => false,
        },
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::meta::{FieldMeta, FieldType};

    const STRING: FieldType = <String as BsonSchema>::FIELD_TYPE;
    const INT: FieldType = <i32 as BsonSchema>::FIELD_TYPE;
    const OID: FieldType = <bson::oid::ObjectId as BsonSchema>::FIELD_TYPE;

    const fn table(fields: &'static [FieldMeta]) -> TypeMeta {
        TypeMeta::new("T", fields)
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

    #[test]
    fn the_owner_field_must_lead_an_index() {
        static INDEXED: TypeMeta = table(&[field("id", "_id", &OID), field("product", "pr", &OID).leads_index()]);
        static LEADS_ID: TypeMeta = table(&[field("id", "_id", &OID).leads_index(), field("product", "pr", &OID)]);
        assert!(owner_indexed(Some(&INDEXED), "product"));
        assert!(!owner_indexed(Some(&LEADS_ID), "product"), "another field leads the index");
        assert!(!owner_indexed(Some(&INDEXED), "shop"), "no such field");
        assert!(!owner_indexed(None, "product"), "no table");
    }
}
