#!/usr/bin/env python3
"""Instructions per document of a typed read through the server: odm's `find(…).await` against the MongoDB driver
reading the same documents into the same serde struct, built outside odm's workspace (tests/benches/baseline-read,
its own workspace and lock file, so no feature odm's workspace turns on reaches it).

Starts a server (`mongod` on PATH, else the test server the harness installed; or uses MONGODB_URI), seeds N sample
orders through the find bench (`ODM_BENCH_LOOP=seed`), builds the baseline crate, then counts instructions under
valgrind's callgrind for a read of N documents and for a read of none, so that start-up and the connection cancel
out (the server is another process and is not counted):

    odm_read       Collection::<Order>::find(everything).limit(N).await (the find bench, ODM_BENCH_LOOP=odm_read)
    serde_read     the driver's find + try_collect into SerdeOrder inside odm's build (ODM_BENCH_LOOP=serde_read)
    baseline       the same driver calls and struct, built outside the workspace

Usage: python3 scripts/read_cost.py [--n 20000]   (needs valgrind; release builds land under target/)
"""

import argparse
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time

from callgrind import ROOT, bench_executable, count_sides

BASELINE = ROOT / "tests" / "benches" / "baseline-read"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server() -> tuple[str, subprocess.Popen, str]:
    """A server of its own for the count: `mongod`, or the test server the harness installed into its cache."""
    port, data = free_port(), tempfile.mkdtemp()
    if shutil.which("mongod"):
        cmd = ["mongod", "--dbpath", data, "--port", str(port), "--bind_ip", "127.0.0.1", "--quiet"]
    else:
        cache = pathlib.Path(os.environ.get("ODM_CACHE_DIR")
                             or pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache")) / "odm")
        found = sorted(cache.glob("secantusdb-*/bin/secantusd-py"))
        if not found:
            raise SystemExit("no server: set MONGODB_URI, or run `cargo test` once so the harness installs its server")
        cmd = [str(found[0]), "--host", "127.0.0.1", "--port", str(port), "--storage-path", data]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            break
        except OSError:
            time.sleep(0.1)
    return f"mongodb://127.0.0.1:{port}/?directConnection=true", server, data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="documents per counted read (default 20000)")
    args = parser.parse_args()
    find = bench_executable("find")
    target = ROOT / "target" / "baseline-read"
    subprocess.run(["cargo", "build", "--release", "--locked", "--target-dir", str(target)], cwd=BASELINE, check=True)
    baseline = str(target / "release" / "baseline-read")
    uri, server, data = os.environ.get("MONGODB_URI"), None, None
    if not uri:
        uri, server, data = start_server()
    try:
        seed = {**os.environ, "MONGODB_URI": uri, "ODM_BENCH_LOOP": "seed", "ODM_BENCH_N": str(args.n)}
        subprocess.run([find], env=seed, check=True)
        sides = {
            "odm_read": (find, {"ODM_BENCH_LOOP": "odm_read", "MONGODB_URI": uri}),
            "serde_read": (find, {"ODM_BENCH_LOOP": "serde_read", "MONGODB_URI": uri}),
            "baseline": (baseline, {"MONGODB_URI": uri}),
        }
        per = count_sides(sides, args.n, "document")
        for side, count in per.items():
            print(f"read_cost {side:<11} {count:>8,.0f} instructions per document, "
                  f"{count / per['baseline']:.3f}x the baseline")
    finally:
        if server:
            server.terminate()
            server.wait()
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
