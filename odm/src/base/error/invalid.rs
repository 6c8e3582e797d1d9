//! Why a filter, sort, projection, update or pipeline was refused before sending ([`Invalid`], the cause of
//! [`Error::InvalidOperation`](crate::Error::InvalidOperation)), with the paths it concerns ([`NamedPath`]).
//!
//! Builders know stored keys only; the paths are named in Rust terms once, where the operation meets its model
//! ([`Invalid::named`]).
//!
//! One file, over the usual length: the enum, the paths each variant names and each variant's message are three
//! matches over the same variants, read and changed together.

use crate::base::meta::TypeMeta;
use crate::base::operator::Operator;
use std::fmt;

/// A field path inside a refused operation: as stored ([`NamedPath::stored`]), and as the Rust path of the model
/// ([`NamedPath::rust`], when its field table names every segment).
///
/// Its text boxed rather than `String`: a path sits inside every refusal, and refusals inside every builder's
/// `Result`, so it stays small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedPath {
    stored: Box<str>,
    rust: Option<Box<str>>,
    /// Named already: a path is named by the first type that sees it (a pipeline stage names its output paths by the
    /// output type, and the pipeline must not rename them by its input type).
    resolved: bool,
}

impl NamedPath {
    /// A stored path, not named yet.
    pub(crate) fn at(stored: &str) -> Self {
        NamedPath { stored: stored.into(), rust: None, resolved: false }
    }

    /// A path whose Rust name is known where the error arises.
    pub(crate) fn known(stored: &str, rust: String) -> Self {
        NamedPath { stored: stored.into(), rust: Some(rust.into()), resolved: true }
    }

    /// The stored key path (`it.$[big].p`).
    pub fn stored(&self) -> &str {
        &self.stored
    }

    /// The Rust path under the type's name (`Order.items[$[big]].price`), when the model's field table knows every
    /// segment.
    pub fn rust(&self) -> Option<&str> {
        self.rust.as_deref()
    }

    fn name(&mut self, meta: Option<&'static TypeMeta>) {
        if !self.resolved {
            self.rust = crate::base::meta::rust_name_exact(meta, &self.stored).map(String::into_boxed_str);
            self.resolved = true;
        }
    }
}

impl fmt::Display for NamedPath {
    /// `` `Order.items[0].quantity` (stored `it.0.q`) ``, or `` `it.0.q` `` without a Rust path.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A refused key may hold a NUL, which would end the text early in some terminals.
        let stored = self.stored.replace('\0', "\\0");
        f.write_str(&crate::base::meta::named(self.rust(), &stored))
    }
}

/// The part of an operation a path was refused in.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clause {
    /// A filter.
    Filter,
    /// A sort.
    Sort,
    /// A projection (of a find, or a pipeline's `$project`).
    Projection,
    /// A pipeline stage.
    Stage,
    /// A `$group` stage (its keys and accumulators).
    Group,
}

impl Clause {
    fn noun(self) -> &'static str {
        match self {
            Clause::Filter => "filter",
            Clause::Sort => "sort",
            Clause::Projection => "projection",
            Clause::Stage => "pipeline stage",
            Clause::Group => "group",
        }
    }
}

