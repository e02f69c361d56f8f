// single-block (PMPP 15.7, "reducing launch overhead"): while the frontier fits in a block's
// shared memory, one block runs level after level inside a single launch, with __syncthreads
// between levels instead of a kernel boundary and a host round trip. High-diameter graphs
// (meshes, roads) have thousands of small levels, where launch and round-trip latency, not
// work, is the cost. When a level's frontier overflows the block's queue (or has more edges than
// a block should expand), the next frontier is left in the global queue and the host runs
// grid-wide levels (bucketed expansion) until the frontier fits again, then hands it back.
#include <algorithm>
#include <vector>

#include <cub/block/block_scan.cuh>

#include "bfs/cuda/bucketed_expand.cuh"
#include "bfs/cuda/device_engine.cuh"
#include "bfs/cuda/engines.hpp"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 1024;
// Levels one launch may run before it reports back (bounds the report copied to the host).
constexpr unsigned levels_per_launch = 512;
// 16 Ki vertices per queue, two queues: 128 KiB of the H100's 227 KiB of shared memory.
constexpr unsigned largest_capacity = 16384;
// A level with more frontier edges than this (64 per thread) is a grid's work, not a block's:
// a celebrity vertex in a single block would take the whole GPU's time on one SM.
constexpr unsigned long long edge_limit = 64ull * block;
// Shared memory besides the queues: the scan's storage and one chunk's owners.
constexpr int reserved_shared = 32 * 1024;

struct LevelCount {
  unsigned long long frontier, edges;
};

/// What one launch did: `levels` levels (their counts in `level`), then stopped with a frontier
/// of `next_frontier` vertices (0 when the search is over) in the global queue.
struct Report {
  unsigned long long levels, next_frontier, next_frontier_edges;
  LevelCount level[levels_per_launch];
};

/// Each level is expanded edge-parallel within the block, a chunk of `block` frontier vertices
/// at a time: a block scan of their degrees, then every thread takes one edge and finds its
/// vertex by binary search in shared memory (the seed-004 mapping at block scale). A level's
/// latency is then a few dependent memory accesses, not a thread's walk along its list: on a
/// mesh, thousands of levels of a few thousand vertices each, that latency is the whole cost.
__global__ void __launch_bounds__(block)
    run_levels_in_one_block(GraphView out, const Index* frontier, Index frontier_size,
                            Offset frontier_edges, std::int32_t depth, unsigned capacity,
                            std::int32_t* level, Index* parent, Index* spill, Report* report) {
  using Scan = cub::BlockScan<unsigned, block>;
  extern __shared__ Index queues[];
  Index* current = queues;
  Index* next = queues + capacity;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ unsigned chunk_start[block];
  __shared__ Index chunk_vertex[block];
  __shared__ Offset chunk_begin[block];
  __shared__ unsigned next_count;
  __shared__ unsigned long long next_edges;
  __shared__ unsigned spilled;

  for (Index i = threadIdx.x; i < frontier_size; i += block) current[i] = frontier[i];
  unsigned size = frontier_size;
  unsigned long long edges = frontier_edges;

  for (unsigned step = 0;; ++step, ++depth) {
    if (threadIdx.x == 0) {
      next_count = 0;
      next_edges = 0;
      spilled = 0;
      report->level[step] = {size, edges};
    }
    __syncthreads();
    for (unsigned base = 0; base < size; base += block) {  // block-uniform
      const unsigned i = base + threadIdx.x;
      const unsigned in_chunk = size - base < block ? size - base : block;
      Index u = 0;
      Offset begin = 0;
      unsigned degree = 0;
      if (i < size) {
        u = current[i];
        begin = out.begin(u);
        degree = static_cast<unsigned>(out.end(u) - begin);
      }
      unsigned start = 0, chunk_edges = 0;
      Scan(scan_storage).ExclusiveSum(degree, start, chunk_edges);
      chunk_start[threadIdx.x] = start;
      chunk_vertex[threadIdx.x] = u;
      chunk_begin[threadIdx.x] = begin;
      __syncthreads();
      for (unsigned k = threadIdx.x; k < chunk_edges; k += block) {
        unsigned low = 0, high = in_chunk;  // the last owner whose start is <= k
        while (low < high) {
          const unsigned middle = (low + high) / 2;
          if (chunk_start[middle] <= k) low = middle + 1;
          else high = middle;
        }
        const unsigned owner = low - 1;
        const Index v = out.col_indices[chunk_begin[owner] + (k - chunk_start[owner])];
        if (atomicCAS(&level[v], unreached, depth + 1) == unreached) {
          parent[v] = chunk_vertex[owner];
          atomicAdd(&next_edges, static_cast<unsigned long long>(out.degree(v)));
          const unsigned slot = atomicAdd(&next_count, 1u);
          if (slot < capacity) next[slot] = v;
          else spill[atomicAdd(&spilled, 1u)] = v;  // overflow: the grid levels take over
        }
      }
      __syncthreads();  // the chunk's owners and the scan storage are reused next chunk
    }
    const unsigned found = next_count;
    const unsigned long long found_edges = next_edges;
    const unsigned spilled_count = spilled;
    const bool stop = found == 0 || found > capacity || found_edges > edge_limit ||
                      step + 1 == levels_per_launch;
    if (stop) {
      // The whole next frontier goes to the global queue: the spilled part is already there.
      const unsigned kept = found < capacity ? found : capacity;
      for (unsigned i = threadIdx.x; i < kept; i += block) spill[spilled_count + i] = next[i];
      if (threadIdx.x == 0) {
        report->levels = step + 1;
        report->next_frontier = found;
        report->next_frontier_edges = found_edges;
      }
      return;
    }
    Index* swap = current;
    current = next;
    next = swap;
    size = found;
    edges = found_edges;
    __syncthreads();  // everyone has read next_count before thread 0 clears it
  }
}

