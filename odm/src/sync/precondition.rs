//! What must still hold when an exported plan's steps on a versioned collection run: the plan was made from what
//! was live then, and a script may run much later. odm's own sync plans such a collection again under its lease
//! (see [`crate::sync`]); a script cannot, so it checks, right before each such step, what the plan assumed, and
//! fails instead of carrying out a stale step.

use super::plan::{Action, Namespace};

/// What a plan assumed about a versioned collection, checked by the exported script before each of its steps
/// ([`super::Plan::to_mongosh`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Precondition {
    /// The collection.
    pub ns: Namespace,
    /// The stored key of the model's version.
    pub key: String,
    /// The model's version the plan was made for: a collection whose validator is of a later version is ahead (a
    /// newer release synced it meanwhile), and nothing of it may be changed.
    pub version: u32,
    /// The plan tightens the validator to this version alone (no older document was left when it was made): the
    /// validator step also requires that no document of another version remains, since the tightened validator
    /// would refuse every later write of such a document.
    pub tightens: bool,
}

impl Precondition {
    /// Whether the step(s) of `action` must also find no document of another version (the tightening validator).
    pub fn needs_no_older(&self, action: &Action) -> bool {
        self.tightens && matches!(action, Action::UpdateValidator { .. })
    }

    /// The script's check before the steps of `action` (`description` is the action's text as a JSON string).
    pub(super) fn script_call(&self, action: &Action, description: &str) -> String {
        let db = serde_json::Value::String(self.ns.db.clone());
        let collection = serde_json::Value::String(self.ns.collection.clone());
        let key = serde_json::Value::String(self.key.clone());
        let no_older = self.needs_no_older(action);
        format!("odmCheck({db}, {collection}, {description}, {}, {key}, {no_older});\n", self.version)
    }

    /// The precondition of `action`'s steps as JSON (for [`super::Plan::to_json`]).
    pub(super) fn to_json(&self, action: &Action) -> serde_json::Value {
        serde_json::json!({
            "versionKey": self.key,
            "notAheadOfVersion": self.version,
            "noDocumentOfAnotherVersion": self.needs_no_older(action),
        })
    }
}

/// The script's check function, defined once at the top of a script that has preconditions. A validator whose
/// `title` names a later version means a newer release synced the collection; a tightening step also counts the
/// documents of another version. Either failure prints `FAILED: …` and ends the script with exit code 1, before the
/// step runs. (A document written between the check and the step is not seen: the window is one round trip.)
pub(super) const CHECK_FUNCTION: &str = r#"const odmCheck = (database, collection, description, version, key, noOlder) => {
  let failure = null;
  try {
    const target = db.getSiblingDB(database);
    const info = target.getCollectionInfos({ name: collection })[0];
    const validator = info && info.options ? info.options.validator : undefined;
    const title = validator && validator.$jsonSchema ? validator.$jsonSchema.title : undefined;
    const live = typeof title === "string" ? /^version (\d+)/.exec(title) : null;
    if (live && Number(live[1]) > version) {
      failure = `the collection is ahead: its validator is of version ${live[1]}, newer than version ${version} this plan was made for (a newer release synced it since); nothing of it was changed`;
    } else if (noOlder) {
      const older = target.getCollection(collection).countDocuments({ [key]: { $ne: version } });
      if (older > 0) {
        failure = `${older} document(s) are not at version ${version} (written since the plan was made, e.g. by a replica of an older release): the validator of version ${version} alone would refuse their next writes, so it was not replaced; migrate them (or let the older replicas finish), then plan again`;
      }
    }
  } catch (e) {
    failure = `its precondition could not be checked: ${e.message}`;
  }
  if (failure !== null) {
    print(`FAILED: ${description}: ${failure}`);
    quit(1);
  }
};
"#;
