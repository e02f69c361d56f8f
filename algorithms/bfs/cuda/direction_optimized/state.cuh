// direction-optimized's constants, its device-side state (Search, the level's Control and the
// report the host reads) and a block's staged appends to the next queue and large list.
#pragma once

#include <cub/block/block_scan.cuh>
#include <algorithm>
#include <cstdint>

#include "bfs/cuda/device_graph.cuh"
#include "bfs/cuda/tally.cuh"
#include "bfs/cuda/visit.cuh"

namespace grb::bfs::kernels {
namespace {

constexpr int block = 256;
constexpr int warps_per_block = block / 32;
constexpr unsigned all_bits = 0xffffffffu;   // a bitmap word with every vertex in it
// Edges a lane loads before it tests any of them.
constexpr int batch = 4;
// Edges a warp takes in one step: one batch per lane.
constexpr unsigned step_edges = 32 * batch;
// Out-lists longer than this are pushed in pieces of this many edges, a warp step per piece.
constexpr Index chunk_edges = step_edges;
// Appends a block keeps in shared memory per level (the rest go straight to the global lists):
// kron22's largest push level discovers ~700 vertices per busy block.
constexpr unsigned staged_queue = 2048;
constexpr unsigned staged_large = 512;
static_assert(staged_large % block == 0);
// Levels per graph launch: their stats are written to page-locked host memory, this many slots.
constexpr std::int32_t report_capacity = 1024;

// GAP's defaults for Beamer's constants. Measured on the H100 with these kernels (kron22 and
// kron24, 16 roots): alpha 6 or 3 within noise of 15, alpha 1.5 (pushing kron24's third level, a
// few thousand hubs) 3x slower; beta 8 or 40 within noise of 18.
constexpr double alpha = 15;
constexpr double beta = 18;
// Visited words per warp unit of a pull level: 16 rather than 32 spreads kron22's 131 072 words
// over all 4 224 resident warps (kron22 0.311 ms instead of 0.356; 8 is no better).
constexpr unsigned pull_words = 16;

/// A push frontier's vertex with more than chunk_edges out-edges, and the number of the first of
/// its chunks; the list is in the order of the atomics that appended it, so ascending in both.
struct LargeVertex {
  Index vertex;
  Index first_chunk;
};

/// Read by every block at the start of a level; written by the last block of the level before.
struct Control {
  std::int32_t depth;
  std::int32_t pulling;      // this level pulls
  std::int32_t from_bitmap;  // this push level reads the frontier bitmap (it follows a pull)
  Index frontier;            // vertices on this level
  Offset unexplored;         // GAP's edges_to_check: edges minus the pushed frontiers' out-edges
  // By depth parity: this level's sizes, and the next level's tails.
  unsigned long long queue_size[2];
  unsigned long long large[2];  // (large vertices << 32) | their chunks
  Tally tally;           // this level: discovered, their out-edges (push), edges read
  unsigned blocks_done;  // blocks of this level that have finished
};

struct LevelRecord {
  Index frontier;
  std::int32_t pulled;
  Offset edges;
};

/// Page-locked, mapped: the device writes it, the host reads it after the search.
struct Report {
  std::int32_t levels;    // levels completed
  std::int32_t finished;  // the last completed level discovered nothing
  LevelRecord level[report_capacity];  // level l at l % report_capacity
};

/// Everything a kernel needs, passed by value (so a graph's kernel node holds it).
struct Search {
  GraphView out, in;
  Index words;  // bitmap words
  std::int32_t* level;
  Index* parent;
  unsigned* visited;
  const unsigned* no_in_edges;  // also marks the padding bits past the last vertex
  const unsigned* large;        // out-degree > chunk_edges
  unsigned* frontier[3];        // level d reads [d % 3], writes [(d + 1) % 3], clears [(d + 2) % 3]
  Index* queue[2];              // level d reads [d % 2], appends to [(d + 1) % 2]
  LargeVertex* large_list[2];
  Control* control;
  Report* report;
  cudaGraphConditionalHandle condition;
};

__device__ inline Index chunks_of(Offset degree) {
  return Index((degree + chunk_edges - 1) / chunk_edges);
}

/// Appends v to a large list: one atomic adds the vertex and its chunks (fewer than 2^32 while the
/// graph has fewer than 2^38 edges).
__device__ void append_large(LargeVertex* list, unsigned long long* tail, Index v, Offset degree) {
  const unsigned long long old = atomicAdd(tail, (1ull << 32) | chunks_of(degree));
  list[old >> 32] = {v, Index(old & 0xffffffffu)};
}

/// What a block appends to the next queue and large list during a level (shared memory): the
/// queue is a plain staged list; a large-list entry also carries its chunk count, so that the
/// flush can number the chunks.
struct Staging {
  StagedList<staged_queue> queue;
  Index large_vertex[staged_large];
  Index large_chunks[staged_large];
  unsigned larges;  // may pass staged_large: the entries past it went to the global list
  unsigned long long large_base;
};


/// Appends items[i] (where take[i]; out-degree degree[i]) of every lane to the next large list:
/// staged like the queue (a warp reserves its slots with one shared atomic); an entry that does
/// not fit is appended on its own (rare: a block would have to discover more than staged_large
/// large vertices in one level). Every lane calls.
template <int N>
__device__ void stage_large(Staging& staging, const Index (&items)[N], const bool (&take)[N],
                            const Offset (&degree)[N], LargeVertex* list,
                            unsigned long long* tail) {
  const Reservation r = warp_reserve(take, staging.larges, staged_large);
  unsigned k = r.rank;
#pragma unroll
  for (int i = 0; i < N; ++i)
    if (take[i]) {
      if (k < r.fit) {
        staging.large_vertex[r.first + k] = items[i];
        staging.large_chunks[r.first + k] = chunks_of(degree[i]);
      } else {
        append_large(list, tail, items[i], degree[i]);
      }
      ++k;
    }
}

/// Writes the block's staged entries out: one global atomic reserves the block's slice of each
/// list (for the large list, its entries and their chunks, so the list stays ascending in both).
/// Every thread of the block calls, after a __syncthreads that follows the last append.
__device__ void flush(Staging& staging, Index* queue, unsigned long long* queue_tail,
                      LargeVertex* list, unsigned long long* large_tail) {
  constexpr int per_thread = staged_large / block;
  using Scan = cub::BlockScan<Index, block>;
  __shared__ typename Scan::TempStorage scan_storage;
  const unsigned larges = std::min(staging.larges, unsigned{staged_large});
  Index first_chunk[per_thread];
#pragma unroll
  for (int t = 0; t < per_thread; ++t) {
    const unsigned entry = threadIdx.x * per_thread + t;
    first_chunk[t] = entry < larges ? staging.large_chunks[entry] : 0;
  }
  Index chunks = 0;
  Scan(scan_storage).ExclusiveSum(first_chunk, first_chunk, chunks);
  if (threadIdx.x == 0)
    staging.large_base =
        larges > 0 ? atomicAdd(large_tail, ((unsigned long long)larges << 32) | chunks) : 0;
  staging.queue.flush(queue, queue_tail);  // its barrier also publishes large_base
  const unsigned long long large_base = staging.large_base;
#pragma unroll
  for (int t = 0; t < per_thread; ++t) {
    const unsigned entry = threadIdx.x * per_thread + t;
    if (entry < larges)
      list[(large_base >> 32) + entry] = {staging.large_vertex[entry],
                                          Index(large_base & 0xffffffffu) + first_chunk[t]};
  }
}

}  // namespace
}  // namespace grb::bfs::kernels
