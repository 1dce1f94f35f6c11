#!/usr/bin/env python3
"""`faultline mcp` driven by the official MCP Python SDK (`mcp` from PyPI), as an agent would.

Starts the server over stdio, initializes, lists the tools, calls each one, and checks:
- `analyze` of every corpus case (../shared/corpus/cases) against `faultline analyze --format json
  --redact DIR` of the same files (the CLI's report of the redacted copy): verdict, every finding's
  fields, evidence lines, what it cannot establish, next steps, ruled-out signals, input hashes;
- that no secret value of any secrets fixture (tests/fixtures/secrets/, every value its expect.json
  says must go, and every 12-character piece of it) appears anywhere in what the server returns,
  for `analyze` (as text and as a path) and `redact`, and that each result counts what it withheld;
- `rules`, `rule`, `what_to_paste` against `faultline rules` and the guide;
- bad input: a tool error with its position; an input over the limit: refused with the limit named;
  arguments of the wrong type: an error; and the server answers after each.

Usage: test_mcp.py FAULTLINE_BINARY. Exits non-zero on the first wrong answer.
"""

import asyncio
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "cases"
SECRETS = ROOT / "tests" / "fixtures" / "secrets"
MAX_BYTES = 4 * 1024 * 1024
TOOLS = {"analyze", "redact", "rules", "rule", "what_to_paste"}
FINDING_FIELDS = ["rule", "boundary", "severity", "summary", "evidence", "cannot_establish",
                  "next_steps", "confidence", "confidence_note"]

checks = 0


def check(condition, message):
    global checks
    checks += 1
    if not condition:
        raise AssertionError(message)


def field(result, snake, camel):
    """A result attribute under the SDK's name for it."""
    return getattr(result, snake, None) if hasattr(result, snake) else getattr(result, camel, None)


def everything(result):
    """Every string the server returned in a tool result: its text blocks and structured content."""
    texts = [block.text for block in result.content if getattr(block, "text", None) is not None]
    structured = field(result, "structured_content", "structuredContent")
    if structured is not None:
        texts.append(json.dumps(structured, ensure_ascii=False))
    return "\n".join(texts)


