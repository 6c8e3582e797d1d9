//! Whether a copy fits its source, decided by the compiler over both field tables (rule
//! [`copy-bounds`](crate::rules#copy-bounds)): const functions the generated assertions call.

use crate::base::kind::BsonKind;
use crate::base::meta::{FieldMeta, TypeMeta};
use crate::base::path::shared::{same_str, stored_alike};
#[cfg(test)]
use crate::base::schema::BsonSchema;

/// Why a copied field does not fit its source, as [`copy_fits`] finds it.
#[doc(hidden)]
pub mod misfit {
    /// The copy fits.
    pub const NONE: u8 = 0;
    /// The source has no stored field of that name.
    pub const MISSING: u8 = 1;
    /// The source stores it as another BSON type (or element type, or converter).
    pub const TYPE: u8 = 2;
    /// The source may leave it absent or `null`, and the copy may not.
    pub const ABSENT: u8 = 3;
    /// The copy's bounds are narrower than the source's: some source value would not fit.
    pub const BOUNDS: u8 = 4;
}

/// How the copied field `field` of the table `copy` fits the source's field of the same Rust name in `source`
/// (a [`misfit`] code). Used by generated code, in const evaluation.
#[doc(hidden)]
pub const fn copy_fits(copy: Option<&TypeMeta>, source: Option<&TypeMeta>, field: &str) -> u8 {
    let (Some(copy), Some(source)) = (copy, source) else { return misfit::MISSING };
    let (Some(c), Some(s)) = (by_name(copy, field), by_name(source, field)) else { return misfit::MISSING };
    field_fits(c, s)
}

/// How the field `copy` holds every value of the field `source` (a [`misfit`] code, never `MISSING`): stored alike,
/// present and non-null where the source is, bounds at least as wide.
pub(crate) const fn field_fits(copy: &FieldMeta, source: &FieldMeta) -> u8 {
    if !stored_alike(copy, source) {
        return misfit::TYPE;
    }
    if (source.optional && !copy.optional) || (source.nullable && !copy.nullable) {
        return misfit::ABSENT;
    }
    if !bounds_cover(copy, source) {
        return misfit::BOUNDS;
    }
    misfit::NONE
}

/// Whether the copy's field `by` stores the source's `_id` as the source does (an `objectId` when the source
/// declares none). Used by generated code.
#[doc(hidden)]
pub const fn id_fits(copy: Option<&TypeMeta>, source: Option<&TypeMeta>, by: &str) -> bool {
    let (Some(copy), Some(source)) = (copy, source) else { return false };
    let Some(c) = by_name(copy, by) else { return false };
    let mut i = 0;
    while i < source.fields.len() {
        if same_str(source.fields[i].key, "_id") {
            return stored_alike(c, &source.fields[i]);
        }
        i += 1;
    }
    source.implicit_id && c.ty.kind as u8 == BsonKind::ObjectId as u8 && c.fixed.is_none()
}

/// The field of `table` whose Rust name is `name`.
pub(crate) const fn by_name<'a>(table: &'a TypeMeta, name: &str) -> Option<&'a FieldMeta> {
    lookup(table, name, false)
}

/// The field of `table` stored under `key`.
pub(crate) const fn by_key<'a>(table: &'a TypeMeta, key: &str) -> Option<&'a FieldMeta> {
    lookup(table, key, true)
}

const fn lookup<'a>(table: &'a TypeMeta, wanted: &str, stored: bool) -> Option<&'a FieldMeta> {
    let mut i = 0;
    while i < table.fields.len() {
        let field = &table.fields[i];
        if same_str(if stored { field.key } else { field.name }, wanted) {
            return Some(field);
        }
        i += 1;
    }
    None
}

/// Every value within the source's bounds is within the copy's: each `max…` of the copy is at least the source's
/// (and the source has one), each `min…` at most the source's.
const fn bounds_cover(copy: &FieldMeta, source: &FieldMeta) -> bool {
    let mut i = 0;
    while i < copy.keywords.len() {
        let (keyword, limit) = copy.keywords[i];
        let is_max = keyword.len() > 3 && keyword.as_bytes()[0] == b'm' && keyword.as_bytes()[1] == b'a';
        match keyword_value(source, keyword) {
            Some(theirs) if is_max && theirs > limit => return false,
            Some(theirs) if !is_max && theirs < limit => return false,
            None if is_max => return false,
            // A minimum the source does not have: a shorter source value would not fit.
            None if limit > 0 => return false,
            _ => {}
        }
        i += 1;
    }
    true
}

const fn keyword_value(field: &FieldMeta, keyword: &str) -> Option<i64> {
    let mut i = 0;
    while i < field.keywords.len() {
        if same_str(field.keywords[i].0, keyword) {
            return Some(field.keywords[i].1);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::meta::{FieldMeta, FieldType};

    const STRING: FieldType = <String as BsonSchema>::FIELD_TYPE;
    const LONG: FieldType = <i64 as BsonSchema>::FIELD_TYPE;

    const fn table(fields: &'static [FieldMeta]) -> TypeMeta {
        TypeMeta::new("T", fields)
    }

    const fn bounded(name: &'static str, ty: &'static FieldType, kw: &'static [(&'static str, i64)]) -> FieldMeta {
        let mut f = FieldMeta::new(name, "k", ty);
        f.keywords = kw;
        f
    }

    #[test]
    fn a_copy_fits_when_it_accepts_every_source_value() {
        static SOURCE: TypeMeta = table(&[bounded("name", &STRING, &[("maxLength", 40)])]);
        static WIDER: TypeMeta = table(&[bounded("name", &STRING, &[("maxLength", 80)])]);
        static UNBOUNDED: TypeMeta = table(&[bounded("name", &STRING, &[])]);
        static NARROWER: TypeMeta = table(&[bounded("name", &STRING, &[("maxLength", 20)])]);
        static OTHER_TYPE: TypeMeta = table(&[bounded("name", &LONG, &[])]);
        static WITH_MIN: TypeMeta = table(&[bounded("name", &STRING, &[("minLength", 1), ("maxLength", 40)])]);
        let fits = |copy: &'static TypeMeta| copy_fits(Some(copy), Some(&SOURCE), "name");
        assert_eq!(fits(&WIDER), misfit::NONE);
        assert_eq!(fits(&UNBOUNDED), misfit::NONE);
        assert_eq!(fits(&NARROWER), misfit::BOUNDS);
        assert_eq!(fits(&OTHER_TYPE), misfit::TYPE);
        assert_eq!(fits(&WITH_MIN), misfit::BOUNDS, "an empty source name would not fit");
        assert_eq!(copy_fits(Some(&SOURCE), Some(&UNBOUNDED), "name"), misfit::BOUNDS, "the source is unbounded");
        assert_eq!(copy_fits(Some(&WIDER), Some(&SOURCE), "title"), misfit::MISSING);
    }
}
