#!/usr/bin/env python3
"""Writes a large paste of what people really paste, for `make bench`: the pastes of
../shared/corpus/wild/ (verbatim from public issue threads: prose, logs, describe fragments, event
rows, tables) one after another, over and over, until the file is --mb megabytes. Deterministic."""
import argparse, os

ap = argparse.ArgumentParser()
ap.add_argument("--mb", type=float, default=20)
ap.add_argument("--out", required=True)
ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "../../shared/corpus/wild"))
a = ap.parse_args()
pastes = []
for name in sorted(os.listdir(a.corpus)):
    path = os.path.join(a.corpus, name, "input.txt")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            pastes.append(f.read().rstrip("\n") + "\n\n")
target = int(a.mb * 1e6)
size = 0
os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
with open(a.out, "w", encoding="utf-8") as out:
    i = 0
    while size < target:
        text = pastes[i % len(pastes)]
        out.write(text)
        size += len(text.encode("utf-8"))
        i += 1
print(f"{a.out}: {size / 1e6:.1f} MB, {i} pastes")
