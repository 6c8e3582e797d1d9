//! Operators on one field: `$set`, `$unset`, `$inc`, `$mul`, `$min`, `$max`, `$currentDate`, `$setOnInsert`.

use super::markers::{DateLike, InsertSettable, Numeric, Optional};
use super::value::Update;
use crate::base::operator::Operator;
use crate::base::path::{AsPath, Settable, Writable};
use bson::Bson;

impl<R> Update<R> {
    /// `$set`: writes `value` at `path`. Setting `None` on an optional field that is absent when `None` becomes
    /// `$unset`. Setting a whole counted array also sets its counter to the new length.
    pub fn set<P: AsPath<R>>(mut self, path: P, value: impl Into<P::Value>) -> Self
    where
        P::Access: Settable,
    {
        let path = path.as_path();
        let encoded = path.encode(value.into());
        let raw = &path.raw;
        match encoded {
            Ok(Bson::Null) if raw.none_is_absent() => self.add(raw, Operator::Unset, Ok(Bson::String(String::new()))),
            Ok(Bson::Array(items)) if raw.counter().is_some() => {
                let n = items.len();
                self.add(raw, Operator::Set, Ok(Bson::Array(items)));
                let counter = raw.counter_key().expect("counted");
                self.add_raw(Operator::Set, counter, Self::counter_value(raw, n));
            }
            other => self.add(raw, Operator::Set, other),
        }
        self
    }

    /// `$unset`: removes an optional field.
    pub fn unset<P: AsPath<R>>(mut self, path: P) -> Self
    where
        P::Access: Writable,
        P::Value: Optional,
    {
        self.add(&path.as_path().raw, Operator::Unset, Ok(Bson::String(String::new())));
        self
    }

    /// `$inc`: adds `by` (of the field's own numeric type, so an `int` stays an `int`).
    pub fn inc<P: AsPath<R>>(mut self, path: P, by: impl Into<<P::Value as Numeric>::Operand>) -> Self
    where
        P::Access: Writable,
        P::Value: Numeric,
    {
        let raw = &path.as_path().raw;
        let v = Self::encode_item(raw, &by.into());
        self.add(raw, Operator::Inc, v);
        self
    }

    /// `$mul`: multiplies by `by` (of the field's own numeric type).
    pub fn mul<P: AsPath<R>>(mut self, path: P, by: impl Into<<P::Value as Numeric>::Operand>) -> Self
    where
        P::Access: Writable,
        P::Value: Numeric,
    {
        let raw = &path.as_path().raw;
        let v = Self::encode_item(raw, &by.into());
        self.add(raw, Operator::Mul, v);
        self
    }

    /// `$min`: writes `value` if it is less than the stored one (or the field is missing).
    pub fn min<P: AsPath<R>>(mut self, path: P, value: impl Into<P::Value>) -> Self
    where
        P::Access: Writable,
    {
        let path = path.as_path();
        let v = path.encode(value.into());
        self.add(&path.raw, Operator::Min, v);
        self
    }

    /// `$max`: writes `value` if it is greater than the stored one (or the field is missing).
    pub fn max<P: AsPath<R>>(mut self, path: P, value: impl Into<P::Value>) -> Self
    where
        P::Access: Writable,
    {
        let path = path.as_path();
        let v = path.encode(value.into());
        self.add(&path.raw, Operator::Max, v);
        self
    }

    /// `$currentDate`: writes the server's current time into a date or timestamp field.
    pub fn current_date<P: AsPath<R>>(mut self, path: P) -> Self
    where
        P::Access: Writable,
        P::Value: DateLike,
    {
        self.add(&path.as_path().raw, Operator::CurrentDate, Ok(<P::Value as DateLike>::operand()));
        self
    }

    /// `$setOnInsert`: writes `value` only when an upsert inserts.
    pub fn set_on_insert<P: AsPath<R>>(mut self, path: P, value: impl Into<P::Value>) -> Self
    where
        P::Access: InsertSettable,
    {
        let path = path.as_path();
        let v = path.encode(value.into());
        self.add(&path.raw, Operator::SetOnInsert, v);
        self
    }
}
