//! The update operators odm writes, in the order a built update lists them.

/// The update operators odm writes, in the order `build` writes them; an
/// [`Invalid::PathConflict`](crate::error::Invalid::PathConflict) names the two that collide.
#[non_exhaustive]
#[derive(Copy, Clone, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum Operator {
    /// `$set`.
    Set,
    /// `$unset`.
    Unset,
    /// `$inc`.
    Inc,
    /// `$mul`.
    Mul,
    /// `$min`.
    Min,
    /// `$max`.
    Max,
    /// `$currentDate`.
    CurrentDate,
    /// `$setOnInsert`.
    SetOnInsert,
    /// `$push`: the value is the element, or a `{$each, …}` spec.
    Push,
    /// `$addToSet`.
    AddToSet,
    /// `$pull`.
    Pull,
    /// `$pop`.
    Pop,
}

impl Operator {
    /// The operator as MongoDB spells it (`$set`).
    pub const fn name(self) -> &'static str {
        match self {
            Operator::Set => "$set",
            Operator::Unset => "$unset",
            Operator::Inc => "$inc",
            Operator::Mul => "$mul",
            Operator::Min => "$min",
            Operator::Max => "$max",
            Operator::CurrentDate => "$currentDate",
            Operator::SetOnInsert => "$setOnInsert",
            Operator::Push => "$push",
            Operator::AddToSet => "$addToSet",
            Operator::Pull => "$pull",
            Operator::Pop => "$pop",
        }
    }
}
