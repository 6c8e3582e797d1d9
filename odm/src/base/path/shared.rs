//! Paths to the fields every variant of a polymorphic model shares, when some variants are newtype variants: the
//! derive of the enum cannot see the fields of the structs those wrap, so whether they store a field alike is
//! decided by the compiler from the structs' field tables (`const` context), and a shared path's method requires it
//! when it is called.

use crate::base::meta::{FieldMeta, TypeMeta};
use std::marker::PhantomData;

/// True when `wrapped` (the field table of a newtype variant's struct) has a stored field of `model`'s variant
/// `variant` at `index` (the field table of a polymorphic model): same Rust name, same key, same stored type (BSON
/// type, element type, a converter's fixed type), equally optional and nullable. Used by generated code.
#[doc(hidden)]
pub const fn stores_alike(wrapped: Option<&TypeMeta>, model: Option<&TypeMeta>, variant: usize, index: usize) -> bool {
    let (Some(wrapped), Some(model)) = (wrapped, model) else { return false };
    if variant >= model.variants.len() || index >= model.variants[variant].fields.len() {
        return false;
    }
    let like = &model.variants[variant].fields[index];
    let mut i = 0;
    while i < wrapped.fields.len() {
        let field = &wrapped.fields[i];
        if same_str(field.name, like.name) {
            return alike(field, like);
        }
        i += 1;
    }
    false
}

/// Two fields stored the same way, under the same key.
const fn alike(a: &FieldMeta, b: &FieldMeta) -> bool {
    same_str(a.key, b.key) && stored_alike(a, b) && a.optional == b.optional && a.nullable == b.nullable
}

/// Two values of the same stored type: BSON type, element type, a converter's fixed type.
pub(crate) const fn stored_alike(a: &FieldMeta, b: &FieldMeta) -> bool {
    let item = match (a.ty.item, b.ty.item) {
        (None, None) => true,
        (Some(x), Some(y)) => x as u8 == y as u8,
        _ => false,
    };
    let fixed = match (a.fixed, b.fixed) {
        (None, None) => true,
        (Some(x), Some(y)) => same_str(x, y),
        _ => false,
    };
    a.ty.kind as u8 == b.ty.kind as u8 && item && fixed
}

/// Whether two strings are equal, in const evaluation (`==` on `str` is not `const`). Used by generated code.
#[doc(hidden)]
pub const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether a newtype variant's struct stores a shared field alike (`OK`, from [`stores_alike`]), below the path
/// `P` of the method that requires it: naming `P` defers the requirement to the method's call. Used by generated
/// code.
#[doc(hidden)]
pub struct Shared<const OK: bool, P>(PhantomData<P>);

/// The struct `Self` of a newtype variant stores the field of a shared path alike (see [`Shared`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}`, wrapped by a newtype variant, does not store this field as the other variants do, so it \
               has no path shared by every variant (rule `poly-shared`)",
    label = "not a field every variant shares",
    note = "a path on the model (`Model::fields().field()`) names a field every variant stores under the same key \
            with the same type, in struct variants and in the structs newtype variants wrap; declare the field alike \
            in `{Self}`, or take one variant's path (`Model::fields().variant().field()`), which matches that \
            variant's documents only"
)]
#[doc(hidden)]
pub trait SharesField<S> {}
impl<T, P> SharesField<Shared<true, P>> for T {}

#[cfg(test)]
mod tests {
    use super::stores_alike;
    use crate::base::meta::{FieldMeta, TypeMeta};
    use crate::base::schema::BsonSchema;

    const fn table(name: &'static str, fields: &'static [FieldMeta], variants: &'static [TypeMeta]) -> TypeMeta {
        TypeMeta { variants, ..TypeMeta::new(name, fields) }
    }

    const USER: FieldMeta = FieldMeta::new("user", "u", &<String as BsonSchema>::FIELD_TYPE);
    const CLICK: &[TypeMeta] = &[table("Click", &[USER], &[])];
    const MODEL: TypeMeta = table("Event", &[], CLICK);

    #[test]
    fn a_wrapped_struct_shares_a_field_stored_under_the_same_key_with_the_same_type() {
        const SAME: TypeMeta = table("Signup", &[USER], &[]);
        const OTHER_KEY: TypeMeta =
            table("Signup", &[FieldMeta::new("user", "usr", &<String as BsonSchema>::FIELD_TYPE)], &[]);
        const OTHER_TYPE: TypeMeta =
            table("Signup", &[FieldMeta::new("user", "u", &<i64 as BsonSchema>::FIELD_TYPE)], &[]);
        const OPTIONAL: TypeMeta = table(
            "Signup",
            &[FieldMeta::new("user", "u", &<Option<String> as BsonSchema>::FIELD_TYPE).optional()],
            &[],
        );
        const MISSING: TypeMeta = table("Signup", &[], &[]);
        assert!(stores_alike(Some(&SAME), Some(&MODEL), 0, 0));
        for other in [&OTHER_KEY, &OTHER_TYPE, &OPTIONAL, &MISSING] {
            assert!(!stores_alike(Some(other), Some(&MODEL), 0, 0), "{}", other.fields.len());
        }
        // Out of the table, or no table: not shared.
        assert!(!stores_alike(Some(&SAME), Some(&MODEL), 1, 0));
        assert!(!stores_alike(None, Some(&MODEL), 0, 0));
    }
}
