//! Deciding the checklist's items from what the server and the connection said, for the models given.

use crate::base::connection::{ConnectionWarning, DRIVER_DEFAULT_POOL_SIZE};
use crate::base::model::{Acknowledgment, ReadConcernLevel, ReadPreferenceMode};
use crate::base::sync::ModelSpec;

/// What the server and the connection said, as the checklist needs it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Settings {
    /// `hello` names no replica set and the server is no `mongos`.
    pub(crate) standalone: bool,
    /// `maxPoolSize` and `retryWrites` from the client's options, when they were given.
    pub(crate) options: Option<(Option<u32>, Option<bool>)>,
    /// The connection's read preference, when it sets one.
    pub(crate) read_preference: Option<ReadPreferenceMode>,
    /// The connection's write concern is `w: 0`.
    pub(crate) unacknowledged: bool,
}

/// The checklist's warnings for `models` on a connection with `settings`, in the order of the module docs.
pub(crate) fn assess(settings: &Settings, models: &[ModelSpec]) -> Vec<ConnectionWarning> {
    let mut out = Vec::new();
    if settings.standalone {
        let needing = models.iter().filter_map(|m| Some((m.type_name, needs_replica_set(m)?))).collect();
        out.push(ConnectionWarning::Standalone { needing });
    }
    if let Some((None, _)) = settings.options {
        out.push(ConnectionWarning::PoolSizeDefault { default: DRIVER_DEFAULT_POOL_SIZE });
    }
    if let Some(connection) = settings.read_preference {
        for m in models {
            if let Some(declared) = m.read_preference.filter(|d| *d != connection) {
                out.push(ConnectionWarning::ReadPreferenceContradicts { model: m.type_name, declared, connection });
            }
        }
    }
    if settings.unacknowledged {
        let models = models.iter().filter(|m| m.write_concern.and_then(|w| w.w).is_none()).map(|m| m.type_name);
        out.push(ConnectionWarning::UnacknowledgedWrites { models: models.collect() });
    }
    match settings.options {
        Some((_, Some(false))) => out.push(ConnectionWarning::RetryWritesOff),
        None => out.push(ConnectionWarning::OptionsNotGiven),
        _ => {}
    }
    out
}

/// What model `m` declares that only a replica set gives, in words (`None`: nothing).
fn needs_replica_set(m: &ModelSpec) -> Option<String> {
    let mut why = Vec::new();
    if let Some(Acknowledgment::Tag("majority")) = m.write_concern.and_then(|w| w.w) {
        why.push("write concern `majority`".to_owned());
    }
    if let Some(level @ (ReadConcernLevel::Majority | ReadConcernLevel::Linearizable | ReadConcernLevel::Snapshot)) =
        m.read_concern
    {
        why.push(format!("read concern `{}`", level.as_str()));
    }
    match m.read_preference {
        Some(ReadPreferenceMode::Primary) | None => {}
        Some(mode) => why.push(format!("read preference `{}`", mode.as_str())),
    }
    (!why.is_empty()).then(|| why.join(", "))
}

#[cfg(test)]
mod tests {
    use super::{assess, Settings};
    use crate::base::connection::ConnectionWarning;
    use crate::base::model::{Acknowledgment, ReadPreferenceMode, WriteConcernSpec};
    use crate::base::sync::ModelSpec;

    #[derive(crate::Model, serde::Serialize, serde::Deserialize)]
    #[odm(crate = "crate", collection = "shop_note", read_concern = "majority", read_preference = "secondary")]
    struct Note {
        #[serde(rename = "_id")]
        id: bson::oid::ObjectId,
    }

    fn acknowledged(spec: ModelSpec) -> ModelSpec {
        let majority = WriteConcernSpec { w: Some(Acknowledgment::Tag("majority")), journal: None, timeout_ms: None };
        ModelSpec { write_concern: Some(majority), ..spec }
    }

    /// Options given with a pool size and retryable writes on, a replica set: nothing to say.
    fn healthy() -> Settings {
        Settings { standalone: false, options: Some((Some(20), None)), read_preference: None, unacknowledged: false }
    }

    #[test]
    fn a_healthy_connection_says_nothing_and_each_setting_adds_its_item() {
        let models = [ModelSpec::of::<Note>()];
        assert_eq!(assess(&healthy(), &models), []);
        let standalone = assess(&Settings { standalone: true, ..healthy() }, &models);
        let [ConnectionWarning::Standalone { needing }] = standalone.as_slice() else { panic!("{standalone:?}") };
        assert_eq!(needing[0].1, "read concern `majority`, read preference `secondary`");
        let agreeing = Settings { read_preference: Some(ReadPreferenceMode::Secondary), ..healthy() };
        assert_eq!(assess(&agreeing, &models), []);
        let contradicting = Settings { read_preference: Some(ReadPreferenceMode::Primary), ..healthy() };
        assert!(matches!(
            assess(&contradicting, &models).as_slice(),
            [ConnectionWarning::ReadPreferenceContradicts { declared: ReadPreferenceMode::Secondary, .. }]
        ));
        let w0 = Settings { unacknowledged: true, ..healthy() };
        assert!(
            matches!(assess(&w0, &models).as_slice(), [ConnectionWarning::UnacknowledgedWrites { models }] if models.len() == 1)
        );
        // A model with its own write concern does not inherit `w: 0`.
        let own = [acknowledged(ModelSpec::of::<Note>())];
        assert!(
            matches!(assess(&w0, &own).as_slice(), [ConnectionWarning::UnacknowledgedWrites { models }] if models.is_empty())
        );
        let unknown = Settings { options: None, ..healthy() };
        assert_eq!(assess(&unknown, &models), [ConnectionWarning::OptionsNotGiven]);
        let defaults = Settings { options: Some((None, Some(false))), ..healthy() };
        assert_eq!(
            assess(&defaults, &models),
            [ConnectionWarning::PoolSizeDefault { default: 10 }, ConnectionWarning::RetryWritesOff]
        );
    }
}
