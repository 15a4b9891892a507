#!/usr/bin/env bash
# Fails, naming file:line, on a reference to a Markdown page or section that the project does
# not have, and on a README code block that is no longer the example program it quotes.
#
# Usage: scripts/check-doc-refs.sh [ROOT]   (ROOT: the repository, default this script's parent)
#
# What it reads: the files git knows (tracked, or new and not ignored; every file under ROOT
# where git is absent) with a source, build, script or Markdown name, except build/ and
# bench/results/ (generated output).
#
# References: a name ending in .md (bare, or a path), optionally followed by a quoted section
# (the quote may continue on the next comment line), or preceded by one as `"Section" in`:
#   - a bare name resolves against docs/, the referencing file's folder, then the root (the
#     code's comments say design.md for docs/design.md), and failing those to the one page of
#     that name in the repository, if there is exactly one (RESULTS.md: bench/RESULTS.md);
#   - a path resolves against the root, then the referencing file's folder; a Markdown link's
#     target, [text](target.md) in a .md file, against the page's folder, as a renderer reads it;
#   - a path that leaves the repository (../shared/..., an absolute path) is an error: a user of
#     spmesh has only the repository, so the page must be in it;
#   - a section must be a heading of the page (#, ##, ...) or a paragraph's bold lead
#     (**Recording.**), compared without case, backticks or a trailing period, and with or
#     without the heading's trailing parenthesis: "Eigen interop" finds
#     "Eigen interop (`linalg/eigen.hpp`)".
#
# README code blocks: a fenced block whose last line of text before it names a file under
# examples/ must be that file's lines, in order (indentation aside; the file may have more lines
# between them, such as its checks). Every C++ or CUDA block of README.md must name one, so
# that the README's code is code that compiles and runs as a test (examples/CMakeLists.txt).
#
# Exit code 0: all resolve; 1: not; 77: no python3.
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
cd "$root"
if ! command -v python3 > /dev/null; then
  echo "skipped: the check needs python3" >&2
  exit 77  # ctest: skipped (SKIP_RETURN_CODE in tests/CMakeLists.txt)
fi
if git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  files=$(git ls-files --cached --others --exclude-standard)
else
  files=$(find . -type f -not -path '*/.*' | sed 's|^\./||')  # hidden folders: not the project's
fi

program=$(cat <<'PY'
import os
import re
import sys

root = sys.argv[1]
files = [f for f in sys.stdin.read().split("\n") if f]

SKIP_DIRS = ("build/", "bench/results/", ".git/")
SOURCE = re.compile(r"(\.(hpp|h|cpp|cc|cu|cuh|md|txt|cmake|sh|py)|/run|/CMakeLists\.txt)$")

def scanned(path):
    if path == sys.argv[2]:  # this script: its source names pages as examples
        return False
    return not path.startswith(SKIP_DIRS) and SOURCE.search("/" + path) is not None

# A page: a name ending in .md, not inside a longer path or URL (no word, '.', '/' or '-' just
# before it), so the last part of a web address is not taken for a page of the repository.
PAGE = re.compile(r"(?<![\w./-])((?:\.{1,2}/|/)?(?:[\w.-]+/)*[\w-][\w.-]*\.md)(?![\w/-])")
# What joins a page to the section quoted after it: a closing backtick, a comma, and at least
# one space or line break (with the next line's comment marker), so that the closing quote of a
# file name in a string literal is not taken for the start of a section.
JOIN = r"(?:`?,?(?:\s|\n\s*(?://+|#+|\*)?)+)"
SECTION_AFTER = re.compile(JOIN + r'"([^"\n]+(?:\n\s*(?://+|#+|\*)?\s*[^"\n]+)*)"')
SECTION_BEFORE = re.compile(r'"([^"\n]+)"\s+in\s+`?$')

def one_line(title):
    """A quoted section as one line: the next lines' comment markers and spaces taken out."""
    return re.sub(r"\s+", " ", re.sub(r"\n\s*(?://+|#+|\*)?\s*", " ", title)).strip()

def normalise(title):
    title = one_line(title).replace("`", "").replace("*", "").strip().rstrip(".:").strip()
    return re.sub(r"\s+", " ", title).lower()

sections_of = {}

def sections(path):
    if path not in sections_of:
        found = set()
        with open(path, encoding="utf-8", errors="replace") as f:
            fenced = False
            for line in f:
                if line.startswith("```"):
                    fenced = not fenced
                    continue
                if fenced:
                    continue
                m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line) or re.match(r"\*\*(.+?)\*\*", line)
                if not m:
                    continue
                title = normalise(m.group(1))
                found.add(title)
                found.add(re.sub(r"\s*\([^()]*\)$", "", title))  # without its parenthesis
        sections_of[path] = found
    return sections_of[path]

