// direction-optimized (Beamer, Asanović & Patterson, SC'12; switching as in the GAP benchmark
// suite's bfs.cc): push while the frontier's out-edges are few; pull once they exceed the
// unexplored edges / alpha (a pull level reads fewer edges: each unvisited vertex stops at its
// first frontier in-neighbour); back to push once the frontier shrinks below n / beta. Pull walks
// in-edges, so directed graphs are handled.
//
// The whole level, push or pull, is one kernel, and the direction is decided on the device: the
// last block to finish a level reads the level's counters and sets up the next one. The host
// does not take part between levels: a CUDA graph whose while-node repeats the level kernel until
// the frontier is empty runs the search, and the host waits once per search (the old host loop
// spent ~20 us per level on a launch and a counter read-back, a third of a kron22 search).
//
// State: `visited` is a bitmap of settled vertices (reached, or without in-edges: those can never
// be reached, so pull skips them); the frontier is a bitmap (three, rotating: one read, one
// written, one being cleared for the level after) and, for push levels, a queue of its vertices
// with out-degree 1..chunk_edges plus a list of the vertices with longer lists, whose edges are
// pushed chunk_edges at a time by a warp each, so that a hub spreads over the whole grid.
// Discoveries go to the next queue or large list as they happen, so no level converts a bitmap
// into a queue: a push level right after a pull level reads the frontier bitmap. A block gathers
// its appends in shared memory and writes them out with one global atomic per list at the end of
// the level: a global atomic per warp or per discovery, all on the same two counters, serialized
// whole levels (kron22's second level, 240 000 discoveries, took 0.12 ms).
//
// Every level is latency-bound (a few dependent memory round trips per edge), so the kernels
// keep many independent loads in flight, and a warp's work does not depend on how its edges are
// split among its lists: a warp takes its lanes' lists laid end to end, `step_edges` edges a step
// (a source with 27 edges is one step, not 7 rounds of one lane; 32 lists of 5 are two steps); a
// warp takes 32 bitmap words at a time and spreads their set bits over its lanes (a frontier or
// an unsettled set that is sparse costs one pass over the words, not one round trip per word).
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "bfs/cuda/device_graph.cuh"
#include "bfs/cuda/engines.hpp"
#include "bfs/cuda/search_state.cuh"
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

/// The set bits of 32 bitmap words (lane j holds word j) numbered in order, so that a warp can
/// deal them out to its lanes, 32 at a time. Every lane of the warp calls.
class Window {
 public:
  __device__ explicit Window(unsigned word) : word_(word) {
    const unsigned count = __popc(word);
    const unsigned inclusive = warp_inclusive_sum(count);
    prefix_ = inclusive - count;
    total_ = __shfl_sync(full_warp, inclusive, 31);
  }
  __device__ unsigned total() const { return total_; }

  /// Bit number k (< total) as (word j, bit b). Every lane calls, each with its own k; a lane
  /// with k >= total gets a meaningless answer.
  __device__ void locate(unsigned k, unsigned& word, unsigned& bit) const {
    unsigned j = 0;  // the last lane whose prefix is <= k: it holds bit k (it cannot be empty)
    for (unsigned step = 16; step > 0; step >>= 1)
      if (__shfl_sync(full_warp, prefix_, j + step) <= k) j += step;
    unsigned bits = __shfl_sync(full_warp, word_, j);
    unsigned rank = k - __shfl_sync(full_warp, prefix_, j);
    unsigned position = 0;  // of the rank-th set bit: skip halves with too few set bits
    for (unsigned width = 16; width > 0; width >>= 1) {
      const unsigned low = __popc(bits & ((1u << width) - 1u));
      if (rank >= low) {
        rank -= low;
        bits >>= width;
        position += width;
      }
    }
    word = j;
    bit = position;
  }

 private:
  unsigned word_, prefix_, total_;
};

