#!/usr/bin/env python3
"""Summarise an Nsight Compute CSV of `spmesh_bench_solids --profile` (as
scripts/device-profile-solids.sh writes it): each kernel's time and DRAM bytes, summed over its launches, for
build (every kernel before eval's first) and eval (refine_points' five kernels a level), with
eval's deepest level kernel by kernel.
    scripts/ncu_summary.py ncu_solids.csv
"""
import collections
import csv
import re
import sys


def kernels(path):
    """Each launch in order: its name and its metrics (time in ns, bytes)."""
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]
    rows = list(csv.reader(lines))
    header, launches = rows[0], collections.OrderedDict()
    for row in rows[1:]:
        entry = dict(zip(header, row))
        launch = launches.setdefault(entry["ID"], {"name": entry["Kernel Name"]})
        launch[entry["Metric Name"]] = float(entry["Metric Value"].replace(",", ""))
    return list(launches.values())


KERNELS_A_LEVEL = 5  # refine_points: cells, midpoints, faces, edges, vertices
FOR_EACH = ("for_each_kernel", "for_each_grouped_kernel", "for_each_bounded_kernel")


def short_name(name):
    """The function whose lambda (or the functor) a for_each kernel runs, and which lambda; CUB's
    kernel names."""
    functions = re.findall(r"(?:solids|spmesh|Executor)::([a-z_]+)[<(]", name)
    functors = re.findall(r"::([A-Z][A-Za-z]+)<", name)
    lambdas = re.findall(r"\(instance (\d+)\)", name)
    kernel = name.replace("void ", "").split("<")[0].split("::")[-1]
    inner = [f for f in functions if f not in FOR_EACH + ("for_each_entry",)]
    if "for_each_entry" in functions:
        lambdas = lambdas[:-1]  # for_each_entry's own lambda: the caller's two name the kernel
    if kernel in FOR_EACH and inner:
        return inner[0] + " #" + ".".join(lambdas)
    if kernel in FOR_EACH and functors:
        return functors[0]
    return kernel


def table(title, launches, by_time):
    total = sum(k["gpu__time_duration.sum"] for k in launches)
    print(f"{title}: {len(launches)} launches, {total / 1e6:.3f} ms")
    groups = collections.OrderedDict()
    for k in launches:
        g = groups.setdefault(short_name(k["name"]), [0, 0.0, 0.0, 0.0])
        g[0] += 1
        g[1] += k["gpu__time_duration.sum"]
        g[2] += k["dram__bytes_read.sum"]
        g[3] += k["dram__bytes_write.sum"]
    items = sorted(groups.items(), key=lambda item: -item[1][1]) if by_time else groups.items()
    print(f"  {'ms':>8} {'launches':>8} {'read MB':>10} {'write MB':>10} {'GB/s':>6}  kernel")
    for name, (count, ns, read, written) in items:
        print(f"  {ns / 1e6:8.3f} {count:8d} {read / 1e6:10.1f} {written / 1e6:10.1f} "
              f"{(read + written) / ns if ns else 0:6.0f}  {name}")


def main():
    launches = kernels(sys.argv[1])
    first_eval = next(i for i, k in enumerate(launches) if "refine_points" in k["name"])
    table("build", launches[:first_eval], by_time=True)
    table("eval", launches[first_eval:], by_time=False)
    table("eval, deepest level", launches[-KERNELS_A_LEVEL:], by_time=False)


if __name__ == "__main__":
    main()