/// Why an operation was refused before sending: the cause of
/// [`Error::InvalidOperation`](crate::Error::InvalidOperation).
///
/// ```
/// use odm::error::{Invalid, NamedPath};
/// # fn demo(e: odm::Error) {
/// match e {
///     odm::Error::InvalidOperation { cause: Invalid::PathConflict { first, second, .. }, .. } => {
///         println!("{first} and {second} are written by one update");
///     }
///     other => println!("{other}"),
/// }
/// # }
/// ```
#[non_exhaustive]
#[derive(Debug, Clone)]
pub enum Invalid {
    /// Two operators of one update write one path, or overlapping paths (`a` and `a.b`): MongoDB refuses the update
    /// (code 40).
    PathConflict {
        /// The path written first.
        first: NamedPath,
        /// The operator writing it (`$set`).
        first_operator: Operator,
        /// The path written again, or the one overlapping it.
        second: NamedPath,
        /// The operator writing that (`$inc`).
        second_operator: Operator,
    },
    /// A value does not encode to BSON at a path.
    Unencodable {
        /// Where the value goes.
        path: NamedPath,
        /// The serializer's error (boxed: errors stay small on the success path).
        source: Box<bson::error::Error>,
    },
    /// A key inside a value (a map key, a free-form document's key) that MongoDB cannot store: it starts with `$`,
    /// or holds `.` or NUL.
    ValueKey {
        /// The path of the value.
        path: NamedPath,
        /// The key.
        key: String,
        /// Why MongoDB cannot take it.
        reason: &'static str,
    },
    /// A map key used as a path segment (`lines.at(key)`) that cannot address a field.
    PathKey {
        /// The map's path.
        under: NamedPath,
        /// The key.
        key: String,
        /// Why it cannot be addressed.
        reason: &'static str,
    },
    /// An array filter identifier (`$[identifier]`) that does not start with a lowercase letter or is not
    /// alphanumeric.
    ArrayFilterIdentifier {
        /// The path holding the identifier.
        path: NamedPath,
        /// The identifier.
        identifier: &'static str,
    },
    /// One array filter identifier used with two different conditions in one update.
    ArrayFilterConflict {
        /// The identifier.
        identifier: &'static str,
    },
    /// A condition on an array element itself combined with something other than `and` of such conditions.
    ElementCondition {
        /// The array's path.
        path: NamedPath,
    },
    /// One operator applied twice to an array element itself.
    ElementOperatorTwice {
        /// The array's path.
        path: NamedPath,
        /// The operator (`$gt`).
        operator: String,
    },
    /// A positional path (`$`, `$[]`, `$[id]`) where only plain paths are taken.
    Positional {
        /// The path.
        path: NamedPath,
        /// Where it was used.
        clause: Clause,
    },
    /// A path given twice (twice in a sort, a group output filled twice).
    Repeated {
        /// The path.
        path: NamedPath,
        /// Where.
        clause: Clause,
    },
    /// Two paths of one projection that overlap (`a` and `a.b`).
    Overlap {
        /// The path added later.
        first: NamedPath,
        /// The path it overlaps.
        second: NamedPath,
    },
    /// An update writing fields of two variants of a polymorphic model: a document is one variant.
    MixedVariants {
        /// The path of the second variant's field.
        path: NamedPath,
        /// That field's variant (its tag value).
        variant: &'static str,
        /// The variant written first.
        other: &'static str,
        /// The discriminator's stored key.
        tag: &'static str,
    },
    /// A field-to-field condition between fields of two variants of a polymorphic model: a document is one
    /// variant, so it would match nothing.
    FieldCompareVariants {
        /// The path of the field compared with (the second path).
        path: NamedPath,
        /// That field's variant (its tag value).
        variant: &'static str,
        /// The variant of the first path.
        other: &'static str,
    },
    /// A field-to-field condition (`$expr`) inside a condition on array elements (`any`, `pull_where`, an array
    /// filter), where the server does not evaluate it.
    FieldCompareInElement {
        /// The array's path.
        path: NamedPath,
    },
    /// An operation on a counted array (`pop`, a counted `add_to_set`) through a positional path: its guard on the
    /// array cannot be written for one element.
    CountedPositional {
        /// The path.
        path: NamedPath,
        /// The operation (`pop`).
        operation: &'static str,
    },
    /// An update without operators.
    EmptyUpdate,
    /// An upsert of a guarded update (a counted `add_to_set` or `pop`): it would insert a document whenever the
    /// guard does not hold.
    GuardedUpsert,
    /// The update given to go along with a builder's own write (`PushKeeping::also`) is guarded (a counted
    /// `add_to_set`, `pull` or `pop`): where its guard did not hold, the builder's write would not apply either.
    GuardedAlongside {
        /// The builder (`PushKeeping`).
        operation: &'static str,
    },
    /// Two values to diff differ in a field that never changes (`_id`, the shard key).
    Immutable {
        /// The field.
        path: NamedPath,
        /// What the field is (`` `_id` ``, `the shard key`).
        what: String,
    },
    /// The revision of a guarded replacement is `i64::MAX`: it cannot be bumped.
    RevisionAtMaximum,
    /// A revision beyond an `i32` for a revision field stored as `int`.
    RevisionNotInt {
        /// The revision.
        revision: i64,
    },
    /// A bulk write with typed updates to a model that still reads older versions: the bulk command would skip
    /// the older documents silently.
    BulkUpdateNotMigrated,
    /// A pipeline stage refused.
    Stage {
        /// The stage's position, from 1, in the order the stages were added.
        index: usize,
        /// Why.
        cause: Box<Invalid>,
    },
    /// A `$facet` branch refused.
    Branch {
        /// The stored key of the output field the branch fills.
        branch: String,
        /// Why (the branch's own stage, with its index in the branch).
        cause: Box<Invalid>,
    },
    /// A pipeline stage given the document root where it needs a field path (typed paths name fields only: kept
    /// for paths built otherwise).
    Root,
    /// A `$sort` stage without keys (a typed [`crate::Sort`] has at least one: kept for sorts built otherwise).
    EmptySort,
    /// A `$limit` of 0, or beyond an `i64`.
    Limit {
        /// The limit given.
        n: u64,
    },
    /// A `$skip` beyond an `i64`.
    Skip {
        /// The number given.
        n: u64,
    },
    /// A `$group` accumulator writing a nested field or `_id`.
    AccumulatorTarget {
        /// The output path.
        path: NamedPath,
    },
    /// A `$group` key written into a nested field.
    GroupKeyTarget {
        /// The output path.
        path: NamedPath,
    },
    /// A `$group` with several keys, one of them into `_id`.
    IdAmongKeys,
    /// A `$count` writing a nested field or `_id`.
    CountTarget {
        /// The output path.
        path: NamedPath,
    },
    /// A stage into a type whose fields it leaves unset.
    Unset {
        /// The stage (`$group`).
        stage: &'static str,
        /// The output type.
        into: &'static str,
        /// The fields left unset.
        fields: Vec<NamedPath>,
    },
    /// A `$lookup` whose element type has no field table.
    LookupElement,
    /// A `$lookup` element type with a field the joined model does not have.
    LookupField {
        /// The element type's field.
        field: NamedPath,
        /// The joined model.
        model: &'static str,
    },
    /// A key that names no instance of a collection named at run time (a name for a per-period template, a name
    /// with capitals, …), or a model without a name template asked for an instance (see [`crate::template`]).
    Instance(crate::base::template::InstanceKeyError),
    /// A reference repair ([`crate::reference::Repair`]) of a reference inside an array's elements: one update
    /// cannot target it.
    ReferenceInArray {
        /// The reference's path.
        path: NamedPath,
    },
    /// A push (or `add_to_set`) onto an array whose cut elements an overflow collection keeps
    /// (`#[odm(overflow(…))]`), outside [`crate::subset::PushKeeping`]: the push would cut elements without keeping
    /// them.
    OverflowPush {
        /// The array.
        path: NamedPath,
    },
    /// A diff ([`crate::Update::diff`], [`crate::Collection::update_changes`]) that would change an array whose
    /// elements an overflow collection keeps (`#[odm(overflow(…))]`), or an element of it: the overflow collection
    /// would never see the change.
    OverflowRewrite {
        /// The array.
        path: NamedPath,
    },
    /// A reading added to a bucket ([`crate::bucket::AddReading`]) with a key filter that does not hold this key
    /// field to one value (the bucket it opens would lack the field), or that names a field outside the key.
    BucketKey {
        /// The field.
        path: NamedPath,
    },
    /// A write to an array with a computed field (`#[odm(sum = "…")]`, `min`, `max`) whose effect on that field the
    /// update cannot know (elements removed without their values, a `$slice`, a value changed in place): sending it
    /// would leave the field out of step (see [`crate::computed`]).
    ComputedUnknown {
        /// The path written.
        path: NamedPath,
        /// The computed field.
        computed: NamedPath,
        /// What makes its new value unknown.
        why: &'static str,
    },
}