/// One step of a warp over its lanes' lists laid end to end: lane l offers `length` edges (at most
/// step_edges), and the step takes the first step_edges edges of the concatenation, slot i of lane
/// l being edge number i * 32 + l. Every lane loads a batch whatever the lengths are. Every lane
/// of the warp calls.
class Step {
 public:
  __device__ explicit Step(unsigned length) : length_(length) {
    inclusive_ = warp_inclusive_sum(length);
    total_ = std::min(__shfl_sync(full_warp, inclusive_, 31), unsigned{step_edges});
  }
  __device__ unsigned total() const { return total_; }

  /// The lane whose list holds edge number k (< total), and k's position in that list. Every lane
  /// calls, each with its own k; a lane with k >= total gets a meaningless answer.
  __device__ unsigned owner(unsigned k, unsigned& position) const {
    unsigned j = 0;  // lanes whose lists end at or before edge k
    for (unsigned width = 16; width > 0; width >>= 1)
      if (__shfl_sync(full_warp, inclusive_, j + width - 1) <= k) j += width;
    position = k - __shfl_sync(full_warp, inclusive_ - length_, j);
    return j;
  }
  /// How many edges of this lane's list the step took.
  __device__ unsigned taken() const {
    const unsigned before = inclusive_ - length_;
    return total_ > before ? std::min(total_ - before, length_) : 0u;
  }

 private:
  unsigned length_, inclusive_, total_;
};

/// Where a push level puts what it discovers.
struct PushTargets {
  std::int32_t next_level;
  unsigned* next_frontier;
  Index* next_queue;
  unsigned long long* queue_tail;
  LargeVertex* next_large;
  unsigned long long* large_tail;
};

/// Pushes edges from[i] -> targets[i] (where valid[i]): all visited words are read, then all
/// claims issued, then the claimed targets' degrees read, before any result is waited for. The
/// thread whose atomicOr sets a target's visited bit owns it. Every lane of the warp calls.
__device__ void push_batch(const Search& s, const PushTargets& t, Staging& staging,
                           const Index (&targets)[batch], const bool (&valid)[batch],
                           const Index (&from)[batch], Tally& local) {
  unsigned seen[batch];
#pragma unroll
  for (int i = 0; i < batch; ++i) seen[i] = valid[i] ? s.visited[targets[i] >> 5] : all_bits;
  bool claimed[batch];
#pragma unroll
  for (int i = 0; i < batch; ++i) {
    // A plain read first: on power-law graphs most targets are settled.
    const unsigned bit = 1u << (targets[i] & 31u);
    claimed[i] = !(seen[i] & bit) && !(atomicOr(&s.visited[targets[i] >> 5], bit) & bit);
  }
  Offset degree[batch];
#pragma unroll
  for (int i = 0; i < batch; ++i) degree[i] = claimed[i] ? s.out.degree(targets[i]) : 0;
  bool queued[batch], large[batch];
#pragma unroll
  for (int i = 0; i < batch; ++i) {
    if (claimed[i]) {
      const Index v = targets[i];
      s.level[v] = t.next_level;
      s.parent[v] = from[i];
      atomicOr(&t.next_frontier[v >> 5], 1u << (v & 31u));
      ++local.discovered;
      local.discovered_edges += degree[i];
    }
    // Sinks have nothing to push.
    queued[i] = claimed[i] && degree[i] > 0 && degree[i] <= chunk_edges;
    large[i] = claimed[i] && degree[i] > chunk_edges;
  }
  staging.queue.append(targets, queued, t.next_queue, t.queue_tail);
  stage_large(staging, targets, large, degree, t.next_large, t.large_tail);
}

