// A graph's adjacency on the device (out-edges, and in-edges where an engine pulls); kernels
// take its GraphView (primitives/csr_view.cuh) by value.
#pragma once

#include <string>
#include <vector>

#include "grb/array.hpp"
#include "grb/cuda/primitives.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/error.hpp"
#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::bfs::kernels {

// The engines are written against the primitives tier (blocks_for, warp_append, StagedList,
// GraphView, ...), which lives with the backend's operations in grb::cuda::detail.
using namespace grb::cuda::detail;

/// Out-edges always; in-edges only for the engines that pull (directed graphs need them).
class DeviceGraph {
 public:
  enum class Edges { out, out_and_in };

  void upload(const Matrix<bool>& graph, Edges edges, std::string_view engine) {
    if (graph.nrows() != graph.ncols())
      throw DimensionMismatch("bfs engine " + std::string(engine) +
                              ": the adjacency matrix must be square, not " +
                              std::to_string(graph.nrows()) + " x " +
                              std::to_string(graph.ncols()));
    vertices_ = graph.nrows();
    out_offsets_ = graph.csr().row_offsets.to(Backend::cuda);
    out_targets_ = graph.csr().col_indices.to(Backend::cuda);
    in_offsets_ = {};
    in_targets_ = {};
    // A matrix marked symmetric (an undirected graph) has its in-edges equal to its out-edges:
    // one copy serves both (at scale 26 that saves 8.6 GB).
    in_is_out_ = graph.symmetric();
    if (edges == Edges::out_and_in && !in_is_out_) {
      // csc() transposes where the matrix lives (host or device) and caches it in the matrix.
      in_offsets_ = graph.csc().row_offsets.to(Backend::cuda);
      in_targets_ = graph.csc().col_indices.to(Backend::cuda);
    }
  }

  Index vertices() const { return vertices_; }
  Offset edges() const { return out_targets_.size(); }
  GraphView out() const {
    return {vertices_, vertices_, edges(), out_offsets_.data(), out_targets_.data()};
  }
  GraphView in() const {
    if (in_is_out_) return out();
    return {vertices_, vertices_, edges(), in_offsets_.data(), in_targets_.data()};
  }
  /// Out-degree of one vertex, read from the device (for the host's per-search bookkeeping).
  Offset out_degree(Index v) const {
    Offset range[2];
    detail::copy_bytes(range, Backend::cpu, out_offsets_.data() + v, Backend::cuda, sizeof range);
    return range[1] - range[0];
  }
  std::size_t bytes() const {
    return (out_offsets_.size() + in_offsets_.size()) * sizeof(Offset) +
           (out_targets_.size() + in_targets_.size()) * sizeof(Index);
  }

 private:
  Index vertices_ = 0;
  detail::Array<Offset> out_offsets_, in_offsets_;
  detail::Array<Index> out_targets_, in_targets_;
  bool in_is_out_ = false;
};

}  // namespace grb::bfs::kernels
