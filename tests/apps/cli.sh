#!/usr/bin/env bash
# The spmesh command line end to end: subdivide, build + replay (== subdivide), and bad input
# giving one line on stderr, exit code 1 and no output file.
#   tests/apps/cli.sh SPMESH DATA_DIR
set -uo pipefail
spmesh=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_error NAME OUTPUT_FILE ARGS...: exit code 1, one stderr line, OUTPUT_FILE not created.
# same_lines A B COLUMNS [ROWS]: A's and B's lines, COLUMNS numbers each, agree to 1e-12 (and
# there are ROWS of them where given, at least one otherwise).
same_lines() {
  paste -d' ' "$1" "$2" | awk -v n="$3" -v rows="${4:-0}" '
    { for (c = 1; c <= n; ++c) { d = $c - $(c + n); if (d < 0) d = -d; if (d > m) m = d } }
    END { exit !(NR > 0 && (rows == 0 || NR == rows) && m < 1e-12) }'
}
expect_error() {
  local name=$1 out=$2; shift 2
  "$spmesh" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  [[ $rc -eq 1 ]] || fail "$name: exit code $rc, expected 1"
  [[ $(wc -l <"$tmp/stderr") -eq 1 ]] || fail "$name: stderr is not one line: $(cat "$tmp/stderr")"
  [[ ! -e $out ]] || fail "$name: left $out behind"
  ls "$(dirname "$out")" 2>/dev/null | grep -q tmp && fail "$name: left a temporary file"
  echo "ok: $name: $(cat "$tmp/stderr")"
}

# Subdivide: 6 quads -> 6 * 4^3 faces after 3 levels, and a picture.
"$spmesh" subdivide "$data/meshes/creased_cube.obj" --levels 3 -o "$tmp/cube.obj" \
  --precision double --picture "$tmp/cube.svg" || fail "subdivide"
[[ $(grep -c '^f ' "$tmp/cube.obj") -eq 384 ]] || fail "subdivide: expected 384 faces"
# A hole (OpenSubdiv's `t hole`): the same points as without it, its 4^L descendants left out;
# with --triangulate its triangles are holes too; schemes and commands that keep none refuse it.
(cat "$data/meshes/cube.obj"; echo "t hole 1/0/0 2") >"$tmp/holed.obj"
"$spmesh" subdivide "$data/meshes/cube.obj" --levels 2 -o "$tmp/whole.obj" >/dev/null || fail "subdivide the cube"
"$spmesh" subdivide "$tmp/holed.obj" --levels 2 -o "$tmp/holed2.obj" >/dev/null || fail "subdivide a hole"
[[ $(grep -c '^f ' "$tmp/holed2.obj") -eq 80 ]] || fail "a hole: expected 96 - 16 faces"
cmp -s <(grep '^v ' "$tmp/whole.obj") <(grep '^v ' "$tmp/holed2.obj") || fail "a hole moved the points"
"$spmesh" subdivide "$tmp/holed.obj" --levels 2 --scheme loop --triangulate fan -o "$tmp/holed_loop.obj" >/dev/null ||
  fail "subdivide a hole by Loop"
[[ $(grep -c '^f ' "$tmp/holed_loop.obj") -eq 160 ]] || fail "a hole by Loop: expected (12 - 2) * 16 faces"
expect_error "a hole by sqrt(3)" "$tmp/h3.obj" subdivide "$tmp/holed.obj" --levels 1 --scheme sqrt3 --triangulate fan \
  -o "$tmp/h3.obj"
# build keeps the holes (a version 4 file) and replay writes subdivide's faces.
"$spmesh" build "$tmp/holed.obj" --levels 2 -o "$tmp/holed.spr" >/dev/null || fail "build a hole"
[[ $(od -An -tu4 -j8 -N4 "$tmp/holed.spr" | tr -d ' ') == 4 ]] || fail "a hole's file is not version 4"
mkdir -p "$tmp/hole_poses" "$tmp/hole_out"
cp "$tmp/holed.obj" "$tmp/hole_poses/"
"$spmesh" replay "$tmp/holed.spr" "$tmp/hole_poses/holed.obj" -o "$tmp/hole_out" >/dev/null || fail "replay a hole"
cmp -s <(grep '^f ' "$tmp/hole_out/holed.obj") <(grep '^f ' "$tmp/holed2.obj") || fail "replay of a hole: other faces"
"$spmesh" limit "$tmp/holed.obj" --levels 2 -o "$tmp/holed_limit.obj" >/dev/null || fail "limit of a hole"
cmp -s <(grep '^f ' "$tmp/holed_limit.obj" | sed 's|//[0-9]*||g') <(grep '^f ' "$tmp/holed2.obj") ||
  fail "limit of a hole: not subdivide's faces"
# A tessellation leaves the holes' facets out: the cube's 6 - 1 quads at rate 2 (4 each), the
# tent's triangle 0 at rate 3 (7 of 102 facets, by the odd rate's polygon layout), Loop's
# triangulated cube (10 triangles, 4 each).
"$spmesh" limit "$tmp/holed.obj" --tessellate 2 -o "$tmp/ht.obj" >/dev/null || fail "tessellate a hole"
[[ $(grep -c '^f ' "$tmp/ht.obj") -eq 20 ]] || fail "tessellate a hole: not 20 facets"
(cat "$data/meshes/tent.obj"; echo "t hole 1/0/0 0") >"$tmp/holed_tent.obj"
"$spmesh" limit "$tmp/holed_tent.obj" --tessellate 3 --approximate -o "$tmp/htt.obj" >/dev/null || fail "tessellate the tent's hole"
[[ $(grep -c '^f ' "$tmp/htt.obj") -eq 95 && $(grep -c '^v ' "$tmp/htt.obj") -eq 108 ]] ||
  fail "tessellate the tent's hole: not 95 facets on 108 points"
"$spmesh" limit "$tmp/holed.obj" --scheme loop --triangulate fan --tessellate 2 -o "$tmp/htl.obj" >/dev/null ||
  fail "tessellate a hole by Loop"
[[ $(grep -c '^f ' "$tmp/htl.obj") -eq 40 ]] || fail "tessellate a hole by Loop: not 40 facets"
# OpenSubdiv's smooth triangle rule (`t smoothtriangles ... smooth`) moves the points of the tent's
# base vertices at level 2 (its first 14, in both edge numberings; the parity test checks the
# values against Far); build and replay make subdivide's faces; limit refuses it by name.
(cat "$data/meshes/tent.obj"; echo "t smoothtriangles 0/0/1 smooth") >"$tmp/smooth_tent.obj"
"$spmesh" subdivide "$data/meshes/tent.obj" --levels 2 -o "$tmp/tent2.obj" >/dev/null || fail "subdivide the tent"
"$spmesh" subdivide "$tmp/smooth_tent.obj" --levels 2 -o "$tmp/smooth_tent2.obj" >/dev/null ||
  fail "subdivide by the smooth triangle rule"
moved=$(paste -d' ' <(grep '^v ' "$tmp/tent2.obj" | head -14) <(grep '^v ' "$tmp/smooth_tent2.obj" | head -14) |
  awk '{for (c = 2; c <= 4; ++c) { d = $c - $(c + 4); if (d < 0) d = -d; if (d > m) m = d }} END {print (m > 1e-3)}')
[[ $moved == 1 ]] || fail "the smooth triangle rule moved no base vertex's point"
[[ $(grep -c '^f ' "$tmp/smooth_tent2.obj") -eq 172 ]] || fail "the smooth triangle rule: not 172 faces"
"$spmesh" build "$tmp/smooth_tent.obj" --levels 2 -o "$tmp/smooth_tent.spr" >/dev/null || fail "build by the smooth triangle rule"
mkdir -p "$tmp/smooth_poses" "$tmp/smooth_out" && cp "$tmp/smooth_tent.obj" "$tmp/smooth_poses/"
"$spmesh" replay "$tmp/smooth_tent.spr" "$tmp/smooth_poses/smooth_tent.obj" -o "$tmp/smooth_out" >/dev/null ||
  fail "replay by the smooth triangle rule"
cmp -s <(grep '^f ' "$tmp/smooth_out/smooth_tent.obj") <(grep '^f ' "$tmp/smooth_tent2.obj") ||
  fail "replay by the smooth triangle rule: other faces"
expect_error "limit by the smooth triangle rule" "$tmp/stl.obj" limit "$tmp/smooth_tent.obj" --levels 1 -o "$tmp/stl.obj"
grep -q '<polygon' "$tmp/cube.svg" || fail "subdivide: no picture"

# build + replay gives the same points as subdivide (to 1e-12).
"$spmesh" build "$data/meshes/creased_cube.obj" --levels 3 -o "$tmp/cube.spr" --precision double \
  || fail "build"
mkdir "$tmp/frames"
"$spmesh" replay "$tmp/cube.spr" "$data/meshes/creased_cube.obj" -o "$tmp/frames" \
  --precision double || fail "replay"
paste <(grep '^v ' "$tmp/cube.obj") <(grep '^v ' "$tmp/frames/creased_cube.obj") | awk '
  { for (c = 2; c <= 4; ++c) { d = $c - $(c + 4); if (d < 0) d = -d; if (d > m) m = d } }
  END { exit !(NR == 386 && m < 1e-12) }' || fail "replay differs from subdivide"

# The triangle schemes on the triangulated tent (19 triangles): Loop -> 19 * 4^2 after 2 levels,
# sqrt3 -> 19 * 3^3 after 3; build + replay of the fan-triangulated tent equals subdivide.
for case in "loop 2 304" "sqrt3 3 513"; do
  read -r scheme levels faces <<<"$case"
  "$spmesh" subdivide "$data/meshes/tent.obj" --scheme "$scheme" --triangulate shortest-diagonal \
    --levels "$levels" -o "$tmp/tent.obj" || fail "$scheme subdivide"
  [[ $(grep -c '^f ' "$tmp/tent.obj") -eq $faces ]] || fail "$scheme subdivide: expected $faces faces"
  "$spmesh" build "$data/meshes/tent.obj" --scheme "$scheme" --triangulate fan --levels "$levels" \
    -o "$tmp/tent.spr" || fail "$scheme build"
  "$spmesh" subdivide "$data/meshes/tent.obj" --scheme "$scheme" --triangulate fan --levels "$levels" \
    -o "$tmp/tent_fan.obj" || fail "$scheme subdivide (fan)"
  rm -rf "$tmp/tri_frames" && mkdir "$tmp/tri_frames"
  "$spmesh" replay "$tmp/tent.spr" "$data/meshes/tent.obj" --triangulate fan -o "$tmp/tri_frames" \
    || fail "$scheme replay"
  paste <(grep '^v ' "$tmp/tent_fan.obj") <(grep '^v ' "$tmp/tri_frames/tent.obj") | awk '
    { for (c = 2; c <= 4; ++c) { d = $c - $(c + 4); if (d < 0) d = -d; if (d > m) m = d } }
    END { exit !(NR > 0 && m < 1e-5) }' || fail "$scheme replay differs from subdivide"
done

# limit: the limit surface at a level's vertices, with unit outward normals on the closed cube;
# a base vertex's limit is its vertex point's at level 3 (to 1e-12) and subdivide's level-8 point
# comes within 1e-2 of it; the faces are subdivide's, each corner naming its vertex's normal.
"$spmesh" limit "$data/meshes/cube.obj" -o "$tmp/limit0.obj" --precision double || fail "limit"
"$spmesh" limit "$data/meshes/cube.obj" -o "$tmp/limit3.obj" --levels 3 --precision double || fail "limit --levels 3"
"$spmesh" subdivide "$data/meshes/cube.obj" -o "$tmp/cube3.obj" --levels 3 --precision double || fail "subdivide 3"
"$spmesh" subdivide "$data/meshes/cube.obj" -o "$tmp/cube8.obj" --levels 8 --precision double || fail "subdivide 8"
diff -q <(grep '^f ' "$tmp/cube3.obj") <(grep '^f ' "$tmp/limit3.obj" | sed 's#//[0-9]*##g') >/dev/null ||
  fail "limit: faces are not subdivide's"
python3 - "$tmp/limit0.obj" "$tmp/limit3.obj" "$tmp/cube8.obj" <<'PY' || fail "limit: positions or normals"
import sys
def read(path):
    v, n, f = [], [], []
    for line in open(path):
        w = line.split()
        if w and w[0] == 'v': v.append([float(x) for x in w[1:4]])
        if w and w[0] == 'vn': n.append([float(x) for x in w[1:4]])
        if w and w[0] == 'f': f.append([int(i) for x in w[1:] for i in x.split('//')])
    return v, n, f
v0, n0, _ = read(sys.argv[1])
v3, n3, f3 = read(sys.argv[2])
v8, _, _ = read(sys.argv[3])
assert len(v0) == 8 and len(n0) == 8 and len(v3) == len(n3) == 386, (len(v0), len(v3))
assert all(row[0::2] == row[1::2] for row in f3)
centre = [sum(p[c] for p in v3) / len(v3) for c in range(3)]
for v, n in zip(v3, n3):
    assert abs(sum(x * x for x in n) - 1) < 1e-12
    assert sum((v[c] - centre[c]) * n[c] for c in range(3)) > 0, "normal points inward"
for i in range(8):
    assert max(abs(v0[i][c] - v3[i][c]) for c in range(3)) < 1e-12
    assert max(abs(v0[i][c] - v8[i][c]) for c in range(3)) < 1e-2
    assert max(abs(n0[i][c] - n3[i][c]) for c in range(3)) < 1e-12
