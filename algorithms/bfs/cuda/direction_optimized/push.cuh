// direction-optimized's push levels: a warp deals a frontier's lists (a queue of short ones, 32
// bitmap words, or chunks of a large list) to its lanes, step_edges edges a step.
#pragma once

#include <algorithm>
#include <cstdint>

#include "bfs/cuda/direction_optimized/state.cuh"

namespace grb::bfs::kernels {
namespace {

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

}  // namespace
}  // namespace grb::bfs::kernels
