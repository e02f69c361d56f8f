// light-heavy: delta-stepping with light and heavy edges (Meyer & Sanders 2003) on the worklist,
// in one cooperative launch.
//
// near-far relaxes every edge of a vertex each time the vertex is relaxed. On power-law graphs a
// hub's distance improves several times within its bucket (it has thousands of in-edges), and
// each time all of its edges go again: kron22 with Graph500 lengths relaxes 3-5 edges per stored
// entry whatever delta is (docs/sssp.md). Here an edge is light when its length is <= delta and
// heavy otherwise. Rounds relax only the light edges of the near queue, and each vertex they
// relax is listed once per generation. When the near side runs dry, one round relaxes the heavy
// edges of the listed vertices, once, at their final distances: a heavy edge from a bucket
// always lands beyond it (length > delta), so it cannot change the bucket. Where rounding lets a
// heavy edge land below the split after all, the vertex is queued, relaxed and listed again (a
// new generation), so no improvement is lost. Rows are sorted by length once (prepare), so a
// vertex's light edges are a prefix of its row, ending at light_end (found per delta).
//
// Each round spreads its edges evenly over a block's threads: a block takes 256 queued vertices,
// scans their edge counts (cub::BlockScan) and gives every thread the edges at its stride, each
// thread finding its edge's vertex by a binary search of the scan in shared memory. Vertices with
// 256 or more edges to relax are laid end to end instead, and the next round spreads all of
// their edges over the whole grid (see relax_spread_ranges).
#include <cub/block/block_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "grb/cuda/runtime.cuh"
#include "sssp/cuda/engines.hpp"
#include "sssp/cuda/worklist_round.cuh"

namespace grb::sssp::kernels {
namespace {

/// light_end[v]: the first edge of v's row (sorted by length) longer than delta.
__global__ void find_light_ends(WeightedView graph, double delta, Offset* light_end) {
  GRB_GRID_STRIDE_LOOP(v, graph.nrows) {
    Offset low = graph.begin(Index(v)), high = graph.end(Index(v));
    while (low < high) {
      const Offset middle = low + (high - low) / 2;
      if (graph.values[middle] <= delta)
        low = middle + 1;
      else
        high = middle;
    }
    light_end[v] = low;
  }
}

/// What the rounds of one launch share beyond the worklist's Round.
struct LightHeavy {
  const Offset* light_end;
  unsigned* settled_stamp;  // generation + 1 of the last listing
  StepLog log;              // where steps are traced, if anywhere
};

/// A block's tile: 256 queued vertices' edge ranges, scanned; and the block's appends to the next
/// round's queue and to the far pile, staged. Every improvement of a heavy round goes to the far
/// pile: appended one by one, a warp's group at a time, they serialize on the pile's one global
/// counter (kron22's spread step took 3.9 ms of 10.9 that way, `grb sssp --trace-steps`). Staged,
/// the block publishes them with one atomic, and early whenever the appends of another of its
/// strides might not fit (make_room), so nothing overflows to the global counter.
struct Tile {
  static constexpr unsigned capacity = 2048;
  using Scan = cub::BlockScan<Offset, block>;
  typename Scan::TempStorage scan;
  Offset start[block];  // the tile position of vertex t's first edge
  Offset first_edge[block];
  double from[block];
  StagedList<capacity> near, far;

