// The undirected graph A + A' on the device, as the hand-written connected-components and
// triangle-counting engines take it: neighbours of v are targets[offsets[v] .. offsets[v+1]),
// sorted, without duplicates (self loops kept: neither algorithm is disturbed by them).
#pragma once

#include <string_view>

#include "grb/array.hpp"
#include "grb/cuda/primitives.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::cc::kernels {

// The engines are written against the primitives tier (blocks_for, GraphView, ...) and the
// backend's helpers (exclusive_scan_counts, read_scalar), in grb::cuda::detail.
using namespace grb::cuda::detail;

class UndirectedGraph {
 public:
  /// A + A' of a square matrix on either backend, formed on the device (a transpose and a
  /// row-by-row merge). Throws DimensionMismatch, naming `engine`, for a non-square matrix.
  void upload(const Matrix<bool>& graph, std::string_view engine);

  Index vertices() const { return vertices_; }
  Offset edges() const { return targets_.size(); }
  GraphView view() const {
    return {vertices_, vertices_, edges(), offsets_.data(), targets_.data()};
  }
  std::size_t bytes() const {
    return offsets_.size() * sizeof(Offset) + targets_.size() * sizeof(Index);
  }

 private:
  Index vertices_ = 0;
  detail::Array<Offset> offsets_;
  detail::Array<Index> targets_;
};

}  // namespace grb::cc::kernels
