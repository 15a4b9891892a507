// The spmesh command line: info, subdivide, limit, build and replay (see `usage`).
#include "apps/args.hpp"
#include "meshops/output.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace spmesh::apps {

namespace {

constexpr const char* usage = R"(usage:
  spmesh info MESH [--adaptive L [--boundary B] [--crease C]]
      vertex, edge and face counts, Euler characteristic, boundary, face orders, valences; for
      a volume (.mesh, .vtk, .vtu, .msh): cells, cell kinds, edge valences, extraordinary edges and
      vertices, and the cells by how their limit is evaluated (regular, layered, irregular,
      not evaluable); with --adaptive, Catmull-Clark's feature-adaptive plan to isolation level
      L: per level its faces and points, and the faces samples reach there by how their limit
      is taken (bicubic patch, boundary patch, Stam, smooth corner, boundary fan, or refined)
  spmesh subdivide IN -o OUT --levels L [options] [--picture FILE.svg] [--dry-run]
      subdivision of IN (.obj/.off/.ply) into OUT (.obj/.ply); --dry-run prints every level's
      size and the memory needed (and free, with --device cuda), and stops. A volume mesh IN
      (Medit .mesh, VTK .vtk or .vtu, gmsh 4.1 .msh: tetrahedra, prisms, hexahedra, and VTK
      polyhedra of those shapes) is refined
      by Catmull-Clark solids into OUT (.vtu for ParaView, .vtk or .mesh), with --device,
      --precision, --dry-run, --surface FILE.obj|.ply (the refined boundary surface),
      --picture FILE.svg (the refined solid with the octant nearest the viewer cut away) and
      --vertex-rule tensor-product|joy-maccracken (at vertices on one extraordinary edge line:
      the product of the surface rule and the cubic B-spline, the default, or Joy-MacCracken's).
      Medit Ridges and Corners crease the boundary surface and the inside (--sharp-edges: its
      Edges too, the curves gmsh writes), with --crease uniform|chaikin
  spmesh subdivide IN --adaptive L -o OUT.patches [--select FACES.txt] [--adaptive-rings R] [options]
      Catmull-Clark's feature-adaptive plan to isolation level L as patches: every level's
      points, then a line a patch: its kind (patch, boundary_patch, stam, smooth_corner,
      boundary_fan, approximated), base face, (u0, v0) and level (its square of side 2^-level
      in the face's parameters), face on its level, detail and control points (docs/adaptive.md
      "Patch file"); --select (face ids, 0-based, any number a line) refines those faces to
      level L too; --adaptive-rings R refines R rings of faces round each level's refined
      faces too (more patches of the deeper levels, the same surface)
  spmesh subdivide IN --adaptive L --select FACES.txt -o OUT.obj|OUT.ply [--approximate]
      selective refinement as a crack-free mesh: the selected faces as the limit surface's
      points of level L (2^L x 2^L quads a quad), the others whole, joined by transition faces
      that hold their selected neighbours' side points
  spmesh subdivide IN --adaptive L --tessellate N -o OUT.obj|OUT.ply [--approximate]
      the same as spmesh limit IN --tessellate N --adaptive --levels L
  spmesh limit IN -o OUT.obj|OUT.ply [--levels L] [options]
      the limit surface at the vertices of level L (default 0: IN's own vertices): their limit
      positions and unit normals (OBJ vn, PLY nx ny nz), in the vertex and face order of
      subdivide --levels L;
      catmark and loop, with their creases, corners and boundary modes
  spmesh limit IN --at SAMPLES.txt -o OUT.txt [--levels L] [--approximate] [options]
      the limit at each line 'face u v' of SAMPLES in OpenSubdiv Bfr's parameterization (a
      quad's [0, 1]^2, corner 0 at (0, 0), 1 at (1, 0); a triangle's u, v >= 0, u + v <= 1;
      other polygons' sub-faces), exact on regular faces, at smooth extraordinary
      vertices (Stam), at edge-only's smooth corners and at boundary vertices of up to 12
      edges, going down at most L levels
      (default 3): a line
      'x y z dux duy duz dvx dvy dvz' a sample; catmark and loop
  spmesh limit VOLUME --at SAMPLES.txt -o OUT.txt [--refine L] [--device D] [--precision P]
      a solid's limit (Catmull-Clark solids) at each line 'cell u v w' of SAMPLES, (u, v, w)
      in [0, 1]^3 in the hexahedron's VTK corner order: a line 'x y z', then the derivatives
      along u, v and w; so far in cells with nets (tricubic inside and at the boundary,
      layered; spmesh info counts them), others refused by SAMPLES.txt:line. --refine L
      refines L levels first and evaluates each sample in the refined cell holding it, its
      derivatives still along the input cell's u, v, w (input hexahedra only)
  spmesh limit VOLUME --samples K -o OUT.vtu|OUT.vtk|OUT.mesh [--refine L] [--jacobian]
               [--evaluable-only] [--device D] [--precision P]
      the same limit on a K x K x K grid in every cell (of level L with --refine), at
      (i, j, k) / (K - 1), K >= 2, as a volume mesh: K^3 points a cell and the (K - 1)^3
      hexahedra between them; a .vtu gets each hexahedron's cell id (cell data "cell") and,
      with --jacobian, each point's det [du dv dw] (point data "jacobian"). Cells without a
      net are refused, naming the first, unless --evaluable-only leaves them out
  spmesh limit IN --tessellate N -o OUT.obj|OUT.ply [--levels L] [--approximate] [options]
      the same limit surface as N x N quads a quad, N^2 triangles a triangle with --scheme loop
      (OpenSubdiv Bfr's uniform rate N), watertight: a point on a shared edge or vertex is one
      point; a unit normal a point
  spmesh limit IN --at ...|--tessellate ... --adaptive [--levels L]
      the same points through feature-adaptive refinement to isolation level L (Catmull-Clark):
      each level refines only the faces no patch holds yet and two rings round them
  spmesh build IN --levels L -o FILE [options]
      the refinement matrix R of L levels, saved for replay; for a volume mesh IN, R of
      Catmull-Clark solids (with its sharp features, --vertex-rule and --crease)
  spmesh replay FILE POSES... -o OUTDIR [--device cpu|cuda] [--format obj|ply] [--triangulate ...]
      P_L = R P_0 for each pose (a mesh with IN's topology, triangulated as for build if asked),
      written to OUTDIR/<pose>.<format>; for a volume's FILE, each pose a volume mesh with IN's
      cells and --format vtu|vtk|mesh (default vtu)
options:
  --scheme catmark|loop|sqrt3|ccsolid       Catmull-Clark (default), Loop or sqrt(3) (both
                                            triangles only); ccsolid for volume meshes
  --triangulate fan|shortest-diagonal       make polygons triangles first (for loop and sqrt3; a
                                            quad is cut along its shorter diagonal, larger
                                            polygons fanned)
  --boundary edge-only|edge-and-corner      default: the mesh's tags, else edge-only (not sqrt3)
  --crease uniform|chaikin                  default: the mesh's tags, else uniform (not sqrt3)
  --device cpu|cuda                         default cpu
  --precision float|double                  default float
Crease and corner tags of OpenSubdiv's OBJ shapes (t crease/corner/interpolateboundary/
creasemethod) are honoured; t hole faces (subdivide, build, replay and limit; catmark and loop)
take part in the rules and their descendants are left out of the output. sqrt3 has Kobbelt's rules: no creases (a mesh with crease or
corner tags is refused), and boundary edges cut in three on every second level. Errors: one line on stderr, exit code 1, no partial output file.
)";

const std::vector<std::string> scheme_options = {
    "--output", "--levels",    "--scheme",  "--boundary",   "--crease",
    "--device", "--precision", "--picture", "--triangulate"};

// The command's arguments, with its positional ones counted: `count` of them (or at least
// `count` when `more`).
Args parse(const std::string& command, const std::vector<std::string>& rest,
           const std::vector<std::string>& known, const std::vector<std::string>& flags,
           std::size_t count, const std::string& what, bool more = false) {
  Args args(rest, known, flags);
  const auto& p = args.positional;
  if (p.size() < count) throw Error(command + " needs " + what + " (see spmesh --help)");
  if (p.size() > count && !more)
    throw Error(command + " takes " + what + ", but was also given '" + p[count] + "'");
  return args;
}

int dispatch(const std::string& command, const std::vector<std::string>& rest) {
  if (command == "info")
    return info_command(parse(command, rest, {"--adaptive", "--scheme", "--boundary", "--crease"}, {}, 1, "one mesh file"));
  if (command == "subdivide") {
    auto options = scheme_options;
    options.insert(options.end(), {"--surface", "--vertex-rule"});               // volume meshes only
    // Catmull-Clark's adaptive plan
    options.insert(options.end(), {"--adaptive", "--adaptive-rings", "--select", "--tessellate"});
    return subdivide_command(
        parse(command, rest, options, {"--dry-run", "--sharp-edges", "--approximate"}, 1, "one input mesh file"));
  }
  if (command == "limit")
    return limit_command(parse(command, rest,
                               {"--output", "--levels", "--at", "--tessellate", "--scheme", "--boundary", "--crease",
                                "--device", "--precision", "--triangulate", "--samples", "--refine"},
                               {"--approximate", "--adaptive", "--jacobian", "--evaluable-only"}, 1,
                               "one input mesh file"));
  if (command == "build") {
    auto options = scheme_options;
    options.push_back("--vertex-rule");  // volume meshes only
    return build_command(parse(command, rest, options, {"--sharp-edges"}, 1, "one input mesh file"));
  }
  if (command == "replay")
    return replay_command(
        parse(command, rest, {"--output", "--device", "--precision", "--format", "--triangulate"},
              {}, 2, "a refinement file and one or more poses", true));
  fmt::print(stderr, "spmesh: unknown command '{}'\n{}", command, usage);
  return 2;
}

}  // namespace

}  // namespace spmesh::apps

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help") {
    std::fputs(spmesh::apps::usage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  spmesh::meshops::remove_temporaries_on_signals();
  try {
    return spmesh::apps::dispatch(command, args);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "spmesh {}: out of host memory (try fewer levels, or see --dry-run)\n", command);
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "spmesh {}: {}\n", command, e.what());
    return 1;
  }
}