  /// After a barrier that follows a stride's appends, every thread of the block calls it: the
  /// staged lists are published if the next `coming` appends a list might not fit.
  __device__ void make_room(unsigned coming, const Round& round) {
    if (near.staged + coming <= capacity && far.staged + coming <= capacity) return;  // uniform
    publish(round);
    __syncthreads();
    near.clear();
    far.clear();
    __syncthreads();
  }
  /// Every thread of the block calls it, after a barrier that follows the last append.
  __device__ void publish(const Round& round) {
    const unsigned next = (round.number + 1) % 3;
    near.flush(slot(round.queues.near, next), &round.counters->near_tail[next]);
    far.flush(slot(round.queues.far, round.far_slot), &round.counters->far_tail[round.far_slot]);
  }
  /// Round's relaxation of edge (v, length) from `from`, its appends staged here.
  __device__ void relax(const Round& round, double from, Index v, double length,
                        unsigned long long& far_low) {
    Index* const far_list = slot(round.queues.far, round.far_slot);
    round.relax_into(from, v, length, &far_low,
                     [&](Index w, Index* list, unsigned long long* tail) {
                       (list == far_list ? far : near).push(w, list, tail);
                     });
  }
};

/// Spread ranges: a round's vertices with `spread_degree` edges or more to relax are laid end
/// to end, and the next round relaxes all of their edges at once (relax_spread_ranges). A tile's
/// block would relax such a vertex's edges alone:
/// in the first bucket's heavy round (three quarters of all relaxations on Kronecker graphs,
/// `benchmarks/sssp_rounds`) a few blocks would then hold most of the work while the grid waits.
/// hub_tail packs the ranges' count (above bit 40) and their edges (below), so that one atomic
/// numbers a range and places it.
constexpr Offset spread_degree = 256;
// A lane's positions a stride, loaded before any is relaxed. On the H100, kron22 took 9.09 ms
// with 2, 9.84 with 4 (64 registers, 4 blocks an SM) and 9.68 with 4 at 3 blocks an SM (80
// registers): fewer live values spill less (`grb sssp --kron 22 --engine light-heavy`).
constexpr unsigned spread_edges = 2;
constexpr int count_shift = 40;
constexpr unsigned long long edge_mask = (1ull << count_shift) - 1;

/// The ranges a previous round spread (`packed`: their count and edges, as hub_tail holds them).
/// Each block takes a contiguous span of positions, in strides of spread_stride: a warp 32 x
/// spread_edges consecutive ones a stride, a lane spread_edges of them, loaded before any is
/// relaxed. A lane's positions only move forward, so it searches for its range once and then
/// walks. Every thread of the block calls it (the appends are staged in `tile`).
constexpr unsigned spread_stride = block * spread_edges;

__device__ void relax_spread_ranges(const WeightedView& graph, const Round& round,
                                    const HubRange* ranges, unsigned long long packed, Tile& tile,
                                    unsigned long long& far_low, unsigned long long& inspected) {
  const unsigned long long count = packed >> count_shift, total = packed & edge_mask;
  if (count == 0) return;  // uniform: read after a barrier
  const unsigned long long strides = (total + spread_stride - 1) / spread_stride;
  const unsigned long long per_block = (strides + gridDim.x - 1) / gridDim.x * spread_stride;
  const unsigned long long begin = blockIdx.x * per_block;
  const unsigned long long end = begin + per_block < total ? begin + per_block : total;
  const unsigned long long lane_offset = (threadIdx.x / 32) * 32 * spread_edges + lane_id();
  // The last range placed at or before this lane's first position.
  unsigned long long low = 0;
  if (begin + lane_offset < end) {
    unsigned long long high = count - 1;
    while (low < high) {
      const unsigned long long middle = (low + high + 1) / 2;
      if (ranges[middle].base <= begin + lane_offset)
        low = middle;
      else high = middle - 1;
    }
  }
  HubRange range = ranges[low];
  double range_from = distance_of(round.distance[range.vertex]);
  tile.near.clear();
  tile.far.clear();
  __syncthreads();
  for (unsigned long long stride = begin; stride < end; stride += spread_stride) {
    Index target[spread_edges];
    double length[spread_edges], from[spread_edges];
    bool in[spread_edges];
#pragma unroll
    for (unsigned j = 0; j < spread_edges; ++j) {
      const unsigned long long position = stride + lane_offset + j * 32;
      in[j] = position < end;
      if (!in[j]) continue;
      if (position >= range.base + (range.end - range.begin)) {
        do range = ranges[++low];
        while (position >= range.base + (range.end - range.begin));
        range_from = distance_of(round.distance[range.vertex]);
      }
      const Offset e = range.begin + (position - range.base);
      target[j] = graph.target(e);
      length[j] = graph.length(e);
      from[j] = range_from;
    }
    unsigned long long current[spread_edges];
#pragma unroll
    for (unsigned j = 0; j < spread_edges; ++j)
      if (in[j]) current[j] = round.distance[target[j]];
#pragma unroll
    for (unsigned j = 0; j < spread_edges; ++j)
      if (in[j]) {
        // Most edges do not improve on the distance read above, with the chunk's other loads.
        if (from[j] + length[j] < distance_of(current[j]))
          tile.relax(round, from[j], target[j], length[j], far_low);
        ++inspected;
      }
    __syncthreads();
    tile.make_room(spread_stride, round);
  }
  __syncthreads();
  tile.publish(round);
  __syncthreads();  // the tile is rewritten next
}

/// The light (heavy = false) or heavy edges of `size` queued vertices, tile by tile. Light:
/// each vertex is listed in `settled` once per generation (`mark`). Hub ranges go to `hubs`.
/// A tile is 256 vertices where the round has enough for every block, else as few as 32: a
/// block relaxes its tile's edges alone, so a few wide tiles would leave most blocks idle while
/// their owners loop (a middle bucket's heavy round: a few ten thousand vertices of ~100 edges).
template <bool heavy>
__device__ void relax_tiles(const WeightedView& graph, const LightHeavy& split, const Round& round,
                            const Index* items, unsigned long long size, Index* settled,
                            unsigned long long* settled_tail, unsigned mark, HubRange* hubs,
                            unsigned long long* hub_tail, Tile& tile, unsigned long long& far_low,
                            unsigned long long& inspected) {
  unsigned width = block;
  while (width > 32 && size <= std::uint64_t(width / 2) * gridDim.x) width /= 2;
  for (unsigned long long base = std::uint64_t(blockIdx.x) * width; base < size;
       base += std::uint64_t(gridDim.x) * width) {
    const unsigned long long i = base + threadIdx.x;
    Offset begin = 0, end = 0;
    double from = 0;
    if (threadIdx.x < width && i < size) {
      const Index u = items[i];
      begin = heavy ? split.light_end[u] : graph.begin(u);
      end = heavy ? graph.end(u) : split.light_end[u];
      if (!heavy && atomicExch(&split.settled_stamp[u], mark) != mark)
        settled[queue_slot(settled_tail)] = u;
      from = distance_of(round.distance[u]);
    }
    // Spread ranges: numbered and placed by one atomic a warp (a scan of count << 40 | edges).
    const bool spread = end - begin >= spread_degree;
    const unsigned long long mine = spread ? (1ull << count_shift) | (end - begin) : 0;
    const unsigned long long through = warp_inclusive_sum(mine);
    unsigned long long placed = 0;
    if (lane_id() == 31 && through != 0) placed = atomicAdd(hub_tail, through);
    placed = __shfl_sync(full_warp, placed, 31) + through - mine;
    if (spread) {
      hubs[placed >> count_shift] = HubRange{items[i], begin, end, placed & edge_mask};
      end = begin;
    }
    Offset start = 0, total = 0;
    Tile::Scan(tile.scan).ExclusiveSum(end - begin, start, total);
    tile.start[threadIdx.x] = start;
    tile.first_edge[threadIdx.x] = begin;
    tile.from[threadIdx.x] = from;
    tile.near.clear();
    tile.far.clear();
    __syncthreads();
    for (Offset stride = 0; stride < total; stride += block) {  // block-uniform: see make_room
      const Offset x = stride + threadIdx.x;
      if (x < total) {
        // The last vertex whose range starts at or before x: vertices with no edges share their
        // successor's start, so the last one is the one whose range holds x.
        int low = 0, high = int(width) - 1;
        while (low < high) {
          const int middle = (low + high + 1) / 2;
          if (tile.start[middle] <= x)
            low = middle;
          else
            high = middle - 1;
        }
        const Offset e = tile.first_edge[low] + (x - tile.start[low]);
        tile.relax(round, tile.from[low], graph.target(e), graph.length(e), far_low);
        ++inspected;
      }
      __syncthreads();
      tile.make_room(block, round);
    }
    tile.publish(round);
    __syncthreads();  // the tile is rewritten next
  }
}

/// Folds this thread's smallest far improvement into `minimum`, a warp at a time, and resets it.
/// Called where the whole warp is (the end of a round or a split).
__device__ void flush_far_low(unsigned long long& far_low, unsigned long long* minimum) {
  const unsigned long long smallest = warp_reduce(far_low, ::cuda::minimum<>{});
  if (lane_id() == 0 && smallest != ~0ull) atomicMin(minimum, smallest);
  far_low = ~0ull;
}

/// The whole search after start(): light rounds while the near side has work, a heavy round
/// when it runs dry and vertices owe heavy edges, else a phase change. Values that decide
/// control flow follow persistent_near_far's rules (worklist.cu): read after a barrier, not
/// written before the next. The settled list of generation g is slot g % 2; the heavy round of g
/// clears the other slot's tail, last read by the heavy round of g - 1, before a barrier.
///
/// The far minimum needs no pass of its own: every improvement at or above the split is folded
/// into far_minimum[phase % 3] as it happens, and the split folds the distances of the vertices
/// it keeps into the next phase's slot. So a phase change is one pass over the pile and one
/// barrier, where persistent_near_far makes two of each. A vertex that later drops below the
/// split leaves a stale, larger value behind: the minimum is then at most the true one, and at
/// worst a phase finds its bucket empty. Phase p reads slot p % 3 and clears slot (p + 2) % 3,
/// which phase p - 1 read (before a barrier) and phase p + 1's split fills (after one).
__global__ void __launch_bounds__(block, 4)
    persistent_light_heavy(WeightedView graph, LightHeavy split, Round round, double delta) {
  __shared__ Tile tile;
  const cg::grid_group grid = cg::this_grid();
  Counters* counters = round.counters;
  const bool first_thread = blockIdx.x == 0 && threadIdx.x == 0;
  unsigned long long inspected = 0, far_low = ~0ull;
  unsigned generation = 0;
  for (unsigned phase = 0;;) {
    const unsigned k = round.number;
    const unsigned long long size = counters->near_tail[k % 3];
    const unsigned long long hubs = counters->hub_tail[(k + 2) % 3];  // packed: see above
    const unsigned g = generation % 2;
    if (size + hubs > 0) {
      if (first_thread) {
        begin_round(counters, k, size + hubs);
        split.log.record(counters, 0, size, hubs & edge_mask);
      }
      relax_spread_ranges(graph, round, slot(round.queues.hub_ranges, (k + 2) % 3), hubs, tile,
                          far_low, inspected);
      relax_tiles<false>(graph, split, round, slot(round.queues.near, k % 3), size,
                         slot(round.queues.settled, g), &counters->settled_tail[g], generation + 1,
                         slot(round.queues.hub_ranges, k % 3), &counters->hub_tail[k % 3], tile,
                         far_low, inspected);
      flush_far_low(far_low, &counters->far_minimum[phase % 3]);
      ++round.number;
      grid.sync();
      continue;
    }
    const unsigned long long settled = counters->settled_tail[g];
    if (settled > 0) {
      if (first_thread) {
        begin_round(counters, k, settled);
        counters->settled_tail[1 - g] = 0;
        ++counters->heavy_rounds;
        split.log.record(counters, 1, settled, 0);
      }
      relax_tiles<true>(graph, split, round, slot(round.queues.settled, g), settled, nullptr,
                        nullptr, 0, slot(round.queues.hub_ranges, k % 3),
                        &counters->hub_tail[k % 3], tile, far_low, inspected);
      flush_far_low(far_low, &counters->far_minimum[phase % 3]);
      ++generation;
      ++round.number;
      grid.sync();
      continue;
    }
    const unsigned pile = round.far_slot;
    const unsigned long long piled = counters->far_tail[pile];
    const unsigned long long smallest = counters->far_minimum[phase % 3];
    if (piled == 0 || smallest >= infinity_bits) break;
    const double next = next_split_after(distance_of(smallest), delta);
    if (first_thread) {
      counters->far_minimum[(phase + 2) % 3] = ~0ull;
      split.log.record(counters, 2, piled, 0);
    }
    {
      // The split's appends are staged too: near queue k (the round after this phase change)
      // and the other far pile.
      Round target = round;
      target.number = k - 1;
      target.far_slot = 1 - pile;
      tile.near.clear();
      tile.far.clear();
      __syncthreads();
      split_far_pile(
          round.distance, round.stamp, round.in_far, round.queues, pile, piled, round.split, next,
          k, counters, &far_low,
          [&](Index v, Index* list, unsigned long long* tail) {
            (list == slot(round.queues.far, 1 - pile) ? tile.far : tile.near).push(v, list, tail);
          },
          [&] {
            __syncthreads();
            tile.make_room(block, target);
          });
      __syncthreads();
      tile.publish(target);
      __syncthreads();
    }
    flush_far_low(far_low, &counters->far_minimum[(phase + 1) % 3]);
    if (first_thread) {
      counters->far_tail[pile] = 0;
      ++counters->splits;
    }
    round.far_slot = 1 - pile;
    round.split = next;
    ++phase;
    grid.sync();
  }
  if (first_thread) split.log.record(counters, trace_end, 0, 0);
  // Every thread leaves by the same branch (the values above are uniform): the warps are whole.
  const unsigned long long warp_inspected = warp_reduce(inspected, ::cuda::std::plus<>{});
  if (lane_id() == 0 && warp_inspected > 0) atomicAdd(&counters->relaxations, warp_inspected);
}

class LightHeavyEngine final : public WorklistEngine {
 public:
  LightHeavyEngine() : WorklistEngine("light-heavy", true) {}

