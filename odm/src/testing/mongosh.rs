//! mongosh for tests of what odm exports for it (the sync plan's script): found on `PATH` or installed from npm.

use super::install::{cache_dir, find_on_path, note, run_install_step, InstallLock, Installing};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The mongosh release installed from npm when `$MONGOSH` is unset and `mongosh` is not on `PATH` (installed as
/// `mongosh@<this>`).
pub const MONGOSH_VERSION: &str = "2.12.0";

const HELP: &str = "The odm test harness installs mongosh from npm when MONGOSH is not set and mongosh is not \
on PATH. That needs Node.js and npm on PATH. Alternatively set MONGOSH to a mongosh executable.";

const MONGOSH: Installing = Installing { what: "mongosh", help: HELP };

/// The mongosh executable: `$MONGOSH` when set and non-empty, else `mongosh` on `PATH`, else mongosh
/// [`MONGOSH_VERSION`] installed with npm into the cache directory (first use only, about 150 MB, under a lock
/// like the test server's install).
///
/// # Panics
///
/// When none is found and the install fails; the message says what ran and what it printed.
pub fn mongosh() -> &'static Path {
    static MONGOSH_PATH: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = MONGOSH_PATH.get_or_init(|| {
        if let Some(p) = std::env::var_os("MONGOSH").filter(|p| !p.is_empty()) {
            return Ok(PathBuf::from(p));
        }
        find_on_path("mongosh").map_or_else(install, Ok)
    });
    match found {
        Ok(path) => path,
        Err(message) => panic!("{message}"),
    }
}

/// Runs `script` with mongosh against `uri` (`mongosh --quiet <uri> <file>`), with no standard input; returns
/// what it printed and its exit status.
pub fn run_mongosh(uri: &str, script: &str) -> std::io::Result<Output> {
    static NEXT_SCRIPT: AtomicU64 = AtomicU64::new(0);
    let file = std::env::temp_dir().join(format!(
        "odm-mongosh-{}-{}.js",
        std::process::id(),
        NEXT_SCRIPT.fetch_add(1, Ordering::Relaxed)
    ));
    fs::write(&file, script)?;
    let out = Command::new(mongosh()).arg("--quiet").arg(uri).arg(&file).stdin(Stdio::null()).output();
    let _ = fs::remove_file(&file);
    out
}

/// Installs mongosh [`MONGOSH_VERSION`] into `<cache>/mongosh-<version>/` unless it is complete there already.
fn install() -> Result<PathBuf, String> {
    let cache = cache_dir();
    let dir = cache.join(format!("mongosh-{MONGOSH_VERSION}"));
    let bin = dir.join("node_modules").join(".bin").join("mongosh");
    let marker = dir.join(".odm-complete");
    let installed = || bin.is_file() && marker.is_file();
    if installed() {
        return Ok(bin);
    }
    fs::create_dir_all(&cache)
        .map_err(|e| format!("odm::testing: cannot create the cache directory {}: {e}\n{HELP}", cache.display()))?;
    let _lock = InstallLock::acquire(cache.join(format!("mongosh-{MONGOSH_VERSION}.lock")), &MONGOSH)?;
    if installed() {
        return Ok(bin);
    }
    if dir.exists() {
        fs::remove_dir_all(&dir)
            .map_err(|e| format!("odm::testing: cannot remove the incomplete install {}: {e}", dir.display()))?;
    }
    fs::create_dir_all(&dir).map_err(|e| format!("odm::testing: cannot create {}: {e}\n{HELP}", dir.display()))?;
    let npm = find_on_path("npm").ok_or_else(|| {
        format!("odm::testing: cannot install mongosh {MONGOSH_VERSION}: npm is not on PATH.\n{HELP}")
    })?;
    note(&format!("installing mongosh@{MONGOSH_VERSION} into {} (first use only, about 150 MB)", dir.display()));
    let mut npm_install = Command::new(npm);
    npm_install
        .args(["install", "--no-audit", "--no-fund", "--no-save", "--loglevel=error", "--prefix"])
        .arg(&dir)
        .arg(format!("mongosh@{MONGOSH_VERSION}"));
    run_install_step(&mut npm_install, &MONGOSH)?;
    if !bin.is_file() {
        return Err(format!(
            "odm::testing: installed mongosh@{MONGOSH_VERSION} into {}, but it has no {}.\n{HELP}",
            dir.display(),
            bin.display()
        ));
    }
    fs::write(&marker, format!("mongosh@{MONGOSH_VERSION}\n"))
        .map_err(|e| format!("odm::testing: cannot write {}: {e}\n{HELP}", marker.display()))?;
    note("mongosh installed");
    Ok(bin)
}
