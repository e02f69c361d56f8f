// A weighted graph on the device for the hand-written SSSP engines, and the by-value view that
// kernels take: out-edges in CSR form (offsets, targets, lengths).
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

/// The lengths are the CSR's values.
///
/// target() and length() are streaming loads (evict first), for passes that read each edge about
/// once and the distances at random many times (light-heavy: 1.0-1.25 relaxations an edge; the
/// parent pass), so that the edges do not push the distances out of the L2. near-far relaxes an
/// edge 3-5 times and reads them plainly.
struct WeightedView : CsrView<double> {
#ifdef __CUDACC__
  __device__ Index target(Offset e) const { return __ldcs(col_indices + e); }
  __device__ double length(Offset e) const { return __ldcs(values + e); }
#endif
};

class WeightedGraph {
 public:
  /// `graph` must already have passed check_weights (square, lengths >= 0). `by_length`: each
  /// row's edges sorted by length, shortest first (light-heavy splits a row at one offset).
  void upload(const Matrix<double>& graph, bool by_length = false) {
    vertices_ = graph.nrows();
    symmetric_ = graph.symmetric();
    offsets_ = graph.csr().row_offsets.to(Backend::cuda);
    targets_ = graph.csr().col_indices.to(Backend::cuda);
    lengths_ = graph.csr().values.to(Backend::cuda);
    if (by_length && vertices_ > 0 && !targets_.empty()) sort_rows_by_length();
  }

  Index vertices() const { return vertices_; }
  /// Whether the matrix was marked symmetric (Matrix::mark_symmetric): in-edges are out-edges.
  bool symmetric() const { return symmetric_; }
  Offset edges() const { return targets_.size(); }
  WeightedView view() const {
    return {{vertices_, vertices_, edges(), offsets_.data(), targets_.data(), lengths_.data()}};
  }
  std::size_t bytes() const {
    return offsets_.size() * sizeof(Offset) + targets_.size() * (sizeof(Index) + sizeof(double));
  }

 private:
  void sort_rows_by_length();  // light_heavy.cu

  Index vertices_ = 0;
  bool symmetric_ = false;
  detail::Array<Offset> offsets_;
  detail::Array<Index> targets_;
  detail::Array<double> lengths_;
};

}  // namespace grb::sssp::kernels
