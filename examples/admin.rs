//! A shop's admin command line: the operator's subcommands (`plan`, `verify`, `apply`, `export`, `check`,
//! `migrate`, `list`, `dump`, `restore`, `expire`) over the shop's shared models, as an application ships it in its own
//! `src/bin/admin.rs` (there, `main` is the last statement below and nothing else).
//!
//! ```text
//! cargo run --example admin -- list
//! cargo run --example admin -- plan
//! cargo run --example admin -- --uri mongodb://localhost:27017 verify
//! cargo run --example admin -- --uri mongodb://localhost:27017 --model Order check --json
//! ```

use std::ffi::OsString;

use odm_shared_models::{Balance, Contact, Event, Order};

#[tokio::main]
async fn main() -> odm::cli::Exit {
    let mut args: Vec<OsString> = std::env::args_os().collect();
    // Example only: an application's admin binary always talks to the server it is given. So that this example
    // runs on a fresh machine, a subcommand that needs a server and was given none runs against the embedded test
    // server, which lasts only this run (an `apply` is not there for the next `verify`).
    if needs_a_server(&args)
        && std::env::var_os("MONGODB_URI").is_none_or(|uri| uri.is_empty())
        && !names_a_server(&args)
    {
        let uri = tokio::task::spawn_blocking(|| odm::testing::server().uri().to_owned())
            .await
            .expect("the embedded test server starts");
        eprintln!("no --uri or MONGODB_URI: running against the embedded test server at {uri} (this run only)");
        args.splice(1..1, [OsString::from("--uri"), OsString::from(uri)]);
    }
    odm::cli::Admin::new("shop-admin")
        .version(env!("CARGO_PKG_VERSION"))
        .model::<Order>()
        .model::<Contact>()
        .model::<Event>()
        .model::<Balance>()
        .args(args)
        .await
}

/// Whether the arguments name a subcommand that talks to a server (not `list`, not a request for help).
fn needs_a_server(args: &[OsString]) -> bool {
    let words: Vec<&str> = args.iter().skip(1).filter_map(|arg| arg.to_str()).collect();
    let asks_for_help = words.iter().any(|word| matches!(*word, "-h" | "--help" | "help" | "-V" | "--version"));
    let server_subcommands = ["plan", "verify", "apply", "export", "check", "migrate", "dump", "restore", "expire"];
    !asks_for_help && words.iter().any(|word| server_subcommands.contains(word))
}

/// Whether the arguments already give a connection string.
fn names_a_server(args: &[OsString]) -> bool {
    args.iter().filter_map(|arg| arg.to_str()).any(|arg| arg == "--uri" || arg.starts_with("--uri="))
}
