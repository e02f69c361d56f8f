// The parents of a worklist run (Worklist::recover_parents): after the search, each reached
// vertex v != source takes an in-neighbour u with dist[u] + w(u, v) == dist[v].
//
// On a symmetric graph (Matrix::mark_symmetric: in-edges are out-edges) each vertex looks
// through its own row and stops at the first strictly tight edge (pull_parents, long rows a
// block each: long_row_parents). light-heavy sorts rows by length, shortest first, and a vertex's
// tight edge is mostly among its shortest, so most vertices read a few edges where the edge
// pass (tight_parents) reads every edge and its target's distance at random. Otherwise, or for
// vertices left without a strictly tight in-edge (zero lengths, lengths lost to rounding), the
// edge passes: tight_parents, then tie rounds that resolve ties from vertices resolved earlier.
#include "sssp/cuda/worklist_round.cuh"

namespace grb::sssp::kernels {
namespace {

/// Rows this long or longer are looked through by a block each (long_row_parents): a group of
/// 8 lanes would take a step per 8 edges of a hub's row when its tight edge comes late.
constexpr Offset long_row = 1024;

/// Each reached v != source with a row shorter than long_row, 8 lanes a vertex, 8 edges a step:
/// the first strictly tight edge of v's row (a symmetric graph's row holds v's in-edges) gives
/// v's parent. Longer rows are listed for long_row_parents. The loop is warp-uniform (ballots).
__global__ void __launch_bounds__(block)
    pull_parents(WeightedView graph, const unsigned long long* distance, Index source,
                 Index* parent, Index* long_rows, unsigned long long* long_count) {
  constexpr unsigned group = 8;
  const unsigned rank = lane_id() % group;
  const unsigned first_lane = lane_id() - rank;
  const unsigned long long warps = item_stride() / 32;
  for (unsigned long long first = first_item() / 32 * (32 / group); first < graph.nrows;
       first += warps * (32 / group)) {
    const unsigned long long v = first + lane_id() / group;
    Offset begin = 0, end = 0;
    double to = 0;
    bool active = false;
    if (v < graph.nrows && v != source) {
      const unsigned long long bits = distance[v];
      begin = graph.begin(v);
      end = graph.end(v);
      to = distance_of(bits);
      active = bits < infinity_bits && end > begin;
      if (active && end - begin >= long_row) {
        active = false;
        if (rank == 0) long_rows[queue_slot(long_count)] = static_cast<Index>(v);
      }
    }
    for (Offset step = begin; __any_sync(0xffffffffu, active); step += group) {
      const Offset e = step + rank;
      Index u = 0;
      bool tight = false;
      if (active && e < end) {
        u = graph.target(e);
        const double from = distance_of(distance[u]);
        tight = from < to && from + graph.length(e) == to;
      }
      const unsigned found = (__ballot_sync(0xffffffffu, tight) >> first_lane) & 0xffu;
      if (active && found != 0) {
        if (rank == unsigned(__ffs(found) - 1)) parent[v] = u;
        active = false;
      }
      if (step + group >= end) active = false;
    }
  }
}

/// The rows pull_parents listed, a block each: 4 edges a thread a step (their loads in flight
/// together), the first strictly tight edge of the step that finds one.
__global__ void __launch_bounds__(block)
    long_row_parents(WeightedView graph, const unsigned long long* distance, Index* parent,
                     const Index* long_rows, const unsigned long long* long_count) {
  constexpr int per_thread = 4;
  __shared__ unsigned long long first_tight;
  const unsigned long long count = *long_count;
  for (unsigned long long i = blockIdx.x; i < count; i += gridDim.x) {
    const Index v = long_rows[i];
    const Offset begin = graph.begin(v), end = graph.end(v);
    const double to = distance_of(distance[v]);
    if (threadIdx.x == 0) first_tight = ~0ull;
    __syncthreads();
    for (Offset step = begin; step < end; step += per_thread * block) {
      Index u[per_thread];
      double length[per_thread];
#pragma unroll
      for (int j = 0; j < per_thread; ++j) {
        const Offset e = step + j * block + threadIdx.x;
        u[j] = e < end ? graph.target(e) : v;  // v itself: never strictly tight
        length[j] = e < end ? graph.length(e) : 0.0;
      }
#pragma unroll
      for (int j = 0; j < per_thread; ++j) {
        const double from = distance_of(distance[u[j]]);
        if (from < to && from + length[j] == to)
          atomicMin(&first_tight, static_cast<unsigned long long>(step + j * block + threadIdx.x));
      }
      __syncthreads();
      const bool found = first_tight != ~0ull;
      // Every thread reads first_tight before any takes the next step's atomicMin: a thread
      // that read it after a faster one's next-step write would leave the loop alone.
      __syncthreads();
      if (found) break;  // block-uniform
    }
    if (threadIdx.x == 0 && first_tight != ~0ull) parent[v] = graph.target(first_tight);
    __syncthreads();  // everyone has read first_tight before the next vertex resets it
  }
}

/// Calls f(u, e) for every edge e and its row u, balanced whatever the degrees and with no
/// per-edge source array: each warp takes a contiguous span of edges, a lane every 32nd, finds
/// the row of its first edge once (a warp's search of the offsets) and follows the rows forward.
template <class F>
__device__ void for_each_edge(const WeightedView& graph, F&& f) {
  const std::uint64_t warps = warp_count();
  const Offset span = ((graph.nvals + warps - 1) / warps + 31) / 32 * 32;
  const Offset begin = global_warp() * span;
  if (begin >= graph.nvals) return;  // warp-uniform
  const Offset end = begin + span < graph.nvals ? begin + span : graph.nvals;
  Index u = warp_owner_of([&](Index s) { return graph.row_offsets[s]; }, graph.nrows, begin);
  for (Offset e = begin + lane_id(); e < end; e += 32) {
    while (e >= graph.row_offsets[u + 1]) ++u;
    f(u, e);
  }
}

/// Parent pass 1, a thread per edge: u -> v is a tree edge candidate when it achieves dist[v]
/// from a strictly smaller dist[u]; the smallest such u wins (deterministic).
__global__ void __launch_bounds__(block)
    tight_parents(WeightedView graph, const unsigned long long* distance, Index* parent) {
  for_each_edge(graph, [&](Index u, Offset e) {
    const double from = distance_of(distance[u]);
    if (!(from < HUGE_VAL)) return;  // unreached: no edge of u is a tree edge
    const Index v = graph.target(e);
    const double to = distance_of(distance[v]);
    if (from < to && from + graph.length(e) == to) atomicMin(&parent[v], u);
  });
}

constexpr unsigned unresolved_round = ~0u;

/// After pass 1 (round 0) or tie round r: records which reached vertices have a parent.
__global__ void mark_resolved(Index vertices, Index source, const unsigned long long* distance,
                              Index* parent, unsigned* resolved, unsigned round,
                              Counters* counters) {
  const Index v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices) return;
  if (round == 0) {
    if (v == source) parent[v] = source;
    if (distance[v] == infinity_bits) {
      resolved[v] = 0;  // unreached: nothing to resolve, parent stays no_index
      return;
    }
    resolved[v] = parent[v] != no_index ? 0u : unresolved_round;
  } else if (resolved[v] == unresolved_round && parent[v] != no_index) {
    resolved[v] = round;
  }
  if (resolved[v] == unresolved_round) atomicAdd(&counters->unresolved, 1ull);
}

/// Tie round r: a vertex whose every achieving in-edge comes from an equal distance (zero
/// lengths, or lengths lost to rounding) takes an in-neighbour resolved in an earlier round, so
/// that no cycle of equal distances can vouch for itself.
__global__ void __launch_bounds__(block)
    tie_parents(WeightedView graph, const unsigned long long* distance, Index* parent,
                const unsigned* resolved, unsigned round) {
  for_each_edge(graph, [&](Index u, Offset e) {
    const Index v = graph.target(e);
    if (resolved[v] != unresolved_round || resolved[u] >= round) return;
    if (distance_of(distance[u]) + graph.length(e) == distance_of(distance[v]))
      atomicMin(&parent[v], u);
  });
}

}  // namespace

