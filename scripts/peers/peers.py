"""Time the Python peers (anjana, pycanon) on the same data and parameters
as Proxima's counterpart cases, and print peer / Proxima ratios.

Run through scripts/peers/run.sh, which builds Proxima, runs
`proxima bench` on the counterpart cases, prepares the 600k release and
calls this script with the paths below. Stdlib + pandas + the two peers.

Pairs (peer run  <->  Proxima case):
  anjana k_anonymity k=10 on adult (8 QIs, ARX hierarchies)   <-> mo-adult
  anjana l_diversity l=2, k=10, SA salary-class on adult       <-> mo-adult-l
  anjana t_closeness t=0.2, k=10, SA salary-class on adult     <-> mo-adult-t
  pycanon k_anonymity on the 600k Mondrian k=10 release        <-> au-600k-k
  pycanon l_diversity (SA hours-per-week) on the same release  <-> au-600k-l
  pycanon t_closeness (SA hours-per-week) on the same release  <-> au-600k-t

Both sides exclude loading: the peers get a loaded DataFrame, Proxima's
cases time the job (partition, generalize, self-audit) or the audit on a
loaded table. anjana runs with no record suppression (supp_level=0), as
Proxima publishes every row.
"""

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import time

import pandas as pd
import anjana.anonymity
import pycanon.anonymity
from importlib.metadata import version

ADULT_QIS = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
]


def timed(runs, fn):
    """Median, min and max seconds of `runs` calls after one warm-up; the
    last call's value."""
    value = fn()
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        value = fn()
        seconds.append(time.perf_counter() - start)
    return (
        {
            "median_s": statistics.median(seconds),
            "min_s": min(seconds),
            "max_s": max(seconds),
            "seconds": seconds,
        },
        value,
    )


def quiet(fn):
    """anjana prints progress; keep the table readable."""

    def run():
        with contextlib.redirect_stdout(io.StringIO()):
            return fn()

    return run


def adult_hierarchies(data_dir):
    return {
        qi: dict(
            pd.read_csv(
                f"{data_dir}/adult/adult_hierarchy_{qi}.csv",
                sep=";",
                header=None,
                dtype=str,
            )
        )
        for qi in ADULT_QIS
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, help="the shared data folder")
    ap.add_argument("--proxima-json", required=True, help="proxima bench --json output")
    ap.add_argument("--release-600k", required=True, help="Mondrian k=10 release CSV of 600k")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="write the comparison here")
    args = ap.parse_args()

    proxima = {c["case"]: c for c in json.load(open(args.proxima_json))["cases"]}
    adult = pd.read_csv(f"{args.data}/adult/adult.csv", sep=";", dtype=str)
    adult.columns = [c.strip() for c in adult.columns]
    hier = adult_hierarchies(args.data)

    rows = []

    only = [c for c in os.environ.get("PEER_CASES", "").split(",") if c]

    def pair(peer, what, proxima_case, fn, describe):
        if only and proxima_case not in only:
            return
        print(f"peers: {peer} {what} ...", file=sys.stderr, flush=True)
        stats, value = timed(args.runs, fn)
        mine = proxima.get(proxima_case, {})
        ratio = None
        if mine.get("median_s"):
            ratio = stats["median_s"] / mine["median_s"]
        rows.append(
            {
                "peer": peer,
                "what": what,
                "peer_median_s": stats["median_s"],
                "peer_min_s": stats["min_s"],
                "peer_max_s": stats["max_s"],
                "peer_result": describe(value),
                "proxima_case": proxima_case,
                "proxima_median_s": mine.get("median_s"),
                "proxima_passed": mine.get("passed"),
                "ratio_peer_over_proxima": ratio,
            }
        )
        # Each pair as soon as it is known (a long run can be cut short).
        print(f"peers: {json.dumps(rows[-1])}", file=sys.stderr, flush=True)

    def anon_summary(df):
        k = pycanon.anonymity.k_anonymity(df, ADULT_QIS) if len(df) else 0
        return f"{len(df)} rows, k={k}"

    pair(
        "anjana",
        "k-anonymity k=10, adult",
        "mo-adult",
        quiet(lambda: anjana.anonymity.k_anonymity(adult, [], ADULT_QIS, 10, 0, hier)),
        anon_summary,
    )
    pair(
        "anjana",
        "l-diversity l=2 k=10, adult",
        "mo-adult-l",
        quiet(
            lambda: anjana.anonymity.l_diversity(
                adult, [], ADULT_QIS, "salary-class", 10, 2, 0, hier
            )
        ),
        anon_summary,
    )
    pair(
        "anjana",
        "t-closeness t=0.2 k=10, adult",
        "mo-adult-t",
        quiet(
            lambda: anjana.anonymity.t_closeness(
                adult, [], ADULT_QIS, "salary-class", 10, 0.2, 0, hier
            )
        ),
        anon_summary,
    )

    release = pd.read_csv(args.release_600k, dtype={"hours-per-week": "int64"})
    release = release.astype({c: str for c in ADULT_QIS})
    sa = ["hours-per-week"]
    pair(
        "pycanon",
        "k-anonymity audit, 600k release",
        "au-600k-k",
        lambda: pycanon.anonymity.k_anonymity(release, ADULT_QIS),
        lambda k: f"k={k}",
    )
    pair(
        "pycanon",
        "l-diversity audit, 600k release",
        "au-600k-l",
        lambda: pycanon.anonymity.l_diversity(release, ADULT_QIS, sa),
        lambda l: f"l={l}",
    )
    pair(
        "pycanon",
        "t-closeness audit, 600k release",
        "au-600k-t",
        lambda: pycanon.anonymity.t_closeness(release, ADULT_QIS, sa),
        lambda t: f"t={t:.4f}",
    )

    print()
    print(f"anjana {version('anjana')}, pycanon {version('pycanon')}, pandas {pd.__version__}, "
          f"{args.runs} runs after a warm-up (median)")
    print()
    print("| peer | what | peer median | Proxima case | Proxima median | ratio (peer / Proxima) | peer result |")
    print("|---|---|---:|---|---:|---:|---|")
    for r in rows:
        pm = r["proxima_median_s"]
        ratio = r["ratio_peer_over_proxima"]
        print(
            f"| {r['peer']} | {r['what']} | {r['peer_median_s']:.3f} s | {r['proxima_case']} | "
            f"{'-' if pm is None else f'{pm * 1000:.1f} ms'} | "
            f"{'-' if ratio is None else f'{ratio:.0f}×'} | {r['peer_result']} |"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "versions": {
                        "anjana": version("anjana"),
                        "pycanon": version("pycanon"),
                        "pandas": pd.__version__,
                    },
                    "runs": args.runs,
                    "pairs": rows,
                },
                f,
                indent=2,
            )


if __name__ == "__main__":
    main()