/// Each lane pushes the out-list of its own vertex u (where `mine`) unless it is longer than
/// chunk_edges (those are pushed from the large list): the warp's lists in steps.
__device__ void push_lists(const Search& s, const PushTargets& t, Staging& staging, Index u,
                           bool mine, Tally& local) {
  Offset begin = 0;
  unsigned length = 0;
  if (mine) {
    begin = s.out.begin(u);
    const Offset degree = s.out.end(u) - begin;
    if (degree <= chunk_edges) length = unsigned(degree);
  }
  local.edges += length;
  while (__any_sync(full_warp, length > 0)) {
    const Step step(length);
    Index targets[batch], from[batch];
    bool valid[batch];
#pragma unroll
    for (int i = 0; i < batch; ++i) {
      const unsigned k = i * 32 + lane_id();
      unsigned position = 0;
      const unsigned owner = step.owner(k, position);
      const Offset list = __shfl_sync(full_warp, begin, owner);
      from[i] = __shfl_sync(full_warp, u, owner);
      valid[i] = k < step.total();
      targets[i] = valid[i] ? s.out.col_indices[list + position] : 0;
    }
    const unsigned taken = step.taken();
    begin += taken;
    length -= taken;
    push_batch(s, t, staging, targets, valid, from, local);
  }
}

/// The large-list entry holding chunk `unit`: the last whose first chunk is <= unit (a warp's
/// 32-way search). Warp-uniform arguments.
__device__ LargeVertex chunk_owner(const LargeVertex* list, Index entries,
                                   unsigned long long unit) {
  return list[warp_owner_of([list](Index k) { return list[k].first_chunk; }, entries, unit)];
}

/// One push level. Work units, a warp each: the chunks of the large list; then the other
/// frontier vertices, 32 queue entries or (after a pull level) 32 bitmap words at a time.
__device__ void push_level(const Search& s, Staging& staging, std::int32_t depth,
                           bool from_bitmap, unsigned long long queue_size,
                           unsigned long long large, Tally& local) {
  const unsigned next = (depth + 1) & 1;
  const PushTargets t{depth + 1,
                      s.frontier[(depth + 1) % 3],
                      s.queue[next],
                      &s.control->queue_size[next],
                      s.large_list[next],
                      &s.control->large[next]};
  const LargeVertex* large_list = s.large_list[depth & 1];
  const Index large_vertices = Index(large >> 32);
  const unsigned long long chunks = large & 0xffffffffu;
  const Index* queue = s.queue[depth & 1];
  const unsigned* frontier = s.frontier[depth % 3];
  const unsigned long long units =
      chunks + (from_bitmap ? (s.words + 31) / 32 : (queue_size + 31) / 32);
  const unsigned lane = lane_id();
  for (unsigned long long unit = global_warp(); unit < units; unit += warp_count()) {
    if (unit < chunks) {
      const LargeVertex owner = chunk_owner(large_list, large_vertices, unit);
      const Offset begin =
          s.out.begin(owner.vertex) + Offset(unit - owner.first_chunk) * chunk_edges;
      const Offset end = std::min(s.out.end(owner.vertex), begin + chunk_edges);
      Index targets[batch], from[batch];
      bool valid[batch];
#pragma unroll
      for (int i = 0; i < batch; ++i) {
        const Offset e = begin + lane + 32 * i;
        valid[i] = e < end;
        targets[i] = valid[i] ? s.out.col_indices[e] : 0;
        from[i] = owner.vertex;
      }
      if (lane == 0) local.edges += end - begin;
      push_batch(s, t, staging, targets, valid, from, local);
    } else if (from_bitmap) {
      const unsigned long long first_word = (unit - chunks) * 32;
      const unsigned long long my_word = first_word + lane;
      const Window window(my_word < s.words ? frontier[my_word] : 0u);
      for (unsigned k = 0; k < window.total(); k += 32) {
        unsigned word = 0, bit = 0;
        window.locate(k + lane, word, bit);
        push_lists(s, t, staging, Index((first_word + word) * 32 + bit), k + lane < window.total(),
                   local);
      }
    } else {
      const unsigned long long slot = (unit - chunks) * 32 + lane;
      const bool mine = slot < queue_size;
      push_lists(s, t, staging, mine ? queue[slot] : 0, mine, local);
    }
  }
}

