#!/usr/bin/env python3
"""Compares two `grb bench --json` runs of the same graphs, roots and engines (before and after a
change): per graph, algorithm, engine and backend, over the roots both runs timed, the median of
each root's median time, and after / before. Rows slower than --tolerance (default 5%) are
marked; the exit status is 1 when any is, or when an entry has no root timed on both sides
(`grb bench` writes only the roots that validated, and exits non-zero when one did not; with
--seconds it may time fewer roots on one side, which narrows the common roots).

    benchmarks/compare.py BEFORE.jsonl AFTER.jsonl [--tolerance 0.05]
"""
import argparse
import json
import statistics
import sys


def load(path):
    rows = {}
    with open(path) as lines:
        for line in lines:
            if not line.strip():
                continue
            record = json.loads(line)
            engine = record["engine"]
            if record.get("delta_factor"):
                engine += f" x{record['delta_factor']}"
            key = (record["graph"], record["algorithm"], engine, record["backend"])
            rows.setdefault(key, {})[record.get("root")] = record["ms"]
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--tolerance", type=float, default=0.05)
    args = parser.parse_args()
    before, after = load(args.before), load(args.after)
    status = 0
    print(f"{'graph':<10} {'alg':<5} {'engine':<28} {'backend':<7} {'before ms':>10} "
          f"{'after ms':>10} {'after/before':>12}")
    for key in sorted(set(before) | set(after)):
        b, a = before.get(key), after.get(key)
        graph, algorithm, engine, backend = key
        label = f"{graph:<10} {algorithm:<5} {engine:<28} {backend:<7}"
        common = sorted(set(b or {}) & set(a or {}), key=str)
        if not common:
            print(f"{label} {'-':>10} {'-':>10}  roots: {len(b or {})} before, {len(a or {})} after")
            status = 1
            continue
        mb = statistics.median(b[r] for r in common)
        ma = statistics.median(a[r] for r in common)
        ratio = ma / mb if mb > 0 else float("inf")
        mark = "  slower" if ratio > 1 + args.tolerance else ("  faster" if ratio < 1 - args.tolerance else "")
        if mark == "  slower":
            status = 1
        print(f"{label} {mb:>10.3f} {ma:>10.3f} {ratio:>12.3f}{mark}  ({len(common)} roots)")
    return status


if __name__ == "__main__":
    sys.exit(main())
