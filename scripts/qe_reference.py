#!/usr/bin/env python3
"""An independent implementation of the papers' count-query workload.

It reads what a data recipient and the data owner hold, and nothing of
Proxima's: the original table (CSV + schema + hierarchies) and a published
release (the CSV of `proxima anonymize --row-id`: `group_id`, `row_id`, QIs
generalized to labels such as `[23-27]` or a hierarchy node, the SA exact per
row). It then evaluates count queries

    select count(*) where A1 ∈ I1 and … and Aq ∈ Iq and S1 ∈ J1 [and S2 ∈ J2]

exactly on the original table (`act`: every row of it, the rows the release
left out included) and on the release (`est`: its groups only, so a row left
out adds nothing), assuming values uniform inside each group's box, and
reports the relative error
|act − est| / act over the queries with act > 0: mean, median, and a few
quantiles. The rules are the papers' (docs/benchmarks.md §"Query error
workload"); the ones the papers leave open are the flags below.

    qe_reference.py --schema S.json --data T.csv[.gz] [--hierarchy COL=FILE …]
                    --release R.csv --qis 2 [--seed N] [--queries 1000]
                    [--drop-rows-with VALUE]
                    [--queries-from DUMP.jsonl] [--out PER_QUERY.jsonl]

* The original table is every data row of T (gzip when the name ends in
  `.gz`), less those with a cell equal to `--drop-rows-with` (the table a
  job ran on when rows with `?` were dropped before the upload). Domains
  and actual counts are over it; release rows name it by `row_id` (1-based
  data line of T).

* Queries are drawn here (numpy's PCG64 with --seed) unless
  `--queries-from` gives a dump of Proxima's (`proxima-core` example
  `qe_dump`), in which case each dumped query is re-evaluated here and its
  `actual`/`estimate` compared with Proxima's.
* `--domains continuous` reproduces a reading of XColor's formula that
  ignores integer domains (interval length (max − min)·s^(1/q), overlap by
  length even for integer attributes): the paper-exact mode is the default.
* `--sa-predicates 1` queries one SA component even on a composite SA (the
  default is XColor's qs = 2 when the SA has two components or more).
* `--out` writes every query with the reference's counts (JSON lines); with
  `--fixture-case NAME` it appends instead the CSV rows of the Rust test's
  fixture (`crates/proxima-core/tests/fixtures/qe_reference.csv`; see
  `scripts/qe_reference_check.sh --fixture`).

Exit status 1 when a dumped query's counts differ from Proxima's or the
query breaks the drawing rules.

Only the standard library and numpy are used.
"""

import argparse
import csv
import gzip
import json
import math
import sys

import numpy as np

# --------------------------------------------------------------------------
# Inputs


def read_rows(path, delimiter):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="", encoding="utf-8") as f:
        reader = csv.reader(f, delimiter=delimiter)
        header = next(reader)
        return header, [row for row in reader]


class Hierarchy:
    """A generalization hierarchy from ARX's `leaf;level1;…;root` rows.

    Leaves are ordered depth first, children in the order they first appear
    in the file, so every subtree is a contiguous run of leaves and a query
    interval over the order is a set of values in which subtrees stay whole.
    """

    def __init__(self, paths):
        height = len(paths[0]) - 1
        children = {}
        seen = set()
        for path in paths:
            if path[0] in seen:
                continue
            seen.add(path[0])
            # Nodes are (level, label); walk from the root down.
            for level in range(height, 0, -1):
                parent = (level, path[level])
                child = (level - 1, path[level - 1])
                kids = children.setdefault(parent, [])
                if child not in kids:
                    kids.append(child)
        self.leaves = []
        stack = [(height, paths[0][height])]
        while stack:
            node = stack.pop()
            if node[0] == 0:
                self.leaves.append(node[1])
            else:
                stack.extend(reversed(children[node]))
        self.rank = {leaf: i for i, leaf in enumerate(self.leaves)}
        # Label → leaf ranks under it, per level.
        self.under = {}
        for path in paths:
            for level, label in enumerate(path):
                self.under.setdefault((level, label), set()).add(self.rank[path[0]])

    @staticmethod
    def read(path):
        with open(path, newline="", encoding="utf-8") as f:
            rows = [r for r in csv.reader(f, delimiter=";") if r]
        return Hierarchy(rows)

    @staticmethod
    def flat(values):
        return Hierarchy([[v, "*"] for v in dict.fromkeys(values)])

    def box(self, label, leaves_in_group):
        """The leaf ranks a published label stands for: the node with that
        label whose subtree holds the group's own values (a label can name
        nodes at two levels)."""
        for (level, text), ranks in sorted(self.under.items()):
            if text == label and leaves_in_group <= ranks:
                return ranks
        raise ValueError(f"label {label!r} covers no node holding the group's values")