/// Whether this lane's vertex (in-edges [begin, end); empty for a lane without one) has an
/// in-neighbour in `frontier`, and which (`parent`). Each lane first tests its own first batch of
/// in-edges: most vertices that have a frontier in-neighbour find it there. What is left of the
/// warp's lists then goes in steps, and a list leaves at its first hit: the lanes that hit record
/// the smallest hit per list in `hits` (the warp's 32 shared slots, one per list). Every lane of
/// the warp calls.
__device__ bool find_parent(const Search& s, const unsigned* frontier, Offset begin, Offset end,
                            Index* hits, Index& parent, Tally& local) {
  bool found = false;
  {
    Index sources[batch];
    bool hit[batch];
#pragma unroll
    for (int i = 0; i < batch; ++i) sources[i] = begin + i < end ? s.in.col_indices[begin + i] : 0;
#pragma unroll
    for (int i = 0; i < batch; ++i) hit[i] = begin + i < end && bitmap_test(frontier, sources[i]);
    local.edges += std::min(Offset(batch), end - begin);
#pragma unroll
    for (int i = batch - 1; i >= 0; --i)  // the first hit in list order
      if (hit[i]) {
        found = true;
        parent = sources[i];
      }
  }
  begin = found ? end : std::min(end, begin + batch);
  const unsigned lane = lane_id();
  hits[lane] = no_index;
  while (true) {
    __syncwarp();  // every lane read its slot before anyone hits it again
    const unsigned length = unsigned(std::min(end - begin, Offset{step_edges}));
    if (!__any_sync(full_warp, length > 0)) break;
    const Step step(length);
    Index sources[batch];
    unsigned owners[batch];
    bool valid[batch];
#pragma unroll
    for (int i = 0; i < batch; ++i) {
      const unsigned k = i * 32 + lane;
      unsigned position = 0;
      owners[i] = step.owner(k, position);
      const Offset list = __shfl_sync(full_warp, begin, owners[i]);
      valid[i] = k < step.total();
      sources[i] = valid[i] ? s.in.col_indices[list + position] : 0;
    }
#pragma unroll
    for (int i = 0; i < batch; ++i) {
      if (valid[i] && bitmap_test(frontier, sources[i])) atomicMin(&hits[owners[i]], sources[i]);
      local.edges += valid[i];
    }
    begin += step.taken();
    __syncwarp();
    if (hits[lane] != no_index) {
      found = true;
      parent = hits[lane];
      begin = end;
    }
  }
  return found;
}

/// One pull level: a warp takes pull_words visited words at a time and deals their unsettled
/// vertices out to its lanes, 32 at a time; each looks for a frontier in-neighbour. The warp owns
/// its words: it gathers what it found per word in shared memory (`found_words`, 32 per warp) and
/// writes the visited and next-frontier words with plain stores.
__device__ void pull_level(const Search& s, Staging& staging, std::int32_t depth,
                           unsigned* found_words, Index* hits, Tally& local) {
  const unsigned* frontier = s.frontier[depth % 3];
  unsigned* next_frontier = s.frontier[(depth + 1) % 3];
  const unsigned next = (depth + 1) & 1;
  const unsigned lane = lane_id();
  for (unsigned long long first_word = global_warp() * pull_words; first_word < s.words;
       first_word += warp_count() * pull_words) {
    const unsigned long long my_word = first_word + lane;
    const bool has_word = lane < pull_words && my_word < s.words;
    const unsigned settled = has_word ? s.visited[my_word] : all_bits;
    const Window window(~settled);
    if (window.total() == 0) continue;
    found_words[lane] = 0;
    __syncwarp();
    for (unsigned k = 0; k < window.total(); k += 32) {
      unsigned word = 0, bit = 0;
      window.locate(k + lane, word, bit);
      const Index v = Index((first_word + word) * 32 + bit);
      Offset begin = 0, end = 0;
      if (k + lane < window.total()) {
        begin = s.in.begin(v);
        end = s.in.end(v);
      }
      Index parent = 0;
      bool large[1] = {false};
      Offset degree[1] = {0};
      if (find_parent(s, frontier, begin, end, hits, parent, local)) {
        s.level[v] = depth + 1;
        s.parent[v] = parent;
        ++local.discovered;
        atomicOr(&found_words[word], 1u << bit);
        if (bitmap_test(s.large, v)) {
          large[0] = true;
          degree[0] = s.out.degree(v);
        }
      }
      const Index items[1] = {v};
      stage_large(staging, items, large, degree, s.large_list[next], &s.control->large[next]);
    }
    __syncwarp();
    const unsigned found = found_words[lane];
    if (found != 0) {
      s.visited[my_word] = settled | found;
      next_frontier[my_word] = found;
    }
    __syncwarp();  // found_words is cleared for the next words
  }
}

