"""benchmarks/plot on real `grb bench --quick --delta-factors 2` output: the three PNGs exist, are
PNG files and are not empty; every benchmark record is validated and has the fields the plots
read. Then on two `grb graph500 --json` records
(scales 8 and 9): graph500.png. Exits 77 (the test's SKIP_RETURN_CODE)
where matplotlib is missing.

    python3 check_plot.py GRB PLOT WORK_DIR
"""

import json
import os
import subprocess
import sys

SKIP = 77
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# What benchmarks/plot reads from a `grb bench --json` line (its BENCH_FIELDS), and the work
# counters every line carries (null where they do not apply).
PLOTTED_FIELDS = ("graph", "algorithm", "engine", "backend", "ms", "teps", "root", "per_level",
                  "delta_factor", "device", "levels", "edges_inspected", "rounds", "buckets",
                  "delta", "triangles", "validated_on")


def fail(message):
    print("check_plot: " + message, file=sys.stderr)
    sys.exit(1)


def check_png(path):
    if not os.path.exists(path):
        fail(f"{path} was not written")
    with open(path, "rb") as image:
        content = image.read()
    if len(content) <= len(PNG_MAGIC) or not content.startswith(PNG_MAGIC):
        fail(f"{path} is empty or not a PNG ({len(content)} bytes)")


def check_graph500(grb, plot, work):
    records = []
    for scale in (8, 9):
        record = os.path.join(work, f"graph500-{scale}.json")
        run = subprocess.run([grb, "graph500", "--scale", str(scale), "--roots", "4", "--backend",
                              "cpu", "--json", record], capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"grb graph500 exited {run.returncode}: {run.stderr}")
        records.append(record)
    images = os.path.join(work, "png-graph500")
    path = os.path.join(images, "graph500.png")
    if os.path.exists(path):
        os.remove(path)
    drawn = subprocess.run([sys.executable, plot, *records, "--output", images],
                           capture_output=True, text=True)
    if drawn.returncode != 0:
        fail(f"plot exited {drawn.returncode} on graph500 records: {drawn.stderr}")
    check_png(path)
    if os.path.exists(os.path.join(images, "gteps.png")):
        fail("gteps.png drawn from graph500 records alone")


def main():
    grb, plot, work = sys.argv[1:4]
    try:
        import matplotlib  # noqa: F401  (only asking whether it is there)
    except ImportError:
        print(f"check_plot: skipped: {sys.executable} has no matplotlib")
        return SKIP

    os.makedirs(work, exist_ok=True)
    records = os.path.join(work, "quick.jsonl")
    bench = subprocess.run([grb, "bench", "--quick", "--backend", "cpu", "--delta-factors", "2",
                            "--json", records],
                           capture_output=True, text=True)
    if bench.returncode != 0:
        fail(f"grb bench exited {bench.returncode}: {bench.stderr}")
    with open(records, encoding="utf-8") as lines:
        parsed = [json.loads(line) for line in lines if line.strip()]
    if not parsed:
        fail(f"{records} holds no records")
    for record in parsed:
        if record.get("validated") is not True:
            fail(f"a record is not validated: {record}")
        missing = [field for field in PLOTTED_FIELDS if field not in record]
        if missing:
            fail(f"a record lacks {', '.join(missing)}, which the plots read: {record}")
    algorithms = {record["algorithm"] for record in parsed}
    if algorithms != {"bfs", "sssp", "cc", "tc"}:
        fail(f"grb bench --quick ran {sorted(algorithms)}, not bfs, sssp, cc and tc")
    if not any(record["algorithm"] == "bfs" and record["per_level"] for record in parsed):
        fail("no BFS record with per-level data")

    images = os.path.join(work, "png")
    for name in ("gteps.png", "levels.png", "scale.png"):
        path = os.path.join(images, name)
        if os.path.exists(path):
            os.remove(path)
    drawn = subprocess.run([sys.executable, plot, records, "--output", images],
                           capture_output=True, text=True)
    if drawn.returncode != 0:
        fail(f"plot exited {drawn.returncode}: {drawn.stderr}")
    for name in ("gteps.png", "levels.png", "scale.png"):
        check_png(os.path.join(images, name))
    check_graph500(grb, plot, work)
    print(f"check_plot: {len(parsed)} records; gteps.png, levels.png, scale.png drawn; "
          "graph500.png from two graph500 records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