class SingleBlock final : public DeviceEngine {
 public:
  SingleBlock() : DeviceEngine("single-block") {}

 private:
  void prepare_engine() override {
    int device = 0, shared_limit = 0;
    GRB_CUDA_CHECK(cudaGetDevice(&device));
    GRB_CUDA_CHECK(
        cudaDeviceGetAttribute(&shared_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const unsigned fits =
        static_cast<unsigned>(std::max(shared_limit - reserved_shared, 0)) / (2 * sizeof(Index));
    capacity_ = std::min(largest_capacity, fits);
    GRB_CUDA_CHECK(cudaFuncSetAttribute(run_levels_in_one_block,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared_bytes())));
    report_ = detail::Array<Report>(1, Backend::cuda);
    // The whole report is copied back after each launch, level slots not yet written included:
    // zeroed once, so no copy reads uninitialized memory (compute-sanitizer's initcheck).
    GRB_CUDA_CHECK(cudaMemsetAsync(report_.data(), 0, sizeof(Report), current_stream()));
  }
  std::size_t engine_bytes() const override { return sizeof(Report); }
  std::size_t shared_bytes() const { return 2 * std::size_t(capacity_) * sizeof(Index); }

  void search(Index source) override {
    std::int32_t depth = 0;
    Offset frontier = 1, frontier_edges = graph_.out_degree(source);
    while (frontier > 0) {
      log_.begin_level();
      if (frontier <= capacity_ && frontier_edges <= edge_limit) {
        run_levels_in_one_block<<<1, block, shared_bytes(), current_stream()>>>(
            graph_.out(), state_.queue(), static_cast<Index>(frontier), frontier_edges, depth,
            capacity_, state_.level(), state_.parent(), state_.next_queue(), report_.data());
        GRB_CUDA_CHECK_LAUNCH();
        GRB_CUDA_CHECK(cudaMemcpyAsync(host_report_.get(), report_.data(), sizeof(Report),
                                       cudaMemcpyDeviceToHost, current_stream()));
        GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
        const Report& report = *host_report_;
        std::vector<LevelStats> levels(report.levels);
        for (std::size_t l = 0; l < levels.size(); ++l)
          levels[l] = {static_cast<Index>(report.level[l].frontier),
                       report.level[l].edges, Direction::push, 0.0};
        log_.end_levels(levels);
        depth += static_cast<std::int32_t>(levels.size());
        frontier = report.next_frontier;
        frontier_edges = report.next_frontier_edges;
      } else {
        state_.clear_counters();
        launch_expand_bucketed(graph_.out(), state_.queue(), static_cast<Index>(frontier),
                               depth + 1, state_.level(), state_.parent(), state_.next_queue(),
                               state_.counters());
        const Tally counted = state_.read_counters();
        log_.end_level(frontier, frontier_edges, Direction::push);
        frontier = counted.discovered;
        frontier_edges = counted.discovered_edges;
        ++depth;
      }
      state_.swap_queues();
    }
  }

  unsigned capacity_ = 0;
  detail::Array<Report> report_;
  PinnedValue<Report> host_report_;
};

}  // namespace

std::unique_ptr<Engine> make_single_block() { return std::make_unique<SingleBlock>(); }

}  // namespace grb::bfs::kernels
