// cluster: many levels inside one Hopper thread-block cluster (up to 16 blocks of 1024 threads,
// one per SM), the frontier kept in the blocks' shared memory, a hardware cluster barrier
// between levels. On high-diameter graphs (meshes, roads: thousands of levels of a few thousand
// vertices) a level's cost is latency: `persistent`'s grid barrier over every resident block and
// its global queue tail cost ~3.5-5 us per level on the H100; here a level is one cluster
// barrier plus a short chain of dependent accesses:
//   frontier record (shared memory, or a neighbour block's through distributed shared memory)
//   -> its out-edges' targets -> atomicCAS on each target's level -> the winner's offsets.
// A queue record carries its vertex's edge range, read when the vertex was discovered, so a
// level does not start by reading offsets. Each block appends its discoveries to its own
// shared-memory queue (one shared atomic per warp) and, after a block barrier, pushes its
// counts into every block's shared memory; after the cluster barrier every block knows every
// queue's size without another read. A level runs a thread per frontier vertex, each thread
// walking its (at most largest_degree) edges four at a time so that their loads and atomics
// are in flight together.
//
// The fast path holds at most blocks x capacity vertices of degree <= largest_degree. The kernel
// stops and leaves the next frontier in the global queue when a block's queue overflows (the
// overflow goes straight to the global queue), when a vertex of larger degree is discovered, or
// after levels_per_launch levels; the host then runs a grid-wide bucketed level (hubs,
// oversized frontiers) or launches the cluster again. It refuses (runs no level) a starting
// frontier that holds a vertex of larger degree.
#include <cooperative_groups.h>

#include <algorithm>
#include <vector>

#include "bfs/frontier/bucketed_expand.cuh"
#include "bfs/frontier/device_engine.cuh"
#include "bfs/frontier/engines.hpp"