PY
# On the GPU where there is one: the CPU's limit points and normals (1e-12, double), Loop's too.
"$spmesh" limit "$data/meshes/tent.obj" --scheme loop --triangulate fan --levels 2 -o "$tmp/limit_loop.obj" \
  --precision double >/dev/null || fail "limit loop"
if "$spmesh" limit "$data/meshes/tent.obj" --scheme loop --triangulate fan --levels 2 -o "$tmp/limit_loop_gpu.obj" \
    --precision double --device cuda >/dev/null 2>"$tmp/stderr"; then
  paste <(grep -E '^vn? ' "$tmp/limit_loop.obj") <(grep -E '^vn? ' "$tmp/limit_loop_gpu.obj") | awk '
    { for (c = 2; c <= 4; ++c) { d = $c - $(c + 4); if (d < 0) d = -d; if (d > m) m = d } }
    END { exit !(NR > 0 && m < 1e-12) }' || fail "limit on the GPU differs from the CPU"
  echo "ok: limit on the GPU is the CPU's"
else
  [[ $(wc -l <"$tmp/stderr") -eq 1 && ! -e $tmp/limit_loop_gpu.obj ]] || fail "limit on no GPU: $(cat "$tmp/stderr")"
  echo "skip: limit on the GPU: $(cat "$tmp/stderr")"
fi
expect_error "limit: sqrt3 has no limit masks" "$tmp/limit_sqrt3.obj" limit "$data/meshes/tent.obj" \
  -o "$tmp/limit_sqrt3.obj" --scheme sqrt3 --triangulate fan
expect_error "limit: OBJ or PLY" "$tmp/limit.stl" limit "$data/meshes/cube.obj" -o "$tmp/limit.stl"

# limit --at: at each face's corner 0 (an extraordinary vertex: Stam's evaluation) the limit is
# that base vertex's (limit0.obj) and the derivatives' normal its vn; a line a sample, 9 numbers.
printf '# face u v\n0 0 0\n1 0 0\n\n2 0 0\n3 0 0\n4 0 0\n5 0 0\n3 0.5 0.25\n' >"$tmp/samples.txt"
"$spmesh" limit "$data/meshes/cube.obj" --at "$tmp/samples.txt" -o "$tmp/at.txt" --precision double >/dev/null ||
  fail "limit --at"
python3 - "$data/meshes/cube.obj" "$tmp/limit0.obj" "$tmp/at.txt" <<'PY' || fail "limit --at: positions or normals"
import sys
faces = [[int(x.split('/')[0]) - 1 for x in l.split()[1:]] for l in open(sys.argv[1]) if l.startswith('f ')]
v0 = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('v ')]
n0 = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('vn ')]
rows = [[float(x) for x in l.split()] for l in open(sys.argv[3])]
assert len(rows) == 7 and all(len(r) == 9 for r in rows), rows
for f in range(6):
    p, du, dv = rows[f][0:3], rows[f][3:6], rows[f][6:9]
    corner = faces[f][0]
    assert max(abs(p[c] - v0[corner][c]) for c in range(3)) < 1e-12
    n = [du[1] * dv[2] - du[2] * dv[1], du[2] * dv[0] - du[0] * dv[2], du[0] * dv[1] - du[1] * dv[0]]
    length = sum(x * x for x in n) ** 0.5
    assert abs(sum(n[c] / length * n0[corner][c] for c in range(3)) - 1) < 1e-12
PY
if "$spmesh" limit "$data/meshes/cube.obj" --at "$tmp/samples.txt" -o "$tmp/at_gpu.txt" --precision double \
    --device cuda >/dev/null 2>"$tmp/stderr"; then
  same_lines "$tmp/at.txt" "$tmp/at_gpu.txt" 9 7 || fail "limit --at on the GPU differs from the CPU"
  echo "ok: limit --at on the GPU is the CPU's"
else
  [[ $(wc -l <"$tmp/stderr") -eq 1 && ! -e $tmp/at_gpu.txt ]] || fail "limit --at on no GPU: $(cat "$tmp/stderr")"
fi
printf '0 0.5 0.5\n6 0.5 0.5\n' >"$tmp/bad_face.txt"
expect_error "limit --at: a face out of range, by line" "$tmp/at_bad.txt" limit "$data/meshes/cube.obj" \
  --at "$tmp/bad_face.txt" -o "$tmp/at_bad.txt"
grep -q "bad_face.txt:2: face 6 is out of range" "$tmp/stderr" || fail "limit --at: $(cat "$tmp/stderr")"
printf '0 0.5 nan\n' >"$tmp/bad_uv.txt"
expect_error "limit --at: NaN" "$tmp/at_bad.txt" limit "$data/meshes/cube.obj" --at "$tmp/bad_uv.txt" -o "$tmp/at_bad.txt"
printf '0 0.5\n' >"$tmp/bad_line.txt"
expect_error "limit --at: a short line" "$tmp/at_bad.txt" limit "$data/meshes/cube.obj" --at "$tmp/bad_line.txt" \
  -o "$tmp/at_bad.txt"
expect_error "limit --at: text only" "$tmp/at.obj" limit "$data/meshes/cube.obj" --at "$tmp/samples.txt" -o "$tmp/at.obj"
# On a mesh of polygons (the lantern: faces of 3 to 6 sides), Bfr's parameterization: a polygon's
# sub-face i on tile (i mod c, i div c), c = ceil(sqrt(n)), its corner i there. At each face's
# corners (a quad's (0, 0), (1, 0), (1, 1), (0, 1); a polygon's tile corners) the limit is that
# vertex's (`limit`'s first V points: level 1's vertex points come first); a point off the
# sub-faces' squares is refused by line.
"$spmesh" limit "$data/meshes/lantern.obj" -o "$tmp/lantern0.obj" --precision double >/dev/null || fail "limit (polygons)"
python3 - "$data/meshes/lantern.obj" "$tmp/lantern_samples.txt" <<'PY'
import math, sys
faces = [[int(x) - 1 for x in l.split()[1:]] for l in open(sys.argv[1]) if l.startswith('f ')]
with open(sys.argv[2], 'w') as out:
    for f, corners in enumerate(faces):
        n = len(corners)
        for i in range(n):
            c = math.isqrt(n - 1) + 1
            u, v = ((i in (1, 2)), (i >= 2)) if n == 4 else (i % c, i // c)
            out.write('%d %g %g\n' % (f, u, v))
PY
"$spmesh" limit "$data/meshes/lantern.obj" --at "$tmp/lantern_samples.txt" -o "$tmp/lantern_at.txt" \
  --precision double >/dev/null || fail "limit --at (polygons)"
python3 - "$data/meshes/lantern.obj" "$tmp/lantern0.obj" "$tmp/lantern_at.txt" <<'PY' || fail "limit --at (polygons): not the vertices' limits"
import sys
faces = [[int(x) - 1 for x in l.split()[1:]] for l in open(sys.argv[1]) if l.startswith('f ')]
v0 = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('v ')]
rows = [[float(x) for x in l.split()] for l in open(sys.argv[3])]
corners = [c for f in faces for c in f]
assert len(rows) == len(corners), (len(rows), len(corners))
for row, c in zip(rows, corners):
    assert max(abs(row[k] - v0[c][k]) for k in range(3)) < 1e-12, (row, c)
PY
printf '0 0.25 0.25\n0 0.75 0.25\n' >"$tmp/lantern_bad.txt"
expect_error "limit --at: off a polygon's sub-faces, by line" "$tmp/at_bad.txt" limit "$data/meshes/lantern.obj" \
  --at "$tmp/lantern_bad.txt" -o "$tmp/at_bad.txt"
grep -q "lantern_bad.txt:2: .*outside the face" "$tmp/stderr" || fail "limit --at (polygons): $(cat "$tmp/stderr")"

# Loop's limit at samples: at each triangle's corners ((0, 0), (1, 0), (0, 1)) of the fan-
# triangulated lantern (vertices of 3 to 8 edges: Stam's nest at most of them) the limit is that
# vertex's (limit --scheme loop at level 0); the GPU's equals the CPU's; a point past u + v = 1 is
# refused by line.
"$spmesh" limit "$data/meshes/lantern.obj" --scheme loop --triangulate fan -o "$tmp/lantern_loop0.obj" \
  --precision double >/dev/null || fail "limit loop (lantern)"
python3 - "$tmp/lantern_loop0.obj" "$tmp/loop_samples.txt" <<'PY'
import sys
faces = [l.split()[1:] for l in open(sys.argv[1]) if l.startswith('f ')]
with open(sys.argv[2], 'w') as out:
    for f in range(len(faces)):
        for u, v in ((0, 0), (1, 0), (0, 1)):
            out.write('%d %g %g\n' % (f, u, v))
PY
"$spmesh" limit "$data/meshes/lantern.obj" --scheme loop --triangulate fan --at "$tmp/loop_samples.txt" \
  -o "$tmp/loop_at.txt" --precision double >/dev/null || fail "limit --at (loop)"
python3 - "$tmp/lantern_loop0.obj" "$tmp/loop_at.txt" <<'PY' || fail "limit --at (loop): not the vertices' limits"
import sys
lines = open(sys.argv[1]).read().splitlines()
v0 = [[float(x) for x in l.split()[1:4]] for l in lines if l.startswith('v ')]
corners = [int(x.split('/')[0]) - 1 for l in lines if l.startswith('f ') for x in l.split()[1:]]
rows = [[float(x) for x in l.split()] for l in open(sys.argv[2])]
assert len(rows) == len(corners), (len(rows), len(corners))
for row, c in zip(rows, corners):
    assert max(abs(row[k] - v0[c][k]) for k in range(3)) < 1e-12, (row, c)
PY
if "$spmesh" limit "$data/meshes/lantern.obj" --scheme loop --triangulate fan --at "$tmp/loop_samples.txt" \
    -o "$tmp/loop_at_gpu.txt" --precision double --device cuda >/dev/null 2>"$tmp/stderr"; then
  same_lines "$tmp/loop_at.txt" "$tmp/loop_at_gpu.txt" 9 || fail "limit --at (loop) on the GPU differs from the CPU"
  echo "ok: limit --at (loop) on the GPU is the CPU's"
else
  [[ $(wc -l <"$tmp/stderr") -eq 1 && ! -e $tmp/loop_at_gpu.txt ]] || fail "limit --at (loop) on no GPU: $(cat "$tmp/stderr")"
fi
printf '0 0.25 0.25\n1 0.75 0.5\n' >"$tmp/loop_bad.txt"
expect_error "limit --at (loop): past u + v = 1, by line" "$tmp/at_bad.txt" limit "$data/meshes/lantern.obj" \
  --scheme loop --triangulate fan --at "$tmp/loop_bad.txt" -o "$tmp/at_bad.txt"
grep -q "loop_bad.txt:2: .*outside the face (a triangle's is u >= 0, v >= 0, u + v <= 1)" "$tmp/stderr" ||
  fail "limit --at (loop): $(cat "$tmp/stderr")"
expect_error "limit --at: sqrt3's is not built" "$tmp/at_bad.txt" limit "$data/meshes/tent.obj" --scheme sqrt3 \
  --triangulate fan --at "$tmp/loop_bad.txt" -o "$tmp/at_bad.txt"
# Loop's tessellation at rate 3 of the same mesh: V + 2 E + F points, 9 F triangles, closed (every
# triangle side in two, opposite ways), unit normals, its vertices' points `limit`'s; the GPU's the
# CPU's.
"$spmesh" limit "$data/meshes/lantern.obj" --scheme loop --triangulate fan --tessellate 3 -o "$tmp/loop_tess.obj" \
  --precision double >/dev/null || fail "limit --tessellate (loop)"
python3 - "$tmp/lantern_loop0.obj" "$tmp/loop_tess.obj" <<'PY' || fail "limit --tessellate (loop): counts, triangles, normals or vertices"
import sys
lines = open(sys.argv[1]).read().splitlines()
faces = [[int(x.split('/')[0]) - 1 for x in l.split()[1:]] for l in lines if l.startswith('f ')]
v0 = [[float(x) for x in l.split()[1:4]] for l in lines if l.startswith('v ')]
E = len({tuple(sorted((f[a], f[(a + 1) % 3]))) for f in faces for a in range(3)})
v = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('v ')]
n = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('vn ')]
t = [[int(x.split('//')[0]) - 1 for x in l.split()[1:]] for l in open(sys.argv[2]) if l.startswith('f ')]
F = len(faces)
assert len(v) == len(n) == len(v0) + 2 * E + F and len(t) == 9 * F, (len(v), len(t))
sides = {(q[a], q[(a + 1) % 3]) for q in t for a in range(3)}
assert len(sides) == 3 * len(t) and all((b, a) in sides for a, b in sides)
assert all(abs(sum(x * x for x in m) - 1) < 1e-12 for m in n)
assert all(max(abs(v[i][c] - v0[i][c]) for c in range(3)) < 1e-12 for i in range(len(v0)))
PY
if "$spmesh" limit "$data/meshes/lantern.obj" --scheme loop --triangulate fan --tessellate 3 -o "$tmp/loop_tess_gpu.obj" \
    --precision double --device cuda >/dev/null 2>"$tmp/stderr"; then
  paste -d' ' "$tmp/loop_tess.obj" "$tmp/loop_tess_gpu.obj" | awk '
    { h = NF / 2; if ($1 != $(h + 1)) bad = 1
      for (c = 2; c <= h; ++c) { d = $c - $(c + h); if (d < 0) d = -d; if (d > m) m = d } }
    END { exit !(NR > 0 && !bad && m < 1e-12) }' || fail "limit --tessellate (loop) on the GPU differs from the CPU"
  echo "ok: limit --tessellate (loop) on the GPU is the CPU's"
