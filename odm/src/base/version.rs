//! Versioned models: `Version<N>` (the version field), the `Upgrade` steps (`step`), reading a document as an older
//! shape (`read`), and the validators while older documents remain (`rollout`). Checking typed filters against older
//! documents is `crate::driver::version`. Users read the docs at `odm::version` (src/version.rs).

mod rollout;

pub use rollout::accepting_older;

use crate::base::diff::{Diff, DiffPath};
use crate::base::path::{Access, Path};
use crate::base::schema::{BsonKind, BsonSchema};
use bson::{doc, Bson, Document};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// The version field of a versioned model: stored as the integer `N` (`int`), validated as exactly `N`, and read
/// only from documents at version `N` (older ones are migrated first). Declare it once per versioned model, with a
/// short key, and build it as `Version` (it holds nothing).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Version<const N: u32>;

impl<const N: u32> Version<N> {
    /// The version number.
    pub const NUMBER: u32 = N;
}

impl<const N: u32> fmt::Debug for Version<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Version<{N}>")
    }
}

impl<const N: u32> Serialize for Version<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i32(N as i32)
    }
}

impl<'de, const N: u32> Deserialize<'de> for Version<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Exact<const N: u32>;
        impl<const N: u32> Visitor<'_> for Exact<N> {
            type Value = Version<N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "version {N}")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Version<N>, E> {
                if v == i64::from(N) {
                    Ok(Version)
                } else {
                    Err(E::invalid_value(de::Unexpected::Signed(v), &self))
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Version<N>, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(-1))
            }
        }
        d.deserialize_i32(Exact::<N>)
    }
}

impl<const N: u32> BsonSchema for Version<N> {
    const KIND: BsonKind = BsonKind::Int;
    const SIZE: crate::base::size::Size = crate::base::size::Size::AtMost(4);
    type Node<R, W, A: Access> = Path<R, W, A>;
    fn bson_schema() -> Document {
        doc! { "bsonType": "int", "enum": [N as i32] }
    }
    fn to_bson(_: &Self) -> Result<Bson, bson::error::Error> {
        Ok(Bson::Int32(N as i32))
    }
    fn diff(_: &Self, _: &Self, _: &mut DiffPath, _: &mut Diff) {}
}

/// The number of a [`Version`] type; generated code asserts the model's version field with it.
#[doc(hidden)]
pub trait VersionNumber {
    /// The version.
    const NUMBER: u32;
}

impl<const N: u32> VersionNumber for Version<N> {
    const NUMBER: u32 = N;
}

/// One migration step: how a document of an older shape becomes the next version. A versioned model lists the older
/// shapes it still reads (`#[odm(version = 3, older(OrderV1, OrderV2))]`), and each one upgrades to the next:
/// `OrderV1` to `OrderV2`, `OrderV2` to the model.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is listed as an older version, but has no migration step to the next one (rule `version-step`)",
    label = "no `impl odm::Upgrade for {Self}`",
    note = "every older shape upgrades to the next: `impl odm::Upgrade for {Self} {{ type Next = …; fn upgrade(self) \
            -> Self::Next {{ … }} }}`, where `Next` is the next type in `older(…)`, or the model itself for the last"
)]
pub trait Upgrade {
    /// The next version's type.
    type Next;
    /// Converts a value of this version into the next.
    fn upgrade(self) -> Self::Next;
}

/// One step of a model's `older(…)` list, `A` to the next shape `B`: generated reads of older documents go through
/// it, so a missing or mismatched step is reported once, where the list names `A`.
#[doc(hidden)]
#[inline]
pub fn step<A: Upgrade<Next = B>, B>(value: A) -> B {
    value.upgrade()
}

/// Reads a document as the older shape `T`.
#[doc(hidden)]
pub fn read<T: serde::de::DeserializeOwned>(raw: &bson::RawDocument) -> Result<T, bson::error::Error> {
    crate::base::failing_path::from_slice(raw.as_bytes())
}