/// The last block of a level: records the level, chooses the next one's direction (GAP's rule:
/// pull when the next frontier's out-edges exceed unexplored / alpha; stop pulling once the
/// frontier shrinks and is below n / beta) and resets the counters the next level appends to.
__device__ void decide_next_level(const Search& s, bool in_graph) {
  Control& c = *s.control;
  const volatile Tally& tally = c.tally;
  const Index discovered = Index(tally.discovered);
  const Offset discovered_edges = tally.discovered_edges;
  const std::int32_t depth = c.depth;
  s.report->level[depth % report_capacity] = {c.frontier, c.pulling, Offset(tally.edges)};
  if (c.pulling) {
    if (discovered < c.frontier && double(discovered) < double(s.out.nrows) / beta) {
      c.pulling = 0;
      c.from_bitmap = 1;
    }
  } else if (double(discovered_edges) > double(c.unexplored) / alpha) {
    c.pulling = 1;
  } else {
    c.unexplored -= discovered_edges;
    c.from_bitmap = 0;
  }
  c.depth = depth + 1;
  c.frontier = discovered;
  c.tally = Tally{};
  c.blocks_done = 0;
  c.queue_size[depth & 1] = 0;  // level depth + 2 appends there
  c.large[depth & 1] = 0;
  s.report->levels = depth + 1;
  s.report->finished = discovered == 0;
  if (in_graph)
    cudaGraphSetConditional(s.condition,
                            discovered > 0 && (depth + 1) % report_capacity != 0 ? 1u : 0u);
}

__global__ void __launch_bounds__(block) bfs_level(Search s, bool in_graph) {
  __shared__ unsigned found_words[warps_per_block][32];
  __shared__ Index hits[warps_per_block][32];
  __shared__ Staging staging;
  const Control& c = *s.control;
  const std::int32_t depth = c.depth;
  const bool pulling = c.pulling;
  const bool from_bitmap = c.from_bitmap;
  const unsigned long long queue_size = c.queue_size[depth & 1];
  const unsigned long long large = c.large[depth & 1];
  if (threadIdx.x == 0) {
    staging.queue.staged = 0;
    staging.larges = 0;
  }

  // The bitmap two levels ahead held the frontier of the level before this one: nobody reads it.
  unsigned* stale = s.frontier[(depth + 2) % 3];
  for (unsigned long long w = std::uint64_t(blockIdx.x) * block + threadIdx.x; w < s.words;
       w += std::uint64_t(gridDim.x) * block)
    stale[w] = 0;
  __syncthreads();

  Tally local;
  const unsigned warp = threadIdx.x / 32;
  if (pulling) pull_level(s, staging, depth, found_words[warp], hits[warp], local);
  else push_level(s, staging, depth, from_bitmap, queue_size, large, local);
  __syncthreads();
  const unsigned next = (depth + 1) & 1;
  flush(staging, s.queue[next], &s.control->queue_size[next], s.large_list[next],
        &s.control->large[next]);

  add_block_tally<block>(&s.control->tally, local);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();  // this block's tally before its ticket
    last = atomicAdd(&s.control->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    decide_next_level(s, in_graph);
  }
}

