#!/usr/bin/env python3
"""Find nvcc's host-device lambda hazard in a CUDA build: a program two of whose .cu objects
both define the same host-device lambda wrapper function.

nvcc wraps each __host__ __device__ lambda, in host code, in __nv_hdl_wrapper_t, whose copy,
call and delete go through function pointers kept in __nv_hdl_helper, a class in an unnamed
namespace: one set of pointers per .cu file, set by that file's constructor of the wrapper. The
wrapper's member functions, and the templates instantiated on it, are inline and exported, so
the linker keeps one file's copy of each; where it keeps file A's constructor and file B's copy,
the copy calls B's pointer, never set: a jump to address 0 (the adaptive tests' segfault on the
GPU machine, when four test sources were four .cu files of one program). So a program must
instantiate each such lambda in one .cu file (docs/linalg.md): this script lists, per linked
program of the build, the exported wrapper functions that more than one of its .cu objects
defines, by the function that holds the lambda.

usage: check_lambda_odr.py BUILD_DIR [--list] [--per-target]
  prints, per linked program, how many wrapper functions two of its .cu objects both define
  (--list: by the function that holds the lambda); --per-target: among the .cu objects of one
  CMake target only (a library's or a program's own files, not a program against the libraries
  it links). Exit 1 when some program (target) has one, 77 without .cu objects.
"""
import collections
import os
import re
import subprocess
import sys


def wrapper_symbols(obj, cache={}):
    """An object's defined, exported symbols that name a host-device lambda's wrapper."""
    if obj not in cache:
        out = subprocess.run(["nm", "--defined-only", "--extern-only", "-C", obj],
                             capture_output=True, text=True, check=True).stdout
        cache[obj] = {line.split(" ", 2)[2] for line in out.splitlines() if "__nv_hdl_wrapper_t" in line}
    return cache[obj]


def links(build):
    """(program, its .cu objects) for every link in build.ninja, static libraries' included."""
    text = open(os.path.join(build, "build.ninja")).read().replace("$\n", "")
    for line in text.splitlines():
        m = re.match(r"build (\S+)[^:]*: (?:CXX|CUDA)_(?:EXECUTABLE|SHARED_LIBRARY|MODULE)_LINKER\S* (.*)", line)
        if not m:
            continue
        inputs = m.group(2).split("||")[0].replace("|", " ").split()
        objects = set()
        for name in inputs:
            path = os.path.join(build, name)
            if name.endswith(".cu.o"):
                objects.add(path)
            elif name.endswith(".a"):  # its target's objects, whether or not the archive exists yet
                target = os.path.basename(name)[len("lib"):-len(".a")]
                folder = os.path.join(os.path.dirname(path), "CMakeFiles", target + ".dir")
                objects |= {os.path.join(root, f) for root, _, files in os.walk(folder)
                            for f in files if f.endswith(".cu.o")}
        yield m.group(1), sorted(o for o in objects if os.path.exists(o))


def holder(symbol):
    """The function whose lambda a wrapper symbol names (its first tag's), without template or
    call arguments: the tag reads __nv_dl_tag<TYPE, &(RETURN NAME<...>(...)), INDEX>."""
    at = symbol.find("&(", symbol.find("__nv_dl_tag<"))
    if at < 0:
        return symbol[:120]
    depth, name = 0, ""
    for c in symbol[at + 2:]:
        if c == "(" and depth == 0:
            break
        depth += (c == "<") - (c == ">")
        if depth == 0 and c != ">":
            name = "" if c == " " else name + c
    return name


def by_target(programs):
    """The linked .cu objects grouped by the CMake target that compiles them (its .dir folder)."""
    groups = collections.defaultdict(set)
    for _, objects in programs:
        for obj in objects:
            groups[obj[:obj.index(".dir") + 4] if ".dir" in obj else obj].add(obj)
    return [(folder, sorted(objs)) for folder, objs in sorted(groups.items())]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    build = args[0] if args else "build/ci"
    listing = "--list" in sys.argv
    per_target = "--per-target" in sys.argv
    programs = [(p, objs) for p, objs in links(build) if objs]
    if per_target:
        programs = by_target(programs)
    if not programs:
        print(f"check_lambda_odr: no .cu object linked under {build}")
        return 77
    bad = 0
    for program, objects in programs:
        where = collections.defaultdict(list)
        for obj in objects:
            for symbol in wrapper_symbols(obj):
                where[symbol].append(os.path.relpath(obj, build))
        shared = {s: objs for s, objs in where.items() if len(objs) > 1}
        if not shared:
            continue
        bad += 1
        print(f"{program}: {len(shared)} wrapper functions defined in more than one .cu object")
        if listing:
            by_holder = collections.Counter((holder(s), ", ".join(objs)) for s, objs in shared.items())
            for (name, objs), count in sorted(by_holder.items()):
                print(f"  {count:4d}  {name}  ({objs})")
    kind = "targets" if per_target else "programs"
    print(f"check_lambda_odr: {len(programs)} {kind} with .cu objects, {bad} with a shared wrapper")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