/// Reached vertices still without a parent after pass `round` (0: the strict passes; r > 0:
/// tie round r), counted on the device and read back.
unsigned long long Worklist::count_unresolved(Index source, unsigned round) {
  GRB_CUDA_CHECK(cudaMemsetAsync(&counters_.data()->unresolved, 0, sizeof(unsigned long long),
                                 current_stream()));
  mark_resolved<<<blocks_for(graph_.nrows), block, 0, current_stream()>>>(
      graph_.nrows, source, distance_.data(), parent_.data(), resolved_.data(), round,
      counters_.data());
  GRB_CUDA_CHECK(cudaGetLastError());
  read_counters();
  return (*host_).unresolved;
}

void Worklist::recover_parents(Index source) {
  const unsigned edge_blocks = std::min(blocks_for(graph_.nvals), 8 * blocks_);
  const auto edge_pass = [&] {
    tight_parents<<<edge_blocks, block, 0, current_stream()>>>(graph_, distance_.data(),
                                                               parent_.data());
    GRB_CUDA_CHECK(cudaGetLastError());
  };
  if (symmetric_) {
    // The search's lists are free now: hubs_[0] holds the long rows.
    unsigned long long* long_count = &counters_.data()->long_rows;
    GRB_CUDA_CHECK(cudaMemsetAsync(long_count, 0, sizeof(unsigned long long), current_stream()));
    pull_parents<<<std::min(blocks_for(graph_.nrows * 8ull), 8 * blocks_), block, 0,
                   current_stream()>>>(graph_, distance_.data(), source, parent_.data(),
                                       hubs_[0].data(), long_count);
    GRB_CUDA_CHECK(cudaGetLastError());
    long_row_parents<<<blocks_, block, 0, current_stream()>>>(
        graph_, distance_.data(), parent_.data(), hubs_[0].data(), long_count);
    GRB_CUDA_CHECK(cudaGetLastError());
  } else {
    edge_pass();
  }
  unsigned long long unresolved = count_unresolved(source, 0);
  if (symmetric_ && unresolved > 0) {  // a tie: the edge passes, as for any graph
    edge_pass();
    unresolved = count_unresolved(source, 0);
  }
  for (unsigned round = 1; unresolved > 0; ++round) {
    tie_parents<<<edge_blocks, block, 0, current_stream()>>>(
        graph_, distance_.data(), parent_.data(), resolved_.data(), round);
    GRB_CUDA_CHECK(cudaGetLastError());
    // Every reached vertex has a path of achieving edges from the source, so each tie round
    // resolves some; stop at no progress rather than loop should that ever fail (the
    // validator then names the vertex).
    const unsigned long long before = unresolved;
    unresolved = count_unresolved(source, round);
    if (unresolved == before) return;
  }
}

}  // namespace grb::sssp::kernels
