// Synthetic graphs: the Graph500 Kronecker generator, 2-D grids (road-like, high diameter) and
// Erdos-Renyi random graphs.
//
// Every random choice is a counter-based hash of (seed, stream, counter): edge k of a graph is a
// pure function of the seed and k. The result therefore does not depend on the number of threads
// or on the order of work, and a GPU implementation of the same functions yields the same graph.
// Matrices are returned on the cpu backend; use Matrix::to(Backend::cuda) to move them. The
// Kronecker generator and to_matrix also run on the GPU (DeviceEdgeList below), with the same
// result to the bit.
#pragma once

#include <cstdint>
#include <vector>

#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::generate {

/// A directed edge list: edge k is source[k] -> target[k] with weight[k]. May hold self loops and
/// parallel edges (the Graph500 generator's output does).
struct EdgeList {
  Index nvertices = 0;
  std::vector<Index> source, target;
  std::vector<double> weight;
};

/// How an edge list becomes an adjacency matrix.
struct Options {
  std::uint64_t seed = 1;
  /// Add j -> i for every i -> j (an undirected graph, as Graph500 treats its edge list).
  bool symmetrize = true;
  bool drop_self_loops = true;
  /// A matrix holds one entry per (i, j). true: parallel edges become one edge with the smallest
  /// weight (the one a shortest path would use). false: their weights are summed, as Matlab's
  /// sparse() does, so that an edge's value counts a multigraph's multiplicity.
  bool drop_duplicates = true;
};

/// The Graph500 (specification 3.0) Kronecker edge list: n = 2^scale vertices and
/// m = edge_factor * n directed edges drawn from the recursive 2x2 initiator
/// [A B; C D] = [0.57 0.19; 0.19 0.05] with no per-level noise; then the vertex labels are
/// randomly permuted and so is the order of the edges. Weights are uniform in [0, 1) (kernel 3,
/// SSSP). Self loops and parallel edges are kept, as the benchmark's kernel 1 is meant to see them.
/// Throws InvalidValue when scale is outside [1, 31] or edge_factor < 1.
EdgeList kronecker_edges(int scale, int edge_factor = 16, std::uint64_t seed = 1);

/// kronecker_edges(scale, edge_factor, options.seed) as an n x n matrix (see to_matrix).
Matrix<double> kronecker(int scale, int edge_factor = 16, const Options& options = {});
/// kronecker()'s pattern, for algorithms that read no weights (BFS, CC, TC): every value true,
/// parallel edges one entry whatever options.drop_duplicates says. Built without the weights:
/// 5 bytes a stored entry where kronecker() takes 12, so 2^28 vertices (8.6 G entries) fit in
/// 45 GB of host memory where the weighted matrix takes 105.
Matrix<bool> kronecker_pattern(int scale, int edge_factor = 16, const Options& options = {});

/// A side x side 4-neighbour grid (vertex r * side + c at row r, column c) with each grid edge
/// independently dropped with probability drop_fraction: a road-like graph of high diameter.
/// 0.25 keeps the graph far above the bond-percolation threshold (1/2), so most vertices stay
/// in one component. Weights are integers uniform in [1, 64], the SSSP benchmark's range. Without
/// symmetrize the edges point right and down only. Throws InvalidValue for side 0, side^2 beyond
/// the 32-bit vertex ids, or drop_fraction outside [0, 1].
Matrix<double> grid(Index side, double drop_fraction = 0.25, const Options& options = {});
/// grid()'s pattern (made from grid(): a grid's 4 entries a vertex are small beside its ids).
Matrix<bool> grid_pattern(Index side, double drop_fraction = 0.25, const Options& options = {});

/// A G(n, m) random graph with endpoints drawn uniformly: m = n * average_degree / 2 edges when
/// symmetrized (so each vertex has average_degree neighbours), m = n * average_degree directed
/// edges otherwise; dropped self loops and duplicates make the result slightly sparser. Weights
/// uniform in [0, 1). Throws InvalidValue for n == 0 or average_degree outside [0, n - 1].
Matrix<double> erdos_renyi(Index n, double average_degree, const Options& options = {});

/// The adjacency matrix (nvertices x nvertices) of an edge list under `options` (seed unused).
/// Throws IndexOutOfBounds for an endpoint >= nvertices, DimensionMismatch for arrays of
/// different lengths.
Matrix<double> to_matrix(const EdgeList& edges, const Options& options = {});

/// An edge list in GPU memory: EdgeList's three arrays, each a device Array (16 bytes per edge).
/// What the GPU Kronecker generator produces and what the GPU to_matrix (Graph500 kernel 1)
/// consumes, so that a graph is generated and built without crossing PCIe. Move-only, like the
/// arrays it owns; to_device / to_host copy. Every function below throws BackendUnavailable
/// without a usable GPU.
struct DeviceEdgeList {
  Index nvertices = 0;
  grb::detail::Array<Index> source, target;  // Backend::cuda
  grb::detail::Array<double> weight;         // Backend::cuda
  std::uint64_t size() const { return source.size(); }
};

DeviceEdgeList to_device(const EdgeList& edges);
EdgeList to_host(const DeviceEdgeList& edges);

/// kronecker_edges computed by a GPU kernel: the same counter-based functions (shared with the
/// host code), so the same (scale, edge_factor, seed) gives the identical edge list.
DeviceEdgeList kronecker_edges_cuda(int scale, int edge_factor = 16, std::uint64_t seed = 1);

/// to_matrix on the GPU: the same matrix as to_matrix(to_host(edges), options), to the bit,
/// returned on the cuda backend. Entries are sorted by a CUB radix sort of packed (row, column)
/// keys carrying each entry's edge number; parallel edges are then combined per run of equal
/// keys. Device memory: 16 bytes per edge for the list, plus 24 bytes per stored entry
/// (two entries per edge when symmetrizing) while sorting, plus 12 bytes per entry of the result.
/// An rvalue list is consumed: its endpoint arrays are freed as soon as the sort keys hold
/// them, which lowers the peak by 8 bytes per edge. Throws IndexOutOfBounds for an endpoint
/// >= nvertices, DimensionMismatch for arrays of different lengths, OutOfMemory when the
/// device is too small.
Matrix<double> to_matrix(const DeviceEdgeList& edges, const Options& options = {});
Matrix<double> to_matrix(DeviceEdgeList&& edges, const Options& options = {});

/// The device bytes that to_matrix(DeviceEdgeList&&) holds at its peak (the sort) for `edges`
/// input edges, the list included: its weights (8 an edge; the endpoints are freed once the keys
/// hold them) and, per entry slot (two an edge when symmetrizing), 8 + 8 bytes of keys and two
/// edge numbers of 4 bytes (8 above 2^32 - 1 edges). Known before the list is generated, so a
/// graph the device cannot build is refused before any work (grb graph500).
inline std::uint64_t to_matrix_peak_device_bytes(std::uint64_t edges, bool symmetrize) {
  const std::uint64_t slots = edges * (symmetrize ? 2 : 1);
  const std::uint64_t edge_number = edges <= 0xffffffffull ? 4 : 8;
  return 8 * edges + slots * (16 + 2 * edge_number);
}

}  // namespace grb::generate