impl Invalid {
    /// The paths of the cause, to name.
    fn paths(&mut self) -> Vec<&mut NamedPath> {
        use Invalid::*;
        match self {
            PathConflict { first, second, .. } | Overlap { first, second } => vec![first, second],
            ComputedUnknown { path, computed, .. } => vec![path, computed],
            Unencodable { path, .. }
            | ValueKey { path, .. }
            | ArrayFilterIdentifier { path, .. }
            | ElementCondition { path }
            | ElementOperatorTwice { path, .. }
            | Positional { path, .. }
            | Repeated { path, .. }
            | MixedVariants { path, .. }
            | FieldCompareInElement { path }
            | FieldCompareVariants { path, .. }
            | CountedPositional { path, .. }
            | Immutable { path, .. }
            | AccumulatorTarget { path }
            | GroupKeyTarget { path }
            | CountTarget { path }
            | ReferenceInArray { path }
            | OverflowPush { path }
            | OverflowRewrite { path }
            | BucketKey { path } => vec![path],
            PathKey { under, .. } => vec![under],
            LookupField { field, .. } => vec![field],
            Stage { cause, .. } | Branch { cause, .. } => cause.paths(),
            ArrayFilterConflict { .. }
            | Instance(_)
            | EmptyUpdate
            | GuardedUpsert
            | GuardedAlongside { .. }
            | RevisionAtMaximum
            | RevisionNotInt { .. }
            | BulkUpdateNotMigrated
            | Root
            | EmptySort
            | Limit { .. }
            | Skip { .. }
            | IdAmongKeys
            | Unset { .. }
            | LookupElement => Vec::new(),
        }
    }

