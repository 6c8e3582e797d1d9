//! The comparisons of values whose types implement [`BsonSchema`]: equal or not, sequences, maps, and the helpers
//! generated `diff` bodies call. Above the trait, whose `diff` the recorder (`crate::base::diff`) serves.

use crate::base::diff::{Diff, DiffOp, DiffPath};
use crate::base::error::{Invalid, NamedPath};
use crate::base::path::{Encoder, EncoderInput};
use crate::base::schema::BsonSchema;
use bson::Bson;
use serde::Serialize;

/// Compares with `PartialEq`; writes the new value when it differs.
pub fn by_eq<T: PartialEq + BsonSchema + Serialize>(old: &T, new: &T, at: &mut DiffPath, out: &mut Diff) {
    if old != new {
        match T::to_bson(new) {
            Ok(v) => out.set_bson(at, v),
            Err(e) => out.fail(crate::base::path::unencodable(&at.0, e)),
        }
    }
}

/// A sequence: same length → element by element; grown with an unchanged prefix → `$push` of the new elements;
/// anything else → the whole array.
pub fn sequence<'a, T: BsonSchema + Serialize + 'a, I>(old: I, new: I, at: &mut DiffPath, out: &mut Diff)
where
    I: ExactSizeIterator<Item = &'a T> + Clone,
{
    let (n_old, n_new) = (old.len(), new.len());
    if n_new < n_old {
        return out.set(at, &new.collect::<Vec<_>>());
    }
    let mut scratch = Diff::default();
    let mut index = String::new();
    for (i, (a, b)) in old.clone().zip(new.clone()).enumerate() {
        index.clear();
        index.push_str(&i.to_string());
        at.with(&index, |at| T::diff(a, b, at, &mut scratch));
    }
    if n_new == n_old {
        out.ops.append(&mut scratch.ops);
        if let Some(e) = scratch.error {
            out.fail(e);
        }
        return;
    }
    if !scratch.is_empty() {
        return out.set(at, &new.collect::<Vec<_>>());
    }
    let appended: Result<Vec<Bson>, _> = new.skip(n_old).map(T::to_bson).collect();
    match appended {
        // The plain `$push` form (the `$each` list), as `Update` holds it.
        Ok(items) => out.op(DiffOp::PushEach, at, Bson::Array(items)),
        Err(e) => out.fail(crate::base::path::unencodable(&at.0, e)),
    }
}

/// A map: entries removed → `$unset`, added → `$set`, changed → their own diff.
pub fn map<'a, V: BsonSchema + Serialize + 'a>(
    old: impl Iterator<Item = (&'a String, &'a V)>,
    new: impl Iterator<Item = (&'a String, &'a V)> + Clone,
    get_old: impl Fn(&str) -> Option<&'a V>,
    get_new: impl Fn(&str) -> Option<&'a V>,
    at: &mut DiffPath,
    out: &mut Diff,
) {
    for (k, _) in old {
        if get_new(k).is_none() {
            at.with(k, |at| out.unset(at));
        }
    }
    for (k, v) in new {
        if let Some(why) = crate::base::keys::path_defect(k) {
            out.fail(Invalid::ValueKey { path: NamedPath::at(at.as_str()), key: k.clone(), reason: why });
            continue;
        }
        at.with(k, |at| match get_old(k) {
            Some(o) => V::diff(o, v, at, out),
            None => out.set(at, v),
        });
    }
}

/// What generated `BsonSchema::diff` impls call for converted and frozen fields; reachable only through
/// `odm::__private`, so it is no part of the public API.
pub(crate) mod generated {
    use super::{Diff, DiffPath, Encoder, EncoderInput, Invalid, NamedPath};
    use crate::base::schema::BsonSchema;
    use serde::Serialize;

    /// The diff of a field's type (`<T as BsonSchema>::diff`). Passed in rather than named through a bound, so that
    /// a field type without [`BsonSchema`] gets the one error its schema already reports.
    pub type DiffFn<T> = fn(&T, &T, &mut DiffPath, &mut Diff);

    /// A field stored under `key`, compared by its type's `diff`.
    #[inline]
    pub fn field<T>(diff: DiffFn<T>, old: &T, new: &T, key: &str, at: &mut DiffPath, out: &mut Diff) {
        at.with(key, |at| diff(old, new, at, out))
    }

    /// Consecutive fields compared by their types' own `diff`, several in one call: `old` and `new` are tuples of
    /// references to the fields (up to twelve), `keys` their stored keys in the same order. Generated code writes
    /// one such call for each run of fields whose types are certain to implement [`BsonSchema`] (a call per field
    /// costs every build more to compile).
    #[inline]
    pub fn fields<T: FieldRun>(old: T, new: T, keys: &[&str], at: &mut DiffPath, out: &mut Diff) {
        old.diff_run(new, keys, at, out)
    }