namespace grb::bfs::frontier {
namespace {

namespace cg = cooperative_groups;

constexpr unsigned block = 1024;
constexpr unsigned largest_cluster = 16;  // Hopper's non-portable limit (8 is portable)
// Records per block and per queue: 2 x 4096 x 16 bytes = 128 KiB of the H100's 227 KiB.
constexpr unsigned largest_capacity = 4096;
// Shared memory besides the queues (shares, tallies), with room to spare.
constexpr int reserved_shared = 8 * 1024;
// A frontier vertex is one thread's work, so its degree bounds the level's critical path;
// larger degrees go to the grid-wide bucketed level (a warp or a block per hub).
constexpr Offset largest_degree = 32;
constexpr unsigned edges_per_step = 4;
constexpr unsigned levels_per_launch = 8192;

/// A frontier vertex with its out-edges, targets[begin .. begin + degree).
struct alignas(16) Record {
  Offset begin;
  Index vertex;
  Index degree;
};

/// One block's appends during a level: vertices discovered (those past the queue's capacity
/// went to the global queue), their out-degree sum, whether one has degree > largest_degree.
struct Share {
  unsigned count;
  unsigned huge;
  unsigned long long edges;
};

struct LevelCount {
  unsigned long long frontier, edges;
};

/// What one launch did: `levels` levels (counts in `level`), then stopped with a frontier of
/// `next_frontier` vertices (`next_edges` out-edges) in the global next queue. levels == 0:
/// refused; the frontier is still in the global queue. `huge`: the frontier holds a vertex of
/// degree > largest_degree.
struct ReportHeader {
  unsigned long long levels, next_frontier, next_edges, huge, spilled;
};
struct Report {
  ReportHeader header;
  LevelCount level[levels_per_launch];
};

struct Buffers {
  GraphView out;
  std::int32_t* level;
  Index* parent;
  const Index* frontier;  // the starting frontier
  Index* next;            // overflow during a level; the next frontier when the kernel stops
  Report* report;
};

__device__ unsigned long long warp_sum(unsigned long long value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

/// Appends the lane's discoveries (vertex[k], begin[k], degree[k] for the set bits k of `won`)
/// to the block's queue, with one shared atomic per warp; past `capacity` they go to the
/// global queue. Every lane calls it.
__device__ void append(unsigned won, const Index (&vertex)[edges_per_step],
                       const Offset (&begin)[edges_per_step],
                       const Offset (&degree)[edges_per_step], Record* queue, unsigned capacity,
                       Share& tally, Index* overflow, unsigned long long* overflow_tail) {
  const unsigned found = __popc(won);
  unsigned inclusive = found;
  for (int offset = 1; offset < 32; offset *= 2) {
    const unsigned below = __shfl_up_sync(0xffffffffu, inclusive, offset);
    if (lane_id() >= unsigned(offset)) inclusive += below;
  }
  const unsigned total = __shfl_sync(0xffffffffu, inclusive, 31);
  if (total == 0) return;
  unsigned base = 0;
  if (lane_id() == 31) base = atomicAdd(&tally.count, total);
  unsigned slot = __shfl_sync(0xffffffffu, base, 31) + inclusive - found;
  unsigned long long edges = 0;
  bool huge = false;
#pragma unroll
  for (unsigned k = 0; k < edges_per_step; ++k) {
    if (won & (1u << k)) {
      if (slot < capacity)
        queue[slot] = {begin[k], vertex[k], static_cast<Index>(degree[k])};
      else
        overflow[atomicAdd(overflow_tail, 1ull)] = vertex[k];
      ++slot;
      edges += degree[k];
      huge |= degree[k] > largest_degree;
    }
  }
  edges = warp_sum(edges);
  const bool any_huge = __any_sync(0xffffffffu, huge);
  if (lane_id() == 0) {
    if (edges > 0) atomicAdd(&tally.edges, edges);
    if (any_huge) atomicOr(&tally.huge, 1u);
  }
}

/// One frontier vertex (if `has`): claims its targets for level `next_level`, edges_per_step
/// at a time so that their loads and atomics overlap. Every lane calls it.
__device__ void expand(bool has, const Record& record, const GraphView& out,
                       std::int32_t next_level, std::int32_t* level, Index* parent,
                       Record* queue, unsigned capacity, Share& tally, Index* overflow,
                       unsigned long long* overflow_tail) {
  const unsigned degree = has ? record.degree : 0;
  const unsigned steps =
      __reduce_max_sync(0xffffffffu, (degree + edges_per_step - 1) / edges_per_step);
  for (unsigned step = 0; step < steps; ++step) {
    const unsigned first = step * edges_per_step;
    Index target[edges_per_step];
#pragma unroll
    for (unsigned k = 0; k < edges_per_step; ++k)
      target[k] = first + k < degree ? __ldg(out.targets + record.begin + first + k) : 0;
    // Straight to the atomic, no plain read first: on a mesh about half the targets are new,
    // and a read before the atomic would add a round trip to the level's critical path.
    unsigned won = 0;
#pragma unroll
    for (unsigned k = 0; k < edges_per_step; ++k)
      if (first + k < degree && atomicCAS(level + target[k], unreached, next_level) == unreached)
        won |= 1u << k;
    Offset begin[edges_per_step], out_degree[edges_per_step];
#pragma unroll
    for (unsigned k = 0; k < edges_per_step; ++k) {
      begin[k] = 0;
      out_degree[k] = 0;
      if (won & (1u << k)) {
        parent[target[k]] = record.vertex;
        begin[k] = __ldg(out.offsets + target[k]);
        out_degree[k] = __ldg(out.offsets + target[k] + 1) - begin[k];
      }
    }
    append(won, target, begin, out_degree, queue, capacity, tally, overflow, overflow_tail);
  }
}

__global__ void __launch_bounds__(block, 1)
    search_in_cluster(Buffers buffers, Index frontier_size, std::int32_t depth,
                      unsigned capacity) {
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const unsigned blocks = cluster.num_blocks();
  const unsigned thread = threadIdx.x;
  const GraphView out = buffers.out;
  extern __shared__ Record queues[];  // two queues of `capacity` records, by level parity
  // shares[p][r]: what block r appended to its queue p at the last level that filled it.
  __shared__ Share shares[2][largest_cluster];
  __shared__ Share tallies[2];  // this block's appends to its queue p
  unsigned long long* overflow_tail = &buffers.report->header.spilled;

  // The starting frontier, split evenly over the blocks (so an overflowed frontier is rebalanced).
  const Index per_block = (frontier_size + blocks - 1) / blocks;
  const Index first = std::min(rank * per_block, frontier_size);
  const Index last = std::min(first + per_block, frontier_size);
  if (thread == 0) {
    tallies[0] = {last - first, 0, 0};
    tallies[1] = {0, 0, 0};
    if (rank == 0) *overflow_tail = 0;  // the launch's first overflow comes after the barrier
  }
  __syncthreads();
  {
    unsigned long long edges = 0;
    bool huge = false;
    for (Index i = first + thread; i < last; i += block) {
      const Index u = buffers.frontier[i];
      const Offset begin = out.begin(u), degree = out.end(u) - begin;
      queues[i - first] = {begin, u, static_cast<Index>(degree)};
      edges += degree;
      huge |= degree > largest_degree;
    }
    edges = warp_sum(edges);
    huge = __any_sync(0xffffffffu, huge);
    if (lane_id() == 0) {
      if (edges > 0) atomicAdd(&tallies[0].edges, edges);
      if (huge) atomicOr(&tallies[0].huge, 1u);
    }
  }

  for (unsigned step = 0;; ++step) {
    const unsigned filled = (step + 1) & 1;  // the queue this level's discoveries go to
    __syncthreads();  // this block's tally of queue `filled ^ 1` is complete
    if (thread < blocks) *cluster.map_shared_rank(&shares[filled ^ 1][rank], thread) = tallies[filled ^ 1];
    if (thread == 0) tallies[filled] = {0, 0, 0};  // pushed at the last level, refilled at this one
    cluster.sync();

    const unsigned current = filled ^ 1;
    unsigned long long total = 0, edges = 0, spilled = 0, kept_before = 0;
    unsigned largest = 0;
    bool huge = false;
    for (unsigned r = 0; r < blocks; ++r) {
      const Share share = shares[current][r];
      const unsigned kept = std::min(share.count, capacity);
      if (r < rank) kept_before += kept;
      total += share.count;
      spilled += share.count - kept;
      edges += share.edges;
      largest = std::max(largest, share.count);
      huge |= share.huge != 0;
    }
    // Every block computed the same totals: all stop together.
    if (total == 0 || huge || largest > capacity || step == levels_per_launch) {
      if (step > 0) {  // the frontier is in shared memory (and overflow): hand it over
        const unsigned kept = std::min(shares[current][rank].count, capacity);
        const Record* queue = queues + current * capacity;
        for (unsigned i = thread; i < kept; i += block)
          buffers.next[spilled + kept_before + i] = queue[i].vertex;
      }
      if (rank == 0 && thread == 0)
        buffers.report->header = {step, total, edges, huge ? 1ull : 0ull, spilled};
      return;
    }
    if (rank == 0 && thread == 0) buffers.report->level[step] = {total, edges};

    const std::int32_t next_level = depth + static_cast<std::int32_t>(step) + 1;
    Record* queue = queues + filled * capacity;
    if (largest <= block) {  // each block expands its own queue, a vertex per thread
      const bool has = thread < shares[current][rank].count;
      const Record record = has ? queues[current * capacity + thread] : Record{};
      expand(has, record, out, next_level, buffers.level, buffers.parent, queue, capacity,
             tallies[filled], buffers.next, overflow_tail);
    } else {
      // Balance over the cluster: frontier position f goes to thread f / blocks of block
      // f % blocks, and its record is read from its owner's shared memory.
      for (unsigned long long base = 0; base < total; base += std::uint64_t(blocks) * block) {
        const unsigned long long f = base + std::uint64_t(thread) * blocks + rank;
        const bool has = f < total;
        Record record{};
        if (has) {
          unsigned owner = 0;
          unsigned long long position = f;
          while (position >= shares[current][owner].count)
            position -= shares[current][owner++].count;
          record = cluster.map_shared_rank(queues + current * capacity, owner)[position];
        }
        expand(has, record, out, next_level, buffers.level, buffers.parent, queue, capacity,
               tallies[filled], buffers.next, overflow_tail);
      }
    }
  }
}

class Cluster final : public DeviceEngine {
 public:
  Cluster() : DeviceEngine("cluster") {}

 private:
  cudaLaunchConfig_t config(unsigned cluster_size, cudaLaunchAttribute* attribute) const {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(cluster_size);
    config.blockDim = dim3(block);
    config.dynamicSmemBytes = shared_bytes();
    attribute->id = cudaLaunchAttributeClusterDimension;
    attribute->val.clusterDim.x = cluster_size;
    attribute->val.clusterDim.y = 1;
    attribute->val.clusterDim.z = 1;
    config.attrs = attribute;
    config.numAttrs = 1;
    return config;
  }
  std::size_t shared_bytes() const { return 2 * std::size_t(capacity_) * sizeof(Record); }

  void prepare_engine() override {
    int device = 0, cluster_launch = 0, shared_limit = 0;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    check_cuda(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device),
               "cudaDeviceGetAttribute(cluster launch)");
    if (!cluster_launch)
      throw BackendUnavailable("bfs engine cluster: the GPU cannot launch thread-block clusters");
    check_cuda(cudaDeviceGetAttribute(&shared_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                      device),
               "cudaDeviceGetAttribute(shared memory)");
    const unsigned fits = static_cast<unsigned>(std::max(shared_limit - reserved_shared, 0)) /
                          (2 * sizeof(Record));
    capacity_ = std::min(largest_capacity, fits);
    if (capacity_ == 0)
      throw BackendUnavailable("bfs engine cluster: too little shared memory per block");
    check_cuda(cudaFuncSetAttribute(search_in_cluster, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(shared_bytes())),
               "cudaFuncSetAttribute(shared memory)");
    check_cuda(cudaFuncSetAttribute(search_in_cluster,
                                    cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
               "cudaFuncSetAttribute(non-portable cluster size)");
    // The largest cluster the GPU can hold at once (a GPC's worth of SMs).
    blocks_ = 0;
    for (unsigned size = largest_cluster; size >= 1 && blocks_ == 0; size /= 2) {
      cudaLaunchAttribute attribute;
      const cudaLaunchConfig_t candidate = config(size, &attribute);
      int clusters = 0;
      if (cudaOccupancyMaxActiveClusters(&clusters, search_in_cluster, &candidate) != cudaSuccess)
        (void)cudaGetLastError();  // this size is not supported: try a smaller one
      else if (clusters > 0)
        blocks_ = size;
    }
    if (blocks_ == 0)
      throw BackendUnavailable("bfs engine cluster: no cluster of 1024-thread blocks fits");
    report_ = detail::Array<Report>(1, Backend::cuda);
  }
  std::size_t engine_bytes() const override { return sizeof(Report); }

  /// Runs levels in the cluster from `frontier` vertices in the queue at `depth`; false when
  /// the kernel refused (a starting vertex of degree > largest_degree).
  ReportHeader launch(Index frontier, std::int32_t depth) {
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t launch_config = config(blocks_, &attribute);
    Buffers buffers{graph_.out(),     state_.level(),       state_.parent(),
                    state_.queue(),   state_.next_queue(),  report_.data()};
    check_cuda(cudaLaunchKernelEx(&launch_config, search_in_cluster, buffers, frontier, depth,
                                  capacity_),
               "cudaLaunchKernelEx(search_in_cluster)");
    check_cuda(cudaMemcpyAsync(&host_report_.get()->header, &report_.data()->header,
                               sizeof(ReportHeader), cudaMemcpyDeviceToHost),
               "cudaMemcpyAsync(report)");
    check_cuda(cudaStreamSynchronize(nullptr), "search_in_cluster");
    const ReportHeader header = (*host_report_).header;
    if (header.levels > 0) {
      check_cuda(cudaMemcpy(host_report_.get()->level, report_.data()->level,
                            header.levels * sizeof(LevelCount), cudaMemcpyDeviceToHost),
                 "cudaMemcpy(report levels)");
    }
    return header;
  }

  void search(Index) override {
    const unsigned long long capacity = std::uint64_t(blocks_) * capacity_;
    std::int32_t depth = 0;
    unsigned long long frontier = 1, frontier_edges = 0;
    bool grid_level = false;  // the frontier holds a hub: one grid-wide level first
    while (frontier > 0) {
      log_.begin_level();
      if (!grid_level && frontier <= capacity) {
        const ReportHeader header = launch(static_cast<Index>(frontier), depth);
        if (header.levels > 0) {
          const Report& report = *host_report_;
          std::vector<LevelStats> levels(header.levels);
          for (std::size_t l = 0; l < levels.size(); ++l)
            levels[l] = {static_cast<Index>(report.level[l].frontier), report.level[l].edges,
                         Direction::push, 0.0};
          log_.end_levels(levels);
          state_.swap_queues();
        }
        depth += static_cast<std::int32_t>(header.levels);
        frontier = header.next_frontier;
        frontier_edges = header.next_edges;
        grid_level = header.huge != 0;
      } else {
        state_.clear_counters();
        launch_expand_bucketed(graph_.out(), state_.queue(), static_cast<Index>(frontier),
                               depth + 1, state_.level(), state_.parent(), state_.next_queue(),
                               state_.counters());
        const Tally counted = state_.read_counters();
        log_.end_level(frontier, frontier_edges, Direction::push);
        state_.swap_queues();
        frontier = counted.discovered;
        frontier_edges = counted.discovered_edges;
        ++depth;
        grid_level = false;
      }
    }
  }

  unsigned blocks_ = 0, capacity_ = 0;
  detail::Array<Report> report_;
  PinnedValue<Report> host_report_;
};

}  // namespace

std::unique_ptr<Engine> make_cluster() { return std::make_unique<Cluster>(); }

}  // namespace grb::bfs::frontier
