// The Laplacians, mass matrices, normals, smoothing, curvatures, geodesics and components on the
// GPU: the CPU test sources compiled by nvcc as one unit (one compile in CI, not one each).
#include "../laplacian.cpp"
#include "../normals.cpp"
#include "../smoothing.cpp"
#include "../curvature.cpp"
#include "../geodesics.cpp"
#include "../components.cpp"
