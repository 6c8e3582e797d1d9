//! Running the checklist: one `hello`, the client's concerns and preference, and the options it was built from.

use super::{assess, Settings};
use crate::base::connection::ConnectionWarning;
use crate::base::error::Result;
use crate::base::model::{Model, ReadPreferenceMode};
use crate::base::sync::ModelSpec;
use crate::driver::observe::Op;
use bson::doc;
use mongodb::options::{Acknowledgment, ClientOptions, ReadPreference, SelectionCriteria};
use mongodb::Client;

/// The connection checklist for a client and the models it serves; `.await` it for the warnings (see the
/// [module docs](crate::connection)).
#[must_use = "a checklist does nothing until it is awaited"]
pub struct Checklist<'c> {
    client: &'c Client,
    options: Option<(Option<u32>, Option<bool>)>,
    models: Vec<ModelSpec>,
}

impl<'c> Checklist<'c> {
    /// The checklist of `client`, for no model yet.
    pub fn new(client: &'c Client) -> Self {
        Checklist { client, options: None, models: Vec::new() }
    }

    /// The options `client` was built from: without them the pool size and `retryWrites` are not checked (the
    /// driver does not show them on a built client).
    pub fn options(mut self, options: &ClientOptions) -> Self {
        self.options = Some(pool_and_retry(options));
        self
    }

    /// Adds model `M`, whose declared concerns and read preference are weighed.
    pub fn model<M: Model>(self) -> Self {
        self.spec(ModelSpec::of::<M>())
    }

    /// Adds a model by its spec.
    pub fn spec(mut self, spec: ModelSpec) -> Self {
        self.models.push(spec);
        self
    }

    async fn run(self) -> Result<Vec<ConnectionWarning>> {
        warnings(self.client, self.options, &self.models).await
    }
}

/// Asks the server what it is (`hello`) and weighs the client's settings against `models`.
pub(crate) async fn warnings(
    client: &Client,
    options: Option<(Option<u32>, Option<bool>)>,
    models: &[ModelSpec],
) -> Result<Vec<ConnectionWarning>> {
    let admin = client.database("admin");
    // Any member answers `hello`: a connection that reads from secondaries only still gets its answer.
    let anyone = SelectionCriteria::ReadPreference(ReadPreference::Nearest { options: Default::default() });
    let hello = admin.run_command(doc! { "hello": 1 }).selection_criteria(anyone);
    let hello = Op::on_db(&admin, "", "hello").run(hello).await?;
    let settings = Settings {
        standalone: !hello.contains_key("setName") && hello.get_str("msg").ok() != Some("isdbgrid"),
        options,
        read_preference: client.selection_criteria().and_then(mode_of),
        unacknowledged: client.write_concern().and_then(|w| w.w.as_ref()) == Some(&Acknowledgment::Nodes(0)),
    };
    Ok(assess(&settings, models))
}

/// `maxPoolSize` and `retryWrites` as the options set them.
pub(crate) fn pool_and_retry(options: &ClientOptions) -> (Option<u32>, Option<bool>) {
    (options.max_pool_size, options.retry_writes)
}

/// The mode of a read preference (a selection by predicate has none).
fn mode_of(criteria: &SelectionCriteria) -> Option<ReadPreferenceMode> {
    match criteria {
        SelectionCriteria::ReadPreference(p) => match p {
            ReadPreference::Primary => Some(ReadPreferenceMode::Primary),
            ReadPreference::PrimaryPreferred { .. } => Some(ReadPreferenceMode::PrimaryPreferred),
            ReadPreference::Secondary { .. } => Some(ReadPreferenceMode::Secondary),
            ReadPreference::SecondaryPreferred { .. } => Some(ReadPreferenceMode::SecondaryPreferred),
            ReadPreference::Nearest { .. } => Some(ReadPreferenceMode::Nearest),
            // A mode a later driver adds: odm cannot compare it.
            _ => None,
        },
        _ => None,
    }
}

/// Runs the checklist: one `hello`, nothing written.
impl<'c> std::future::IntoFuture for Checklist<'c> {
    type Output = Result<Vec<ConnectionWarning>>;
    type IntoFuture = futures_util::future::BoxFuture<'c, Result<Vec<ConnectionWarning>>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}
