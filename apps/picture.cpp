// SVG mesh picture (see picture.hpp).
#include "apps/picture.hpp"

#include "meshops/io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

namespace spmesh::apps {

namespace {

using Vec = std::array<double, 3>;

Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec unit(Vec a) {
  const double n = std::sqrt(dot(a, a));
  return n > 0 ? Vec{a[0] / n, a[1] / n, a[2] / n} : a;
}

}  // namespace

template <class T>
void write_picture(std::ostream& out, const linalg::Dense<T>& positions,
                   const linalg::MeshMatrix<>& M, const std::string& title) {
  // View from (1, -1.2, 0.9): screen x to the right, y up, depth along the view direction.
  const Vec view = unit({1, -1.2, 0.9}), right = unit(cross({0, 0, 1}, view)),
            up = cross(view, right), light = unit({0.4, -0.5, 1});
  const index_t n = positions.rows;
  std::vector<Vec> p(n);
  std::vector<double> sx(n), sy(n), depth(n);
  for (index_t i = 0; i < n; ++i) {
    p[i] = {double(positions(i, 0)), double(positions(i, 1)), double(positions(i, 2))};
    sx[i] = dot(p[i], right), sy[i] = -dot(p[i], up), depth[i] = dot(p[i], view);
  }
  const auto [x0, x1] = std::minmax_element(sx.begin(), sx.end());
  const auto [y0, y1] = std::minmax_element(sy.begin(), sy.end());
  const double width = 800, scale = width / std::max(*x1 - *x0, 1e-12);
  const double height = std::max(100.0, (*y1 - *y0) * scale);

  std::vector<index_t> order(M.faces);
  std::vector<double> face_depth(M.faces);
  for (index_t f = 0; f < M.faces; ++f) {
    double d = 0;
    for (index_t q = M.offsets[f]; q < M.offsets[f + 1]; ++q) d += depth[M.indices[q]];
    face_depth[f] = d / (M.offsets[f + 1] - M.offsets[f]);
  }
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](index_t a, index_t b) { return face_depth[a] < face_depth[b]; });

  const bool outlines = M.faces <= 20000;
  out << fmt::format("<svg xmlns='http://www.w3.org/2000/svg' width='{:.0f}' height='{:.0f}' "
                     "viewBox='-10 -30 {:.0f} {:.0f}'>\n<rect x='-10' y='-30' width='100%' "
                     "height='100%' fill='white'/>\n<text x='0' y='-10' font-family='sans-serif' "
                     "font-size='14'>{}</text>\n",
                     width + 20, height + 40, width + 20, height + 40, title);
  for (index_t f : order) {
    const index_t lo = M.offsets[f], c = M.offsets[f + 1] - lo;
    const Vec& a = p[M.indices[lo]];
    Vec normal{0, 0, 0};
    for (index_t k = 1; k + 1 < c; ++k) {
      const Vec nk = cross(sub(p[M.indices[lo + k]], a), sub(p[M.indices[lo + k + 1]], a));
      for (int d = 0; d < 3; ++d) normal[d] += nk[d];
    }
    const double shade = 0.25 + 0.7 * std::abs(dot(unit(normal), light));
    const int g = static_cast<int>(255 * std::min(shade, 1.0));
    out << "<polygon points='";
    for (index_t k = 0; k < c; ++k) {
      const index_t v = M.indices[lo + k];
      out << fmt::format("{:.1f},{:.1f} ", (sx[v] - *x0) * scale, (sy[v] - *y0) * scale);
    }
    out << fmt::format("' fill='rgb({},{},{})'", g, g, std::min(255, g + 20));
    out << (outlines ? " stroke='#333' stroke-width='0.3'/>\n" : "/>\n");
  }
  out << "</svg>\n";
}

template void write_picture(std::ostream&, const linalg::Dense<float>&,
                            const linalg::MeshMatrix<>&, const std::string&);
template void write_picture(std::ostream&, const linalg::Dense<double>&,
                            const linalg::MeshMatrix<>&, const std::string&);

}  // namespace spmesh::apps