def parse_numeric_label(text):
    """`17`, `[17-24]`, `[-5--1]` → (lo, hi)."""
    if not text.startswith("["):
        x = float(text)
        return x, x
    inner = text[1:-1]
    sep = inner.index("-", 1)
    return float(inner[:sep]), float(inner[sep + 1 :])


class Attribute:
    """One queried attribute: its values on the original table's rows, its
    domain and how an interval over it is drawn and overlapped."""

    def __init__(self, name, kind, values, hierarchy=None):
        self.name = name
        self.kind = kind  # "discrete", "continuous" or "categorical"
        self.hierarchy = hierarchy
        if kind == "categorical":
            self.values = np.array([hierarchy.rank[v] for v in values], dtype=np.int64)
            self.size = len(hierarchy.leaves)
        else:
            self.values = np.array(values, dtype=np.float64)
            self.lo, self.hi = float(self.values.min()), float(self.values.max())

    def draw(self, f, rng):
        """A random predicate covering a fraction f of the domain."""
        if self.kind == "continuous":
            length = (self.hi - self.lo) * f
            start = self.lo + rng.random() * (self.hi - self.lo - length)
            return (start, start + length)
        # Integers (or leaf ranks): ⌊|A|·f⌋ of them, at least one.
        size = self.size if self.kind == "categorical" else int(self.hi - self.lo) + 1
        length = max(1, math.floor(size * f))
        start = int(rng.integers(0, size - length + 1))
        if self.kind == "categorical":
            mask = np.zeros(self.size, dtype=bool)
            mask[start : start + length] = True
            return mask
        return (self.lo + start, self.lo + start + length - 1)

    def matches(self, values, pred):
        if self.kind == "categorical":
            return pred[values]
        a, b = pred
        return (values >= a) & (values <= b)


# --------------------------------------------------------------------------
# The release


