#!/usr/bin/env python3
"""The import graph between the runtime's top-level modules (odm/src/<topic>.rs and odm/src/<topic>/): which topic
names which, and the groups of topics that name each other in a loop (strongly connected components).

    python3 scripts/module_graph.py            # the loops, each with the names that tie it
    python3 scripts/module_graph.py --edges    # every edge, with the names it carries

A reference is any `crate::<topic>` path in code (comments are left out), so a `use` and a path written in place
count alike. Exits with 1 when some topics form a loop: the goal is a graph read one way, from the vocabulary up.
"""

import collections
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "odm" / "src"
REFERENCE = re.compile(r"crate::([a-z_]+)(?:::([A-Za-z_]+))?")
LINE_COMMENT = re.compile(r"//.*")


def topics():
    """The top-level modules: a file `<topic>.rs` or a folder `<topic>/` under odm/src."""
    names = {p.stem for p in SRC.glob("*.rs")} | {p.name for p in SRC.iterdir() if p.is_dir()}
    return names - {"lib"}


def edges(known):
    """topic -> topic -> Counter of the names one takes from the other."""
    out = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for path in SRC.rglob("*.rs"):
        rel = path.relative_to(SRC)
        topic = rel.parts[0].removesuffix(".rs")
        text = LINE_COMMENT.sub("", path.read_text())
        for m in REFERENCE.finditer(text):
            target = m.group(1)
            if target in known and target != topic:
                out[topic][target][m.group(2) or "(module)"] += 1
    return out


def loops(graph, nodes):
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
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def main():
    known = topics()
    graph = edges(known)
    if "--edges" in sys.argv[1:]:
        for a in sorted(graph):
            for b in sorted(graph[a]):
                names = ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in graph[a][b].most_common())
                print(f"{a} -> {b}: {names}")
        return 0
    found = loops(graph, known)
    for component in found:
        members = set(component)
        print(f"{len(component)} topics name each other in a loop: {', '.join(component)}")
        for a in component:
            for b in sorted(graph[a]):
                if b in members:
                    print(f"  {a} -> {b}: {', '.join(sorted(graph[a][b]))}")
    print(f"{len(found)} loop(s) between {len(known)} top-level modules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
