//! Running scripts with mongosh against the test server, as a DBA or another program would.

use std::process::Output;

/// Runs `script` with mongosh against the test server: (exit code, stdout and stderr).
pub fn mongosh(script: &str) -> (i32, String) {
    let out = odm::testing::run_mongosh(odm::testing::server().uri(), script).expect("mongosh runs");
    (out.status.code().unwrap_or(-1), output_text(&out))
}

/// What a finished process printed: its stdout, then its stderr.
pub fn output_text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}
