// The whole linalg layer with the CPU backend: formats, maps, conversions and mapped products.
#pragma once

#include "linalg/convert.hpp"
#include "linalg/cpu/executor.hpp"
#include "linalg/formats.hpp"
#include "linalg/maps.hpp"
#include "linalg/mesh_matrix.hpp"
#include "linalg/mmt.hpp"
#include "linalg/spgemm.hpp"
#include "linalg/spmv.hpp"
#include "linalg/ternary.hpp"
#include "linalg/validate.hpp"