/// Level 0: levels and parents cleared, visited = the vertices without in-edges plus the source,
/// the source alone in frontier 0 (and in queue 0 or large list 0), and the first direction.
__global__ void __launch_bounds__(block) begin_search(Search s, Index source) {
  const unsigned long long stride = std::uint64_t(gridDim.x) * block;
  const unsigned long long first = std::uint64_t(blockIdx.x) * block + threadIdx.x;
  for (unsigned long long v = first; v < s.out.nrows; v += stride) {
    s.level[v] = v == source ? 0 : unreached;
    s.parent[v] = v == source ? source : no_index;
  }
  const Index source_word = source >> 5;
  const unsigned source_bit = 1u << (source & 31u);
  for (unsigned long long w = first; w < s.words; w += stride) {
    const unsigned mine = w == source_word ? source_bit : 0u;
    s.visited[w] = s.no_in_edges[w] | mine;
    s.frontier[0][w] = mine;
    s.frontier[1][w] = 0;
    s.frontier[2][w] = 0;
  }
  if (first == 0) {
    Control c{};
    c.frontier = 1;
    c.unexplored = s.out.nvals;
    const Offset degree = s.out.degree(source);
    if (double(degree) > double(c.unexplored) / alpha) c.pulling = 1;
    else c.unexplored -= degree;
    if (degree > chunk_edges) {
      s.large_list[0][0] = {source, 0};
      c.large[0] = (1ull << 32) | chunks_of(degree);
    } else if (degree > 0) {
      s.queue[0][0] = source;
      c.queue_size[0] = 1;
    }
    *s.control = c;
  }
}
__global__ void __launch_bounds__(block)
    degree_masks(GraphView out, GraphView in, Index words, unsigned* no_in_edges,
                 unsigned* large) {
  const Index w = blockIdx.x * block + threadIdx.x;
  if (w >= words) return;
  unsigned none = 0, big = 0;
  for (unsigned b = 0; b < 32; ++b) {
    const Index v = w * 32 + b;
    if (v >= out.nrows || in.degree(v) == 0) none |= 1u << b;
    if (v < out.nrows && out.degree(v) > chunk_edges) big |= 1u << b;
  }
  no_in_edges[w] = none;
  large[w] = big;
}

/// Page-locked host memory that the device writes directly.
class MappedReport {
 public:
  MappedReport() {
    GRB_CUDA_CHECK(cudaHostAlloc(&host_, sizeof(Report), cudaHostAllocMapped));
    GRB_CUDA_CHECK(cudaHostGetDevicePointer(&device_, host_, 0));
  }
  MappedReport(const MappedReport&) = delete;
  MappedReport& operator=(const MappedReport&) = delete;
  ~MappedReport() { cudaFreeHost(host_); }
  const Report& host() const { return *host_; }
  Report* device() const { return device_; }

 private:
  Report* host_ = nullptr;
  Report* device_ = nullptr;
};

/// GRB_CUDA_GRAPHS=0 runs the levels from the host, one launch each (the same kernel). For
/// compute-sanitizer: its memcheck (CUDA 13.0) fails a while-node body's first launch of a kernel
/// with "misaligned address" where the kernel was never launched from the host before (the auto
/// engine's probe on a 4-vertex graph), and racecheck now and then crashes the process; neither
/// happens outside the sanitizer, and the kernel code checked is the same either way.
bool graphs_allowed() {
  const char* setting = std::getenv("GRB_CUDA_GRAPHS");
  return setting == nullptr || std::string_view(setting) != "0";
}

/// A graph of one while-node whose body is the level kernel; the kernel ends the loop.
class LevelLoop {
 public:
  LevelLoop() = default;
  LevelLoop(const LevelLoop&) = delete;
  LevelLoop& operator=(const LevelLoop&) = delete;
  ~LevelLoop() { reset(); }

