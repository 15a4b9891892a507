#!/usr/bin/env python3
"""Every doctest name in tests/ can be a ctest test: ctest takes a test's name as a list and
cuts it at ';', so a name holding one becomes two tests that match nothing (CI failed on one).
A name is the concatenated string literals that open TEST_CASE( or TEST_CASE_TEMPLATE(.
Usage: check_test_names.py TESTS_DIR; exit 1 naming file:line of each bad name."""
import pathlib
import re
import sys

NAME = re.compile(r'TEST_CASE(?:_TEMPLATE)?\(((?:\s*"(?:[^"\\]|\\.)*")+)')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')

bad = 0
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*")):
    if path.suffix not in (".cpp", ".cu", ".hpp"):
        continue
    text = path.read_text()
    for match in NAME.finditer(text):
        name = "".join(LITERAL.findall(match.group(1)))
        if ";" in name:
            line = text.count("\n", 0, match.start()) + 1
            print(f"{path}:{line}: the test name holds ';', which ctest cuts apart: {name}")
            bad += 1
sys.exit(1 if bad else 0)
