//! Installing what the harness needs (the test server, mongosh) into the cache directory, once across processes.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// How long to wait for another process's install of SecantusDB.
const LOCK_TIMEOUT: Duration = Duration::from_secs(10 * 60);
/// A lock directory older than this was left behind by a killed process.
const LOCK_STALE_AFTER: Duration = Duration::from_secs(15 * 60);
/// How often to retry taking the install lock.
const LOCK_RETRY: Duration = Duration::from_millis(200);

/// What an install is of, for its messages.
pub(super) struct Installing {
    /// The thing installed, with its version (`SecantusDB 0.7.0b3`).
    pub(super) what: &'static str,
    /// What the install needs and the alternatives to it.
    pub(super) help: &'static str,
}

/// Runs one install command to completion; on failure, says what ran and what it printed.
pub(super) fn run_install_step(command: &mut Command, installing: &Installing) -> Result<(), String> {
    let Installing { what, help } = installing;
    let shown = display_command(command.get_program(), &command.get_args().map(OsStr::to_owned).collect::<Vec<_>>());
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("odm::testing: cannot install {what}: cannot run `{shown}`: {e}\n{help}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "odm::testing: cannot install {what}: `{shown}` failed ({}).\n\
         stderr:\n{}\nstdout:\n{}\n{help}",
        describe_status(output.status),
        indent(&String::from_utf8_lossy(&output.stderr)),
        indent(&String::from_utf8_lossy(&output.stdout)),
    ))
}

pub(super) fn describe_status(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}

pub(super) fn indent(text: &str) -> String {
    if text.trim().is_empty() {
        return "    (empty)".to_owned();
    }
    text.trim_end().lines().map(|line| format!("    {line}")).collect::<Vec<_>>().join("\n")
}

/// An exclusive lock across processes: a directory created atomically, removed on drop.
pub(super) struct InstallLock {
    path: PathBuf,
}

impl InstallLock {
    pub(super) fn acquire(path: PathBuf, installing: &Installing) -> Result<Self, String> {
        let Installing { what, help } = installing;
        let started = Instant::now();
        let mut announced = false;
        loop {
            match fs::create_dir(&path) {
                Ok(()) => return Ok(Self { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    if lock_is_stale(&path) {
                        note(&format!("removing the stale lock {}", path.display()));
                        let _ = fs::remove_dir_all(&path);
                        continue;
                    }
                    if started.elapsed() >= LOCK_TIMEOUT {
                        return Err(format!(
                            "odm::testing: gave up after {} s waiting for the lock {} held by \
                             another process installing {what}; remove it if no such \
                             process is running.\n{help}",
                            LOCK_TIMEOUT.as_secs(),
                            path.display()
                        ));
                    }
                    if !announced {
                        note(&format!(
                            "waiting for another process to finish installing {what} (lock {})",
                            path.display()
                        ));
                        announced = true;
                    }
                    std::thread::sleep(LOCK_RETRY);
                }
                Err(e) => return Err(format!("odm::testing: cannot create the lock {}: {e}\n{help}", path.display())),
            }
        }
    }
}

impl Drop for InstallLock {
    fn drop(&mut self) {
        let _ = fs::remove_dir(&self.path);
    }
}

/// Whether a lock directory was last modified more than [`LOCK_STALE_AFTER`] ago.
pub(super) fn lock_is_stale(path: &Path) -> bool {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|modified| SystemTime::now().duration_since(modified).ok())
        .is_some_and(|age| age > LOCK_STALE_AFTER)
}

/// The cache directory: `$ODM_CACHE_DIR`, else `$XDG_CACHE_HOME/odm`, else `$HOME/.cache/odm`.
pub(super) fn cache_dir() -> PathBuf {
    cache_dir_from(std::env::var_os("ODM_CACHE_DIR"), std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
}

/// [`cache_dir`] from the values of `ODM_CACHE_DIR`, `XDG_CACHE_HOME` and `HOME`. Empty values
/// count as unset, and so does a relative `XDG_CACHE_HOME` (as the XDG spec says). With none of
/// them, `<temp dir>/odm-cache`.
pub(super) fn cache_dir_from(
    odm_cache_dir: Option<OsString>,
    xdg_cache_home: Option<OsString>,
    home: Option<OsString>,
) -> PathBuf {
    let set = |value: Option<OsString>| value.filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = set(odm_cache_dir) {
        return dir;
    }
    if let Some(xdg) = set(xdg_cache_home).filter(|p| p.is_absolute()) {
        return xdg.join("odm");
    }
    if let Some(home) = set(home) {
        return home.join(".cache").join("odm");
    }
    std::env::temp_dir().join("odm-cache")
}

/// The first executable file called `name` in the directories of `PATH`.
pub(super) fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable_file(candidate))
}

fn is_executable_file(path: &Path) -> bool {
    let Ok(metadata) = fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        metadata.is_file()
    }
}

/// A command line for messages.
pub(super) fn display_command(program: &OsStr, args: &[OsString]) -> String {
    std::iter::once(program)
        .chain(args.iter().map(OsString::as_os_str))
        .map(|part| part.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A progress note on the real stderr (not captured by the test harness, so it shows).
pub(super) fn note(message: &str) {
    let _ = writeln!(io::stderr(), "odm::testing: {message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<OsString> {
        Some(OsString::from(s))
    }

    #[test]
    fn cache_dir_prefers_odm_cache_dir() {
        assert_eq!(cache_dir_from(os("/c/odm"), os("/x"), os("/home/u")), PathBuf::from("/c/odm"));
        assert_eq!(cache_dir_from(os("rel/cache"), None, None), PathBuf::from("rel/cache"));
    }

    #[test]
    fn cache_dir_then_xdg_then_home() {
        assert_eq!(cache_dir_from(None, os("/x"), os("/home/u")), PathBuf::from("/x/odm"));
        assert_eq!(cache_dir_from(os(""), os(""), os("/home/u")), PathBuf::from("/home/u/.cache/odm"));
        // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
        assert_eq!(cache_dir_from(None, os("relative"), os("/home/u")), PathBuf::from("/home/u/.cache/odm"));
        assert_eq!(cache_dir_from(None, None, None), std::env::temp_dir().join("odm-cache"));
    }

    #[test]
    fn stale_lock_detection() {
        let dir = std::env::temp_dir().join(format!("odm-lock-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let lock = InstallLock::acquire(dir.clone(), &Installing { what: "a test", help: "" }).unwrap();
        assert!(dir.is_dir());
        assert!(!lock_is_stale(&dir));
        drop(lock);
        assert!(!dir.exists());
        assert!(!lock_is_stale(&dir));
    }
}