else
  [[ $(wc -l <"$tmp/stderr") -eq 1 && ! -e $tmp/loop_tess_gpu.obj ]] || fail "limit --tessellate (loop) on no GPU: $(cat "$tmp/stderr")"
fi

# limit --tessellate N: 8 + 12 (N - 1) + 6 (N - 1)^2 points and 6 N^2 quads on the cube, closed
# (every quad side in two quads, opposite ways), a unit normal a point pointing out; its corner
# points are limit0.obj's.
"$spmesh" limit "$data/meshes/cube.obj" --tessellate 4 -o "$tmp/tess.obj" --precision double >/dev/null ||
  fail "limit --tessellate"
python3 - "$tmp/tess.obj" "$tmp/limit0.obj" <<'PY' || fail "limit --tessellate: points, quads or normals"
import sys
v = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[1]) if l.startswith('v ')]
n = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[1]) if l.startswith('vn ')]
f = [[int(x.split('//')[0]) - 1 for x in l.split()[1:]] for l in open(sys.argv[1]) if l.startswith('f ')]
v0 = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('v ')]
N = 4
assert len(v) == len(n) == 8 + 12 * (N - 1) + 6 * (N - 1) ** 2 and len(f) == 6 * N * N, (len(v), len(f))
sides = {(q[a], q[(a + 1) % 4]) for q in f for a in range(4)}
assert len(sides) == 4 * len(f) and all((b, a) in sides for a, b in sides)
centre = [sum(p[c] for p in v) / len(v) for c in range(3)]
for p, m in zip(v, n):
    assert abs(sum(x * x for x in m) - 1) < 1e-12
    assert sum((p[c] - centre[c]) * m[c] for c in range(3)) > 0
for i in range(8):
    assert max(abs(v[i][c] - v0[i][c]) for c in range(3)) < 1e-12
PY
if "$spmesh" limit "$data/meshes/cube.obj" --tessellate 4 -o "$tmp/tess_gpu.obj" --precision double \
    --device cuda >/dev/null 2>"$tmp/stderr"; then
  # The same points and quads as the CPU's, to rounding (numbers compared field by field).
  paste -d' ' "$tmp/tess.obj" "$tmp/tess_gpu.obj" | awk '
    { h = NF / 2; if ($1 != $(h + 1)) bad = 1
      for (c = 2; c <= h; ++c) { d = $c - $(c + h); if (d < 0) d = -d; if (d > m) m = d } }
    END { exit !(NR > 0 && !bad && m < 1e-12) }' || fail "limit --tessellate on the GPU differs from the CPU"
  echo "ok: limit --tessellate on the GPU is the CPU's"
else
  [[ $(wc -l <"$tmp/stderr") -eq 1 && ! -e $tmp/tess_gpu.obj ]] || fail "limit --tessellate on no GPU: $(cat "$tmp/stderr")"
fi
# The lantern at rate 4: a quad 4 x 4 quads, an n-gon's n sub-faces 2 x 2 each (Bfr's counts:
# V + 3 E + 9 a quad + (2 n + 1) an n-gon points), closed, unit normals, its vertices' points
# `limit`'s.
"$spmesh" limit "$data/meshes/lantern.obj" --tessellate 4 -o "$tmp/lantern_tess.obj" --precision double \
  >/dev/null || fail "limit --tessellate (polygons)"
python3 - "$data/meshes/lantern.obj" "$tmp/lantern_tess.obj" "$tmp/lantern0.obj" <<'PY' || fail "limit --tessellate (polygons): counts, quads, normals or vertices"
import sys
faces = [[int(x) - 1 for x in l.split()[1:]] for l in open(sys.argv[1]) if l.startswith('f ')]
V = sum(1 for l in open(sys.argv[1]) if l.startswith('v '))
E = len({tuple(sorted((f[a], f[(a + 1) % len(f)]))) for f in faces for a in range(len(f))})
v = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('v ')]
n = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('vn ')]
q = [[int(x.split('//')[0]) - 1 for x in l.split()[1:]] for l in open(sys.argv[2]) if l.startswith('f ')]
v0 = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[3]) if l.startswith('v ')]
inner = sum(9 if len(f) == 4 else 2 * len(f) + 1 for f in faces)
assert len(v) == len(n) == V + 3 * E + inner, (len(v), V + 3 * E + inner)
assert len(q) == sum(16 if len(f) == 4 else 4 * len(f) for f in faces), len(q)
sides = {(f[a], f[(a + 1) % 4]) for f in q for a in range(4)}
assert len(sides) == 4 * len(q) and all((b, a) in sides for a, b in sides)
assert all(abs(sum(x * x for x in m) - 1) < 1e-12 for m in n)
for i in range(V):
    assert max(abs(v[i][c] - v0[i][c]) for c in range(3)) < 1e-12
PY
# At rate 3 a polygon's sub-faces are joined by quads round a fan of triangles (Bfr's layout):
# V + 2 E + 4 a quad + (n + 1) an n-gon (a triangle: 3) points, 9 quads a quad, 2 n quads and n
# triangles an n-gon (a triangle: one).
"$spmesh" limit "$data/meshes/lantern.obj" --tessellate 3 -o "$tmp/lantern_tess3.obj" >/dev/null ||
  fail "limit --tessellate 3 (polygons)"
python3 - "$data/meshes/lantern.obj" "$tmp/lantern_tess3.obj" <<'PY' || fail "limit --tessellate 3 (polygons): counts"
import sys
faces = [[int(x) - 1 for x in l.split()[1:]] for l in open(sys.argv[1]) if l.startswith('f ')]
V = sum(1 for l in open(sys.argv[1]) if l.startswith('v '))
E = len({tuple(sorted((f[a], f[(a + 1) % len(f)]))) for f in faces for a in range(len(f))})
v = sum(1 for l in open(sys.argv[2]) if l.startswith('v '))
sizes = [len(l.split()) - 1 for l in open(sys.argv[2]) if l.startswith('f ')]
inner = sum(4 if len(f) == 4 else 3 if len(f) == 3 else len(f) + 1 for f in faces)
assert v == V + 2 * E + inner, (v, V + 2 * E + inner)
assert sizes.count(4) == sum(9 if len(f) == 4 else 2 * len(f) for f in faces), sizes.count(4)
assert sizes.count(3) == sum(0 if len(f) == 4 else 1 if len(f) == 3 else len(f) for f in faces), sizes.count(3)
PY
# The creased torus: an infinitely sharp crease (crease patches on both sides, exact) and a
# semi-sharp one (regular from level 2): every point evaluated, none approximated.
"$spmesh" limit "$data/meshes/creased_torus.obj" --tessellate 4 -o "$tmp/creased_tess.obj" >"$tmp/stdout" ||
  fail "limit --tessellate (creases)"
grep -q "2048 points, 2048 facets" "$tmp/stdout" || fail "limit --tessellate (creases): $(cat "$tmp/stdout")"
# A 3 x 3 grid of quads (a boundary all round): under edge-and-corner its faces are boundary
# patches, the corners pinned: (3 * N + 1)^2 points, the corner vertices where they were; under
# edge-only the corners take the crease rule round them (smooth corners, exact too): each corner's
# point the limit of the boundary curve there, (P_s + 4 P_0 + P_t) / 6.
python3 - "$tmp/grid.obj" "$tmp/l_shape.obj" <<'PY'
import sys
def write(path, quads):
    used = sorted({(i + di, j + dj) for i, j in quads for di, dj in ((0, 0), (1, 0), (1, 1), (0, 1))},
                  key=lambda p: (p[1], p[0]))
    number = {p: k + 1 for k, p in enumerate(used)}
    with open(path, 'w') as out:
        for i, j in used:
            out.write('v %d %d %g\n' % (i, j, 0.1 * ((i * 7 + j * 3) % 5)))
        for i, j in quads:
            out.write('f %d %d %d %d\n' % (number[i, j], number[i + 1, j], number[i + 1, j + 1], number[i, j + 1]))
grid = [(i, j) for j in range(3) for i in range(3)]
write(sys.argv[1], grid)
write(sys.argv[2], [q for q in grid if q != (2, 2)])  # an L: its corner (2, 2) a boundary vertex of 4 edges
PY
"$spmesh" limit "$tmp/grid.obj" --tessellate 2 --boundary edge-and-corner -o "$tmp/grid_tess.obj" \
  --precision double >/dev/null || fail "limit --tessellate of a mesh with a boundary"
"$spmesh" limit "$tmp/grid.obj" --tessellate 2 -o "$tmp/grid_smooth.obj" --precision double >"$tmp/stdout" ||
  fail "limit --tessellate of a mesh with smooth corners"
grep -q "approximated" "$tmp/stdout" && fail "limit --tessellate of smooth corners: $(cat "$tmp/stdout")"
python3 - "$tmp/grid.obj" "$tmp/grid_tess.obj" "$tmp/grid_smooth.obj" <<'PY' || fail "limit --tessellate of a grid: points or corners"
import sys
v0 = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[1]) if l.startswith('v ')]
pinned = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('v ')]
smooth = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[3]) if l.startswith('v ')]
assert len(pinned) == 49 and len(smooth) == 49, (len(pinned), len(smooth))
for corner, s, t in ((0, 1, 4), (3, 2, 7), (12, 8, 13), (15, 11, 14)):
    assert max(abs(a - b) for a, b in zip(pinned[corner], v0[corner])) < 1e-12, (corner, pinned[corner], v0[corner])
    curve = [(v0[s][c] + 4 * v0[corner][c] + v0[t][c]) / 6 for c in range(3)]
    assert max(abs(a - b) for a, b in zip(smooth[corner], curve)) < 1e-12, (corner, smooth[corner], curve)
PY
# The L's concave corner, a boundary vertex of 4 edges (3 quads), is a boundary fan's, exact: under
# the crease rule along the boundary its point is the boundary curve's limit there,
# (P_s + 4 P_0 + P_t) / 6; pinned by a corner tag, the corner itself.
{ cat "$tmp/l_shape.obj"; echo "t corner 1/1/0 10 10"; } >"$tmp/l_pinned.obj"
for l in l_shape l_pinned; do
  "$spmesh" limit "$tmp/$l.obj" --tessellate 2 -o "$tmp/${l}_tess.obj" --precision double >"$tmp/stdout" ||
    fail "limit --tessellate of a boundary fan ($l)"
  grep -q "approximated" "$tmp/stdout" && fail "limit --tessellate of a boundary fan ($l): $(cat "$tmp/stdout")"
done
python3 - "$tmp/l_shape.obj" "$tmp/l_shape_tess.obj" "$tmp/l_pinned_tess.obj" <<'PY' ||
import sys
v0, smooth, pinned = ([[float(x) for x in l.split()[1:4]] for l in open(path) if l.startswith('v ')]
                      for path in sys.argv[1:4])
corner, s, t = 10, 11, 14  # (2, 2) between (3, 2) and (2, 3)
curve = [(v0[s][c] + 4 * v0[corner][c] + v0[t][c]) / 6 for c in range(3)]
assert max(abs(a - b) for a, b in zip(smooth[corner], curve)) < 1e-12, (smooth[corner], curve)
assert max(abs(a - b) for a, b in zip(pinned[corner], v0[corner])) < 1e-12, (pinned[corner], v0[corner])
PY
  fail "limit --tessellate of a boundary fan: its corner"
# A dart (an inner edge of the grid infinitely sharp, its ends of 4 edges) is no patch's: refused
# by name...
{ cat "$tmp/grid.obj"; echo "t crease 2/1/0 5 6 10"; } >"$tmp/dart.obj"
expect_error "limit --tessellate: a dart" "$tmp/dart_bad.obj" limit "$tmp/dart.obj" --tessellate 2 -o "$tmp/dart_bad.obj"
grep -q "a dart" "$tmp/stderr" || fail "limit --tessellate: $(cat "$tmp/stderr")"
# ... and with --approximate the points near it are evaluated between the limit points of level
# 3, and the command says how many.
"$spmesh" limit "$tmp/dart.obj" --tessellate 2 --approximate -o "$tmp/dart_approx.obj" >"$tmp/stdout" ||
  fail "limit --tessellate --approximate"
grep -q "approximated between the limit points of level 3" "$tmp/stdout" || fail "limit --approximate: $(cat "$tmp/stdout")"
expect_error "limit: --approximate is for --at and --tessellate" "$tmp/limit_approx.obj" limit \
  "$data/meshes/cube.obj" --approximate -o "$tmp/limit_approx.obj"
# --adaptive: the same points through feature-adaptive refinement (docs/adaptive.md), a level's
# faces near the dart refined and no others; refused where there is no adaptive plan.
"$spmesh" limit "$tmp/dart.obj" --tessellate 3 --approximate --precision double -o "$tmp/dart_uniform.obj" >/dev/null &&
  "$spmesh" limit "$tmp/dart.obj" --tessellate 3 --approximate --adaptive --precision double \
    -o "$tmp/dart_adaptive.obj" >"$tmp/stdout" || fail "limit --tessellate --adaptive"
grep -q "approximated between the limit points of level 3" "$tmp/stdout" || fail "limit --adaptive: $(cat "$tmp/stdout")"
python3 - "$tmp/dart_uniform.obj" "$tmp/dart_adaptive.obj" <<'PY' || fail "limit --adaptive: not the uniform plan's points"
import sys
points = [[list(map(float, l.split()[1:4])) for l in open(f) if l.startswith('v ')] for f in sys.argv[1:]]
assert len(points[0]) == len(points[1]) > 0
assert max(abs(a - b) for p, q in zip(*points) for a, b in zip(p, q)) < 1e-12
PY
# info --adaptive: a row a level, the last one's faces near the darts left.
"$spmesh" info "$tmp/dart.obj" --adaptive 3 >"$tmp/stdout" || fail "info --adaptive"
[[ $(grep -c -E '^ +[0-9]+ ' "$tmp/stdout") -eq 4 ]] || fail "info --adaptive: not 4 levels: $(cat "$tmp/stdout")"
grep -q "(left: approximated or refused)" "$tmp/stdout" || fail "info --adaptive: $(cat "$tmp/stdout")"
expect_error "limit: --adaptive is for --at and --tessellate" "$tmp/limit_adaptive.obj" limit \
  "$data/meshes/cube.obj" --adaptive -o "$tmp/limit_adaptive.obj"