    /// Names the paths not named yet through `meta` (the type whose documents the operation reads or writes).
    pub(crate) fn named(mut self, meta: Option<&'static TypeMeta>) -> Self {
        for path in self.paths() {
            path.name(meta);
        }
        self
    }

    /// The cause of stage `index` of a pipeline (from 1).
    pub(crate) fn at_stage(self, index: usize) -> Self {
        Invalid::Stage { index, cause: Box::new(self) }
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Invalid::*;
        match self {
            PathConflict { first, first_operator, second, second_operator } => {
                let (a, b) = (first_operator.name(), second_operator.name());
                if first.stored() == second.stored() {
                    write!(f, "{first} is updated twice ({a} and {b})")?;
                } else {
                    write!(f, "{first} ({a}) and {second} ({b}) overlap")?;
                }
                f.write_str(": MongoDB refuses conflicting paths in one update (code 40)")
            }
            Unencodable { path, source } => write!(f, "{path}: cannot serialize the value: {source}"),
            ValueKey { path, key, reason } => write!(f, "{path}: key {key:?} in the value cannot be stored: {reason}"),
            PathKey { under, key, reason } => write!(f, "map key {key:?} under {under} cannot be addressed: {reason}"),
            ArrayFilterIdentifier { path, identifier } => write!(
                f,
                "array filter identifier `{identifier}` in {path}: it must start with a lowercase letter and be \
                 alphanumeric"
            ),
            ArrayFilterConflict { identifier } => {
                write!(f, "array filter identifier `{identifier}` is used with two different conditions")
            }
            ElementCondition { path } => write!(
                f,
                "{path}: a condition on the array element itself can only be combined with `and` of other such \
                 conditions (for alternatives use `is_in`/`not_in`, or `any(a).or(any(b))`)"
            ),
            ElementOperatorTwice { path, operator } => write!(
                f,
                "{path}: `{operator}` is applied twice to the array element itself (use `between`, `is_in` or one \
                 bound)"
            ),
            Positional { path, clause: Clause::Filter } => {
                write!(f, "{path}: a filter cannot use a positional path (name the array with `any`)")
            }
            Positional { path, clause } => write!(f, "{path}: a {} cannot use a positional path", clause.noun()),
            Repeated { path, clause: Clause::Group } => write!(f, "{path} is filled twice"),
            Repeated { path, clause } => write!(f, "{path} appears twice in the {}", clause.noun()),
            Overlap { first, second } => write!(f, "{first} overlaps {second} in the projection"),
            MixedVariants { path, variant, other, tag } => write!(
                f,
                "the update writes {path} of variant `{variant}` and fields of variant `{other}`, but a document is \
                 one variant (its `{tag}`): update each variant's documents separately"
            ),
            FieldCompareVariants { path, variant, other } => write!(
                f,
                "a field of variant `{other}` is compared with {path} of variant `{variant}`, but a document is one \
                 variant, so the condition would match nothing: compare two fields of one variant, or fields every \
                 variant shares"
            ),
            FieldCompareInElement { path } => write!(
                f,
                "{path}: a condition on array elements cannot compare two fields (the server evaluates `$expr` on \
                 whole documents only); compare fields outside `any`, joined with `and`"
            ),
            CountedPositional { path, operation } => write!(
                f,
                "`{operation}` on the counted array {path} needs a guard on the array itself, which a positional \
                 path cannot express; update the array through a non-positional path"
            ),
            EmptyUpdate => f.write_str("the update is empty: add at least one operator"),
            GuardedUpsert => f.write_str(
                "the update is guarded (a counted `add_to_set` or `pop`), and an upsert would insert a new document \
                 whenever the guard does not hold; use `update_one`",
            ),
            GuardedAlongside { operation } => write!(
                f,
                "the update given to `{operation}`'s `also` is guarded (a counted `add_to_set`, `pull` or `pop`): where \
                 its guard did not hold, the {operation} would not apply either; send it in its own `update_one`"
            ),
            Immutable { path, what } => write!(f, "{path} differs between the two values, but {what} cannot change"),
            RevisionAtMaximum => f.write_str("the revision is at its maximum"),
            RevisionNotInt { revision } => write!(
                f,
                "the revision {revision} does not fit the revision field's `int`; store the revision as an `i64`"
            ),
            BulkUpdateNotMigrated => f.write_str(
                "bulk updates of a model that still reads older versions would skip older documents silently; \
                 migrate them first (`Collection::migrate`), or update one by one",
            ),
            Stage { index, cause } => write!(f, "stage {index}: {cause}"),
            Branch { branch, cause } => write!(f, "branch `{branch}`: {cause}"),
            Root => f.write_str("a pipeline stage needs a field path, not the document root"),
            EmptySort => f.write_str("`$sort` needs at least one key"),
            Limit { n: 0 } => f.write_str("`$limit` must be positive"),
            Limit { n } => write!(f, "`$limit` of {n} is too large"),
            Skip { n } => write!(f, "`$skip` of {n} is too large"),
            AccumulatorTarget { path } => {
                write!(f, "{path}: an accumulator writes a top-level field other than `_id`")
            }
            GroupKeyTarget { path } => write!(f, "{path}: a group key goes into a top-level field"),
            IdAmongKeys => f.write_str("`_id` cannot be one key of several: give the group one key into `_id`"),
            CountTarget { path } => write!(f, "`$count` writes a top-level field other than `_id`, not {path}"),
            Unset { stage, into, fields } => write!(
                f,
                "`{stage}` into `{into}` leaves {} unset: give every field a value (or let serde leave it out)",
                fields.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            ),
            LookupElement => {
                f.write_str("a `$lookup` element type must be the model or a derived struct of its fields")
            }
            Instance(e) => write!(f, "{e}"),
            BucketKey { path } => write!(
                f,
                "the key filter of a bucket holds each key field, and nothing else, to one value, and {path} breaks \
                 that: compare every key field with `eq` and no other field, so the reading lands in that key's \
                 bucket and a bucket it opens stores the key"
            ),
            ComputedUnknown { path, computed, why } => write!(
                f,
                "a write to {path} cannot keep the computed field {computed} in step: {why} (rule \
                 `computed-in-step`)"
            ),
            OverflowPush { path } => write!(
                f,
                "{path} keeps the elements a push cuts in its overflow collection: push through \
                 `odm::subset::PushKeeping`, which writes both (a plain push would cut elements without keeping them)"
            ),
            OverflowRewrite { path } => write!(
                f,
                "the values compared change {path}, whose elements its overflow collection keeps: writing the \
                 difference would change the array without that collection; add elements with \
                 `odm::subset::PushKeeping`, and leave the array as it was read in the value written"
            ),
            ReferenceInArray { path } => write!(
                f,
                "{path} is inside an array's elements: a repair names a reference field of the document or of its \
                 embedded structs"
            ),
            LookupField { field, model } => write!(
                f,
                "{field} is not a field of `{model}`: a lookup's element type takes its keys from the joined model"
            ),
        }
    }
}

