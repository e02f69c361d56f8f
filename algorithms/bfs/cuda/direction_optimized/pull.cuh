// direction-optimized's pull levels: each unsettled vertex looks for a frontier in-neighbour,
// 32 bitmap words' unsettled vertices dealt to a warp's lanes.
#pragma once

#include <algorithm>
#include <cstdint>

#include "bfs/cuda/direction_optimized/push.cuh"

namespace grb::bfs::kernels {
namespace {

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

}  // namespace
}  // namespace grb::bfs::kernels