class Release:
    """Per group: the box of each QI and the published SA values per row."""

    def __init__(self, header, rows, table, qis, sas):
        col = {name: i for i, name in enumerate(header)}
        gids = sorted({int(r[col["group_id"]]) for r in rows})
        gindex = {g: i for i, g in enumerate(gids)}
        self.groups = len(gids)
        self.group_of_row = np.array([gindex[int(r[col["group_id"]])] for r in rows])
        # The original rows published, by their 1-based data line.
        self.lines = np.array([int(r[col["row_id"]]) - 1 for r in rows])
        self.sa = {}
        for s in sas:
            published = [r[col[s.name]] for r in rows]
            if s.kind == "categorical":
                self.sa[s.name] = np.array([s.hierarchy.rank[v] for v in published])
            else:
                self.sa[s.name] = np.array([float(v) for v in published])
        # QI boxes: numeric (lo, hi) arrays, or a group × leaves mask.
        self.boxes = {}
        first = {}
        for i, r in enumerate(rows):
            first.setdefault(self.group_of_row[i], i)
        for qi in qis:
            labels = [rows[first[g]][col[qi.name]] for g in range(self.groups)]
            for i, r in enumerate(rows):
                if r[col[qi.name]] != labels[self.group_of_row[i]]:
                    sys.exit(f"group {r[col['group_id']]} has two labels for {qi.name}")
            if qi.kind == "categorical":
                own = [set() for _ in range(self.groups)]
                for line, g in zip(self.lines, self.group_of_row):
                    own[g].add(table[line][qi.name])
                mask = np.zeros((self.groups, qi.size), dtype=bool)
                for g, label in enumerate(labels):
                    ranks = qi.hierarchy.box(label, {qi.hierarchy.rank[v] for v in own[g]})
                    mask[g, sorted(ranks)] = True
                self.boxes[qi.name] = mask
            else:
                lo_hi = np.array([parse_numeric_label(label) for label in labels])
                self.boxes[qi.name] = (lo_hi[:, 0], lo_hi[:, 1])

    def fraction(self, qi, pred):
        """Per group, the fraction of its box the predicate covers."""
        if qi.kind == "categorical":
            box = self.boxes[qi.name]
            return (box & pred).sum(axis=1) / box.sum(axis=1)
        lo, hi = self.boxes[qi.name]
        a, b = pred
        if qi.kind == "discrete":
            covered = np.maximum(0.0, np.minimum(hi, b) - np.maximum(lo, a) + 1.0)
            return covered / (hi - lo + 1.0)
        width = hi - lo
        covered = np.maximum(0.0, np.minimum(hi, b) - np.maximum(lo, a))
        point = ((a <= lo) & (lo <= b)).astype(float)
        return np.where(width > 0, covered / np.where(width > 0, width, 1.0), point)

    def estimate(self, qi_preds, sa_preds):
        ok = np.ones(len(self.group_of_row), dtype=bool)
        for s, pred in sa_preds:
            ok &= s.matches(self.sa[s.name], pred)
        counts = np.bincount(self.group_of_row[ok], minlength=self.groups).astype(float)
        frac = np.ones(self.groups)
        for qi, pred in qi_preds:
            frac *= self.fraction(qi, pred)
        return float((counts * frac).sum())


# --------------------------------------------------------------------------
# Loading the original table and the attributes


def load(args):
    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    delimiter = schema.get("csv", {}).get("delimiter", ",")
    header, rows = read_rows(args.data, delimiter)
    table = [dict(zip(header, r)) for r in rows]
    hierarchies = {}
    for h in args.hierarchy:
        name, path = h.split("=", 1)
        hierarchies[name] = Hierarchy.read(path)
    return schema, table, hierarchies


def attributes(schema, table, hierarchies, lines, domains):
    qis, sas = [], []
    for c in schema["columns"]:
        if c["role"] not in ("quasi_identifier", "sensitive"):
            continue
        name = c["name"]
        values = [table[line][name] for line in lines]
        if c.get("type") == "categorical":
            h = hierarchies.get(name) or Hierarchy.flat(values)
            attr = Attribute(name, "categorical", values, h)
        else:
            nums = [float(v) for v in values]
            integral = all(x == math.floor(x) for x in nums)
            kind = "discrete" if integral and domains == "paper" else "continuous"
            attr = Attribute(name, kind, nums)
        (qis if c["role"] == "quasi_identifier" else sas).append(attr)
    return qis, sas


# --------------------------------------------------------------------------
# Queries


def own_queries(args, qis, sas):
    rng = np.random.default_rng(args.seed)
    qs = min(args.sa_predicates, len(sas))
    f = args.selectivity ** (1.0 / (args.qis + qs))
    for _ in range(args.queries):
        picked = sorted(rng.choice(len(qis), args.qis, replace=False))
        picked_sa = sorted(rng.choice(len(sas), qs, replace=False))
        yield (
            [(qis[d], qis[d].draw(f, rng)) for d in picked],
            [(sas[j], sas[j].draw(f, rng)) for j in picked_sa],
            None,
        )