impl std::error::Error for Invalid {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Invalid::Unencodable { source, .. } => Some(source.as_ref()),
            Invalid::Stage { cause, .. } | Invalid::Branch { cause, .. } => Some(cause.as_ref()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Clause, Invalid, NamedPath, Operator};
    use crate::base::meta::tests::{LINE, ORDER};

    fn conflict() -> Invalid {
        Invalid::PathConflict {
            first: NamedPath::at("ic"),
            first_operator: Operator::Set,
            second: NamedPath::at("it.$.p"),
            second_operator: Operator::Inc,
        }
    }

    #[test]
    fn paths_are_named_through_the_model() {
        let named = conflict().named(Some(&ORDER));
        let Invalid::PathConflict { first, second, .. } = &named else { panic!("{named:?}") };
        assert_eq!((first.stored(), first.rust()), ("ic", Some("Order.item_count")));
        assert_eq!(second.rust(), Some("Order.items[$].price"));
        assert_eq!(
            named.to_string(),
            "`Order.item_count` (stored `ic`) ($set) and `Order.items[$].price` (stored `it.$.p`) ($inc) overlap: \
             MongoDB refuses conflicting paths in one update (code 40)"
        );
        // Without a field table, the stored paths alone.
        assert_eq!(
            conflict().named(None).to_string(),
            "`ic` ($set) and `it.$.p` ($inc) overlap: MongoDB refuses conflicting paths in one update (code 40)"
        );
    }