def cli_report(binary, files):
    with tempfile.TemporaryDirectory() as copy:
        out = subprocess.run([binary, "analyze", "--format", "json", "--redact", copy, *files],
                             capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def subject(s):
    return (s["kind"], s.get("namespace"), s["name"])


def compare_case(case, got, want):
    check(got["verdict"] == want["verdict"], f"{case}: verdict {got['verdict']} != {want['verdict']}")
    check(len(got["findings"]) == len(want["findings"]),
          f"{case}: {len(got['findings'])} findings, the CLI has {len(want['findings'])}")
    for i, (g, w) in enumerate(zip(got["findings"], want["findings"])):
        check(subject(g["subject"]) == subject(w["subject"]), f"{case}: finding {i} subject")
        for key in FINDING_FIELDS:
            check(g[key] == w[key], f"{case}: finding {i} {key}: {g[key]!r} != {w[key]!r}")
        check(g.get("explained_by", {}).get("rule") == w.get("explained_by", {}).get("rule"),
              f"{case}: finding {i} explained_by")
    check([r["because"] for r in got["ruled_out"]] == [r["because"] for r in want.get("ruled_out", [])],
          f"{case}: ruled_out")
    check([(i["source"], i["sha256"]) for i in got["inputs"]] ==
          [(i["source"], i["sha256"]) for i in want["inputs"]], f"{case}: input hashes")
    first = next((f for f in want["findings"] if f["severity"] in ("error", "warning")), None)
    check(got.get("diagnosis") == (first["summary"] if first else None), f"{case}: diagnosis")


def replaced_values(original, copy):
    """The values the redactor replaced, whole, read off the copy: line numbers stay, so each line
    with tokens is matched against its original (a value spanning lines is left out)."""
    values = []
    for before, after in zip(original.splitlines(), copy.splitlines()):
        if "<redacted:" not in after:
            continue
        pieces = re.split(r"<redacted:[^>]+>", after)
        match = re.fullmatch("(.+?)".join(map(re.escape, pieces)), before)
        if match:
            values.extend(match.groups())
    return values


def secret_forms(value, rest):
    """Every form in which a value must not come back, as crates/engine/tests/redact.rs checks the
    redacted copy: itself, its base64, its decoding when it is base64, and every 12-character piece
    of it that the input does not also hold outside its secret values (a certificate beside a key
    starts with the same `-----BEGIN `)."""
    forms = {value, base64.b64encode(value.encode()).decode()}
    try:
        decoded = base64.b64decode(value, validate=True).decode()
        if len(decoded) >= 8:
            forms.add(decoded)
    except (ValueError, UnicodeDecodeError):
        pass
    for i in range(len(value) - 11):
        piece = value[i:i + 12]
        if piece.strip() == piece and piece not in rest:
            forms.add(piece)
    return forms


async def run(binary):
    params = StdioServerParameters(command=binary, args=["mcp", "--max-bytes", str(MAX_BYTES)])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            info = field(init, "server_info", "serverInfo")
            check(info.name == "faultline", f"server name {info.name}")
            tools = {t.name: t for t in (await session.list_tools()).tools}
            check(set(tools) == TOOLS, f"tools {sorted(tools)}")
            for name, tool in tools.items():
                schema = field(tool, "output_schema", "outputSchema")
                check(schema and schema.get("type") == "object", f"{name} has an output schema")
            analyze_schema = field(tools["analyze"], "output_schema", "outputSchema")
            check({"verdict", "findings", "withheld"} <= set(analyze_schema.get("properties", {})),
                  "analyze's output schema lists the verdict, findings and what was withheld")

            # analyze, against the CLI, on every corpus case.
            cases = sorted(p for p in CORPUS.iterdir() if p.is_dir())
            check(len(cases) >= 16, f"{len(cases)} corpus cases")
            for case in cases:
                files = [str(f) for f in sorted(case.iterdir()) if f.name not in ("expect.json", "README.md")]
                result = await session.call_tool("analyze", {"paths": files})
                check(not field(result, "is_error", "isError"), f"{case.name}: {everything(result)[:300]}")
                got = field(result, "structured_content", "structuredContent")
                compare_case(case.name, got, cli_report(binary, files))
                text = result.content[0].text
                check(text.startswith(f"Verdict: {got['verdict']}"), f"{case.name}: text {text[:80]!r}")

            # Nothing secret crosses, from any secrets fixture, by any tool.
            expect = json.loads((SECRETS / "expect.json").read_text())
            files = sorted(p for p in SECRETS.iterdir() if p.name != "expect.json")
            check({e["file"] for e in expect} == {p.name for p in files}, "every fixture has its expectations")
            echoed = 0
            for entry in expect:
                path = SECRETS / entry["file"]
                text = path.read_text()
                rest = text
                for value in sorted(entry["go"], key=len, reverse=True):
                    rest = rest.replace(value, "")
                forms = {value: secret_forms(value, rest) for value in entry["go"]}
                # The values again where the engine quotes what it reads: an event's message, which
                # a finding cites as evidence. Redaction replaces a value wherever it recurs, so
                # nothing of it may come back; without redaction, this is where it would.
                # Echoed as the redactor replaced it, whole (a line of a multi-line key, a URL's
                # path, is a piece of a value, and the redactor knows the value only whole), and
                # only a value it looks for elsewhere (crates/redact `is_propagated`: 8 characters
                # or more, not only digits, not a lower-case name such as `minioadmin`).
                copy = field(await session.call_tool("redact", {"text": text}),
                             "structured_content", "structuredContent")["text"]
                whole = [v for v in replaced_values(text, copy)
                         if len(v) >= 8 and not any(c.isspace() for c in v) and not v.isdigit()
                         and not all(c.islower() or c == "-" for c in v)
                         and any(g in v for g in entry["go"])]
                rows = [f"{i + 1}s         Warning   Failed    pod/web-{i}   Error: exec: \"{v}\": executable file not found in $PATH"
                        for i, v in enumerate(whole)]
                echoed += len(rows)
                echo = "LAST SEEN   TYPE      REASON    OBJECT      MESSAGE\n" + "\n".join(rows) + "\n"
                replies = [
                    await session.call_tool("analyze", {"inputs": [{"name": entry["file"], "text": text},
                                                                   {"name": "events.txt", "text": echo}]}),
                    await session.call_tool("analyze", {"paths": [str(path)], "lang": "zh"}),
                    await session.call_tool("redact", {"text": text}),
                ]
                for reply in replies:
                    returned = everything(reply)
                    if field(reply, "is_error", "isError"):
                        # Input nothing could be read from (a fragment without its kind): the error
                        # gives the positions and still says what was withheld.
                        check("nothing could be read" in returned and "line " in returned, returned[:300])
                        check(" 0 secret value(s)" not in returned, f"{entry['file']}: nothing withheld")
                    else:
                        withheld = field(reply, "structured_content", "structuredContent")["withheld"]
                        check(withheld["values"] >= 1, f"{entry['file']}: nothing withheld")
                    for value in entry["go"]:
                        for piece in forms[value]:
                            check(piece not in returned,
                                  f"{entry['file']}: {piece[:2]}… of a secret is in what the server returned")
                redacted = field(replies[2], "structured_content", "structuredContent")
                check("<redacted:" in redacted["text"], f"{entry['file']}: no token in the copy")
                for name in entry.get("stay", []):
                    check(name in redacted["text"], f"{entry['file']}: the name {name!r} was lost")
                check(all("value" not in r and "preview" not in r for r in redacted["replaced"]),
                      "redact lists kinds and positions only")

            check(echoed >= 30, f"only {echoed} values echoed where the engine quotes them")
            print(f"mcp test: {len(expect)} secrets fixtures, {echoed} of their values also echoed in events")

            # rules and rule, against `faultline rules`.
            rules = field(await session.call_tool("rules", {}), "structured_content", "structuredContent")["rules"]
            page = subprocess.run([binary, "rules"], capture_output=True, text=True, check=True).stdout
            ids = [line[len("### `"):-1] for line in page.splitlines() if line.startswith("### `")]
            check(sorted(r["id"] for r in rules) == sorted(ids), "rules lists every rule of `faultline rules`")
            one = await session.call_tool("rule", {"id": "image-pull-failed"})
            doc = field(one, "structured_content", "structuredContent")
            check(doc["boundary"] == "node-runtime" and "## What it finds" in doc["docs"], "rule's docs")
            missing = await session.call_tool("rule", {"id": "image-pull"})
            check(field(missing, "is_error", "isError") and "image-pull-failed" in everything(missing),
                  "an unknown rule is an error naming the close ones")

            # what_to_paste.
            guide = field(await session.call_tool("what_to_paste", {"symptom": "pod stuck Pending"}),
                          "structured_content", "structuredContent")
            check(guide["matched"] and guide["entries"][0]["id"] == "pending", f"what_to_paste: {guide}")
            check(any("get events" in c for c in guide["entries"][0]["commands"]), "the guide's commands")

            # Bad input: an error with its position, and the server answers after it.
            bad = await session.call_tool("analyze", {"inputs": [{"name": "bad.json", "text": "{\"kind\": "}]})
            check(field(bad, "is_error", "isError"), "bad input is a tool error")
            check("bad.json line 1, column" in everything(bad), f"with its position: {everything(bad)}")
            big = "# filler\n" * (MAX_BYTES // 9 + 10)
            over = await session.call_tool("analyze", {"inputs": [{"name": "big.txt", "text": big}]})
            check(field(over, "is_error", "isError") and f"limit of {MAX_BYTES} bytes" in everything(over),
                  f"an input over the limit names it: {everything(over)[:200]}")
            when = await session.call_tool("analyze", {"inputs": [{"name": "a", "text": "x"}],
                                                       "captured_at": "yesterday"})
            check(field(when, "is_error", "isError") and "captured_at" in everything(when), "a bad time")
            try:
                wrong = await session.call_tool("analyze", {"inputs": "not a list"})
                check(field(wrong, "is_error", "isError"), "arguments of the wrong type are refused")
            except Exception as e:  # a JSON-RPC error: refused as well
                check("inputs" in str(e) or "invalid" in str(e).lower(), f"wrong arguments: {e}")
            again = await session.call_tool("rule", {"id": "pvc-pending"})
            check(not field(again, "is_error", "isError"), "the server still answers after the errors")

            # What changed: an earlier result given as `since`.
            case = CORPUS / "02-exp2-nonexistent-image-tag-yaml"
            files = [str(f) for f in sorted(case.iterdir()) if f.name != "expect.json"]
            first = await session.call_tool("analyze", {"paths": files[:1]})
            later = await session.call_tool("analyze", {
                "paths": files, "since": field(first, "structured_content", "structuredContent")})
            changes = field(later, "structured_content", "structuredContent").get("changes")
            check(isinstance(changes, list) and changes, f"since gives what changed: {changes}")


def ends_cleanly(binary):
    """A client that closes the server's stdin ends the session: exit status 0, no panic."""
    hello = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}})
    out = subprocess.run([binary, "mcp"], input=hello + "\n", capture_output=True, text=True, timeout=60)
    check(out.returncode == 0 and "panicked" not in out.stderr,
          f"the server ends with status {out.returncode} when its input closes: {out.stderr[-500:]}")
    check(json.loads(out.stdout.splitlines()[0])["result"]["serverInfo"]["name"] == "faultline",
          "it answered before it ended")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    started = time.monotonic()
    binary = os.path.abspath(sys.argv[1])
    asyncio.run(run(binary))
    ends_cleanly(binary)
    print(f"mcp test: {checks} checks passed in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
