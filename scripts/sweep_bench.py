#!/usr/bin/env python3
"""A 12-point risk-utility sweep on sal 500k, on one `proxima serve` replica
and then on two replicas sharing one PostgreSQL, in the same run.

    cargo build --release
    scripts/sweep_bench.py [--binary target/release/proxima]
                           [--database-url postgres://postgres@127.0.0.1:5432/postgres]
                           [--workers 1] [--data ../shared/data]

It creates a fresh database (dropped at the end), uploads sal 500k once,
then for each configuration starts the replicas, posts the same sweep (12
points: epsilon_m, epsilon in {2000, 3000, 4500} x m in {2, 3, 4, 5},
suppression limit 0.25), polls until every point has finished, and stops
the replicas. If any point did not succeed (failed, cancelled or
infeasible), it names those points and exits with status 1 before printing
that configuration's timing: a run of failed work is not a benchmark.
Otherwise it prints, per configuration, the time from the POST until the
sweep is finished (and the POST itself, which validates all 12 points
on one loaded table), the points each replica settled (its
`proxima_jobs_finished_total`), the sum of the points' own `elapsed_ms`,
the machine's load average around each run, and the ratio one / two.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from urllib.parse import urlsplit, urlunsplit

KEY = "sweep-bench-key-0123456789abcdef"
SWEEP_MODEL = {"kind": "epsilon_m", "epsilon": [2000, 3000, 4500], "m": [2, 3, 4, 5]}
SUPPRESSION_LIMIT = 0.25


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def with_db(url, name):
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def psql(url, sql):
    subprocess.run(["psql", url, "-qAtc", sql], check=True, stdout=subprocess.DEVNULL)


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + KEY)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=600) as res:
        return json.loads(res.read())


class Replica:
    def __init__(self, binary, db_url, name, workers, logdir):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.name = name
        env = {
            "PATH": os.environ.get("PATH", ""),
            "DATABASE_URL": db_url,
            "PROXIMA_BIND": f"127.0.0.1:{self.port}",
            "PROXIMA_BOOTSTRAP_KEY": KEY,
            "PROXIMA_WORKERS": str(workers),
            "PROXIMA_MAX_BODY": str(1 << 30),
            "RUST_LOG": "warn",
        }
        self.log = open(os.path.join(logdir, name + ".log"), "wb")
        self.proc = subprocess.Popen(
            [binary, "serve"], env=env, stdout=self.log, stderr=self.log,
            start_new_session=True)
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/readyz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                sys.exit(f"{name} did not become ready (see {self.log.name})")
            time.sleep(0.2)

    def jobs_settled(self):
        """The sum of this replica's `proxima_jobs_finished_total`."""
        with urllib.request.urlopen(self.base + "/metrics", timeout=10) as r:
            text = r.read().decode()
        return int(sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                       if line.startswith("proxima_jobs_finished_total{")))

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def upload(base, data_dir, examples):
    schema = os.path.join(examples, "sal.schema.json")
    data = os.path.join(data_dir, "sal_synthetic", "sal_synthetic_500k.csv.gz")
    out = subprocess.run(
        ["curl", "-sf", "-H", "Authorization: Bearer " + KEY, base + "/v1/datasets",
         "-F", f"schema=@{schema};type=application/json", "-F", f"data=@{data}"],
        check=True, stdout=subprocess.PIPE)
    return json.loads(out.stdout)


def run_sweep(replicas, dataset):
    body = {"dataset_id": dataset["id"], "model": SWEEP_MODEL,
            "suppression_limit": SUPPRESSION_LIMIT}
    t0 = time.monotonic()
    sweep = call(replicas[0].base, "POST", "/v1/sweeps", body)
    posted = time.monotonic() - t0
    while True:
        s = call(replicas[0].base, "GET", f"/v1/sweeps/{sweep['id']}")
        if s["status"] not in ("queued", "running"):
            break
        time.sleep(0.05)
    total = time.monotonic() - t0
    return s, posted, total, [r.jobs_settled() for r in replicas]


def check_all_succeeded(s, label):
    """Exits non-zero, naming each point that did not succeed, unless the
    sweep succeeded with every point succeeded: a timing of failed,
    cancelled or infeasible work is not a benchmark."""
    bad = [p for p in s["points"] if p.get("status") != "succeeded"]
    if s.get("status") == "succeeded" and s["points"] and not bad:
        return
    lines = [f"{label}: sweep {s.get('id')} is {s.get('status')} with "
             f"{len(bad)} of {len(s['points'])} points not succeeded "
             f"(counts {s.get('counts')}); no timing recorded:"]
    for p in bad:
        err = p.get("error") or {}
        lines.append(f"  point {p.get('index')} ({p.get('label')}): {p.get('status')}"
                     + (f" - {err.get('code')}: {err.get('message')}" if err else ""))
    sys.exit("\n".join(lines))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(root, "target/release/proxima"))
    ap.add_argument("--database-url", default=os.environ.get(
        "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
    ap.add_argument("--workers", type=int, default=1, help="workers per replica")
    ap.add_argument("--data", default=os.path.join(root, "../shared/data"))
    ap.add_argument("--examples", default=os.path.join(root, "../shared/examples"))
    args = ap.parse_args()

    name = f"sweep_bench_{os.getpid()}"
    psql(args.database_url, f"CREATE DATABASE {name}")
    db_url = with_db(args.database_url, name)
    logdir = tempfile.mkdtemp(prefix="sweep-bench-")
    results = {}
    try:
        dataset = None
        for n in (1, 2):
            replicas = [Replica(args.binary, db_url, f"replica-{n}-{i}", args.workers, logdir)
                        for i in range(n)]
            try:
                if dataset is None:
                    dataset = upload(replicas[0].base, args.data, args.examples)
                load_before = os.getloadavg()[0]
                s, posted, total, settled = run_sweep(replicas, dataset)
                load_after = os.getloadavg()[0]
            finally:
                for r in replicas:
                    r.stop()
            check_all_succeeded(s, f"{n} replica(s)")
            counts = s["counts"]
            results[n] = total
            busy = sum(p["summary"]["elapsed_ms"] for p in s["points"] if p["summary"]) / 1000
            print(f"{n} replica(s) x {args.workers} worker(s): {total:.1f} s from POST to "
                  f"finished (POST {posted:.1f} s); points: {counts}; "
                  f"points settled per replica: {settled}; the points' own times add up to "
                  f"{busy:.1f} s; load average {load_before:.1f} before, {load_after:.1f} after")
        print(f"ratio one / two replicas: {results[1] / results[2]:.2f}")
    finally:
        psql(args.database_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