expect_error "limit --adaptive: Loop's is not built" "$tmp/loop_adaptive.obj" limit "$data/meshes/cube.obj" \
  --triangulate fan --scheme loop --tessellate 2 --adaptive -o "$tmp/loop_adaptive.obj"
# subdivide --adaptive L -o OUT.patches: the plan's patches (docs/adaptive.md "Patch file"). Each
# base face's patches tile it; each regular patch, evaluated here from its 16 points by the cubic
# B-spline basis, is the limit that spmesh limit --at gives at the same (face, u, v). With
# --adaptive-rings 1, more patches, the same checks.
for rings in 0 1; do
"$spmesh" subdivide "$tmp/dart.obj" --adaptive 3 --adaptive-rings $rings --precision double \
  -o "$tmp/dart$rings.patches" >"$tmp/stdout" || fail "subdivide --adaptive --adaptive-rings $rings: $(cat "$tmp/stdout")"
python3 - "$tmp/dart$rings.patches" "$tmp/dart_samples.txt" "$tmp/dart_bspline.txt" <<'PY' || fail "the patch file (rings $rings)"
import sys
lines = open(sys.argv[1]).read().split('\n')
assert lines[0] == '# spmesh adaptive patches 1', lines[0]
at = 2
rows, cols = map(int, lines[at].split()[1:]); at += 1
points = [list(map(float, lines[at + i].split())) for i in range(rows)]; at += rows
levels = int(lines[at].split()[1]); at += 1 + levels
count = int(lines[at].split()[1]); at += 1
area, samples, expected = {}, [], []
def bspline(t):
    return [(1 - t) ** 3 / 6, (3 * t ** 3 - 6 * t * t + 4) / 6, (-3 * t ** 3 + 3 * t * t + 3 * t + 1) / 6, t ** 3 / 6]
for line in lines[at:at + count]:
    w = line.split()
    kind, face, u0, v0, level, n = w[0], int(w[1]), float(w[2]), float(w[3]), int(w[4]), int(w[7])
    ids = list(map(int, w[8:]))
    assert len(ids) == n and all(-1 <= i < rows for i in ids), line
    size = 2.0 ** -level
    area[face] = area.get(face, 0) + size * size
    if kind in ('patch', 'boundary_patch'):  # the 4 x 4 grid, reflected beyond the sides in detail
        sides = int(w[6]) if kind == 'boundary_patch' else 0
        beyond = [bool(sides >> a & 1) for a in range(4)]  # rows 0, 3 (sides 0, 2), columns 3, 0 (sides 1, 3)
        P = [points[i] if i >= 0 else None for i in ids]
        def reflect(to, near, far):
            P[to] = [2 * a - b for a, b in zip(P[near], P[far])]
        for c in range(4):
            if (c == 0 and beyond[3]) or (c == 3 and beyond[1]):
                continue
            if beyond[0]: reflect(c, 4 + c, 8 + c)
            if beyond[2]: reflect(12 + c, 8 + c, 4 + c)
        for r in range(4):
            if beyond[3]: reflect(4 * r, 4 * r + 1, 4 * r + 2)
            if beyond[1]: reflect(4 * r + 3, 4 * r + 2, 4 * r + 1)
        s, t = 0.3, 0.7
        bs, bt = bspline(s), bspline(t)
        expected.append([sum(bt[r] * bs[c] * P[4 * r + c][k] for r in range(4) for c in range(4)) for k in range(3)])
        samples.append('%d %.17g %.17g' % (face, u0 + s * size, v0 + t * size))
assert lines[at + count] == '' and len(lines) == at + count + 1
assert sorted(area) == list(range(9)) and all(a == 1 for a in area.values()), area
assert len(samples) > 50
open(sys.argv[2], 'w').write('\n'.join(samples) + '\n')
open(sys.argv[3], 'w').write('\n'.join(' '.join('%.17g' % x for x in p) for p in expected) + '\n')
PY
"$spmesh" limit "$tmp/dart.obj" --at "$tmp/dart_samples.txt" --approximate --precision double \
  -o "$tmp/dart_limits.txt" >/dev/null || fail "limit --at the patches' samples"
cut -d' ' -f1-3 "$tmp/dart_limits.txt" >"$tmp/dart_limit_points.txt"
same_lines "$tmp/dart_bspline.txt" "$tmp/dart_limit_points.txt" 3 ||
  fail "subdivide --adaptive --adaptive-rings $rings: a patch is not the limit"
done
[[ $(grep -c '^patch ' "$tmp/dart1.patches") -gt $(grep -c '^patch ' "$tmp/dart0.patches") ]] ||
  fail "subdivide --adaptive-rings 1: no more patches than without"
expect_error "subdivide --adaptive-rings: for patches only" "$tmp/rings.obj" subdivide "$tmp/dart.obj" \
  --adaptive 3 --adaptive-rings 1 --tessellate 2 -o "$tmp/rings.obj"
# --select: faces 0 and 2 refined to level 2, 16 patches each; as a mesh, crack-free: the cube
# stays closed, every edge two faces', faces 0 and 2 as 4 x 4 quads and the others whole.
printf '# faces\n0 2\n' >"$tmp/select.txt"
"$spmesh" subdivide "$data/meshes/cube.obj" --adaptive 2 --select "$tmp/select.txt" -o "$tmp/select.patches" \
  >/dev/null || fail "subdivide --adaptive --select"
[[ $(awk '$2 == 0 && $5 == 2' "$tmp/select.patches" | grep -c '^stam\|^patch') -eq 16 ]] ||
  fail "subdivide --select: face 0 is not 16 patches of level 2"
"$spmesh" subdivide "$data/meshes/cube.obj" --adaptive 2 --select "$tmp/select.txt" -o "$tmp/select.obj" \
  >/dev/null || fail "subdivide --adaptive --select -o mesh"
python3 - "$tmp/select.obj" <<'PY' || fail "subdivide --select: not a closed mesh of 36 faces"
import sys, collections
faces = [[int(t.split('/')[0]) for t in l.split()[1:]] for l in open(sys.argv[1]) if l.startswith('f ')]
assert len(faces) == 2 * 16 + 4, len(faces)
edges = collections.Counter(tuple(sorted((f[i], f[(i + 1) % len(f)]))) for f in faces for i in range(len(f)))
assert set(edges.values()) == {2}, edges
# the transition faces: 4 corners and 3 points a side shared with face 0 or 2 (faces 1 and 3 share
# one side, 4 and 5 two)
assert sorted(len(f) for f in faces)[-4:] == [7, 7, 10, 10], sorted(len(f) for f in faces)[-4:]
PY
# A hole has no patch and no facet: the holed cube's face 2 is in neither.
"$spmesh" subdivide "$tmp/holed.obj" --adaptive 2 -o "$tmp/holed.patches" >/dev/null &&
  "$spmesh" subdivide "$tmp/holed.obj" --adaptive 2 --select "$tmp/select.txt" -o "$tmp/holed_select.obj" >/dev/null ||
  fail "subdivide --adaptive of a mesh with a hole"
[[ $(awk '/^(patch|stam|boundary_patch) / && $2 == 2' "$tmp/holed.patches" | wc -l) -eq 0 &&
   $(awk '/^(patch|stam|boundary_patch) / && $2 == 1' "$tmp/holed.patches" | wc -l) -gt 0 ]] ||
  fail "subdivide --adaptive: the hole's patches are not left out"
[[ $(grep -c '^f ' "$tmp/holed_select.obj") -eq 20 ]] || fail "subdivide --select: the hole's facets are not left out"
# --adaptive L --tessellate N: limit --tessellate N --adaptive --levels L's points.
"$spmesh" subdivide "$tmp/dart.obj" --adaptive 3 --tessellate 3 --approximate --precision double \
  -o "$tmp/dart_adaptive2.obj" >/dev/null || fail "subdivide --adaptive --tessellate"
cmp -s "$tmp/dart_adaptive.obj" "$tmp/dart_adaptive2.obj" || fail "subdivide --adaptive --tessellate: not limit's"
expect_error "subdivide --adaptive: a mesh needs --select" "$tmp/adaptive.obj" subdivide "$data/meshes/cube.obj" \
  --adaptive 2 -o "$tmp/adaptive.obj"
expect_error "subdivide: --select is for --adaptive" "$tmp/select2.obj" subdivide "$data/meshes/cube.obj" \
  --levels 2 --select "$tmp/select.txt" -o "$tmp/select2.obj"
expect_error "subdivide: --adaptive-rings is for --adaptive" "$tmp/rings2.obj" subdivide "$data/meshes/cube.obj" \
  --levels 1 --adaptive-rings 1 -o "$tmp/rings2.obj"
printf '0\n9\n' >"$tmp/select_bad.txt"
expect_error "subdivide --select: a face out of range" "$tmp/select3.patches" subdivide "$data/meshes/cube.obj" \
  --adaptive 2 --select "$tmp/select_bad.txt" -o "$tmp/select3.patches"
grep -q "select_bad.txt:2: face 9 is out of range" "$tmp/stderr" || fail "subdivide --select: $(cat "$tmp/stderr")"
expect_error "subdivide --adaptive: Loop's is not built" "$tmp/loop.patches" subdivide "$data/meshes/cube.obj" \
  --triangulate fan --scheme loop --adaptive 2 -o "$tmp/loop.patches"
expect_error "limit --tessellate: a rate of 1 to 1024" "$tmp/tess_bad.obj" limit "$data/meshes/cube.obj" \
  --tessellate 0 -o "$tmp/tess_bad.obj"
# As PLY: the OBJ's points and normals (float64 x y z nx ny nz a vertex) and quads.
"$spmesh" limit "$data/meshes/cube.obj" --tessellate 4 -o "$tmp/tess.ply" --precision double >/dev/null ||
  fail "limit --tessellate as PLY"
python3 - "$tmp/tess.ply" "$tmp/tess.obj" <<'PY' || fail "limit --tessellate as PLY: not the OBJ's points, normals and quads"
import struct, sys
data = open(sys.argv[1], 'rb').read()
head, body = data.split(b'end_header\n', 1)
lines = head.decode().split('\n')
V = int(next(l for l in lines if l.startswith('element vertex')).split()[2])
F = int(next(l for l in lines if l.startswith('element face')).split()[2])
assert [l.split()[2] for l in lines if l.startswith('property double')] == ['x', 'y', 'z', 'nx', 'ny', 'nz'], lines
rows = [struct.unpack_from('<6d', body, 48 * i) for i in range(V)]
at = 48 * V
quads = []
for _ in range(F):
    n = body[at]; quads.append(list(struct.unpack_from('<%di' % n, body, at + 1))); at += 1 + 4 * n
