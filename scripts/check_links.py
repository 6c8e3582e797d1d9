#!/usr/bin/env python3
"""Checks the relative links of the project's Markdown pages: every link to a file names a file that exists, and
every `#anchor` names a heading of its page, as GitHub spells heading anchors.

    python3 scripts/check_links.py              # README.md, CHANGELOG.md, VERSIONING.md, docs/**/*.md, the guides
    python3 scripts/check_links.py a.md b.md    # the given pages only

Links to other sites (`https:`, `mailto:`, …) are not followed: this runs offline, in CI. Links inside code (fenced
blocks and inline code) are not links and are skipped. The guides (odm/src/guide/*.md) are rustdoc pages: their
intra-doc links (`crate::…`) are rustdoc's to check (`cargo doc` with `-D warnings`), their links within the page are
checked here, since rustdoc does not check an `#anchor` of the page it renders, and a link of theirs to a file is
broken: it would not resolve on docs.rs. Exits with 1 and lists each broken link with its page and line.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDES = ROOT / "odm" / "src" / "guide"
DEFAULT_PAGES = ["README.md", "CHANGELOG.md", "VERSIONING.md", "docs/**/*.md", "odm/src/guide/*.md"]

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) and ![alt](target); the target ends at whitespace (a title may follow) or the closing parenthesis.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(text):
    """Yields (line number, line) for the lines outside fenced code blocks."""
    fenced = None
    for number, line in enumerate(text.split("\n"), start=1):
        match = FENCE.match(line)
        if match:
            if fenced is None:
                fenced = match.group(1)
            elif match.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading: its text without markup, lowercased, punctuation dropped, spaces as `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading anchors by its text
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    """The anchors of a Markdown page's headings, numbered as GitHub numbers repeated ones (`x`, `x-1`, …)."""
    if path not in cache:
        seen, found = {}, set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            match = HEADING.match(line)
            if not match:
                continue
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        cache[path] = found
    return cache[path]


def check(page):
    """The broken links of one page, as printable lines."""
    broken = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for match in LINK.finditer(INLINE_CODE.sub("", line)):
            target = match.group(1)
            if SCHEME.match(target) or target.startswith("crate::"):
                continue
            file_part, _, anchor = target.partition("#")
            where = f"{page.relative_to(ROOT)}:{number}: `{target}`"
            if file_part and page.is_relative_to(GUIDES):
                broken.append(f"{where}: a guide is a rustdoc page: link with an intra-doc link (`crate::guide::…`)")
                continue
            destination = (page.parent / file_part).resolve() if file_part else page
            if not destination.exists():
                broken.append(f"{where}: no such file {destination.relative_to(ROOT) if destination.is_relative_to(ROOT) else destination}")
                continue
            if anchor and destination.suffix == ".md" and anchor not in anchors(destination):
                broken.append(f"{where}: no heading with the anchor `#{anchor}` in {destination.relative_to(ROOT)}")
    return broken


def main(args):
    patterns = args or DEFAULT_PAGES
    pages = sorted({page.resolve() for pattern in patterns for page in ROOT.glob(pattern)})
    if not pages:
        print(f"no Markdown pages match {patterns}", file=sys.stderr)
        return 1
    broken = [line for page in pages for line in check(page)]
    for line in broken:
        print(line, file=sys.stderr)
    print(f"{len(pages)} page(s), {len(broken)} broken link(s)")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
