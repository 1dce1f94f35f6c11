#!/usr/bin/env python3
"""Checks catalog/*.toml (catalog/README.md): fields present and known, ids unique, each example
matched by its own template, each template with a literal run of 12+ characters. Prints the counts
by file and component. Usage: python3 catalog/check.py [files...]"""
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path

BOUNDARIES = {"control-plane", "etcd", "scheduling", "node-runtime", "quota-admission",
              "zone-network-storage", "readiness-endpoints", "application"}
TYPES = {"Warning", "Normal", "log", "error"}
SEVERITIES = {"error", "warning", "info"}
LAYERS = {"frame", "library"}
PLACEHOLDERS = {"pod", "node", "namespace", "container", "image", "pvc", "pv", "storageclass", "volume",
                "secret", "configmap", "service", "quota", "webhook", "kind", "name", "host", "ip", "port",
                "address", "url", "n", "duration", "resource", "driver", "plugin", "reason", "error", "text"}
DEPENDENCIES = {"postgresql", "mysql", "sqlserver", "oracle", "database", "redis", "memcached", "mongodb",
                "cassandra", "kafka", "rabbitmq", "nats", "elasticsearch", "http", "grpc", "smtp", "ldap", "any"}
FAILURES = {"refused", "timeout", "reset", "unreachable", "unresolved", "resolver-failed", "tls", "certificate-expired",
            "certificate-untrusted", "auth", "pool-exhausted", "too-many-connections", "read-only", "slow",
            "unavailable", "crash", "out-of-memory"}
REQUIRED = ["id", "component", "reason", "type", "subject", "boundary", "severity", "template", "source", "example"]
SOURCE = re.compile(r"^[\w.-]+/[\w.-]+:[^@\s]+@[\w.+-]+$")


def pattern(template):
    out, at = [], 0
    for m in re.finditer(r"\{(\w+)\}", template):
        out.append(re.escape(template[at:m.start()]))
        out.append(".*?" if m.group(1) not in ("n",) else r"-?[0-9][0-9.]*")
        at = m.end()
    out.append(re.escape(template[at:]))
    return re.compile("".join(out))


def main(paths):
    files = [Path(p) for p in paths] or sorted(Path(__file__).parent.glob("*.toml"))
    ids, errors, by_file, by_component = set(), [], Counter(), Counter()
    for path in files:
        data = tomllib.loads(path.read_text())
        for i, e in enumerate(data.get("entry", [])):
            where = f"{path.name}[{i}] {e.get('id', '?')}"
            for k in REQUIRED:
                if k not in e:
                    errors.append(f"{where}: no {k}")
            unknown = set(e) - set(REQUIRED) - {"since", "changed", "note", "layer", "dependency", "failure"}
            if unknown:
                errors.append(f"{where}: unknown fields {sorted(unknown)}")
            if any(k not in e for k in REQUIRED):
                continue
            if not e["id"].startswith(path.stem + "."):
                errors.append(f"{where}: id must start with {path.stem}.")
            if e["id"] in ids:
                errors.append(f"{where}: id declared twice")
            ids.add(e["id"])
            if e["boundary"] not in BOUNDARIES:
                errors.append(f"{where}: boundary {e['boundary']!r}")
            if e["type"] not in TYPES:
                errors.append(f"{where}: type {e['type']!r}")
            if e.get("layer", "frame") not in LAYERS:
                errors.append(f"{where}: layer {e['layer']!r}")
            if e.get("dependency", "any") not in DEPENDENCIES:
                errors.append(f"{where}: dependency {e['dependency']!r}")
            if e.get("failure", "crash") not in FAILURES:
                errors.append(f"{where}: failure {e['failure']!r}")
            if "dependency" in e and "failure" not in e:
                errors.append(f"{where}: a dependency without a failure")
            if e["severity"] not in SEVERITIES:
                errors.append(f"{where}: severity {e['severity']!r}")
            if not SOURCE.match(e["source"]):
                errors.append(f"{where}: source {e['source']!r} is not owner/repo:path@tag")
            names = re.findall(r"\{(\w+)\}", e["template"])
            bad = [n for n in names if n not in PLACEHOLDERS]
            if bad:
                errors.append(f"{where}: unknown placeholders {bad}")
            literals = re.split(r"\{\w+\}", e["template"])
            if max(len(s) for s in literals) < 12:
                errors.append(f"{where}: no literal run of 12 characters in {e['template']!r}")
            if not pattern(e["template"]).search(e["example"]):
                errors.append(f"{where}: example not matched by template\n    template: {e['template']}\n    example:  {e['example']}")
            by_file[path.name] += 1
            by_component[e["component"]] += 1
    for name, n in sorted(by_file.items()):
        print(f"{name}: {n}")
    print("by component:", dict(sorted(by_component.items())))
    print(f"total: {sum(by_file.values())} entries, {len(errors)} errors")
    for err in errors:
        print("ERROR", err)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
