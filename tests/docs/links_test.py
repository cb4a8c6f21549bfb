#!/usr/bin/python3
"""No dead link in the documentation: every relative Markdown link of README.md, docs/*.md and
adapters/README.md names a file or folder of the repository and, after a '#', a heading of that
file (GitHub's anchors: the heading in lower case, punctuation but '-' and '_' dropped, spaces
as '-'). The README stays short (at most 200 lines), and every doc is linked from it.

  links_test.py SOURCE_DIR
"""
import glob
import os
import re
import sys

ROOT = sys.argv[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    found, fence = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            if fence or not line.startswith("#"):
                continue
            title = line.lstrip("#").strip().lower()
            slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            found.add(slug)
    return found


def main():
    files = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "adapters", "README.md")]
    files += sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    failures, links = [], 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold no links
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue  # http(s), mailto: not checked here
            links += 1
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            rel = os.path.relpath(path, ROOT)
            if not os.path.exists(dest):
                failures.append("%s: %s: no such file" % (rel, target))
            elif anchor and (os.path.isdir(dest) or anchor not in anchors(dest)):
                failures.append("%s: %s: no such heading" % (rel, target))
    readme = os.path.join(ROOT, "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    n = text.count("\n")
    if n > 200:
        failures.append("README.md has %d lines (at most 200; the manual is in docs/)" % n)
    for doc in sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        if "(docs/%s" % os.path.basename(doc) not in text:
            failures.append("README.md does not link docs/%s" % os.path.basename(doc))
    for f in failures:
        print("FAIL", f)
    print("%d links in %d files, %d failures" % (links, len(files), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
