#!/usr/bin/env bash
# `spmesh limit` on every catmark_* and loop_* shape of OpenSubdiv's set (the shared folder's
# meshes/opensubdiv): a shape that `subdivide` accepts gets its limit points at level 1 (the
# vertices and faces of `subdivide --levels 1`), 16 samples a face on a 4 x 4 grid in [0, 1/2]^2,
# inside every face's domain (a line of 9 numbers each; enough a face for Stam's nets), and a
# tessellation at rate 3 (a normal a point, faces on its points); `--approximate` for the samples
# no exact patch holds (the shapes' corners, darts, boundary vertices). Every number written is
# finite. A shape that `subdivide` refuses (exit code 1, one line), `limit` refuses with the same
# line and writes nothing, as it does for OpenSubdiv's smooth triangle rule, which subdivide takes
# (catmark_smoothtris1). A shape with holes (`t hole`) has no limit surface there: its samples
# and tessellation leave the hole faces out (--at refuses a sample on one, naming its line). Exit 77 (skipped) without the shared folder.
#   tests/apps/limit_shapes.sh SPMESH SHARED_DIR
set -uo pipefail
spmesh=$1
shapes=$2/meshes/opensubdiv
[[ -d $shapes ]] || { echo "skipped: no $shapes"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 accepted=0 refused=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# finite FILE PREFIX FIELDS: every line starting with PREFIX has FIELDS numbers after it, all
# finite (no nan, no inf).
finite() {
  awk -v prefix="$2" -v fields="$3" '
    $1 == prefix || prefix == "" {
      if (NF - (prefix != "") != fields) exit 1
      for (i = 1 + (prefix != ""); i <= NF; ++i) if ($i !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) exit 1
    }' "$1"
}
count() { grep -c "^$2 " "$1"; }
# message FILE: stderr's line without the command's name ("spmesh subdivide: ").
message() { sed 's/^spmesh [a-z]*: //' "$1"; }

for mesh in "$shapes"/catmark_*.obj "$shapes"/loop_*.obj; do
  name=$(basename "$mesh" .obj)
  scheme=catmark
  [[ $name == loop_* ]] && scheme=loop
  rm -f "$tmp"/{sub.obj,limit.obj,at_out.txt,tess.obj}
  "$spmesh" subdivide "$mesh" --levels 1 --scheme "$scheme" -o "$tmp/sub.obj" 2>"$tmp/sub.err" >/dev/null
  rc=$?
  if ((rc != 0)); then
    refused=$((refused + 1))
    [[ $rc -eq 1 && $(wc -l <"$tmp/sub.err") -eq 1 ]] || fail "$name: subdivide: exit code $rc, $(cat "$tmp/sub.err")"
    for args in "-o $tmp/limit.obj" "--tessellate 3 -o $tmp/limit.obj"; do
      # shellcheck disable=SC2086
      "$spmesh" limit "$mesh" --scheme "$scheme" $args 2>"$tmp/limit.err" >/dev/null
      rc=$?
      [[ $rc -eq 1 ]] || fail "$name: limit $args: exit code $rc where subdivide refused"
      [[ $(message "$tmp/limit.err") == "$(message "$tmp/sub.err")" ]] ||
        fail "$name: limit says '$(cat "$tmp/limit.err")', subdivide '$(cat "$tmp/sub.err")'"
      [[ ! -e $tmp/limit.obj ]] || fail "$name: limit $args wrote a file"
    done
    continue
  fi
  # The smooth triangle rule (catmark_smoothtris1): subdivided, but limit, --at and --tessellate
  # refuse it by name, writing nothing.
  if grep -q '^t smoothtriangles .* smooth' "$mesh" && [[ $scheme == catmark ]]; then
    refused=$((refused + 1))
    for args in "--levels 1 -o $tmp/limit.obj" "--tessellate 3 -o $tmp/limit.obj"; do
      # shellcheck disable=SC2086
      "$spmesh" limit "$mesh" $args 2>"$tmp/limit.err" >/dev/null
      rc=$?
      [[ $rc -eq 1 ]] && grep -q "smooth triangle rule" "$tmp/limit.err" ||
        fail "$name: limit $args: exit code $rc, '$(cat "$tmp/limit.err")', not the smooth triangle rule refused"
      [[ ! -e $tmp/limit.obj ]] || fail "$name: limit $args wrote a file"
    done
    continue
  fi
  accepted=$((accepted + 1))
  faces=$(count "$mesh" f)
  "$spmesh" limit "$mesh" --scheme "$scheme" --levels 1 -o "$tmp/limit.obj" >/dev/null 2>"$tmp/err" ||
    fail "$name: limit: $(cat "$tmp/err")"
  [[ $(count "$tmp/limit.obj" v) -eq $(count "$tmp/sub.obj" v) && $(count "$tmp/limit.obj" vn) -eq $(count "$tmp/sub.obj" v) &&
     $(count "$tmp/limit.obj" f) -eq $(count "$tmp/sub.obj" f) ]] ||
    fail "$name: limit: not subdivide's vertices and faces"
  finite "$tmp/limit.obj" v 3 && finite "$tmp/limit.obj" vn 3 || fail "$name: limit: a point or normal not finite"

  # The hole faces (t hole's ids, 0-based): sampled apart, each refused.
  holes=" $(awk '$1 == "t" && $2 == "hole" { for (i = 4; i <= NF; ++i) printf "%s ", $i }' "$mesh")"
  sampled=0
  for ((f = 0; f < faces; ++f)); do
    [[ $holes == *" $f "* ]] && continue
    sampled=$((sampled + 1))
    for u in 0.0625 0.1875 0.3125 0.4375; do for v in 0.0625 0.1875 0.3125 0.4375; do echo "$f $u $v"; done; done
  done >"$tmp/at.txt"
  "$spmesh" limit "$mesh" --scheme "$scheme" --at "$tmp/at.txt" --approximate -o "$tmp/at_out.txt" \
    >/dev/null 2>"$tmp/err" || fail "$name: limit --at: $(cat "$tmp/err")"
  [[ $(wc -l <"$tmp/at_out.txt") -eq $((16 * sampled)) ]] && finite "$tmp/at_out.txt" "" 9 ||
    fail "$name: limit --at: not $((16 * sampled)) lines of 9 finite numbers"
  if [[ $holes != " " ]]; then
    first=$(echo $holes | cut -d' ' -f1)
    echo "$first 0.25 0.25" >"$tmp/hole_at.txt"
    "$spmesh" limit "$mesh" --scheme "$scheme" --at "$tmp/hole_at.txt" -o "$tmp/hole_out.txt" >/dev/null 2>"$tmp/err"
    grep -q "hole_at.txt:1: face $first is a hole" "$tmp/err" && [[ ! -e $tmp/hole_out.txt ]] ||
      fail "$name: limit --at on hole face $first: $(cat "$tmp/err")"
  fi

  "$spmesh" limit "$mesh" --scheme "$scheme" --tessellate 3 --approximate -o "$tmp/tess.obj" \
    >/dev/null 2>"$tmp/err" || fail "$name: limit --tessellate: $(cat "$tmp/err")"
  points=$(count "$tmp/tess.obj" v)
  finite "$tmp/tess.obj" v 3 && finite "$tmp/tess.obj" vn 3 || fail "$name: tessellation: a point or normal not finite"
  [[ $points -gt 0 && $(count "$tmp/tess.obj" vn) -eq $points ]] || fail "$name: tessellation: not a normal a point"
  awk -v points="$points" '$1 == "f" { for (i = 2; i <= NF; ++i) { split($i, at, "/"); if (at[1] < 1 || at[1] > points) bad = 1 } ++n }
                           END { exit bad || n == 0 }' "$tmp/tess.obj" || fail "$name: tessellation: faces off its points"
done
echo "limit on $accepted shapes, $refused refused as subdivide refuses them, $failures failures"
((accepted > 0 && failures == 0))
