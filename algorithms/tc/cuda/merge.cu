// Triangle counting by sorted-list intersection (seed 001's kernel: for each edge, a merge of
// the two endpoints' sorted neighbour lists), over the degree-ordered DAG: each undirected edge
// points from the endpoint of lower (degree, id) to the higher, so a triangle is found exactly
// once, from its lowest-ranked vertex's edge to its middle one, and no vertex keeps more than
// O(sqrt(m)) out-neighbours: the hubs of a power-law graph, whose lists would make the merges
// quadratic, end up with short out-lists. Lists stay sorted by id (filtering keeps order).
//
// A thread merges the two lists of one edge when they are short; an edge whose lists are long
// goes to a queue that a second kernel drains a warp per edge: the lanes take the shorter list's
// entries and binary-search the longer list, 32 searches at a time. Counts are summed per block
// (CUB) and added to one 64-bit counter.
#include <cub/block/block_reduce.cuh>

#include <memory>

#include "cc/cuda/undirected_graph.cuh"
#include "grb/cuda/runtime.cuh"
#include "tc/cuda/engines.hpp"

namespace grb::tc::kernels {
namespace {

// The primitives tier (blocks_for, GraphView, ...) and the backend's helpers
// (exclusive_scan_counts, read_scalar) live in grb::cuda::detail.
using namespace grb::cuda::detail;
using Count = unsigned long long;

inline constexpr unsigned block = 256;
/// Two lists at least this long together are intersected by a warp, not by one thread.
inline constexpr Offset warp_lists = 64;

/// True when the edge u -> v points up the (degree, id) order.
__device__ inline bool ranks_below(GraphView graph, Index u, Index v) {
  const Offset du = graph.degree(u), dv = graph.degree(v);
  return du < dv || (du == dv && u < v);
}

__global__ void out_degrees(GraphView graph, Offset* degrees) {
  GRB_GRID_STRIDE_LOOP(v, graph.nrows) {
    const Index u = static_cast<Index>(v);
    Offset kept = 0;
    for (Offset k = graph.begin(u); k < graph.end(u); ++k)
      kept += ranks_below(graph, u, graph.col_indices[k]);
    degrees[v] = kept;
  }
}

__global__ void orient(GraphView graph, const Offset* offsets, Index* sources, Index* targets) {
  GRB_GRID_STRIDE_LOOP(v, graph.nrows) {
    const Index u = static_cast<Index>(v);
    Offset out = offsets[v];
    for (Offset k = graph.begin(u); k < graph.end(u); ++k) {
      const Index w = graph.col_indices[k];
      if (!ranks_below(graph, u, w)) continue;
      sources[out] = u;
      targets[out++] = w;
    }
  }
}

/// Thread per DAG edge: short pairs of lists merged here, long ones queued for a warp.
__global__ void __launch_bounds__(block)
    count_short(GraphView dag, const Index* sources, Offset* long_edges, Count* long_count,
                Count* triangles) {
  using Reduce = cub::BlockReduce<Count, block>;
  __shared__ typename Reduce::TempStorage reduce;
  Count found = 0;
  const std::uint64_t e = std::uint64_t(blockIdx.x) * block + threadIdx.x;
  if (e < dag.nvals) {
    const Index u = sources[e], v = dag.col_indices[e];
    Offset i = dag.begin(u), j = dag.begin(v);
    const Offset i_end = dag.end(u), j_end = dag.end(v);
    if ((i_end - i) + (j_end - j) >= warp_lists) {
      long_edges[atomicAdd(long_count, Count{1})] = e;
    } else {
      while (i < i_end && j < j_end) {
        const Index x = dag.col_indices[i], y = dag.col_indices[j];
        found += x == y;
        i += x <= y;
        j += y <= x;
      }
    }
  }
  const Count sum = Reduce(reduce).Sum(found);
  if (threadIdx.x == 0 && sum > 0) atomicAdd(triangles, sum);
}

/// Warp per queued edge: each lane binary-searches the longer list for the shorter's entries.
__global__ void __launch_bounds__(block)
    count_long(GraphView dag, const Index* sources, const Offset* long_edges,
               const Count* long_count, Count* triangles) {
  using Reduce = cub::BlockReduce<Count, block>;
  __shared__ typename Reduce::TempStorage reduce;
  Count found = 0;
  const unsigned lane = threadIdx.x & 31u;
  const std::uint64_t warps = std::uint64_t(gridDim.x) * (block / 32);
  const Count queued = *long_count;
  for (std::uint64_t w = (std::uint64_t(blockIdx.x) * block + threadIdx.x) / 32; w < queued;
       w += warps) {
    const Offset e = long_edges[w];
    const Index u = sources[e], v = dag.col_indices[e];
    Offset short_begin = dag.begin(u), short_end = dag.end(u);
    Offset long_begin = dag.begin(v), long_end = dag.end(v);
    if (short_end - short_begin > long_end - long_begin) {
      const Offset b = short_begin, x = short_end;
      short_begin = long_begin, short_end = long_end;
      long_begin = b, long_end = x;
    }
    for (Offset k = short_begin + lane; k < short_end; k += 32) {
      const Index wanted = dag.col_indices[k];
      Offset low = long_begin, high = long_end;
      while (low < high) {
        const Offset middle = low + (high - low) / 2;
        if (dag.col_indices[middle] < wanted) low = middle + 1;
        else high = middle;
      }
      found += low < long_end && dag.col_indices[low] == wanted;
    }
  }
  const Count sum = Reduce(reduce).Sum(found);
  if (threadIdx.x == 0 && sum > 0) atomicAdd(triangles, sum);
}

class Merge final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    cc::kernels::UndirectedGraph undirected;
    undirected.upload(graph, "tc engine merge");
    vertices_ = undirected.vertices();
    offsets_ = detail::Array<Offset>(std::size_t(vertices_) + 1, Backend::cuda);
    out_degrees<<<blocks_for(vertices_), block_threads, 0, current_stream()>>>(undirected.view(),
                                                                               offsets_.data());
    GRB_CUDA_CHECK_LAUNCH();
    exclusive_scan_counts(offsets_.data(), vertices_);
    const Offset edges = read_scalar(offsets_.data() + vertices_);
    sources_ = detail::Array<Index>(edges, Backend::cuda);
    targets_ = detail::Array<Index>(edges, Backend::cuda);
    long_edges_ = detail::Array<Offset>(edges, Backend::cuda);
    counters_ = detail::Array<Count>(2, Backend::cuda);
    orient<<<blocks_for(vertices_), block_threads, 0, current_stream()>>>(
        undirected.view(), offsets_.data(), sources_.data(), targets_.data());
    GRB_CUDA_CHECK_LAUNCH();
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
    long_blocks_ = multiprocessor_count() * 8;
    ran_ = false;
    prepared_ = true;
  }

