//! How an exported script checks a plan's preconditions ([`super::Precondition`]): the plan was made from what
//! was live then, and a script may run much later. odm's own sync plans a versioned collection again under its
//! lease (see [`crate::sync`]); a script cannot, so it checks, right before each step on such a collection, what the
//! plan assumed, and fails instead of carrying out a stale step.

/// The script's call of [`CHECK_FUNCTION`] before a step on collection `collection` of `database`: `description` is
/// the step's text as a JSON string; `no_older` also requires that no document of another version than `version`
/// remains (before a validator that tightens to that version alone).
pub(super) fn check_call(
    database: &str,
    collection: &str,
    description: &str,
    version: u32,
    key: &str,
    no_older: bool,
) -> String {
    let db = serde_json::Value::String(database.to_owned());
    let collection = serde_json::Value::String(collection.to_owned());
    let key = serde_json::Value::String(key.to_owned());
    format!("odmCheck({db}, {collection}, {description}, {version}, {key}, {no_older});\n")
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
