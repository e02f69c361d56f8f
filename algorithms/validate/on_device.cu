// The validators' rules as kernels (see on_device.hpp). Plain loops like the host validators,
// sharing no code with the engines or the grb operations they check.
//
// With parents given, fewer passes decide the same verdict as the host validator, which also
// walks the graph from the source:
// - BFS: each parent edge lowers the level by exactly one and only the source has level 0, so
//   every reached vertex's parent chain is a graph path that ends at the source after `level`
//   steps: the parents form a tree and every reached vertex is reachable. Every edge out of a
//   reached vertex leads to a reached vertex, so the reached set is closed under edges and
//   holds everything reachable.
// - SSSP: the same closure holds for finite distances (an edge out of a finite vertex must lead
//   to a finite one). Zero-weight edges let a parent chain cycle without changing the distance,
//   so the chains are followed to their ends by pointer jumping: after ceil(log2 n) rounds of
//   ancestor[v] = ancestor[ancestor[v]] each vertex holds its chain's end, which must be the
//   source. Tight parent edges along such a chain make every distance a path length.
#include "validate/on_device.hpp"

#include <cuda_runtime.h>

#include <array>
#include <cmath>
#include <string>

#include "grb/array.hpp"
#include "grb/cuda/primitives.cuh"
#include "grb/cuda/runtime.cuh"

