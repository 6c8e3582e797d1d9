//! The `$jsonSchema` side of a type: what serialization writes, as a validator fragment.
//!
//! [`BsonSchema`] is implemented for every std and `bson` type odm can store faithfully (in the crate's `impls`
//! module, above `path` and `diff`) and by `#[derive(Model)]` / `#[derive(Embedded)]` for user types. A type
//! without an impl cannot be a field, and the compiler says so at the field. The mapping follows what `bson`'s
//! serializer writes: `i8`–`i32`, `u8`, `u16` → `int`; `i64`, `u32` → `long`; `f32`, `f64` → `double`.
//!
//! The trait names the path types ([`crate::path::Access`], the node it converts into) and the diff recorder
//! ([`crate::diff::Diff`]) only: the walks over stored types that need the trait (navigating paths, diffing
//! sequences and maps) live above it, in [`crate::path`] and [`crate::diff`].
//!
//! One trait rather than one per role (schema, paths, diff, metadata): every stored type plays every role, so a split
//! would only multiply the impls each derived struct costs the compiler, and a field type without support would get
//! one error per role instead of one. What a derived struct knows lives in one table, [`BsonSchema::OBJECT`]
//! ([`TypeMeta`](crate::meta::TypeMeta)), and the provided items read it.

pub use crate::base::schema::{BsonKind, BsonSchema, CounterCheck, MAP_KEY_PATTERN};
pub use crate::base::validator as parts;
