"""``salon replay FILE``: re-run a table log through the engine (spec/table-log.md).

Exit 0 with the replay JSON on standard output; exit 1 with ``hand H, action A: …`` on
standard error for an illegal action; exit 2 with the JSON path of the problem for a
malformed document (an unreadable file or invalid JSON included). Nothing is printed on
standard output when the replay fails.
"""

from __future__ import annotations

import json
import sys

from app.engine.log import IllegalLogAction, MalformedLog, replay


def run_replay(path: str) -> int:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as err:
        print(f"$: cannot read {path}: {err}", file=sys.stderr)
        return 2
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        print(f"$: invalid JSON: {err}", file=sys.stderr)
        return 2
    try:
        result = replay(document)
    except IllegalLogAction as err:
        print(str(err), file=sys.stderr)
        return 1
    except MalformedLog as err:
        print(str(err), file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return 0
