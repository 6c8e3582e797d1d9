//! A shop's admin command line: the operator's subcommands (`plan`, `verify`, `apply`, `export`, `check`,
//! `migrate`, `list`) over the shop's shared models, as an application ships it in its own `src/bin/admin.rs`.
//!
//! ```text
//! cargo run --example admin -- list
//! cargo run --example admin -- --uri mongodb://localhost:27017 plan
//! cargo run --example admin -- --uri mongodb://localhost:27017 --model Order check --json
//! ```

use odm_shared_models::{Balance, Contact, Event, Order};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    odm::cli::Admin::new("shop-admin")
        .model::<Order>()
        .model::<Contact>()
        .model::<Event>()
        .model::<Balance>()
        .run()
        .await
}