  /// Builds the graph; false (and no graph) where the driver has no conditional nodes.
  bool build(Search& search, unsigned grid) {
    reset();
    if (cudaGraphCreate(&graph_, 0) != cudaSuccess) return fail();
    cudaGraphConditionalHandle handle;
    if (cudaGraphConditionalHandleCreate(&handle, graph_, 1, cudaGraphCondAssignDefault) !=
        cudaSuccess)
      return fail();
    cudaGraphNodeParams loop{};
    loop.type = cudaGraphNodeTypeConditional;
    loop.conditional.handle = handle;
    loop.conditional.type = cudaGraphCondTypeWhile;
    loop.conditional.size = 1;
    cudaGraphNode_t loop_node;
    if (cudaGraphAddNode(&loop_node, graph_, nullptr, nullptr, 0, &loop) != cudaSuccess)
      return fail();
    search.condition = handle;
    bool in_graph = true;
    void* arguments[] = {&search, &in_graph};
    cudaKernelNodeParams level{};
    level.func = reinterpret_cast<void*>(bfs_level);
    level.gridDim = dim3(grid);
    level.blockDim = dim3(block);
    level.kernelParams = arguments;
    cudaGraphNode_t level_node;
    if (cudaGraphAddKernelNode(&level_node, loop.conditional.phGraph_out[0], nullptr, 0, &level) !=
        cudaSuccess)
      return fail();
    if (cudaGraphInstantiate(&exec_, graph_, 0) != cudaSuccess) return fail();
    return true;
  }
  cudaGraphExec_t exec() const { return exec_; }