def dumped_predicate(attr, p):
    if attr.kind == "categorical":
        mask = np.zeros(attr.size, dtype=bool)
        mask[[attr.hierarchy.rank[v] for v in p["values"]]] = True
        return mask
    return (float(p["lo"]), float(p["hi"]))


def dumped_queries(path, qis, sas):
    by_name = {a.name: a for a in qis + sas}
    with open(path, encoding="utf-8") as f:
        for line in f:
            q = json.loads(line)
            yield (
                [(by_name[p["column"]], dumped_predicate(by_name[p["column"]], p)) for p in q["qis"]],
                [(by_name[p["column"]], dumped_predicate(by_name[p["column"]], p)) for p in q["sa"]],
                q,
            )


def rule_violations(qi_preds, sa_preds, qis, sas, selectivity):
    """What in a dumped query breaks the drawing rules: distinct QIs, qs SA
    columns, each predicate inside its domain with the rule's length."""
    wrong = []
    if len({a.name for a, _ in qi_preds}) != len(qi_preds):
        wrong.append("a QI is queried twice")
    if len(sa_preds) != min(2, len(sas)) or len({a.name for a, _ in sa_preds}) != len(sa_preds):
        wrong.append(f"{len(sa_preds)} SA predicates, the rule gives {min(2, len(sas))}")
    f = selectivity ** (1.0 / (len(qi_preds) + len(sa_preds)))
    for attr, pred in qi_preds + sa_preds:
        if attr.kind == "categorical":
            ranks = np.flatnonzero(pred)
            size, inside, contiguous = attr.size, True, ranks[-1] - ranks[0] + 1 == len(ranks)
            length = len(ranks)
        elif attr.kind == "discrete":
            size, contiguous = int(attr.hi - attr.lo) + 1, True
            inside = attr.lo <= pred[0] and pred[1] <= attr.hi
            length = int(pred[1] - pred[0]) + 1
        else:
            expected = (attr.hi - attr.lo) * f
            if not math.isclose(pred[1] - pred[0], expected, rel_tol=1e-9, abs_tol=1e-9):
                wrong.append(f"{attr.name}: length {pred[1] - pred[0]}, the rule gives {expected}")
            if pred[0] < attr.lo or pred[1] > attr.hi + 1e-9 * abs(attr.hi):
                wrong.append(f"{attr.name}: {pred} leaves the domain")
            continue
        if length != max(1, math.floor(size * f)) or not inside or not contiguous:
            wrong.append(f"{attr.name}: {length} values of {size}, the rule gives "
                         f"{max(1, math.floor(size * f))} consecutive ones inside the domain")
    return wrong


def describe(attr, pred):
    if attr.kind == "categorical":
        return {"column": attr.name, "values": [attr.hierarchy.leaves[i] for i in np.flatnonzero(pred)]}
    return {"column": attr.name, "lo": pred[0], "hi": pred[1]}


