#!/usr/bin/env python3
"""Checks every intra-repository link of the given markdown files.

  check_links.py <repo root> <file.md>...

A link [text](target) whose target is not a URL must name a file that exists
(relative to the linking file), and its #anchor, if any, must be a heading of
that file, slugged as GitHub slugs headings. Links inside code (fenced blocks,
`inline code`) are not links. Prints one line per broken link; exit 1 if any.
"""
import os
import re
import sys

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    fence = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = FENCE.match(line)
            if m:
                if fence is None:
                    fence = m.group(1)
                elif m.group(1) == fence:
                    fence = None
                continue
            if fence is None:
                yield number, line.rstrip("\n")


def slug(text):
    """GitHub's anchor for a heading: its rendered text, lower case, without
    punctuation other than '-' and '_', spaces turned into '-'."""
    text = LINK.sub(lambda m: m.group(1), text)          # [text](url) renders as text
    text = CODE_SPAN.sub(lambda m: m.group(2), text)     # `code` renders as code
    text = re.sub(r"<[^>]+>", "", text)                  # inline HTML
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        for _, line in prose_lines(path):
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            if n:
                seen.setdefault(f"{s}-{n}", 1)
        cache[path] = set(seen)
    return cache[path]


def main(argv):
    root = os.path.abspath(argv[1])
    broken = 0
    checked = 0
    for name in argv[2:]:
        path = os.path.abspath(name)
        for number, line in prose_lines(path):
            for m in LINK.finditer(CODE_SPAN.sub("", line)):
                target = m.group(2)
                if URL.match(target):
                    continue
                checked += 1
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                where = f"{os.path.relpath(path, root)}:{number}: [{m.group(1)}]({target})"
                if not os.path.exists(dest):
                    print(f"{where}: no file {os.path.relpath(dest, root)}")
                    broken += 1
                elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                    print(f"{where}: no heading with anchor #{anchor} in {os.path.relpath(dest, root)}")
                    broken += 1
    print(f"{checked} links checked, {broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
