#!/usr/bin/env python3
"""The benchmark ratchet: compares a `make bench` run's figures with the last recorded ones.

    ratchet.py compare RUN.jsonl [RECORD.json]   prints every figure more than 10 % worse than recorded
    ratchet.py record RUN.jsonl [RECORD.json]    makes RUN's figures the record (`make bench-record`)

RUN.jsonl is what scripts/bench.sh collects: one JSON object a line, {"figure": NAME, "value": N}
(a figure named twice keeps its last value). RECORD.json (default bench/figures.json) is kept in the
repository and changed only by `record`, deliberately. Every figure is a cost (seconds, milliseconds,
bytes, MB, a ratio to a baseline): higher is worse. The comparison prints and exits 0: benchmarks
print figures, they are not a verdict (and this machine swings 20-40 % between runs).
"""
import json
import sys

RECORD = "bench/figures.json"
WORSE = 0.10


def read_run(lines):
    """The figures of a run's JSON lines, by name; lines that are not figures are skipped."""
    figures = {}
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            entry = json.loads(line)
            value = float(entry["value"])
        except (ValueError, KeyError, TypeError):
            continue
        if value == value:  # NaN: a figure the run could not take
            figures[str(entry["figure"])] = value
    return figures


def compare(recorded, now, worse=WORSE):
    """(worse, new, gone): figures more than `worse` above their record as (name, was, now, change),
    figures with no record, and recorded figures the run did not take."""
    worse_rows = []
    for name, value in now.items():
        was = recorded.get(name)
        if was is None:
            continue
        if value > was * (1 + worse) and value - was > 1e-9:
            change = (value / was - 1) if was > 0 else float("inf")
            worse_rows.append((name, was, value, change))
    new = sorted(set(now) - set(recorded))
    gone = sorted(set(recorded) - set(now))
    return sorted(worse_rows, key=lambda r: -r[3]), new, gone


def main(argv):
    if len(argv) < 3 or argv[1] not in ("compare", "record"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    run_path = argv[2]
    record_path = argv[3] if len(argv) > 3 else RECORD
    with open(run_path, encoding="utf-8") as f:
        now = read_run(f)
    if argv[1] == "record":
        with open(record_path, "w", encoding="utf-8") as f:
            json.dump({"figures": dict(sorted(now.items()))}, f, indent=1)
            f.write("\n")
        print(f"recorded {len(now)} figures in {record_path}")
        return 0
    try:
        with open(record_path, encoding="utf-8") as f:
            recorded = json.load(f)["figures"]
    except FileNotFoundError:
        print(f"no record yet ({record_path}): `make bench-record` makes this run's figures the record")
        return 0
    worse_rows, new, gone = compare(recorded, now)
    print(f"Against the record ({record_path}, {len(recorded)} figures): "
          f"{len(worse_rows)} more than {WORSE:.0%} worse")
    for name, was, value, change in worse_rows:
        print(f"  WORSE {change:+7.1%}  {name}: {was:.4g} -> {value:.4g}")
    if new:
        print(f"  {len(new)} not recorded yet, e.g. {new[0]}")
    if gone:
        print(f"  {len(gone)} recorded but not taken in this run, e.g. {gone[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
