//! The driver's forms of the concerns and preferences a model declares: the declarations are plain data in the
//! driver-free core; these conversions exist with the driver, and so does the `writeConcern` of odm's own write
//! commands built from them.

use crate::base::error::{Error, Result};
use crate::base::model::{Acknowledgment, Model, ReadConcernLevel, ReadPreferenceMode, WriteConcernSpec};
use bson::RawDocumentBuf;

impl ReadConcernLevel {
    /// The driver's form.
    pub fn to_driver(self) -> mongodb::options::ReadConcern {
        use mongodb::options::ReadConcern;
        match self {
            ReadConcernLevel::Local => ReadConcern::local(),
            ReadConcernLevel::Available => ReadConcern::available(),
            ReadConcernLevel::Majority => ReadConcern::majority(),
            ReadConcernLevel::Linearizable => ReadConcern::linearizable(),
            ReadConcernLevel::Snapshot => ReadConcern::snapshot(),
        }
    }
}

impl ReadPreferenceMode {
    /// The driver's form (no tag sets, no staleness bound).
    pub fn to_driver(self) -> mongodb::options::SelectionCriteria {
        use mongodb::options::{ReadPreference, SelectionCriteria};
        let options = Default::default();
        SelectionCriteria::ReadPreference(match self {
            ReadPreferenceMode::Primary => ReadPreference::Primary,
            ReadPreferenceMode::PrimaryPreferred => ReadPreference::PrimaryPreferred { options },
            ReadPreferenceMode::Secondary => ReadPreference::Secondary { options },
            ReadPreferenceMode::SecondaryPreferred => ReadPreference::SecondaryPreferred { options },
            ReadPreferenceMode::Nearest => ReadPreference::Nearest { options },
        })
    }
}

impl WriteConcernSpec {
    /// The driver's form.
    pub fn to_driver(self) -> mongodb::options::WriteConcern {
        use mongodb::options::Acknowledgment as Ack;
        let mut wc = mongodb::options::WriteConcern::default();
        wc.w = self.w.map(|w| match w {
            Acknowledgment::Nodes(n) => Ack::Nodes(n),
            Acknowledgment::Tag("majority") => Ack::Majority,
            Acknowledgment::Tag(t) => Ack::Custom(t.to_owned()),
        });
        wc.journal = self.journal;
        wc.w_timeout = self.timeout_ms.map(std::time::Duration::from_millis);
        wc
    }
}

/// Model `M`'s write concern as a command's `writeConcern` field, for the write commands odm sends itself (bulk
/// writes, migrations); `None` when the model sets none.
pub(crate) fn write_concern_document<M: Model>() -> Result<Option<RawDocumentBuf>> {
    let Some(wc) = M::WRITE_CONCERN else { return Ok(None) };
    let doc = bson::serialize_to_document(&wc.to_driver()).map_err(Error::serialize::<M>)?;
    RawDocumentBuf::try_from(&doc).map(Some).map_err(Error::serialize::<M>)
}
