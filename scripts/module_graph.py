#!/usr/bin/env python3
"""The import graph between the runtime's topics, and the rules its layout keeps.

odm/src holds the public modules as users name them (`src/<topic>.rs`: documentation and re-exports, no code), and
the code in layers: `base/<topic>` (driver-free), `driver/<topic>` (feature `driver`), and the outer rooms `backup/`,
`cli/`, `testing/`. A topic is one of those: `base::path`, `driver::collection`, `backup`. See docs/layout.md.

    python3 scripts/module_graph.py            # the rules broken and the loops, each with the names that tie it
    python3 scripts/module_graph.py --edges    # every edge between topics, with the names it carries

A reference is any `crate::…` path in code, so a `use` and a path written in place count alike. Comments and tests
(`tests.rs`, a `#[cfg(test)] mod`) are left out: a test may use what sits above its module. Exits with 1 when a rule
is broken or some topics form a loop:

- code names a layer's path (`crate::base::…`, `crate::driver::…`, a room), never a public facade or a crate-root
  re-export: those are for users, and a path through them hides which layer is named;
- `base` never names `driver` or a room; `driver` never names a room;
- no loop between topics: the graph reads one way, from the vocabulary up.
"""

import collections
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "odm" / "src"
LAYERS = ("base", "driver")
ROOMS = ("backup", "cli", "testing")
RANK = {"base": 0, "driver": 1, "backup": 2, "testing": 2, "cli": 3}
REFERENCE = re.compile(r"crate::([A-Za-z_]+)(?:::([A-Za-z_]+))?(?:::([A-Za-z_]+))?")
LINE_COMMENT = re.compile(r"//.*")
TESTS = re.compile(r"^\s*#\[cfg\(test\)\]\s*\n\s*(?:pub(?:\(crate\))? )?mod [a-z_]+ \{", re.M)
# What generated code and the crate root may name besides the layers.
ALLOWED_ROOTS = {"__private", "mongodb", "bson"}


def topic_of(rel):
    """The topic a file belongs to (`base::path` for base/path/types.rs), or None for the front (lib.rs, facades)."""
    parts = rel.parts
    if parts[0] in LAYERS and len(parts) > 1:
        return f"{parts[0]}::{parts[1].removesuffix('.rs')}"
    head = parts[0].removesuffix(".rs")
    if head in ROOMS:
        return head
    return None


def code(text):
    """The code of a file without its comments and without its tests."""
    text = LINE_COMMENT.sub("", text)
    return TESTS.split(text, maxsplit=1)[0]


def scan():
    """topic -> topic -> Counter of names, and the rules broken as (file, message)."""
    graph = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    broken = []
    for path in sorted(SRC.rglob("*.rs")):
        rel = path.relative_to(SRC)
        topic = topic_of(rel)
        if topic is None or path.name == "tests.rs":
            continue
        layer = topic.split("::")[0]
        for m in REFERENCE.finditer(code(path.read_text())):
            first, second, third = m.groups()
            if first in LAYERS:
                target, name = f"{first}::{second}", third
            elif first in ROOMS:
                target, name = first, second
            elif first in ALLOWED_ROOTS:
                continue
            else:
                broken.append((rel, f"names `crate::{first}`, a public path: name the layer (crate::base::…)"))
                continue
            target_layer = target.split("::")[0]
            if RANK[target_layer] > RANK[layer] or (target_layer in ROOMS and target_layer != layer):
                if not (layer == "cli" and target_layer in ("backup", "testing")):
                    broken.append((rel, f"names `{target}`, a layer above {layer}"))
            if target != topic:
                graph[topic][target][name or "(module)"] += 1
    return graph, broken


def loops(graph):
    """Tarjan's strongly connected components of more than one topic."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    nodes = set(graph) | {w for targets in graph.values() for w in targets}
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def main():
    graph, broken = scan()
    if "--edges" in sys.argv[1:]:
        for a in sorted(graph):
            for b in sorted(graph[a]):
                names = ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in graph[a][b].most_common())
                print(f"{a} -> {b}: {names}")
        return 0
    for rel, message in sorted(set(broken)):
        print(f"{rel}: {message}")
    found = loops(graph)
    for component in found:
        members = set(component)
        print(f"{len(component)} topics name each other in a loop: {', '.join(component)}")
        for a in component:
            for b in sorted(graph[a]):
                if b in members:
                    print(f"  {a} -> {b}: {', '.join(sorted(graph[a][b]))}")
    topics = set(graph) | {w for targets in graph.values() for w in targets}
    print(f"{len(set(broken))} rule(s) broken, {len(found)} loop(s) between {len(topics)} topics")
    return 1 if found or broken else 0


if __name__ == "__main__":
    sys.exit(main())
