//! CPU time of a process, read from `/proc`, for the benches that report the server's work beside wall time (wall
//! time on a shared machine moves with the load; CPU time much less). Included by the bench binaries with `#[path]`.

/// CPU seconds (user + system) used so far by process `pid` (`"self"` for this one); 0 where `/proc` is absent.
pub fn cpu_seconds(pid: &str) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return 0.0 };
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks: f64 = fields.get(11..13).map_or(0.0, |f| f.iter().filter_map(|t| t.parse::<f64>().ok()).sum());
    ticks / 100.0 // USER_HZ
}

/// The pid of the test server listening on `port`, found by its command line (`--port <port>`), when it runs here.
pub fn server_pid(port: &str) -> Option<String> {
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let pid = entry.file_name().into_string().ok()?;
        let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
        let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
        let serves = args.windows(2).any(|w| w[0] == b"--port" && w[1] == port.as_bytes());
        let is_server = args.first().is_some_and(|a| !a.ends_with(b"sh"));
        (serves && is_server && pid.chars().all(|c| c.is_ascii_digit())).then_some(pid)
    })
}

/// The port of a `mongodb://host:port/…` URI.
pub fn port_of(uri: &str) -> String {
    uri.rsplit(':').next().unwrap_or_default().chars().take_while(char::is_ascii_digit).collect()
}
