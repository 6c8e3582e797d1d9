//! The update operators odm writes, in the order a built update lists them.

/// The update operators odm writes, in the order `build` writes them.
#[derive(Copy, Clone, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub(crate) enum Operator {
    Set,
    Unset,
    Inc,
    Mul,
    Min,
    Max,
    CurrentDate,
    SetOnInsert,
    /// `$push`: the value is the element, or a `{$each, …}` spec.
    Push,
    AddToSet,
    Pull,
    Pop,
}

impl Operator {
    pub(crate) const fn name(self) -> &'static str {
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