    /// A tuple of references to fields, diffed in order by [`fields`].
    pub trait FieldRun {
        /// Diffs each field of `self` against the same field of `new`, under the key at its position in `keys`.
        fn diff_run(self, new: Self, keys: &[&str], at: &mut DiffPath, out: &mut Diff);
    }

    macro_rules! field_run {
        ($($T:ident $i:tt),+) => {
            impl<$($T: BsonSchema + Serialize),+> FieldRun for ($(&$T,)+) {
                #[inline]
                fn diff_run(self, new: Self, keys: &[&str], at: &mut DiffPath, out: &mut Diff) {
                    $(field($T::diff, self.$i, new.$i, keys[$i], at, out);)+
                }
            }
        };
    }

    field_run!(A 0);
    field_run!(A 0, B 1);
    field_run!(A 0, B 1, C 2);
    field_run!(A 0, B 1, C 2, D 3);
    field_run!(A 0, B 1, C 2, D 3, E 4);
    field_run!(A 0, B 1, C 2, D 3, E 4, F 5);
    field_run!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
    field_run!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
    field_run!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
    field_run!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
    field_run!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
    field_run!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

    /// A field serialization leaves out when `skip` holds (`skip_serializing_if`): left out now, it is `$unset`;
    /// newly written, it is set whole; written on both sides, it is compared by its type's `diff`.
    pub fn skippable<T: Serialize>(
        diff: DiffFn<T>,
        old: &T,
        new: &T,
        skip: impl Fn(&T) -> bool,
        key: &str,
        at: &mut DiffPath,
        out: &mut Diff,
    ) {
        at.with(key, |at| match (skip(old), skip(new)) {
            (true, true) => {}
            (false, true) => out.unset(at),
            (true, false) => out.set(at, new),
            (false, false) => diff(old, new, at, out),
        })
    }

    /// A field written through a serde converter (or stored as a fixed type): compares the converted forms; `skip` is its
    /// `skip_serializing_if`, if any.
    pub fn converted_skippable<T>(
        old: &T,
        new: &T,
        enc: Encoder<T>,
        skip: impl Fn(&T) -> bool,
        at: &mut DiffPath,
        key: &str,
        out: &mut Diff,
    ) {
        at.with(key, |at| match (skip(old), skip(new)) {
            (true, true) => {}
            (false, true) => out.unset(at),
            // Newly written: the whole value; written on both sides: only when the encoded forms differ.
            (true, false) => match enc(EncoderInput::Borrowed(new), &at.0) {
                Ok(b) => out.set_bson(at, b),
                Err(e) => out.fail(e),
            },
            (false, false) => {
                match (enc(EncoderInput::Borrowed(old), &at.0), enc(EncoderInput::Borrowed(new), &at.0)) {
                    (Ok(a), Ok(b)) if a == b => {}
                    (_, Ok(b)) => out.set_bson(at, b),
                    (_, Err(e)) => out.fail(e),
                }
            }
        });
    }

    /// A polymorphic model's document, key by key as serialized: a changed key is set whole, a key the new value no
    /// longer writes is unset, so a change of variant rewrites the discriminator and the fields of both variants.
    /// `_id` never changes.
    pub fn by_keys<T: Serialize>(old: &T, new: &T, at: &mut DiffPath, out: &mut Diff) {
        let (old, new) = match (bson::serialize_to_document(old), bson::serialize_to_document(new)) {
            (Ok(old), Ok(new)) => (old, new),
            (Err(e), _) | (_, Err(e)) => return out.fail(crate::base::path::unencodable(&at.0, e)),
        };
        for (key, value) in &new {
            match old.get(key) {
                Some(before) if before == value => {}
                Some(_) if key == "_id" => {
                    return at.with(key, |at| {
                        out.fail(Invalid::Immutable { path: NamedPath::at(at.as_str()), what: "`_id`".to_owned() })
                    })
                }
                _ => at.with(key, |at| out.set_bson(at, value.clone())),
            }
        }
        for key in old.keys().filter(|k| !new.contains_key(*k)) {
            at.with(key, |at| out.unset(at));
        }
    }

    /// A field that never changes (`_id`, a shard key): a change is an error, not an update.
    pub fn frozen<T: Serialize>(old: &T, new: &T, at: &mut DiffPath, key: &str, what: &str, out: &mut Diff) {
        at.with(key, |at| match (bson::serialize_to_bson(old), bson::serialize_to_bson(new)) {
            (Ok(a), Ok(b)) if a == b => {}
            _ => out.fail(Invalid::Immutable { path: NamedPath::at(at.as_str()), what: what.to_owned() }),
        });
    }
}