    #[test]
    fn a_path_is_named_once_by_the_first_type_that_sees_it() {
        // A stage names its output paths by its output type; the pipeline must not name them again by its input.
        let cause = Invalid::Repeated { path: NamedPath::at("zz"), clause: Clause::Group }.named(Some(&LINE));
        let staged = cause.named(Some(&ORDER)).at_stage(2).named(Some(&ORDER));
        let Invalid::Stage { index: 2, cause } = &staged else { panic!("{staged:?}") };
        let Invalid::Repeated { path, clause: Clause::Group } = cause.as_ref() else { panic!("{cause:?}") };
        assert_eq!(path.rust(), None);
        assert_eq!(staged.to_string(), "stage 2: `zz` is filled twice");
    }

    #[test]
    fn a_refused_key_holding_nul_is_shown_escaped() {
        let e = Invalid::Positional { path: NamedPath::at("it.a\0b"), clause: Clause::Sort }.named(Some(&ORDER));
        assert_eq!(e.to_string(), "`it.a\\0b`: a sort cannot use a positional path");
    }

    #[test]
    fn stage_causes_without_paths_say_what_the_stage_needs() {
        let root = Invalid::Root.at_stage(3);
        assert!(matches!(&root, Invalid::Stage { index: 3, cause } if matches!(**cause, Invalid::Root)));
        assert_eq!(root.to_string(), "stage 3: a pipeline stage needs a field path, not the document root");
        let empty = Invalid::EmptySort.named(Some(&ORDER));
        assert!(matches!(empty, Invalid::EmptySort));
        assert_eq!(empty.to_string(), "`$sort` needs at least one key");
    }
}
