//! [`Update::diff`](crate::Update::diff): the minimal targeted update turning one value into another.

use super::arrays::push_each_operand;
use super::value::Update;
use crate::base::diff::{Change, Diff, DiffOp, DiffPath};
use crate::base::error::{Invalid, NamedPath};
use crate::base::operator::Operator;
use crate::base::path::check_dynamic_keys;
use crate::base::schema::BsonSchema;
use bson::Bson;
use std::borrow::Cow;

impl<R: BsonSchema + serde::Serialize> Update<R> {
    /// The minimal targeted update turning `old` into `new`: changed paths only, appended elements as `$push`, and
    /// counters as `$inc` when they grew with their arrays. A change to `_id` or a shard key is refused.
    pub fn diff(old: &R, new: &R) -> Self {
        let mut out = Diff::default();
        R::diff(old, new, &mut DiffPath::default(), &mut out);
        let mut update = Update::new();
        // New values of maps and free-form fields carry run-time keys: refused here, as in typed updates.
        let dynamic = R::dynamic_keys(crate::base::schema::KEY_DEPTH);
        // An array whose elements an overflow collection keeps changes only through `PushKeeping`, which writes both.
        let overflows = R::type_meta().map_or(&[][..], |meta| meta.fields);
        for Change { op, key, value } in out.ops {
            let under =
                |array: &str| key.strip_prefix(array).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'));
            if let Some(array) = overflows.iter().find(|field| field.overflows && under(field.key)) {
                update.fail(Invalid::OverflowRewrite { path: NamedPath::at(array.key) });
                continue;
            }
            if dynamic {
                if let Err(e) = check_dynamic_keys(&value, &key) {
                    update.fail(e);
                }
            }
            let (op, value) = match (op, value) {
                (DiffOp::Set, v) => (Operator::Set, v),
                (DiffOp::Unset, v) => (Operator::Unset, v),
                (DiffOp::Inc, v) => (Operator::Inc, v),
                (DiffOp::Max, v) => (Operator::Max, v),
                (DiffOp::Min, v) => (Operator::Min, v),
                (DiffOp::PushEach, Bson::Array(each)) => (Operator::Push, push_each_operand(each)),
                (DiffOp::PushEach, v) => (Operator::Push, v),
            };
            update.add_raw(op, Cow::Owned(key), value);
        }
        if let Some(e) = out.error {
            update.fail(e);
        }
        update
    }
}
