//! Creating a model's collection: the `create` command (validator, level, action) and running it.

use crate::base::error::Result;
use crate::base::model::Model;
use crate::driver::observe::Op;
use bson::Document;
use mongodb::Database;

/// Creates `M`'s collection in `db` with its validator, `validationLevel` and `validationAction`
/// (and nothing else yet: indexes and startup sync build on this).
///
/// Fails with the server's error if the collection already exists (code 48, `NamespaceExists`).
pub async fn create_collection<M: Model>(db: &Database) -> Result<()> {
    let command = create_command::<M>();
    Op::on_db(db, M::COLLECTION, "create")
        .sent(&command)
        .values(|| command.clone())
        .run(db.run_command(command))
        .await?;
    Ok(())
}

/// The `create` command for `M`, as a DBA would review it.
///
/// ```
/// # use odm::Model;
/// # #[derive(Model, serde::Serialize, serde::Deserialize)]
/// # #[odm(collection = "shop_item")]
/// # struct Item { #[serde(rename = "n")] name: String }
/// let cmd = odm::collection::create_command::<Item>();
/// assert_eq!(cmd.get_str("create").ok(), Some("shop_item"));
/// assert_eq!(cmd.get_str("validationLevel").ok(), Some("strict"));
/// ```
///
/// A model whose collection is named at run time has no one `create` command: the build fails here (sync its
/// instances with [`crate::sync::SchemaSync::instance`]).
pub fn create_command<M: Model>() -> Document {
    const {
        assert!(
            M::TEMPLATE.is_none(),
            "this model's collection is named at run time: create an instance with `SchemaSync::instance` (rule \
             `name-template`)"
        )
    };
    crate::base::sync::ModelSpec::of::<M>().create_command()
}