  void run() override {
    if (!prepared_) throw InvalidValue("tc engine merge: run() before prepare()");
    ran_ = true;
    triangles_ = 0;
    const GraphView dag{vertices_, vertices_, targets_.size(), offsets_.data(), targets_.data()};
    if (dag.nvals == 0) return;
    Count* triangles = counters_.data();
    Count* long_count = counters_.data() + 1;
    GRB_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, 2 * sizeof(Count), current_stream()));
    count_short<<<blocks_for(dag.nvals, block), block, 0, current_stream()>>>(
        dag, sources_.data(), long_edges_.data(), long_count, triangles);
    GRB_CUDA_CHECK_LAUNCH();
    count_long<<<long_blocks_, block, 0, current_stream()>>>(
        dag, sources_.data(), long_edges_.data(), long_count, triangles);
    GRB_CUDA_CHECK_LAUNCH();
    triangles_ = read_scalar(triangles);  // synchronizes: the count is done
  }

  Result result() const override {
    if (!ran_) throw InvalidValue("tc engine merge: result() before run()");
    return Result{triangles_, targets_.size()};
  }

  std::size_t device_bytes() const override {
    return offsets_.size() * sizeof(Offset) + (sources_.size() + targets_.size()) * sizeof(Index) +
           long_edges_.size() * sizeof(Offset) + counters_.size() * sizeof(Count);
  }

 private:
  Index vertices_ = 0;
  detail::Array<Offset> offsets_, long_edges_;
  detail::Array<Index> sources_, targets_;
  detail::Array<Count> counters_;
  unsigned long_blocks_ = 1;
  std::uint64_t triangles_ = 0;
  bool prepared_ = false;
  bool ran_ = false;
};

}  // namespace

std::unique_ptr<Engine> make_merge() { return std::make_unique<Merge>(); }

}  // namespace grb::tc::kernels