namespace grb::validate {
namespace {

using cuda::detail::blocks_for;
using cuda::detail::block_threads;
using cuda::detail::current_stream;

/// What the device checks; each rule keeps the smallest vertex that breaks it.
enum Rule : int {
  bad_value,     // a level below -1, level 0 away from the source, a NaN or -inf distance
  presence,      // reached without a parent, or a parent without being reached
  parent_range,  // a parent outside [0, n)
  parent_edge,   // no edge parent -> v, or it does not give v's level or distance
  edge,          // an edge out of a reached vertex to an unreached one, or skipping a level,
                 // or not relaxed
  chain,         // a parent chain that does not end at the source (SSSP)
  rules
};
constexpr std::array<const char*, rules> rule_names{
    "a level or distance out of range", "parent presence", "a parent out of range",
    "a parent edge", "an edge rule", "a parent chain that misses the source"};

/// The graph's pattern; its values (weights) are passed beside it.
using Graph = cuda::detail::GraphView;

__device__ void report(unsigned long long* first, Rule rule, Index v) {
  atomicMin(first + rule, static_cast<unsigned long long>(v));
}

/// The position of entry (i, j), or nvals when absent: the first match in the sorted row, as the
/// host validator's find_edge.
__device__ Offset find_edge(const Graph& g, Index i, Index j) {
  Offset low = g.row_offsets[i], high = g.row_offsets[i + 1];
  while (low < high) {
    const Offset middle = low + (high - low) / 2;
    if (g.col_indices[middle] < j) low = middle + 1;
    else high = middle;
  }
  return low < g.row_offsets[i + 1] && g.col_indices[low] == j ? low : g.nvals;
}

/// Entries per thread in the edge passes: one binary search finds the row of a thread's first
/// entry, then it walks on, so every thread has the same work whatever the degrees.
constexpr Offset entries_per_thread = 16;

/// Calls visit(i, k) for every stored entry k of row i.
template <class Visit>
__device__ void for_each_entry(const Graph& g, Visit visit) {
  const Offset threads = Offset(gridDim.x) * blockDim.x;
  for (Offset start = (Offset(blockIdx.x) * blockDim.x + threadIdx.x) * entries_per_thread;
       start < g.nvals; start += threads * entries_per_thread) {
    Index row = cuda::detail::owner_of(g.row_offsets, g.nrows, start);
    const Offset end = start + entries_per_thread < g.nvals ? start + entries_per_thread : g.nvals;
    for (Offset k = start; k < end; ++k) {
      while (g.row_offsets[row + 1] <= k) ++row;
      visit(row, k);
    }
  }
}

unsigned edge_blocks(Offset nvals) {
  return blocks_for((nvals + entries_per_thread - 1) / entries_per_thread);
}

/// The checks a BFS and an SSSP vertex share: a parent exactly where the vertex is reached, and
/// in range. True when v's parent edge is left to check (v is reached and not the source).
__device__ bool parent_edge_to_check(Graph g, Index source, Index v, bool reached, Index p,
                                     unsigned long long* first) {
  if (reached != (p != no_index)) {
    report(first, presence, v);
    return false;
  }
  if (v == source || p == no_index) return false;
  if (p >= g.nrows) {
    report(first, parent_range, v);
    return false;
  }
  return true;
}

__global__ void bfs_vertices(Graph g, Index source, const std::int32_t* level,
                             const Index* parent, unsigned long long* first) {
  for (Index v = blockIdx.x * blockDim.x + threadIdx.x; v < g.nrows; v += gridDim.x * blockDim.x) {
    const std::int32_t l = level[v];
    const Index p = parent[v];
    if (l < -1 || (l == 0 && v != source)) report(first, bad_value, v);
    if (!parent_edge_to_check(g, source, v, l != -1, p, first)) continue;
    if (std::int64_t{level[p]} + 1 != l || find_edge(g, p, v) == g.nvals)
      report(first, parent_edge, v);
  }
}

__global__ void bfs_edges(Graph g, const std::int32_t* level, unsigned long long* first) {
  for_each_entry(g, [&](Index i, Offset k) {
    const std::int32_t li = level[i];
    if (li == -1) return;
    const std::int32_t lj = level[g.col_indices[k]];
    if (lj == -1 || std::int64_t{lj} > std::int64_t{li} + 1) report(first, edge, i);
  });
}

/// The host validator's tolerance test: |a - b| relative to max(1, |a|, |b|).
__device__ bool close(double a, double b, double tolerance) {
  return fabs(a - b) <= tolerance * fmax(1.0, fmax(fabs(a), fabs(b)));
}

template <class T>
__global__ void sssp_vertices(Graph g, const T* weights, Index source, const double* distance,
                              const Index* parent, double tolerance, unsigned long long* first) {
  for (Index v = blockIdx.x * blockDim.x + threadIdx.x; v < g.nrows; v += gridDim.x * blockDim.x) {
    const double d = distance[v];
    const Index p = parent[v];
    if (isnan(d) || d == -INFINITY) report(first, bad_value, v);
    if (!parent_edge_to_check(g, source, v, !isinf(d), p, first)) continue;
    const Offset k = find_edge(g, p, v);
    // A parent at distance inf fails here; the host validator finds it in the parent chain.
    if (k == g.nvals || isinf(distance[p]) ||
        !close(d, distance[p] + static_cast<double>(weights[k]), tolerance))
      report(first, parent_edge, v);
  }
}

template <class T>
__global__ void sssp_edges(Graph g, const T* weights, const double* distance, double tolerance,
                           unsigned long long* first) {
  for_each_entry(g, [&](Index i, Offset k) {
    const double di = distance[i];
    if (isinf(di)) return;
    const double dj = distance[g.col_indices[k]];
    const double through = di + static_cast<double>(weights[k]);
    if (isinf(dj) || (dj > through && !close(dj, through, tolerance))) report(first, edge, i);
  });
}

/// One pointer-jumping round: next[v] = ancestor[ancestor[v]] (an end stays an end).
__global__ void jump(Index n, const Index* ancestor, Index* next) {
  for (Index v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    const Index a = ancestor[v];
    next[v] = a < n ? ancestor[a] : a;
  }
}

__global__ void chains_end_at_source(Index n, Index source, const double* distance,
                                     const Index* end, unsigned long long* first) {
  for (Index v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    if (!isinf(distance[v]) && end[v] != source) report(first, chain, v);
}

template <class T>
Graph graph_of(const Matrix<T>& a) {
  return cuda::detail::pattern_of(a.csr());
}

/// Per rule, the smallest vertex breaking it (no_vertex where none), on the device.
class Findings {
 public:
  static constexpr unsigned long long no_vertex = ~0ull;
  Findings() : first_(rules, Backend::cuda) {
    GRB_CUDA_CHECK(
        cudaMemsetAsync(first_.data(), 0xff, rules * sizeof(unsigned long long), current_stream()));
  }
  unsigned long long* data() { return first_.data(); }
  /// Passed when no rule was broken; else the host validator's result, or, should the host find
  /// nothing, the disagreement.
  template <class HostValidator>
  Result verdict(HostValidator host_validator) const {
    const std::vector<unsigned long long> first = first_.to_vector();
    for (int rule = 0; rule < rules; ++rule) {
      if (first[rule] == no_vertex) continue;
      Result host = host_validator();
      if (!host) return host;
      return Result{false, "validation on the device broke its rule '" +
                               std::string(rule_names[rule]) + "' at vertex " +
                               std::to_string(first[rule]) +
                               ", where the host validator finds no problem"};
    }
    return {};
  }

 private:
  grb::detail::Array<unsigned long long> first_;
};

template <class T>
grb::detail::Array<T> upload(std::span<const T> values) {
  return grb::detail::Array<T>::from(values, Backend::cuda);
}

}  // namespace

template <class T>
Result bfs_on_device(const Matrix<T>& a, Index source, std::span<const std::int32_t> level,
                     std::span<const Index> parent) {
  const Index n = a.nrows();
  if (a.backend() != Backend::cuda || a.ncols() != n || parent.empty() || level.size() != n ||
      parent.size() != n || source >= n || level[source] != 0 || parent[source] != source)
    return bfs(a, source, level, parent);
  const Graph g = graph_of(a);
  const auto device_level = upload(level);
  const auto device_parent = upload(parent);
  Findings findings;
  bfs_vertices<<<blocks_for(n), block_threads, 0, current_stream()>>>(
      g, source, device_level.data(), device_parent.data(), findings.data());
  GRB_CUDA_CHECK(cudaGetLastError());
  if (g.nvals > 0) {
    bfs_edges<<<edge_blocks(g.nvals), block_threads, 0, current_stream()>>>(g, device_level.data(),
                                                                            findings.data());
    GRB_CUDA_CHECK(cudaGetLastError());
  }
  return findings.verdict([&] { return bfs(a, source, level, parent); });
}

template <class T>
Result sssp_on_device(const Matrix<T>& a, Index source, std::span<const double> distance,
                      std::span<const Index> parent, double tolerance) {
  const Index n = a.nrows();
  if (a.backend() != Backend::cuda || a.ncols() != n || parent.empty() ||
      distance.size() != n || parent.size() != n || source >= n || distance[source] != 0 ||
      parent[source] != source)
    return sssp(a, source, distance, parent, tolerance);
  const Graph g = graph_of(a);
  const T* weights = a.csr().values.data();
  const auto device_distance = upload(distance);
  grb::detail::Array<Index> ancestor = upload(parent);
  Findings findings;
  sssp_vertices<<<blocks_for(n), block_threads, 0, current_stream()>>>(
      g, weights, source, device_distance.data(), ancestor.data(), tolerance, findings.data());
  GRB_CUDA_CHECK(cudaGetLastError());
  if (g.nvals > 0) {
    sssp_edges<<<edge_blocks(g.nvals), block_threads, 0, current_stream()>>>(
        g, weights, device_distance.data(), tolerance, findings.data());
    GRB_CUDA_CHECK(cudaGetLastError());
  }
  // Each round doubles the steps followed; n - 1 reach the end of every chain that has one.
  grb::detail::Array<Index> next(n, Backend::cuda);
  for (std::uint64_t steps = 1; steps < n; steps *= 2) {
    jump<<<blocks_for(n), block_threads, 0, current_stream()>>>(n, ancestor.data(), next.data());
    GRB_CUDA_CHECK(cudaGetLastError());
    ancestor.swap(next);
  }
  chains_end_at_source<<<blocks_for(n), block_threads, 0, current_stream()>>>(
      n, source, device_distance.data(), ancestor.data(), findings.data());
  GRB_CUDA_CHECK(cudaGetLastError());
  return findings.verdict([&] { return sssp(a, source, distance, parent, tolerance); });
}

#define GRB_VALIDATE_ON_DEVICE_INSTANTIATE(T)                                                  \
  template Result bfs_on_device<T>(const Matrix<T>&, Index, std::span<const std::int32_t>,      \
                                   std::span<const Index>);                                     \
  template Result sssp_on_device<T>(const Matrix<T>&, Index, std::span<const double>,           \
                                    std::span<const Index>, double);

GRB_VALIDATE_ON_DEVICE_INSTANTIATE(bool)
GRB_VALIDATE_ON_DEVICE_INSTANTIATE(std::int32_t)
GRB_VALIDATE_ON_DEVICE_INSTANTIATE(std::int64_t)
GRB_VALIDATE_ON_DEVICE_INSTANTIATE(std::uint32_t)
GRB_VALIDATE_ON_DEVICE_INSTANTIATE(std::uint64_t)
GRB_VALIDATE_ON_DEVICE_INSTANTIATE(float)
GRB_VALIDATE_ON_DEVICE_INSTANTIATE(double)

#undef GRB_VALIDATE_ON_DEVICE_INSTANTIATE

}  // namespace grb::validate
