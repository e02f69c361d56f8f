// A weighted graph on the device for the hand-written SSSP engines, and the by-value view that
// kernels take: out-edges in CSR form (offsets, targets, lengths) plus the source of every edge
// (the CSR's row ids spelled out), which lets the parent pass go one thread per edge, balanced
// whatever the degrees.
#pragma once

#include <string>
#include <string_view>

#include "grb/array.hpp"
#include "grb/cuda/primitives.cuh"
#include "grb/error.hpp"
#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::sssp::kernels {

// The engines are written against the primitives tier (blocks_for, CsrView, ...), which lives
// with the backend's operations in grb::cuda::detail.
using namespace grb::cuda::detail;

/// The lengths are the CSR's values; sources[e] is the vertex whose list holds edge e.
struct WeightedView : CsrView<double> {
  const Index* sources = nullptr;
};

/// Writes each vertex's id over its own edges: one thread per vertex (run once, in prepare).
__global__ void spell_out_sources(Index vertices, const Offset* offsets, Index* sources);

class WeightedGraph {
 public:
  /// `graph` must already have passed check_weights (square, lengths >= 0). `by_length`: each
  /// row's edges sorted by length, shortest first (light-heavy splits a row at one offset).
  void upload(const Matrix<double>& graph, bool by_length = false) {
    vertices_ = graph.nrows();
    offsets_ = graph.csr().row_offsets.to(Backend::cuda);
    targets_ = graph.csr().col_indices.to(Backend::cuda);
    lengths_ = graph.csr().values.to(Backend::cuda);
    // The sort first: its second buffers (12 bytes an edge) are freed before the sources (4)
    // are allocated, so the two are never held together.
    if (by_length && vertices_ > 0 && !targets_.empty()) sort_rows_by_length();
    sources_ = detail::Array<Index>(targets_.size(), Backend::cuda);
    if (vertices_ > 0 && !targets_.empty()) {
      spell_out_sources<<<blocks_for(vertices_), block_threads, 0, current_stream()>>>(
          vertices_, offsets_.data(), sources_.data());
      GRB_CUDA_CHECK_LAUNCH();
    }
  }

  Index vertices() const { return vertices_; }
  Offset edges() const { return targets_.size(); }
  WeightedView view() const {
    return {{vertices_, vertices_, edges(), offsets_.data(), targets_.data(), lengths_.data()},
            sources_.data()};
  }
  std::size_t bytes() const {
    return offsets_.size() * sizeof(Offset) +
           targets_.size() * (2 * sizeof(Index) + sizeof(double));
  }

 private:
  void sort_rows_by_length();  // light_heavy.cu

  Index vertices_ = 0;
  detail::Array<Offset> offsets_;
  detail::Array<Index> targets_, sources_;
  detail::Array<double> lengths_;
};

}  // namespace grb::sssp::kernels