# Every page of the repository by file name, for bare names found nowhere else.
pages_named = {}
for f in files:
    if f.endswith(".md") and not f.startswith(SKIP_DIRS) and os.path.isfile(os.path.join(root, f)):
        pages_named.setdefault(os.path.basename(f), []).append(f)

def resolve(page, referrer, link):
    """The page's path under root, or None; raises ValueError where it is only outside."""
    here = os.path.dirname(referrer)
    if page.startswith("/"):
        raise ValueError("an absolute path (a user of spmesh has only the repository)")
    if link:  # a Markdown link's target: relative to the page it is on, as a renderer reads it
        candidates = [os.path.join(here, page)]
    elif "/" not in page:
        candidates = [os.path.join("docs", page), os.path.join(here, page), page]
    else:
        candidates = [page, os.path.join(here, page)]
    candidates = [os.path.normpath(c) for c in candidates]
    inside = [c for c in candidates if c != ".." and not c.startswith("../")]
    for c in inside:
        if os.path.isfile(os.path.join(root, c)):
            return c
    if not link and "/" not in page and len(pages_named.get(page, [])) == 1:
        return pages_named[page][0]  # the one page of that name: RESULTS.md is bench/RESULTS.md
    if len(inside) < len(candidates):
        raise ValueError("outside the repository (a user of spmesh has only the repository)")
    return None

errors = []
checked = {"references": 0, "sections": 0, "quotes": 0}

def report(path, line, page, message):
    errors.append(f"{path}:{line}: {page}: {message}")

def check_references(path, text):
    for m in PAGE.finditer(text):
        page = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        checked["references"] += 1
        link = path.endswith(".md") and text.endswith("](", 0, m.start())
        try:
            target = resolve(page, path, link)
        except ValueError as e:
            report(path, line, page, str(e))
            continue
        if target is None:
            tried = ("the file's folder (a link)" if link else
                     "the root or the file's folder" if "/" in page else
                     "docs/, the file's folder, the root, or one page of that name")
            report(path, line, page, f"no such page (looked in {tried})")
            continue
        quoted = []
        after = SECTION_AFTER.match(text, m.end())
        if after:
            quoted.append(after.group(1))
        start = text.rfind("\n", 0, m.start()) + 1
        before = SECTION_BEFORE.search(text, start, m.start())
        if before:
            quoted.append(before.group(1))
        for q in quoted:
            checked["sections"] += 1
            if normalise(q) not in sections(os.path.join(root, target)):
                report(path, line, page, f'no section "{one_line(q)}" in {target}')

def strip_lines(lines):
    return [l.strip() for l in lines if l.strip()]

def check_code_blocks(path, text):
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        fence = re.match(r"```\s*(\w*)", lines[i])
        if not fence:
            i += 1
            continue
        language, start = fence.group(1), i
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            i += 1
        block = lines[start + 1:i]
        i += 1
        intro = next((l for l in reversed(lines[:start]) if l.strip()), "")
        source = re.search(r"(examples/[\w./-]+\.(?:cpp|cu|hpp))", intro)
        where = f"{path}:{start + 1}"
        if not source:
            if path == "README.md" and language in ("cpp", "c++", "cuda"):
                errors.append(f"{where}: a {language} block that names no examples/ file above it "
                              "(the README's code must be an example that runs as a test)")
            continue
        example = os.path.join(root, source.group(1))
        if not os.path.isfile(example):
            errors.append(f"{where}: {source.group(1)}: no such example")
            continue
        checked["quotes"] += 1
        with open(example, encoding="utf-8") as f:
            remaining = strip_lines(f.read().split("\n"))
        at = 0
        for number, wanted in enumerate(block, start + 2):
            if not wanted.strip():
                continue
            while at < len(remaining) and remaining[at] != wanted.strip():
                at += 1
            if at == len(remaining):
                errors.append(f"{path}:{number}: not a line of {source.group(1)} (in this order): "
                              f"{wanted.strip()}")
                break
            at += 1

for path in files:
    if not scanned(path) or not os.path.isfile(os.path.join(root, path)):
        continue
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        text = f.read()
    check_references(path, text)
    if path.endswith(".md"):
        check_code_blocks(path, text)

for e in errors:
    print(e)
if errors:
    print(f"check-doc-refs: {len(errors)} broken reference(s) or quote(s)")
    sys.exit(1)
print("check-doc-refs: {references} references to pages ({sections} with a section) and {quotes} "
      "quoted code blocks, all resolved".format(**checked))
PY
)
printf '%s\n' "$files" | python3 -c "$program" "$root" "scripts/check-doc-refs.sh"