 private:
  void search(Index source, const Options& options) override {
    delta_ = options.delta > 0 ? options.delta : light_heavy_delta(summary_);
    worklist_.start(source, delta_);
    if (worklist_.persistent()) {
      phases_ = worklist_.settle_light_heavy(delta_, options.trace_steps);
      return;
    }
    phases_ = worklist_.settle_on_host(delta_);  // no cooperative launch: near-far's loop
  }
};

}  // namespace

/// Offset o, less a chunk's first: the chunk's rows as CUB sees them.
struct Rebased {
  Offset first;
  __host__ __device__ std::int64_t operator()(Offset o) const {
    return static_cast<std::int64_t>(o - first);
  }
};

void WeightedGraph::sort_rows_by_length() {
  // The rows go in chunks of whole rows of about an eighth of the edges each (more where one row
  // is longer), sorted into a buffer of the chunk's size and copied back: CUB's second buffers
  // for every edge at once were 12 bytes an edge at prepare()'s peak, ~25 GB at Graph500 scale 26.
  const Offset total = edges();
  const auto offset_at = [&](Index row) {
    Offset value;
    GRB_CUDA_CHECK(cudaMemcpyAsync(&value, offsets_.data() + row, sizeof value,
                                   cudaMemcpyDeviceToHost, current_stream()));
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
    return value;
  };
  // The first row whose offset is at least `edge` (the row after the chunk ending before it).
  const auto row_at = [&](Offset edge) {
    Index low = 0, high = vertices_;
    while (low < high) {
      const Index middle = low + (high - low) / 2;
      if (offset_at(middle) < edge) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const Offset target = std::max<Offset>(total / 8, 1);
  detail::Array<double> lengths;
  detail::Array<Index> targets;
  for (Index first_row = 0; first_row < vertices_;) {
    const Offset first = offset_at(first_row);
    Index end_row = std::max(row_at(first + target), first_row + 1);
    if (end_row > vertices_) end_row = vertices_;
    const Offset end = offset_at(end_row);
    const Offset size = end - first;
    if (size > 0) {
      if (lengths.size() < size) {
        lengths = detail::Array<double>(size, Backend::cuda);
        targets = detail::Array<Index>(size, Backend::cuda);
      }
      const auto begins =
          thrust::make_transform_iterator(offsets_.data() + first_row, Rebased{first});
      cub_run([&](void* temporary, std::size_t& bytes) {
        return cub::DeviceSegmentedSort::SortPairs(
            temporary, bytes, lengths_.data() + first, lengths.data(), targets_.data() + first,
            targets.data(), static_cast<std::int64_t>(size),
            static_cast<std::int64_t>(end_row - first_row), begins, begins + 1, current_stream());
      });
      GRB_CUDA_CHECK(cudaMemcpyAsync(lengths_.data() + first, lengths.data(),
                                     size * sizeof(double), cudaMemcpyDeviceToDevice,
                                     current_stream()));
      GRB_CUDA_CHECK(cudaMemcpyAsync(targets_.data() + first, targets.data(),
                                     size * sizeof(Index), cudaMemcpyDeviceToDevice,
                                     current_stream()));
    }
    first_row = end_row;
  }
  GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));  // the buffers go out of scope
}

void Worklist::allocate_light_heavy(const WeightedGraph& graph) {
  const Index n = graph.vertices();
  light_end_ = detail::Array<Offset>(n, Backend::cuda);
  light_delta_ = -1;
  for (auto& list : settled_) list = detail::Array<Index>(n, Backend::cuda);
  settled_stamp_ = detail::Array<unsigned>(n, Backend::cuda);
  // A round lists each vertex at most once, and a spread range holds spread_degree edges or more.
  const std::size_t hubs = std::min<std::uint64_t>(n, graph.edges() / spread_degree + 1);
  for (auto& list : hub_ranges_) list = detail::Array<HubRange>(hubs, Backend::cuda);
  light_heavy_blocks_ =
      cooperative_launch_supported() ? resident_blocks(persistent_light_heavy, block) : 0u;
}

std::uint64_t Worklist::settle_light_heavy(double delta, bool trace) {
  if (delta != light_delta_) {
    find_light_ends<<<blocks_for(graph_.nrows), block, 0, current_stream()>>>(graph_, delta,
                                                                              light_end_.data());
    GRB_CUDA_CHECK(cudaGetLastError());
    light_delta_ = delta;
  }
  GRB_CUDA_CHECK(cudaMemsetAsync(settled_stamp_.data(), 0, settled_stamp_.size() * sizeof(unsigned),
                                 current_stream()));
  WeightedView graph = graph_;
  LightHeavy split{light_end_.data(), settled_stamp_.data(), step_log(trace)};
  Round round = this->round();
  void* arguments[] = {&graph, &split, &round, &delta};
  GRB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(persistent_light_heavy),
                                             light_heavy_blocks_, block, arguments, 0,
                                             current_stream()));
  read_counters();
  return 1 + (*host_).splits;
}

std::unique_ptr<Engine> make_light_heavy() { return std::make_unique<LightHeavyEngine>(); }

}  // namespace grb::sssp::kernels
