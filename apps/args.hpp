// The command line parsed: positional arguments and --name value options, with the checks every
// command shares (choices, --levels).
#pragma once

#include "linalg/base.hpp"
#include "meshops/io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spmesh::apps {

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;

  // `known`: options with a value; `flags`: options without one.
  Args(const std::vector<std::string>& args, const std::vector<std::string>& known,
       const std::vector<std::string>& flags = {}) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (!a.starts_with("-") || a == "-") {
        positional.push_back(a);
        continue;
      }
      const std::string name = a == "-o" ? "--output" : a;
      if (std::find(flags.begin(), flags.end(), name) != flags.end()) {
        options[name] = "";
        continue;
      }
      if (std::find(known.begin(), known.end(), name) == known.end())
        throw Error("unknown option '" + a + "'");
      if (i + 1 == args.size()) throw Error("option '" + a + "' needs a value");
      if (options.contains(name)) throw Error("option '" + a + "' given twice");
      options[name] = args[++i];
    }
  }

  std::optional<std::string> get(const std::string& name) const {
    auto it = options.find(name);
    return it == options.end() ? std::nullopt : std::optional(it->second);
  }
  std::string need(const std::string& name) const {
    if (auto v = get(name)) return *v;
    throw Error("missing " + name);
  }
  std::string choice(const std::string& name, const std::vector<std::string>& allowed) const {
    const std::string v = get(name).value_or(allowed[0]);
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end())
      throw Error(name + " '" + v + "' (expected " + fmt::format("{}", fmt::join(allowed, " or ")) +
                  ")");
    return v;
  }
  // A level count, 0 to 16, of --levels or another option of levels (limit's --refine).
  int levels(const std::string& name = "--levels") const {
    const std::string v = need(name);
    int l = -1;
    if (!meshops::parse_number(v, l) || l < 0 || l > 16)
      throw Error(name + " '" + v + "' (expected 0 to 16)");
    return l;
  }
  bool dbl() const { return choice("--precision", {"float", "double"}) == "double"; }
  std::string device() const { return choice("--device", {"cpu", "cuda"}); }
};

// Each command: the arguments after its name in, the exit code out.
int info_command(const Args& args);
int subdivide_command(const Args& args);
int build_command(const Args& args);
int replay_command(const Args& args);
int limit_command(const Args& args);
// --tessellate N (spmesh limit, spmesh subdivide --adaptive): the limit surface as N x N quads a
// quad, N^2 triangles a triangle (Loop) (Bfr's facets), watertight, with a unit normal a point,
// written as OBJ or PLY; going down at most `depth` levels, through Catmull-Clark's adaptive plan
// of that isolation level where `adaptive`.
int tessellate_command(const Args& args, int depth, bool adaptive);
// spmesh subdivide --adaptive L (adaptive.cpp): Catmull-Clark's adaptive plan written as patches,
// a selective refinement as a mesh, or a tessellation.
int subdivide_adaptive(const Args& args);

}  // namespace spmesh::apps