# --------------------------------------------------------------------------


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--schema", required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--hierarchy", action="append", default=[], metavar="COLUMN=FILE")
    p.add_argument("--release", required=True)
    p.add_argument("--qis", type=int, default=2, help="QIs per query (the papers' qd = w − 1)")
    p.add_argument("--sa-predicates", type=int, default=2, help="SA components queried, at most (XColor's qs)")
    p.add_argument("--selectivity", type=float, default=0.1)
    p.add_argument("--queries", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--domains", choices=["paper", "continuous"], default="paper")
    p.add_argument("--drop-rows-with", metavar="VALUE",
                   help="leave out of the original table every data row with a cell equal to VALUE")
    p.add_argument("--queries-from", metavar="DUMP.jsonl")
    p.add_argument("--out", metavar="PER_QUERY.jsonl")
    p.add_argument("--fixture-case", metavar="CASE",
                   help="append to --out, as CSV rows of the Rust test's fixture, the first "
                        "--fixture-queries answers and the summary, labelled CASE")
    p.add_argument("--fixture-queries", type=int, default=50)
    args = p.parse_args()

    schema, table, hierarchies = load(args)
    header, rel_rows = read_rows(args.release, ",")
    if "row_id" not in header:
        sys.exit("the release needs a row_id column (proxima anonymize --row-id)")
    # The original table's rows (data lines, 0-based): every row, less the
    # dropped ones. The release publishes some of them (by `row_id`); the
    # others were left out by the job and still count in `act`.
    drop = args.drop_rows_with
    lines = [i for i, row in enumerate(table) if drop is None or drop not in row.values()]
    published = {int(r[header.index("row_id")]) - 1 for r in rel_rows}
    if not published <= set(lines):
        sys.exit("the release publishes rows that are not in the original table")
    left_out = len(lines) - len(published)
    qis, sas = attributes(schema, table, hierarchies, lines, args.domains)
    release = Release(header, rel_rows, table, qis, sas)
    queries = (
        dumped_queries(args.queries_from, qis, sas)
        if args.queries_from
        else own_queries(args, qis, sas)
    )

    errors, answers, described = [], [], []
    mismatches, violations, q_seen = 0, 0, args.qis
    for drawn, (qi_preds, sa_preds, theirs) in enumerate(queries, start=1):
        match = np.ones(len(lines), dtype=bool)
        for attr, pred in qi_preds + sa_preds:
            match &= attr.matches(attr.values, pred)
        act = int(match.sum())
        est = release.estimate(qi_preds, sa_preds)
        if act > 0:
            errors.append(abs(act - est) / act)
        answers.append((act, est))
        if args.out and not args.fixture_case:
            described.append({
                "qis": [describe(a, p) for a, p in qi_preds],
                "sa": [describe(a, p) for a, p in sa_preds],
                "actual": act,
                "estimate": est,
            })
        if theirs is None:
            continue
        q_seen = len(qi_preds)
        for problem in rule_violations(qi_preds, sa_preds, qis, sas, args.selectivity):
            violations += 1
            if violations <= 10:
                print(f"query {drawn}: {problem}", file=sys.stderr)
        same = theirs["actual"] == act and math.isclose(theirs["estimate"], est, rel_tol=1e-9, abs_tol=1e-9)
        if not same:
            mismatches += 1
            if mismatches <= 10:
                print(f"query {drawn}: proxima act {theirs['actual']} est {theirs['estimate']}, "
                      f"reference act {act} est {est}", file=sys.stderr)

    e = np.array(errors)
    if args.out and args.fixture_case:
        # case,q,item,value,value: per query (index, actual, estimate),
        # then the whole workload (used, drawn) and (mean, median).
        label = f"{args.fixture_case},{q_seen}"
        with open(args.out, "a", encoding="utf-8") as out:
            for i, (act, est) in enumerate(answers[: args.fixture_queries]):
                out.write(f"{label},{i},{act},{est!r}\n")
            out.write(f"{label},used,{len(errors)},{len(answers)}\n")
            out.write(f"{label},mean_median,{float(e.mean())!r},{float(np.median(e))!r}\n")
    elif args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(d) + "\n" for d in described)

    summary = {
        "release": args.release,
        "qis": q_seen,
        "selectivity": args.selectivity,
        "domains": args.domains,
        "rows": len(lines),
        "left_out": left_out,
        "queries": len(answers),
        "queries_used": len(errors),
        "mean": float(e.mean()) if len(e) else None,
        "median": float(np.median(e)) if len(e) else None,
        "p90": float(np.quantile(e, 0.9)) if len(e) else None,
        "max": float(e.max()) if len(e) else None,
    }
    if args.queries_from:
        summary["mismatches"] = mismatches
        summary["rule_violations"] = violations
    print(json.dumps(summary))
    return 1 if mismatches or violations else 0


if __name__ == "__main__":
    sys.exit(main())