assert at == len(body)
v = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('v ')]
vn = [[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith('vn ')]
f = [[int(x.split('//')[0]) - 1 for x in l.split()[1:]] for l in open(sys.argv[2]) if l.startswith('f ')]
assert len(rows) == len(v) and quads == f
assert all(list(r[:3]) == p and list(r[3:]) == n for r, p, n in zip(rows, v, vn))
PY
expect_error "limit: --at or --tessellate" "$tmp/tess_bad.obj" limit "$data/meshes/cube.obj" --tessellate 2 \
  --at "$tmp/samples.txt" -o "$tmp/tess_bad.obj"

# --dry-run: the sizes of every level, no output file; the last level's faces are those that
# subdivide then makes, for each scheme.
for scheme in catmark loop sqrt3; do
  "$spmesh" subdivide "$data/meshes/tent.obj" --scheme "$scheme" --triangulate fan --levels 3 \
    --dry-run -o "$tmp/dry.obj" >"$tmp/dry.txt" || fail "$scheme dry-run"
  [[ ! -e $tmp/dry.obj ]] || fail "$scheme dry-run wrote a mesh"
  grep -q "MiB of host memory" "$tmp/dry.txt" || fail "$scheme dry-run: no memory estimate"
  "$spmesh" subdivide "$data/meshes/tent.obj" --scheme "$scheme" --triangulate fan --levels 3 \
    -o "$tmp/real.obj" >/dev/null || fail "$scheme subdivide"
  grep -q "^level 3: .* $(grep -c '^f ' "$tmp/real.obj") faces" "$tmp/dry.txt" ||
    fail "$scheme dry-run: level 3's faces differ from subdivide's"
done

# Bad input: no output, one line, exit 1.
expect_error "missing file" "$tmp/a.obj" subdivide "$tmp/none.obj" --levels 1 -o "$tmp/a.obj"
printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\nt crease 2/1/0 0 2 1\n' >"$tmp/bad_crease.obj"
expect_error "crease on a missing edge" "$tmp/b.obj" subdivide "$tmp/bad_crease.obj" --levels 1 -o "$tmp/b.obj"
printf 'v 0 0 0\nv 1 0 nan\nv 1 1 0\nf 1 2 3\n' >"$tmp/nan.obj"
expect_error "NaN coordinate" "$tmp/c.obj" subdivide "$tmp/nan.obj" --levels 1 -o "$tmp/c.obj"
printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 2\n' >"$tmp/repeat.obj"
expect_error "repeated vertex" "$tmp/d.obj" subdivide "$tmp/repeat.obj" --levels 1 -o "$tmp/d.obj"
expect_error "levels past 32-bit indices" "$tmp/e.obj" subdivide "$data/meshes/torus.obj" --levels 14 -o "$tmp/e.obj"
expect_error "unwritable output" "$tmp/no/dir/f.obj" subdivide "$data/meshes/torus.obj" --levels 1 -o "$tmp/no/dir/f.obj"
expect_error "replay of another topology" "$tmp/frames2/torus.obj" replay "$tmp/cube.spr" "$data/meshes/torus.obj" -o "$tmp/frames"
# Refinement files and replay (issue 23): a version 1 file is refused with what to do, every
# pose is checked before any output (a bad second pose leaves no first), two poses with one
# output name and an output that is a pose are refused, build never overwrites its input.
rm -f "$tmp/frames/creased_cube.obj"
printf 'SPMESH-R\001\000\000\000\004\000\000\000' >"$tmp/v1.spr"
expect_error "version 1 refinement file" "$tmp/frames/creased_cube.obj" replay "$tmp/v1.spr" "$data/meshes/creased_cube.obj" -o "$tmp/frames"
grep -q "rebuild it with this spmesh" "$tmp/stderr" || fail "version 1: no advice to rebuild"
expect_error "bad second pose leaves no first" "$tmp/frames/creased_cube.obj" replay "$tmp/cube.spr" "$data/meshes/creased_cube.obj" "$data/meshes/torus.obj" -o "$tmp/frames"
mkdir -p "$tmp/a" "$tmp/b"
cp "$data/meshes/creased_cube.obj" "$tmp/a/pose.obj"; cp "$data/meshes/creased_cube.obj" "$tmp/b/pose.obj"
expect_error "two poses, one output name" "$tmp/frames/pose.obj" replay "$tmp/cube.spr" "$tmp/a/pose.obj" "$tmp/b/pose.obj" -o "$tmp/frames"
before=$(md5sum <"$tmp/a/pose.obj")
"$spmesh" replay "$tmp/cube.spr" "$tmp/a/pose.obj" -o "$tmp/a" >"$tmp/stdout" 2>"$tmp/stderr" &&
  fail "replay over its own pose: accepted"
[[ $(md5sum <"$tmp/a/pose.obj") == "$before" ]] || fail "replay over its own pose: the pose changed"
# Many PLY poses, written a few at a time from faces encoded once: each file is the one a
# replay of that pose alone writes.
mkdir -p "$tmp/many" "$tmp/one"
for k in 1 2 3 4 5 6; do cp "$data/meshes/creased_cube.obj" "$tmp/many/p$k.obj"; done
"$spmesh" replay "$tmp/cube.spr" "$tmp/many/p3.obj" -o "$tmp/one" --format ply >/dev/null || fail "replay of one PLY pose"
"$spmesh" replay "$tmp/cube.spr" "$tmp/many"/p*.obj -o "$tmp/many" --format ply >/dev/null || fail "replay of six PLY poses"
for k in 1 2 3 4 5 6; do cmp -s "$tmp/many/p$k.ply" "$tmp/one/p3.ply" || fail "replay of six poses: p$k.ply differs from a replay of it alone"; done
# Replay's host-memory guard (issue 23, 4): a run the process limit cannot hold is refused before
# any work, naming both sizes, with no output.
# (Not under AddressSanitizer, SPMESH_SANITIZED: its shadow memory needs more address space
# than any such limit leaves.)
if [[ -z ${SPMESH_SANITIZED:-} ]]; then
  # (9 levels need about 450 MiB; the limit, 300 MB, leaves room for the CUDA build's libraries.)
  "$spmesh" build "$data/meshes/creased_cube.obj" --levels 9 -o "$tmp/cube9.spr" >/dev/null || fail "build of 9 levels"
  (ulimit -v 300000; "$spmesh" replay "$tmp/cube9.spr" "$data/meshes/creased_cube.obj" -o "$tmp/one" --format obj) >"$tmp/stdout" 2>"$tmp/stderr" &&
    fail "replay over the memory limit: accepted"
  grep -q "replay needs about [0-9]* MiB of host memory, [0-9]* MiB are available" "$tmp/stderr" ||
    fail "replay over the memory limit: $(cat "$tmp/stderr")"
  [[ ! -e $tmp/one/creased_cube.obj ]] || fail "replay over the memory limit: left an output"
fi
cp "$data/meshes/creased_cube.obj" "$tmp/b/in.obj"
before=$(md5sum <"$tmp/b/in.obj")
expect_error "build over its input" "$tmp/b/none" build "$tmp/b/in.obj" --levels 1 -o "$tmp/b/in.obj"
[[ $(md5sum <"$tmp/b/in.obj") == "$before" ]] || fail "build over its input: the input changed"
expect_error "loop on polygons" "$tmp/h.obj" subdivide "$data/meshes/tent.obj" --scheme loop --levels 1 -o "$tmp/h.obj"
expect_error "sqrt3 on polygons" "$tmp/h.obj" subdivide "$data/meshes/tent.obj" --scheme sqrt3 --levels 1 -o "$tmp/h.obj"
expect_error "sqrt3 with crease tags" "$tmp/h.obj" subdivide "$data/meshes/creased_cube.obj" --scheme sqrt3 --triangulate fan --levels 1 -o "$tmp/h.obj"
expect_error "sqrt3 with --boundary" "$tmp/h.obj" subdivide "$data/meshes/tent.obj" --scheme sqrt3 --triangulate fan --boundary edge-only --levels 1 -o "$tmp/h.obj"
expect_error "sqrt3 levels past 32-bit indices" "$tmp/e.obj" subdivide "$data/meshes/torus.obj" --scheme sqrt3 --triangulate fan --levels 16 -o "$tmp/e.obj"
expect_error "unknown option" "$tmp/g.obj" subdivide "$data/meshes/torus.obj" --levls 1 -o "$tmp/g.obj"

# Outputs never destroy anything (issue 23): an output that is the input, or another output,
# is refused before any work; a device stays a device; a failed picture leaves no mesh.
cp "$data/meshes/cube.obj" "$tmp/in.obj"
before=$(md5sum <"$tmp/in.obj")
expect_error "output is the input" "$tmp/none.obj" subdivide "$tmp/in.obj" --levels 1 -o "$tmp/in.obj"
expect_error "output is the input, by another name" "$tmp/none.obj" subdivide "$tmp/in.obj" --levels 1 -o "$tmp/./in.obj"
[[ $(md5sum <"$tmp/in.obj") == "$before" ]] || fail "output is the input: the input changed"
expect_error "mesh and picture are one file" "$tmp/same.svg" subdivide "$tmp/in.obj" --levels 1 -o "$tmp/same.svg" --picture "$tmp/same.svg"
expect_error "picture is not SVG" "$tmp/m.obj" subdivide "$tmp/in.obj" --levels 1 -o "$tmp/m.obj" --picture "$tmp/m.png"
expect_error "output extension checked before work" "$tmp/m.stl" subdivide "$tmp/in.obj" --levels 1 -o "$tmp/m.stl"
mkdir "$tmp/adir"
expect_error "output is a directory" "$tmp/adir/x" subdivide "$tmp/in.obj" --levels 1 -o "$tmp/adir"
mkdir "$tmp/picture.svg"  # the picture cannot be written: neither it nor the mesh appears
expect_error "picture fails, no mesh" "$tmp/pm.obj" subdivide "$tmp/in.obj" --levels 1 -o "$tmp/pm.obj" --picture "$tmp/picture.svg"
"$spmesh" subdivide "$tmp/in.obj" --levels 1 -o /dev/null >/dev/null || fail "subdivide to /dev/null"
[[ -c /dev/null ]] || fail "/dev/null is no longer a character device"
"$spmesh" subdivide "$tmp/in.obj" --levels 1 -o /dev/stdout 2>/dev/null >"$tmp/stdout.obj" || fail "subdivide to /dev/stdout"
[[ $(grep -c '^f ' "$tmp/stdout.obj") -eq 24 && $(grep -vc '^[vf] ' "$tmp/stdout.obj") -eq 0 ]] ||
  fail "subdivide to /dev/stdout: expected 24 faces and nothing but v and f lines"

# Clear messages: a missing or second input, a missing file.
expect_error "no input" "$tmp/n.obj" subdivide --levels 1 -o "$tmp/n.obj"
expect_error "a second input" "$tmp/n.obj" subdivide "$tmp/in.obj" "$data/meshes/tent.obj" --levels 1 -o "$tmp/n.obj"
grep -q "takes one input mesh file, but was also given" "$tmp/stderr" || fail "a second input: $(cat "$tmp/stderr")"
expect_error "missing input file" "$tmp/n.obj" subdivide "$tmp/missing.obj" --levels 1 -o "$tmp/n.obj"
grep -q "missing.obj: cannot open" "$tmp/stderr" || fail "missing input file: $(cat "$tmp/stderr")"

# Results are finite: finite input that overflows float is refused, naming the vertex and
# suggesting double precision, which then works.
printf 'v 0 0 0\nv 1e38 0 0\nv 0 1e38 0\nv 0 0 3e38\nf 1 2 3\nf 1 3 4\nf 1 4 2\nf 2 4 3\n' >"$tmp/huge.obj"
expect_error "float overflow" "$tmp/huge_out.obj" subdivide "$tmp/huge.obj" --levels 2 -o "$tmp/huge_out.obj"
grep -q "vertex 0 (0-based) .* not finite .*--precision double" "$tmp/stderr" || fail "float overflow: $(cat "$tmp/stderr")"
"$spmesh" subdivide "$tmp/huge.obj" --levels 2 -o "$tmp/huge_out.obj" --precision double >/dev/null ||
  fail "float overflow: double precision fails"

# A run killed while it works leaves no output and no temporary file (SIGTERM; SIGKILL too,
# since the output is an unnamed file until it is complete).
for signal in TERM KILL; do
  rm -rf "$tmp/killed" && mkdir "$tmp/killed"
  "$spmesh" subdivide "$data/meshes/torus.obj" --levels 7 -o "$tmp/killed/t.obj" >/dev/null 2>&1 &
  pid=$!
  sleep 0.5
  kill -s "$signal" "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  left=$(ls -A "$tmp/killed")
  [[ -z $left || $left == t.obj ]] || fail "killed by SIG$signal: left $left"
done

# info names problems: non-finite coordinates, non-manifold vertices (what subdivide refuses).
"$spmesh" info "$tmp/nan.obj" >"$tmp/info.txt" || fail "info of a NaN mesh"
grep -q "^problem  *1 vertices with a NaN or infinite coordinate" "$tmp/info.txt" || fail "info: no NaN problem: $(cat "$tmp/info.txt")"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv -1 0 0\nv 0 -1 0\nf 1 2 3\nf 1 4 5\n' >"$tmp/bowtie.obj"
"$spmesh" info "$tmp/bowtie.obj" >"$tmp/info.txt" || fail "info of a bowtie"
grep -q "^problem .*non-manifold vertex 0: .*(ids count from 0)" "$tmp/info.txt" || fail "info: no non-manifold problem: $(cat "$tmp/info.txt")"
"$spmesh" info "$data/meshes/cube.obj" | grep -q "^problem" && fail "info: a problem in the cube"

# Volume meshes (Medit .mesh): info, subdivide by Catmull-Clark solids into .vtu and .mesh, the
# dry run's sizes equal to the refined file's, and options that do not apply refused.
block=$data/meshes/block.mesh
"$spmesh" info "$block" >"$tmp/vinfo.txt" || fail "info of a volume"
grep -q "^euler     1 (V - E + F - C)" "$tmp/vinfo.txt" || fail "volume info: $(cat "$tmp/vinfo.txt")"
grep -q "^kinds     4 tetrahedra 24 prisms 48 hexahedra" "$tmp/vinfo.txt" || fail "volume info kinds: $(cat "$tmp/vinfo.txt")"
grep -q "^not evaluable (not a hexahedron): 28 cells: 48 49 50 51 52 53 54 55 \.\.\." "$tmp/vinfo.txt" ||
  fail "volume info: the prisms and tetrahedra not named as not evaluable: $(cat "$tmp/vinfo.txt")"
"$spmesh" subdivide "$block" --levels 2 -o "$tmp/block2.vtu" >"$tmp/vsub.txt" || fail "subdivide a volume to .vtu"
grep -q "^ccsolid 2 levels on cpu: 76 -> 4352 cells, 124 -> 5241 vertices" "$tmp/vsub.txt" || fail "volume subdivide: $(cat "$tmp/vsub.txt")"
head -c 200 "$tmp/block2.vtu" | grep -q 'VTKFile type="UnstructuredGrid"' || fail "volume subdivide: not a .vtu"
"$spmesh" subdivide "$block" --levels 2 -o "$tmp/block2.mesh" --precision double >/dev/null || fail "subdivide a volume to .mesh"
"$spmesh" subdivide "$block" --levels 2 --dry-run >"$tmp/vdry.txt" || fail "volume dry run"
"$spmesh" info "$tmp/block2.mesh" >"$tmp/vinfo2.txt" || fail "info of a refined volume"
read -r _ v e f c < <(sed -n 's/^level 2: \([0-9]*\) vertices, \([0-9]*\) edges, \([0-9]*\) faces, \([0-9]*\) cells/x \1 \2 \3 \4/p' "$tmp/vdry.txt")
[[ "$(awk '/^(vertices|edges|faces|cells) /{ printf "%s ", $2 }' "$tmp/vinfo2.txt")" == "$v $e $f $c " ]] ||
  fail "volume dry run ($v $e $f $c) against the refined file: $(cat "$tmp/vinfo2.txt")"
grep -q "^kinds     4352 hexahedra" "$tmp/vinfo2.txt" || fail "refined volume: not all hexahedra"
# --surface: the refined boundary, closed and turned outward (positive enclosed volume), equal as
# a point set to Catmull-Clark of the input's boundary refined as often (1e-5: float).
"$spmesh" subdivide "$block" --levels 0 -o "$tmp/block0.vtu" --surface "$tmp/boundary0.obj" >/dev/null || fail "volume --surface, level 0"
"$spmesh" subdivide "$block" --levels 2 -o "$tmp/block2s.vtu" --surface "$tmp/boundary2.obj" >/dev/null || fail "volume --surface"
"$spmesh" subdivide "$tmp/boundary0.obj" --levels 2 -o "$tmp/cc2.obj" >/dev/null || fail "Catmull-Clark of the boundary"
python3 - "$tmp/boundary2.obj" "$tmp/cc2.obj" <<'PY' || fail "volume --surface: not the Catmull-Clark of the boundary, or not outward"
import sys
def read(path):
    v, f = [], []
    for line in open(path):
        t = line.split()
        if t and t[0] == "v": v.append(tuple(map(float, t[1:4])))
        if t and t[0] == "f": f.append([int(i) - 1 for i in t[1:]])
    return v, f
def volume(v, f):  # the divergence theorem over the faces, fanned
    total = 0.0
    for face in f:
        a = v[face[0]]
        for b, c in zip((v[i] for i in face[1:-1]), (v[i] for i in face[2:])):
            total += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
    return total
(sv, sf), (cv, cf) = read(sys.argv[1]), read(sys.argv[2])
far = max(min(sum((p[i] - q[i]) ** 2 for i in range(3)) for q in cv) for p in sv) ** 0.5
print(f"surface: {len(sv)} vertices, {len(sf)} faces, volume {volume(sv, sf):.4f}; Catmull-Clark: {len(cv)} vertices; farthest {far:.2e}")
sys.exit(0 if len(sv) == len(cv) and len(sf) == len(cf) and far < 1e-5 and volume(sv, sf) > 0 else 1)
PY
# VTK legacy and gmsh inputs: a hexahedron and a wedge (VTK's order) beside it.
printf '# vtk DataFile Version 2.0\ntwo cells\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 10 float\n0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1 2 0 0 2 0 1\nCELLS 2 16\n8 0 1 2 3 4 5 6 7\n6 1 2 8 5 6 9\nCELL_TYPES 2\n12\n13\n' >"$tmp/two.vtk"
"$spmesh" subdivide "$tmp/two.vtk" --levels 1 -o "$tmp/two.mesh" >"$tmp/vtk.txt" || fail "subdivide a .vtk"
grep -q "^ccsolid 1 levels on cpu: 2 -> 14 cells" "$tmp/vtk.txt" || fail "subdivide a .vtk: $(cat "$tmp/vtk.txt")"
printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 4\n$EndElements\n' >"$tmp/tet.msh"
"$spmesh" info "$tmp/tet.msh" | grep -q "^kinds     1 tetrahedra" || fail "info of a .msh"
# A pentagonal prism given by its faces (VTK's polyhedron, type 42): refined into 10 hexahedra;
# at level 0 it is written as a polyhedron to .vtu, refused by .mesh and by build.
printf '# vtk DataFile Version 2.0\nprism\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 10 float\n1 0 0 0.309 0.951 0 -0.809 0.588 0 -0.809 -0.588 0 0.309 -0.951 0\n1 0 1 0.309 0.951 1 -0.809 0.588 1 -0.809 -0.588 1 0.309 -0.951 1\nCELLS 1 39\n38 7 5 4 3 2 1 0 5 5 6 7 8 9 4 0 1 6 5 4 1 2 7 6 4 2 3 8 7 4 3 4 9 8 4 4 0 5 9\nCELL_TYPES 1\n42\n' >"$tmp/prism5.vtk"
"$spmesh" subdivide "$tmp/prism5.vtk" --levels 1 -o "$tmp/prism5.vtu" >"$tmp/p5.txt" || fail "subdivide a polyhedron"
grep -q "^ccsolid 1 levels on cpu: 1 -> 10 cells, 10 -> 33 vertices" "$tmp/p5.txt" || fail "subdivide a polyhedron: $(cat "$tmp/p5.txt")"
"$spmesh" info "$tmp/prism5.vtk" | grep -q "^kinds     1 polyhedra" || fail "info of a polyhedron"
"$spmesh" subdivide "$data/meshes/honeycomb.vtk" --levels 1 -o "$tmp/honeycomb1.vtu" >"$tmp/hc.txt" || fail "subdivide the honeycomb"
grep -q "^ccsolid 1 levels on cpu: 14 -> 168 cells, 72 -> 305 vertices" "$tmp/hc.txt" || fail "subdivide the honeycomb: $(cat "$tmp/hc.txt")"
# The same honeycomb as VTK 9.1 writes it (version 5.1, binary) refines to the same file.
"$spmesh" subdivide "$data/../tests/solids/data/honeycomb_vtk51_binary.vtk" --levels 1 -o "$tmp/honeycomb51.vtu" \
  >/dev/null || fail "subdivide VTK's version 5.1 honeycomb"
cmp -s "$tmp/honeycomb1.vtu" "$tmp/honeycomb51.vtu" || fail "VTK's version 5.1 honeycomb refines to another file"
"$spmesh" subdivide "$tmp/prism5.vtk" --levels 0 -o "$tmp/prism5_0.vtu" >/dev/null || fail "a polyhedron at level 0"
grep -q 'Name="faceoffsets"' "$tmp/prism5_0.vtu" || fail "a polyhedron at level 0: no faceoffsets"
expect_error "a polyhedron in a .mesh" "$tmp/g.mesh" subdivide "$tmp/prism5.vtk" --levels 0 -o "$tmp/g.mesh"
# Build and replay of polyhedra: the honeycomb moved, replayed == subdivided (a version 3 file).
"$spmesh" build "$data/meshes/honeycomb.vtk" --levels 2 -o "$tmp/honeycomb.spr" --precision double >/dev/null ||
  fail "build the honeycomb"
[[ $(od -An -tu4 -j8 -N4 "$tmp/honeycomb.spr" | tr -d ' ') == 3 ]] || fail "the honeycomb's file is not version 3"
mkdir -p "$tmp/hmoved" "$tmp/hframes"
awk 'NR > 5 && NR <= 77 { $1 = $1 * 1.5 + $3 * 0.2 } { print }' "$data/meshes/honeycomb.vtk" >"$tmp/hmoved/honeycomb.vtk"
"$spmesh" subdivide "$tmp/hmoved/honeycomb.vtk" --levels 2 -o "$tmp/hmoved2.vtk" --precision double >/dev/null ||
  fail "subdivide the moved honeycomb"
"$spmesh" replay "$tmp/honeycomb.spr" "$tmp/hmoved/honeycomb.vtk" -o "$tmp/hframes" --format vtk --precision double \
  >/dev/null || fail "replay the honeycomb"
cmp -s "$tmp/hmoved2.vtk" "$tmp/hframes/honeycomb.vtk" || python3 - "$tmp/hmoved2.vtk" "$tmp/hframes/honeycomb.vtk" <<'PY' || fail "honeycomb replay differs from subdivide"
import struct, sys
def points(path):
    data = open(path, "rb").read()
    head = data.index(b"POINTS ")
    line = data[head:data.index(b"\n", head)].split()
    n = int(line[1])
    start = data.index(b"\n", head) + 1
    return struct.unpack(">%dd" % (3 * n), data[start:start + 24 * n])
a, b = points(sys.argv[1]), points(sys.argv[2])
worst = max(abs(x - y) for x, y in zip(a, b)) if len(a) == len(b) else float("inf")
print(f"honeycomb replay against subdivide: {worst:.2e}")
sys.exit(0 if worst < 1e-12 else 1)
PY
sed 's/^13$/14/' "$tmp/two.vtk" >"$tmp/pyramid.vtk"
expect_error "a VTK pyramid" "$tmp/g.vtu" subdivide "$tmp/pyramid.vtk" --levels 1 -o "$tmp/g.vtu"
# A corner tag keeps its vertex where it is.
cube='MeshVersionFormatted 2\nDimension 3\nVertices\n8\n0 0 0 0\n1 0 0 0\n1 1 0 0\n0 1 0 0\n0 0 1 0\n1 0 1 0\n1 1 1 0\n0 1 1 0\nHexahedra\n1\n1 2 3 4 5 6 7 8 0\n'
printf "${cube}End\n" >"$tmp/cube.mesh"
printf "${cube}Corners\n1\n1\nEnd\n" >"$tmp/corner.mesh"
"$spmesh" subdivide "$tmp/cube.mesh" --levels 1 -o "$tmp/cube1.mesh" --precision double >/dev/null || fail "subdivide a cube"
"$spmesh" subdivide "$tmp/corner.mesh" --levels 1 -o "$tmp/corner1.mesh" --precision double >/dev/null || fail "subdivide a cube with a corner"
[[ $(sed -n 5p "$tmp/corner1.mesh") == "0 0 0 0" && $(sed -n 5p "$tmp/cube1.mesh") != "0 0 0 0" ]] ||
  fail "a corner tag: $(sed -n 5p "$tmp/corner1.mesh"), untagged $(sed -n 5p "$tmp/cube1.mesh")"
expect_error "--sharp-edges on a surface" "$tmp/g.obj" subdivide "$data/meshes/cube.obj" --levels 1 -o "$tmp/g.obj" --sharp-edges
expect_error "--surface on a surface" "$tmp/g.obj" subdivide "$data/meshes/cube.obj" --levels 1 -o "$tmp/g.obj" --surface "$tmp/h.obj"
expect_error "--vertex-rule on a surface" "$tmp/g.obj" subdivide "$data/meshes/cube.obj" --levels 1 -o "$tmp/g.obj" --vertex-rule joy-maccracken
expect_error "an unknown vertex rule" "$tmp/g.vtu" subdivide "$block" --levels 1 -o "$tmp/g.vtu" --vertex-rule cubic
# --vertex-rule joy-maccracken moves the points on extraordinary edge lines (the block has them
# after a level), and only those: the cells are the same.
"$spmesh" subdivide "$block" --levels 2 -o "$tmp/block2j.mesh" --precision double --vertex-rule joy-maccracken >/dev/null ||
  fail "volume --vertex-rule joy-maccracken"
cmp -s "$tmp/block2.mesh" "$tmp/block2j.mesh" && fail "--vertex-rule joy-maccracken changed nothing"
[[ $(sed -n '/^Hexahedra/,$p' "$tmp/block2.mesh" | md5sum) == $(sed -n '/^Hexahedra/,$p' "$tmp/block2j.mesh" | md5sum) ]] ||
  fail "--vertex-rule changed the cells"
# On the GPU, where spmesh has CUDA and there is a GPU: the CPU's cells and points (1e-12 of
# the diagonal, double) and a peak GPU memory within the estimate; elsewhere one line, no file.
if "$spmesh" subdivide "$block" --levels 2 -o "$tmp/block2g.mesh" --precision double --device cuda >"$tmp/vgpu.txt" 2>"$tmp/stderr"; then
  cat "$tmp/vgpu.txt"
  python3 - "$tmp/block2.mesh" "$tmp/block2g.mesh" "$tmp/vgpu.txt" <<'PY' || fail "volume on the GPU differs from the CPU"
import re, sys
def read(path):
    lines = open(path).read().split("\n")
    n = int(lines[3])
    points = [list(map(float, l.split()[:3])) for l in lines[4:4 + n]]
    return points, lines[4 + n:]
(cp, cc), (gp, gc) = read(sys.argv[1]), read(sys.argv[2])
span = max(max(p[i] for p in cp) - min(p[i] for p in cp) for i in range(3))
far = max(abs(a - b) for p, q in zip(cp, gp) for a, b in zip(p, q))
peak, estimate = map(float, re.search(r"peak GPU memory ([0-9.]+) MiB \(estimate ([0-9.]+) MiB\)", open(sys.argv[3]).read()).groups())
print(f"GPU against CPU: {len(gp)} points, farthest {far:.2e} of {span:.2f}; peak {peak} MiB, estimate {estimate} MiB")
sys.exit(0 if len(cp) == len(gp) and cc == gc and far <= 1e-12 * span and peak <= estimate else 1)
PY
else
  [[ $(wc -l <"$tmp/stderr") -eq 1 && ! -e $tmp/block2g.mesh ]] || fail "volume on no GPU: $(cat "$tmp/stderr")"
  echo "skip: volume on the GPU: $(cat "$tmp/stderr")"
fi
expect_error "volume to a surface format" "$tmp/g.obj" subdivide "$block" --levels 1 -o "$tmp/g.obj"
expect_error "volume with a surface scheme" "$tmp/g.vtu" subdivide "$block" --levels 1 -o "$tmp/g.vtu" --scheme loop
# --picture: the refined solid with the octant nearest the viewer (+x, -y, +z) cut away: a polygon
# for every face that exactly one kept cell holds (counted here from the refined .mesh).
"$spmesh" subdivide "$block" --levels 2 -o "$tmp/block2p.mesh" --precision double --picture "$tmp/block2.svg" >/dev/null ||
  fail "volume --picture"
python3 - "$tmp/block2p.mesh" "$tmp/block2.svg" <<'PY' || fail "volume --picture: not the cut-away's faces"
import sys
lines = open(sys.argv[1]).read().split()
n = int(lines[lines.index("Vertices") + 1]); at = lines.index("Vertices") + 2
points = [tuple(map(float, lines[at + 4 * i: at + 4 * i + 3])) for i in range(n)]
c = int(lines[lines.index("Hexahedra") + 1]); at = lines.index("Hexahedra") + 2
hexes = [[int(x) - 1 for x in lines[at + 9 * i: at + 9 * i + 8]] for i in range(c)]
middle = [(min(p[k] for p in points) + max(p[k] for p in points)) / 2 for k in range(3)]
faces = {}
for h in hexes:
    centre = [sum(points[v][k] for v in h) / 8 for k in range(3)]
    if centre[0] > middle[0] and centre[1] < middle[1] and centre[2] > middle[2]:
        continue
    for f in ((0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)):
        key = tuple(sorted(h[i] for i in f))
        faces[key] = faces.get(key, 0) + 1
expected = sum(1 for count in faces.values() if count == 1)
drawn = open(sys.argv[2]).read().count("<polygon")
print(f"cut-away: {drawn} polygons drawn, {expected} faces expected")
sys.exit(0 if drawn == expected and expected > 0 else 1)
PY
expect_error "volume picture not .svg" "$tmp/g.vtu" subdivide "$block" --levels 1 -o "$tmp/g.vtu" --picture "$tmp/g.png"
expect_error "volume past 32-bit indices" "$tmp/g.vtu" subdivide "$block" --levels 8 -o "$tmp/g.vtu"
printf 'MeshVersionFormatted 2\nDimension 3\nVertices\n8\n0 0 1 0\n1 0 1 0\n1 1 1 0\n0 1 1 0\n0 0 0 0\n1 0 0 0\n1 1 0 0\n0 1 0 0\nHexahedra\n1\n1 2 3 4 5 6 7 8 0\nEnd\n' >"$tmp/inverted.mesh"
expect_error "inverted hexahedron" "$tmp/g.vtu" subdivide "$tmp/inverted.mesh" --levels 1 -o "$tmp/g.vtu"
expect_error "volume output is the input" "$tmp/none" subdivide "$tmp/block2.mesh" --levels 1 -o "$tmp/block2.mesh"
# limit --at on a volume: the refined block's cells of grid stars (found here from its hexahedra
# alone: each corner in 8 of them with 6 neighbours along edges), sampled at their corners, where
# the tricubic B-spline's limit point is (64 V + 16 edge neighbours + 4 face diagonals + cube
# diagonals) / 216; as many as info counts; the GPU's the same; others refused by line.
python3 - "$tmp/block2.mesh" "$tmp/vsamples.txt" "$tmp/vexpected.txt" <<'PY' || fail "limit --at on a volume: the samples"
import sys
lines = [l.split() for l in open(sys.argv[1])]
i = next(k for k, l in enumerate(lines) if l and l[0] == "Vertices")
n = int(lines[i + 1][0])
P = [tuple(map(float, l[:3])) for l in lines[i + 2:i + 2 + n]]
i = next(k for k, l in enumerate(lines) if l and l[0] == "Hexahedra")
H = [[int(x) - 1 for x in l[:8]] for l in lines[i + 2:i + 2 + int(lines[i + 1][0])]]
bits = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
around = {}
for h in H:
    for c, v in enumerate(h):
        around.setdefault(v, []).append((h, c))
def star(v):  # the vertex's neighbours by how many axes they differ in, or None if not a grid star
    rings = {1: set(), 2: set(), 3: set()}
    for h, c in around[v]:
        for d, w in enumerate(h):
            k = sum(a != b for a, b in zip(bits[c], bits[d]))
            if k: rings[k].add(w)
    ok = len(around[v]) == 8 and [len(rings[k]) for k in (1, 2, 3)] == [6, 12, 8]
    return rings if ok else None
with open(sys.argv[2], "w") as samples, open(sys.argv[3], "w") as expected:
    count = 0
    for cell, h in enumerate(H):
        rings = [star(v) for v in h]
        if any(r is None for r in rings): continue
        count += 1
        for c in (0, 6, 3):
            v, r = h[c], rings[c]
            limit = [(64 * P[v][x] + 16 * sum(P[w][x] for w in r[1]) + 4 * sum(P[w][x] for w in r[2]) +
                      sum(P[w][x] for w in r[3])) / 216 for x in range(3)]
            samples.write("%d %d %d %d\n" % ((cell,) + bits[c]))
            expected.write(" ".join(repr(x) for x in limit) + "\n")
    print(count)
    assert count > 0
PY
grep -q "^limit     [0-9]* cells with nets: $(grep -c . "$tmp/vexpected.txt" | awk '{ print $1 / 3 }') tricubic inside" "$tmp/vinfo2.txt" ||
  fail "volume info: the cells of grid stars: $(grep '^limit' "$tmp/vinfo2.txt")"
"$spmesh" limit "$tmp/block2.mesh" --at "$tmp/vsamples.txt" -o "$tmp/vat.txt" --precision double >/dev/null ||
  fail "limit --at on a volume"
paste -d' ' "$tmp/vat.txt" "$tmp/vexpected.txt" | awk '
  NF != 15 { bad = 1 }
  { for (c = 1; c <= 3; ++c) { d = $c - $(c + 12); if (d < 0) d = -d; if (d > m) m = d } }
  END { exit !(!bad && m < 1e-12) }' || fail "limit --at on a volume: not the B-spline's limit points"
if "$spmesh" limit "$tmp/block2.mesh" --at "$tmp/vsamples.txt" -o "$tmp/vat_gpu.txt" --precision double \
    --device cuda >/dev/null 2>"$tmp/stderr"; then
  same_lines "$tmp/vat.txt" "$tmp/vat_gpu.txt" 12 || fail "limit --at on a volume on the GPU differs from the CPU"
  echo "ok: limit --at on a volume on the GPU is the CPU's"
else
  [[ $(wc -l <"$tmp/stderr") -eq 1 && ! -e $tmp/vat_gpu.txt ]] || fail "volume limit on no GPU: $(cat "$tmp/stderr")"
fi
printf '# a cell with no net (at two extraordinary edges)\n792 0.5 0.5 0.5\n' >"$tmp/vbad.txt"
expect_error "limit --at on a volume: a cell with no tricubic net, by line" "$tmp/vat_bad.txt" limit \
  "$tmp/block2.mesh" --at "$tmp/vbad.txt" -o "$tmp/vat_bad.txt"
grep -q "vbad.txt:2: limit_at_cells: sample 0 (cell 792, " "$tmp/stderr" || fail "volume limit refusal: $(cat "$tmp/stderr")"
printf '0 0.5 0.5\n' >"$tmp/vshort.txt"
expect_error "limit --at on a volume: 'cell u v w'" "$tmp/vat_bad.txt" limit "$tmp/block2.mesh" --at "$tmp/vshort.txt" \
  -o "$tmp/vat_bad.txt"
expect_error "limit on a volume: --tessellate" "$tmp/vat_bad.txt" limit "$tmp/block2.mesh" --tessellate 4 -o "$tmp/vat_bad.txt"
# vtu.array(path, name): a DataArray of the appended data of a .vtu spmesh wrote, by name.
cat >"$tmp/vtu.py" <<'PY'
import re, struct
def array(path, name):
    data = open(path, "rb").read()
    head = data[:data.index(b"<AppendedData")]
    tag = re.search(rb'<DataArray ([^>]*Name="' + name.encode() + rb'"[^>]*)/>', head).group(1)
    attrs = dict(re.findall(rb'(\w+)="([^"]*)"', tag))
    kind = {b"Float32": "f", b"Float64": "d", b"Int32": "i"}[attrs[b"type"]]
    at = data.index(b"_", len(head)) + 1 + int(attrs[b"offset"])
    size = struct.unpack_from("<Q", data, at)[0]
    return struct.unpack_from("<%d%s" % (size // struct.calcsize(kind), kind), data, at + 8)
PY
# limit --samples K on a volume: the block refined 2 levels by --refine, K^3 points and (K - 1)^3
# hexahedra in each cell with a net (as many as info counts on the refined file, which subdivide
# numbers as --refine does), the points the limit --at gives at those cells' (i, j, k) / (K - 1)
# on that file, a positive Jacobian at every point (det [du dv dw]: the cells keep their turn) but
# on the smooth rims, where it is 0 to rounding (the limit's parameterisation is singular there),
# and the other cells skipped as --evaluable-only asks.
"$spmesh" limit "$block" --samples 3 --refine 2 --evaluable-only --jacobian -o "$tmp/vgrid.vtu" --precision double \
  >"$tmp/vgrid.txt" || fail "limit --samples on a volume: $(cat "$tmp/vgrid.txt")"
nets=$(sed -n 's/^limit     \([0-9]*\) cells with nets.*/\1/p' "$tmp/vinfo2.txt")
grep -q "^skipped   $((4352 - nets)) cells with no net (--evaluable-only)" "$tmp/vgrid.txt" ||
  fail "limit --samples: the cells skipped: $(cat "$tmp/vgrid.txt")"
"$spmesh" info "$tmp/vgrid.vtu" >"$tmp/vgrid_info.txt" || fail "info of limit --samples' .vtu"
grep -q "^vertices  $((27 * nets))$" "$tmp/vgrid_info.txt" && grep -q "^kinds     $((8 * nets)) hexahedra" "$tmp/vgrid_info.txt" ||
  fail "limit --samples 3: expected $((27 * nets)) points and $((8 * nets)) hexahedra: $(cat "$tmp/vgrid_info.txt")"
python3 - "$tmp/vgrid.vtu" "$tmp/vgrid_samples.txt" <<'PY' || fail "limit --samples: the jacobian or cell data"
import sys
sys.path.insert(0, sys.argv[2].rsplit("/", 1)[0])
from vtu import array
jacobian, cells, points = (array(sys.argv[1], name) for name in ("jacobian", "cell", "Points"))
print(f"jacobian at {len(jacobian)} points: {min(jacobian):.3g} to {max(jacobian):.3g}; {len(cells)} hexahedra")
assert len(jacobian) * 3 == len(points) and min(jacobian) > -1e-12 * max(jacobian)
evaluated = cells[::8]  # each cell's 8 hexahedra together, in the order of its points
assert all(cells[8 * i:8 * i + 8] == (c,) * 8 for i, c in enumerate(evaluated)) and min(cells) >= 0 and max(cells) < 4352
with open(sys.argv[2], "w") as out:  # every 50th cell's samples, with its points
    for i in range(0, len(evaluated), 50):
        for p in range(27):
            at = (p % 3 / 2, p // 3 % 3 / 2, p // 9 / 2)
            out.write("%d %r %r %r\t%s\n" % ((evaluated[i],) + at + (" ".join(repr(x) for x in points[3 * (27 * i + p):3 * (27 * i + p) + 3]),)))
PY
cut -f1 "$tmp/vgrid_samples.txt" >"$tmp/vgrid_at.txt"
"$spmesh" limit "$tmp/block2.mesh" --at "$tmp/vgrid_at.txt" -o "$tmp/vgrid_at_out.txt" --precision double >/dev/null ||
  fail "limit --at at the --samples points"
same_lines <(cut -f2 "$tmp/vgrid_samples.txt") "$tmp/vgrid_at_out.txt" 3 ||
  fail "limit --samples: its points are not limit --at's on the refined file"
# --refine L with --at: the samples still name the input's cells; evaluated 1 and 2 levels down
# in the refined cell holding each, the positions and the derivatives along the input cell's u, v,
# w are those of the input's own evaluation (1e-12), in every cell the input evaluates (the cells
# of limit --samples 2 --evaluable-only on it). Not at the cells' corners: an irregular cell's
# extraordinary corner (the block's corner, cell 0's corner 0) has no limit of the derivatives.
"$spmesh" limit "$block" --samples 2 --evaluable-only -o "$tmp/vgrid0.vtu" --precision double >/dev/null ||
  fail "limit --samples on the unrefined block"
python3 - "$tmp/vgrid0.vtu" "$tmp/vrefine_at.txt" <<'PY' || fail "limit --at --refine: the samples"
import random, sys
sys.path.insert(0, sys.argv[2].rsplit("/", 1)[0])
from vtu import array
cells = sorted(set(array(sys.argv[1], "cell")))
assert len(cells) == 36, cells
random.seed(5)
with open(sys.argv[2], "w") as out:
    for c in cells:
        for uvw in [(0, 0, 0.5), (0.5, 0.5, 0.5), (1, 0.25, 0.75)] + [tuple(random.random() for _ in range(3)) for _ in range(4)]:
            out.write("%d %r %r %r\n" % ((c,) + uvw))
PY
for levels in 0 1 2; do
  "$spmesh" limit "$block" --at "$tmp/vrefine_at.txt" --refine $levels -o "$tmp/vrefine$levels.txt" --precision double \
    >/dev/null || fail "limit --at --refine $levels"
done
for levels in 1 2; do
  same_lines "$tmp/vrefine0.txt" "$tmp/vrefine$levels.txt" 12 252 ||
    fail "limit --at --refine $levels differs from the input's limit"
done
# The block refined twice has irregular cells (info counts them); at two samples in each of its
# cells with a net, the limit evaluated there (irregular cells by their tables) equals the limit
# a level further down, where most of those points lie in tricubic and layered cells (1e-12).
grep -q "^limit .*, [1-9][0-9]* irregular" "$tmp/vinfo2.txt" || fail "info: no irregular cell in the block refined twice"
"$spmesh" limit "$tmp/block2.mesh" --samples 2 --evaluable-only -o "$tmp/vgrid2.vtu" --precision double >/dev/null ||
  fail "limit --samples on the block refined twice"
python3 - "$tmp/vgrid2.vtu" "$tmp/virregular_at.txt" <<'PY' || fail "limit --at on irregular cells: the samples"
import random, sys
sys.path.insert(0, sys.argv[2].rsplit("/", 1)[0])
from vtu import array
random.seed(7)
with open(sys.argv[2], "w") as out:
    for c in sorted(set(array(sys.argv[1], "cell"))):
        for _ in range(2):
            out.write("%d %r %r %r\n" % ((c,) + tuple(random.random() for _ in range(3))))
PY
for levels in 0 1; do
  "$spmesh" limit "$tmp/block2.mesh" --at "$tmp/virregular_at.txt" --refine $levels -o "$tmp/virregular$levels.txt" \
    --precision double >/dev/null || fail "limit --at --refine $levels on the block refined twice"
done
same_lines "$tmp/virregular0.txt" "$tmp/virregular1.txt" 12 8222 ||
  fail "limit in irregular cells differs from the limit a level down"
# A 2 x 2 x 2 box of hexahedra whose box edges are Medit Ridges (infinitely sharp): every cell has
# a net (info counts them all at sharp rims and corners), and the limit at the box's corners is
# the corner vertices (a vertex of three sharp edges stays).
python3 - "$tmp/sharp_box.mesh" "$tmp/sharp_box_at.txt" "$tmp/sharp_box_corners.txt" <<'PY'
import random, sys
random.seed(9)
n = 2
vid = lambda i, j, k: 1 + i + (n + 1) * (j + (n + 1) * k)
points = [(i + random.uniform(-0.2, 0.2), j + random.uniform(-0.2, 0.2), k + random.uniform(-0.2, 0.2))
          for k in range(n + 1) for j in range(n + 1) for i in range(n + 1)]
corner_order = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
cells = [[vid(i + a, j + b, k + c) for a, b, c in corner_order] for k in range(n) for j in range(n) for i in range(n)]
rims = []
for axis in range(3):
    for p in (0, n):
        for q in (0, n):
            for t in range(n):
                ends = []
                for s in (t, t + 1):
                    g = [0, 0, 0]
                    g[axis], g[(axis + 1) % 3], g[(axis + 2) % 3] = s, p, q
                    ends.append(vid(*g))
                rims.append(ends)
with open(sys.argv[1], "w") as out:
    out.write("MeshVersionFormatted 2\nDimension 3\nVertices\n%d\n" % len(points))
    out.writelines("%r %r %r 0\n" % p for p in points)
    out.write("Hexahedra\n%d\n" % len(cells))
    out.writelines(" ".join(map(str, c)) + " 0\n" for c in cells)
    out.write("Edges\n%d\n" % len(rims))
    out.writelines("%d %d 0\n" % tuple(e) for e in rims)
    out.write("Ridges\n%d\n" % len(rims))
    out.writelines("%d\n" % (r + 1) for r in range(len(rims)))
    out.write("End\n")
# The box's 8 corners: the cell holding each, and its (u, v, w) there; and the corner's vertex.
with open(sys.argv[2], "w") as at, open(sys.argv[3], "w") as expected:
    for c, k in enumerate(corner_order):
        cell = k[0] * 1 + k[1] * 2 + k[2] * 4
        at.write("%d %d %d %d\n" % (cell, k[0], k[1], k[2]))
        expected.write("%r %r %r\n" % points[vid(n * k[0], n * k[1], n * k[2]) - 1])
PY
"$spmesh" info "$tmp/sharp_box.mesh" >"$tmp/sharp_box_info.txt" || fail "info on a box with sharp rims"
grep -q "^limit     8 cells with nets: 0 tricubic inside, 8 tricubic at the boundary (8 of them at sharp rims" \
  "$tmp/sharp_box_info.txt" || fail "info: a box with sharp rims: $(cat "$tmp/sharp_box_info.txt")"
grep -q "^cell classes: 0 regular inside, 8 regular at the boundary (8 at sharp rims), layered: none, 0 irregular" \
  "$tmp/sharp_box_info.txt" || fail "info: a box with sharp rims, its classes: $(cat "$tmp/sharp_box_info.txt")"
"$spmesh" limit "$tmp/sharp_box.mesh" --samples 2 -o "$tmp/sharp_box.vtu" --precision double >/dev/null ||
  fail "limit --samples on a box with sharp rims (every cell has a net)"
"$spmesh" limit "$tmp/sharp_box.mesh" --at "$tmp/sharp_box_at.txt" -o "$tmp/sharp_box_limit.txt" --precision double \
  >/dev/null || fail "limit --at on a box with sharp rims"
cut -d' ' -f1-3 "$tmp/sharp_box_limit.txt" >"$tmp/sharp_box_xyz.txt"
same_lines "$tmp/sharp_box_xyz.txt" "$tmp/sharp_box_corners.txt" 3 8 ||
  fail "limit at a sharp box's corners is not its corner vertices"
if "$spmesh" limit "$block" --samples 3 --refine 2 --evaluable-only --jacobian -o "$tmp/vgrid_gpu.vtu" --precision double \
    --device cuda >/dev/null 2>"$tmp/stderr"; then
  python3 - "$tmp/vgrid.vtu" "$tmp/vgrid_gpu.vtu" <<'PY' || fail "limit --samples on the GPU differs from the CPU"
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from vtu import array
for name in ("Points", "jacobian", "cell", "connectivity"):
    cpu, gpu = array(sys.argv[1], name), array(sys.argv[2], name)
    assert len(cpu) == len(gpu) and max(abs(a - b) for a, b in zip(cpu, gpu)) < 1e-12, name
PY
  "$spmesh" limit "$block" --at "$tmp/vrefine_at.txt" --refine 2 -o "$tmp/vrefine2_gpu.txt" --precision double --device cuda \
    >/dev/null || fail "limit --at --refine 2 on the GPU"
  same_lines "$tmp/vrefine2.txt" "$tmp/vrefine2_gpu.txt" 12 252 || fail "limit --at --refine 2 on the GPU differs from the CPU"
  echo "ok: limit --samples and --at --refine on the GPU"
else
  [[ $(wc -l <"$tmp/stderr") -eq 1 && ! -e $tmp/vgrid_gpu.vtu ]] || fail "limit --samples on no GPU: $(cat "$tmp/stderr")"
fi
expect_error "limit --samples 1" "$tmp/vg.vtu" limit "$block" --samples 1 -o "$tmp/vg.vtu"
grep -q "^spmesh limit: --samples 1: .*K of 2 or more" "$tmp/stderr" || fail "limit --samples 1: $(cat "$tmp/stderr")"
expect_error "limit --samples --jacobian to .mesh" "$tmp/vg.mesh" limit "$block" --samples 2 --refine 2 --evaluable-only \
  --jacobian -o "$tmp/vg.mesh"
grep -q "vg.mesh: --jacobian writes point data, which spmesh writes to .vtu only" "$tmp/stderr" ||
  fail "limit --jacobian to .mesh: $(cat "$tmp/stderr")"
expect_error "limit on a volume: --at and --samples" "$tmp/vg.vtu" limit "$block" --samples 2 --at "$tmp/vrefine_at.txt" \
  -o "$tmp/vg.vtu"
grep -q -- "--at SAMPLES.txt or on --samples K a cell: one of them, not both" "$tmp/stderr" || fail "--at and --samples: $(cat "$tmp/stderr")"
expect_error "limit on a volume: neither --at nor --samples" "$tmp/vg.vtu" limit "$block" -o "$tmp/vg.vtu"
expect_error "limit --samples: cells with no net" "$tmp/vg.vtu" limit "$block" --samples 2 -o "$tmp/vg.vtu"
grep -q "block.mesh: 40 of the 76 cells have no net spmesh's limit evaluates yet, the first cell 12 " "$tmp/stderr" ||
  fail "limit --samples, cells with no net: $(cat "$tmp/stderr")"
expect_error "limit --samples: no cell with a net" "$tmp/vg.vtu" limit "$data/meshes/honeycomb.vtk" --samples 2 \
  --evaluable-only -o "$tmp/vg.vtu"
grep -q "honeycomb.vtk: none of the [0-9]* cells has a net" "$tmp/stderr" || fail "limit --samples, no net: $(cat "$tmp/stderr")"
printf '5 0.5 0.5 0.5\n48 0.2 0.2 0.2\n' >"$tmp/vprism.txt"
expect_error "limit --at --refine: a sample in a prism" "$tmp/vg.txt" limit "$block" --at "$tmp/vprism.txt" --refine 1 \
  -o "$tmp/vg.txt"
grep -q "vprism.txt:2: .*sample 1 is in cell 48, a prism" "$tmp/stderr" || fail "--at --refine in a prism: $(cat "$tmp/stderr")"
expect_error "limit --samples on a surface" "$tmp/vg.obj" limit "$data/meshes/cube.obj" --samples 3 -o "$tmp/vg.obj"
if [[ -z ${SPMESH_SANITIZED:-} ]]; then  # (AddressSanitizer's shadow memory needs more address space)
  (ulimit -v 400000; "$spmesh" limit "$block" --samples 40 --refine 1 --evaluable-only -o "$tmp/vg.vtu") \
    >"$tmp/stdout" 2>"$tmp/stderr" && fail "limit --samples over the memory limit: accepted"
  grep -q "block.mesh: the limit at [0-9]* samples of 544 cells (level 1) needs about [0-9.]* MiB of host memory" "$tmp/stderr" ||
    fail "limit --samples over the memory limit: $(cat "$tmp/stderr")"
  [[ ! -e $tmp/vg.vtu ]] || fail "limit --samples over the memory limit: left an output"
  echo "ok: limit --samples over the memory limit: $(cat "$tmp/stderr")"
fi
# build + replay of a volume: R of 2 levels saved, replayed on the block and on the block moved
# (R is linear: the moved block's refinement is the refinement moved) into .mesh files, equal to
# subdivide's points (1e-12 of the diagonal) and cells; on the GPU where there is one, the same.
"$spmesh" build "$block" --levels 2 -o "$tmp/block.spr" --precision double >"$tmp/vbuild.txt" || fail "build on a volume"
grep -q "^ccsolid 2 levels on cpu: R is 5241 x 124 with" "$tmp/vbuild.txt" || fail "volume build: $(cat "$tmp/vbuild.txt")"
mkdir -p "$tmp/vframes" "$tmp/moved"
awk 'NR > 6 && NR <= 130 { $1 += 2; $3 -= 1 } { print }' "$block" >"$tmp/moved/block.mesh"
"$spmesh" subdivide "$tmp/moved/block.mesh" --levels 2 -o "$tmp/moved2.mesh" --precision double >/dev/null || fail "subdivide the moved block"
"$spmesh" replay "$tmp/block.spr" "$tmp/moved/block.mesh" -o "$tmp/vframes" --format mesh --precision double >"$tmp/vreplay.txt" ||
  fail "replay of a volume: $(cat "$tmp/vreplay.txt")"
replay_gpu=""
if "$spmesh" replay "$tmp/block.spr" "$tmp/moved/block.mesh" -o "$tmp/moved" --format mesh --precision double --device cuda >/dev/null 2>&1; then
  replay_gpu="$tmp/moved/block.mesh"
fi
python3 - "$tmp/moved2.mesh" "$tmp/vframes/block.mesh" $replay_gpu <<'PY' || fail "volume replay differs from subdivide"
import sys
def read(path):
    lines = open(path).read().split("\n")
    n = int(lines[3])
    return [list(map(float, l.split()[:3])) for l in lines[4:4 + n]], lines[4 + n:]
sp, sc = read(sys.argv[1])
span = max(max(p[i] for p in sp) - min(p[i] for p in sp) for i in range(3))
ok = True
for path in sys.argv[2:]:
    rp, rc = read(path)
    far = max(abs(a - b) for p, q in zip(sp, rp) for a, b in zip(p, q))
    print(f"replay {path}: {len(rp)} points, farthest from subdivide {far:.2e} of {span:.2f}")
    ok &= len(rp) == len(sp) and rc == sc and far <= 1e-12 * span
sys.exit(0 if ok else 1)
PY
expect_error "volume replay of other cells" "$tmp/vframes/cube.mesh" replay "$tmp/block.spr" "$tmp/cube.mesh" -o "$tmp/vframes"
expect_error "volume replay to a surface format" "$tmp/vframes/block.obj" replay "$tmp/block.spr" "$block" -o "$tmp/vframes" --format obj
expect_error "volume build with a surface option" "$tmp/g.spr" build "$block" --levels 1 -o "$tmp/g.spr" --boundary edge-only

# Progress: a step over a second (SPMESH_PROGRESS_AFTER=0: any step, on any machine) shows
# itself on stderr when that is a terminal (script gives the command one), and nothing when it
# is a pipe or a file.
if command -v script >/dev/null; then
  script -qec "SPMESH_PROGRESS_AFTER=0 '$spmesh' subdivide '$data/meshes/torus.obj' --levels 7 -o '$tmp/t7.ply'" /dev/null \
    | tr '\r' '\n' >"$tmp/tty.txt"
  grep -q "^spmesh: 7 levels of catmark on cpu ([0-9]* s)" "$tmp/tty.txt" ||
    fail "progress on a terminal: $(head -c 300 "$tmp/tty.txt")"
  SPMESH_PROGRESS_AFTER=0 "$spmesh" subdivide "$data/meshes/torus.obj" --levels 7 -o "$tmp/t7.ply" \
    2>"$tmp/err.txt" >/dev/null
  [[ ! -s $tmp/err.txt ]] || fail "progress on a pipe: $(cat "$tmp/err.txt")"
  rm -f "$tmp/t7.ply"
fi

exit $((failures > 0))
