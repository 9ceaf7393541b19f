#!/usr/bin/env python3
"""What (ε,m) costs a group of a given size: the share of its rows that must be left out
when the group is thinned on its own, for groups drawn at random (rows taken without regard
to their QIs) or for the groups of a release (rows grouped by their published labels).

Why: a release with disjoint boxes pays the model group by group, and a small group's
densest SA window sits further above its share than the whole table's does. This measures
that price with nothing of the engine: the thinning below is written out again here.

Thinning (as the engine's window thinning, an independent copy): rows sorted by SA value;
at a cap c, keep a row when fewer than c kept rows lie within 2ε below it (every window of
width 2ε then holds at most c kept rows, so each kept row's ε-neighbourhood does); take the
largest c with c·m ≤ rows kept. It is not proven optimal for the model; it is the engine's.

usage:
  thinning_by_group_size.py random sal|cup [SHARED]     random groups of 50..30,000 rows
  thinning_by_group_size.py release RELEASE.csv         a sal release's own groups (labels
                                                        [lo-hi]; GCP with left-out rows at 1)
"""
import csv
import gzip
import os
import random
import sys
from collections import defaultdict

# The bench's parameters: em-sal (4500, 5) on Income, em-cup (5, 8) on RAMNTALL.
TABLES = {"sal": (4500.0, 5), "cup": (5.0, 8)}


def kept_at_cap(values, e, cap):
    kept, lo = [], 0
    for x in values:
        while lo < len(kept) and kept[lo] < x - 2 * e:
            lo += 1
        if len(kept) - lo < cap:
            kept.append(x)
    return len(kept)


def left_out(values, e, m):
    """Rows the thinning leaves out of one group (all of them when no cap holds)."""
    values = sorted(values)
    n = len(values)
    cap = n // m
    while cap > 0:
        k = kept_at_cap(values, e, cap)
        if k // m >= cap:
            return n - k
        cap = k // m
    return n


def load(name, shared):
    if name == "sal":
        path = os.path.join(shared, "data/sal_synthetic/sal_synthetic_500k.csv.gz")
        with gzip.open(path, "rt") as f:
            rows = csv.reader(f)
            next(rows)
            return [float(r[3]) for r in rows]
    path = os.path.join(shared, "data/cup/cup_int.csv")
    with open(path) as f:
        rows = csv.reader(f, delimiter=";")
        next(rows)
        return [float(r[5]) for r in rows]


def random_groups(name, shared):
    e, m = TABLES[name]
    values = load(name, shared)
    print(f"{name} ({e:g}, {m}), {len(values)} rows")
    print(f"  the whole table as one group: {left_out(values, e, m) / len(values):.2%} left out")
    shuffled = values[:]
    random.Random(7).shuffle(shuffled)
    for g in [50, 100, 200, 300, 500, 1000, 2000, 3000, 5000, 10000, 30000]:
        if g > len(shuffled):
            break
        whole = (len(shuffled) // g) * g
        out = sum(left_out(shuffled[i:i + g], e, m) for i in range(0, whole, g))
        print(f"  random groups of {g:>6} rows ({len(shuffled) // g:>5} groups): {out / whole:.2%} left out")


def release_groups(path):
    """A sal release (Age, Birthplace, Occupation labels; Income) thinned group by group."""
    e, m = TABLES["sal"]
    domain = {"Age": (16, 93), "Birthplace": (1, 710), "Occupation": (1, 983)}

    def width(label, qi):
        lo, _, hi = label.strip("[]").partition("-")
        lo_d, hi_d = domain[qi]
        return (float(hi or lo) - float(lo)) / (hi_d - lo_d)

    groups = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            groups[tuple(row[q] for q in domain)].append(float(row["Income"]))
    n = sum(len(g) for g in groups.values())
    out, loss = 0, 0.0
    for labels, values in groups.items():
        o = left_out(values, e, m)
        ncp = sum(width(label, q) for label, q in zip(labels, domain)) / len(domain)
        out += o
        loss += (len(values) - o) * ncp + o
    print(f"{path}: {len(groups)} groups of {n / len(groups):.0f} rows on average; "
          f"each thinned on its own: {out / n:.2%} left out, GCP {loss / n:.4f}")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) >= 3 and sys.argv[1] == "random" and sys.argv[2] in TABLES:
        shared = sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, "../../shared")
        random_groups(sys.argv[2], shared)
    elif len(sys.argv) == 3 and sys.argv[1] == "release":
        release_groups(sys.argv[2])
    else:
        sys.exit(__doc__)
