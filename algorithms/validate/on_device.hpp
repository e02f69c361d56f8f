// The BFS and SSSP validators' rules checked by kernels, for graphs held on the cuda backend.
// At Graph500 scale 26 the host validators take about 10 s (BFS) and 30 s (SSSP) per search on 16
// cores, more than the searches themselves by a factor of 1000 (BFS) and 25 (SSSP); on the device
// the same rules take milliseconds, so a run can have the specification's 64 search keys.
//
// The device decides the verdict only. When it finds a problem, the host validator runs on the
// same answer and its result is returned, so the two give the same result, message included
// (the first problem by vertex order). Should the host validator find nothing, the disagreement
// is itself reported as a failure. Answers the device does not handle (no parents, a wrong
// size, a source whose own entries are wrong, a cpu matrix) go to the host validator directly.
#pragma once

#include <cstdint>
#include <span>

#include "grb/matrix.hpp"
#include "validate/validate.hpp"

namespace grb::validate {

#if GRB_WITH_CUDA
/// validate::bfs's verdict, decided on the device for a graph `a` on the cuda backend.
template <class T>
Result bfs_on_device(const Matrix<T>& a, Index source, std::span<const std::int32_t> level,
                     std::span<const Index> parent);

/// validate::sssp's verdict, decided on the device for a graph `a` on the cuda backend.
template <class T>
Result sssp_on_device(const Matrix<T>& a, Index source, std::span<const double> distance,
                      std::span<const Index> parent, double tolerance = 1e-9);
#endif

}  // namespace grb::validate
