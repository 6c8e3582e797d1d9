//! What a bench learns about its own process and its settings: the peak memory of the process (from `/proc`), the
//! sizes it takes from the environment. Included by the bench binaries with `#[path]`.

/// This process's peak resident memory in KiB (`VmHWM`, as `/usr/bin/time -v` reports it).
pub fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status (Linux)");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("VmHWM in kB")
}

/// The number in the environment variable `name`, or `default`.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}
