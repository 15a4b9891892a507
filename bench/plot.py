#!/usr/bin/env python3
"""Time against output faces, log-log, one panel per scheme, from spmesh_bench_subdivision JSON
(GPU rows): dynamic (build + eval), static eval and replay (P_L = R P_0), with two bytes floors
at the copy bandwidth measured in the same run: writing the refined faces and xyz positions
once (a floor for dynamic and eval), and replay's (8 bytes per non-zero of R, 16 per row, 12 per
column). Needs python3-matplotlib.

    bench/plot.py OUT.png catmark=RUN.json loop=RUN.json sqrt3=RUN.json
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CORNERS = {"catmark": 4, "loop": 3, "sqrt3": 3}
TITLES = {"catmark": "Catmull-Clark", "loop": "Loop", "sqrt3": "sqrt(3)"}


def copy_bandwidth(rows):
    """Bytes per ms of the run's device-to-device copy, from replay's fraction of it."""
    r = max(rows, key=lambda r: r["replay_bytes"])
    return r["replay_bytes"] / r["replay_ms"] / r["replay_of_copy"]


def panel(ax, scheme, rows):
    rows = [r for r in rows if r["device"] == "gpu"]
    copy = copy_bandwidth(rows)
    for n, mesh in enumerate(sorted({r["mesh"] for r in rows})):
        own = sorted((r for r in rows if r["mesh"] == mesh), key=lambda r: r["faces"])
        faces = [r["faces"] for r in own]
        for key, marker, label in (("dynamic_ms", "o", "dynamic"), ("eval_ms", "s", "eval"),
                                   ("eval_recorded_ms", "D", "eval recorded"),
                                   ("replay_ms", "^", "replay")):
            if all(key in r for r in own):  # runs before the recorded eval lack it
                ax.plot(faces, [r[key] for r in own], marker=marker, label=f"{mesh} {label}")
        written = [(4 * CORNERS[scheme] * r["faces"] + 12 * r["vertices"]) / copy for r in own]
        ax.plot(faces, written, "k--", lw=0.8,
                label=None if n else "floor: faces + xyz written once")
        ax.plot(faces, [r["replay_bytes"] / copy for r in own], "k:", lw=0.8,
                label=None if n else "floor: replay")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(1e3, 1e8)
    ax.set_xlabel("output faces")
    ax.set_ylabel("ms")
    ax.set_title(TITLES[scheme])
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    runs = [a.split("=", 1) for a in argv[2:]]
    fig, axes = plt.subplots(1, len(runs), figsize=(6 * len(runs), 5))
    for ax, (scheme, path) in zip(axes if len(runs) > 1 else [axes], runs):
        with open(path) as f:
            panel(ax, scheme, json.load(f)["results"])
    fig.tight_layout()
    fig.savefig(argv[1], dpi=120)


if __name__ == "__main__":
    main(sys.argv)