 private:
  bool fail() {
    (void)cudaGetLastError();  // the failed call's status is not a sticky error
    reset();
    return false;
  }
  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class DirectionOptimized final : public Engine {
 public:
  void prepare(const Matrix<bool>& graph) override {
    graph_.upload(graph, DeviceGraph::Edges::out_and_in, "direction-optimized");
    const Index n = graph_.vertices();
    const Index words = Index(bitmap_words(n));
    const auto bitmap = [&] { return detail::Array<unsigned>(std::max<Index>(words, 1), Backend::cuda); };
    level_ = detail::Array<std::int32_t>(std::max<Index>(n, 1), Backend::cuda);
    parent_ = detail::Array<Index>(std::max<Index>(n, 1), Backend::cuda);
    visited_ = bitmap();
    no_in_edges_ = bitmap();
    large_ = bitmap();
    for (auto& f : frontier_) f = bitmap();
    for (auto& q : queue_) q = detail::Array<Index>(std::max<Index>(n, 1), Backend::cuda);
    // A large vertex has more than chunk_edges out-edges.
    const Offset large_capacity = std::min<Offset>(n, graph_.edges() / (chunk_edges + 1)) + 1;
    for (auto& list : large_list_) list = detail::Array<LargeVertex>(large_capacity, Backend::cuda);
    control_ = detail::Array<Control>(1, Backend::cuda);

    search_ = Search{};
    search_.out = graph_.out();
    search_.in = graph_.in();
    search_.words = words;
    search_.level = level_.data();
    search_.parent = parent_.data();
    search_.visited = visited_.data();
    search_.no_in_edges = no_in_edges_.data();
    search_.large = large_.data();
    for (int i = 0; i < 3; ++i) search_.frontier[i] = frontier_[i].data();
    for (int i = 0; i < 2; ++i) search_.queue[i] = queue_[i].data();
    for (int i = 0; i < 2; ++i) search_.large_list[i] = large_list_[i].data();
    search_.control = control_.data();
    search_.report = report_.device();

    if (words > 0) {
      degree_masks<<<blocks_for(words, block), block, 0, current_stream()>>>(
          graph_.out(), graph_.in(), words, no_in_edges_.data(), large_.data());
      GRB_CUDA_CHECK_LAUNCH();
    }
    // One resident wave: every level kernel loops over its work (it does not know the frontier's
    // size at launch), so more blocks would only wait.
    const std::uint64_t work = std::max<std::uint64_t>(words, graph_.edges() / chunk_edges + 1);
    grid_ = std::min(resident_blocks(bfs_level, block), blocks_for(work * 32, block));
    start_grid_ = std::min(multiprocessor_count() * 8, blocks_for(n, block));
    // The arrays above are allocated stream-ordered: they exist before the graph is built.
    GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
    has_loop_ = graphs_allowed() && loop_.build(search_, grid_);
    prepared_ = true;
  }

  void run(Index source, const Options& options) override {
    if (!prepared_) throw InvalidValue("bfs engine direction-optimized: run() before prepare()");
    if (source >= graph_.vertices())
      throw IndexOutOfBounds("bfs engine direction-optimized: source " + std::to_string(source) +
                             " is not a vertex (n = " + std::to_string(graph_.vertices()) + ")");
    parents_ = options.parents;
    log_.start(options);
    begin_search<<<start_grid_, block, 0, current_stream()>>>(search_, source);
    GRB_CUDA_CHECK_LAUNCH();
    const Report& report = report_.host();
    if (has_loop_ && !options.level_timing) {
      // Each launch runs up to report_capacity levels; the host collects them between launches.
      std::int32_t recorded = 0;
      do {
        GRB_CUDA_CHECK(cudaGraphLaunch(loop_.exec(), current_stream()));
        GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
        std::vector<LevelStats> levels;
        for (; recorded < report.levels; ++recorded) levels.push_back(stats(report, recorded));
        log_.end_levels(levels);
      } while (!report.finished);
    } else {
      // One level per launch, waited for: per-level timing (or no conditional graph nodes).
      do {
        log_.begin_level();
        bfs_level<<<grid_, block, 0, current_stream()>>>(search_, false);
        GRB_CUDA_CHECK_LAUNCH();
        GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
        const LevelStats level = stats(report, report.levels - 1);
        log_.end_level(level.frontier, level.edges_inspected, level.direction);
      } while (!report.finished);
    }
  }

  Result result() const override {
    Result result;
    result.level = level_.to_vector();
    result.level.resize(graph_.vertices());
    if (parents_) {
      result.parent = parent_.to_vector();
      result.parent.resize(graph_.vertices());
    }
    result.levels = log_.levels();
    return result;
  }

  std::size_t device_bytes() const override {
    std::size_t bytes = graph_.bytes() + level_.size() * sizeof(std::int32_t) +
                        (parent_.size() + queue_[0].size() + queue_[1].size()) * sizeof(Index) +
                        (large_list_[0].size() + large_list_[1].size()) * sizeof(LargeVertex) +
                        sizeof(Control);
    for (const auto* bits : {&visited_, &no_in_edges_, &large_, &frontier_[0], &frontier_[1],
                             &frontier_[2]})
      bytes += bits->size() * sizeof(unsigned);
    return bytes;
  }

 private:
  static LevelStats stats(const Report& report, std::int32_t level) {
    const LevelRecord& record = report.level[level % report_capacity];
    return {record.frontier, record.edges, record.pulled ? Direction::pull : Direction::push, 0};
  }

  DeviceGraph graph_;
  detail::Array<std::int32_t> level_;
  detail::Array<Index> parent_;
  detail::Array<unsigned> visited_, no_in_edges_, large_, frontier_[3];
  detail::Array<Index> queue_[2];
  detail::Array<LargeVertex> large_list_[2];
  detail::Array<Control> control_;
  MappedReport report_;
  Search search_;
  LevelLoop loop_;
  bool has_loop_ = false;
  unsigned grid_ = 1, start_grid_ = 1;
  LevelLog log_;
  bool prepared_ = false;
  bool parents_ = true;
};

}  // namespace

std::unique_ptr<Engine> make_direction_optimized() {
  return std::make_unique<DirectionOptimized>();
}

}  // namespace grb::bfs::kernels
