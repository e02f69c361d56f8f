// A + A' on the device: the transpose (the matrix's own cached CSC, built by CUB), then each row
// of the union as the merge of the two sorted rows, counted, scanned, and written.

#include <string>

#include "cc/cuda/undirected_graph.cuh"
#include "grb/cuda/runtime.cuh"

namespace grb::cc::kernels {
namespace {

/// Row v of A + A': the merge of row v of A and row v of A', an entry in both written once.
/// Returns the row's length; writes it to `row` when `row` is not null.
__device__ Offset merge_rows(GraphView a, GraphView transposed, Index v, Index* row) {
  Offset i = a.begin(v), j = transposed.begin(v), length = 0;
  const Offset a_end = a.end(v), t_end = transposed.end(v);
  while (i < a_end || j < t_end) {
    Index next;
    if (j == t_end || (i < a_end && a.col_indices[i] < transposed.col_indices[j])) {
      next = a.col_indices[i++];
    } else if (i == a_end || transposed.col_indices[j] < a.col_indices[i]) {
      next = transposed.col_indices[j++];
    } else {
      next = a.col_indices[i++];
      ++j;
    }
    if (row) row[length] = next;
    ++length;
  }
  return length;
}

__global__ void union_lengths(GraphView a, GraphView transposed, Offset* lengths) {
  GRB_GRID_STRIDE_LOOP(v, a.nrows) {
    lengths[v] = merge_rows(a, transposed, static_cast<Index>(v), nullptr);
  }
}

__global__ void union_rows(GraphView a, GraphView transposed, const Offset* offsets,
                           Index* targets) {
  GRB_GRID_STRIDE_LOOP(v, a.nrows) {
    merge_rows(a, transposed, static_cast<Index>(v), targets + offsets[v]);
  }
}

}  // namespace

void UndirectedGraph::upload(const Matrix<bool>& graph, std::string_view engine) {
  if (graph.nrows() != graph.ncols())
    throw DimensionMismatch(std::string(engine) + ": the adjacency matrix must be square, not " +
                            std::to_string(graph.nrows()) + " x " +
                            std::to_string(graph.ncols()));
  const Matrix<bool> device = graph.to(Backend::cuda);
  const GraphView a = pattern_of(device.csr());
  const GraphView transposed = pattern_of(device.csc());
  vertices_ = graph.nrows();
  offsets_ = detail::Array<Offset>(std::size_t(vertices_) + 1, Backend::cuda);
  union_lengths<<<blocks_for(vertices_), block_threads, 0, current_stream()>>>(a, transposed,
                                                                               offsets_.data());
  GRB_CUDA_CHECK_LAUNCH();
  exclusive_scan_counts(offsets_.data(), vertices_);
  targets_ = detail::Array<Index>(read_scalar(offsets_.data() + vertices_), Backend::cuda);
  union_rows<<<blocks_for(vertices_), block_threads, 0, current_stream()>>>(
      a, transposed, offsets_.data(), targets_.data());
  GRB_CUDA_CHECK_LAUNCH();
  GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
}

}  // namespace grb::cc::kernels
