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
