// What a distributed breadth-first search gives each rank: the same for the CPU ranks over MPI
// (grb/distributed/bfs.hpp) and the GPU ranks over NCCL (device_bfs.hpp). Its check is in
// grb/distributed/validate.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "grb/distributed/partition.hpp"
#include "grb/types.hpp"

namespace grb::dist {

struct BfsOptions {
  /// Sort and deduplicate the pairs before the exchange (off: every pair is sent, to measure
  /// what the pruning saves).
  bool prune = true;
  /// GPU ranks: bottom-up levels where the frontier's edges outnumber the unexplored edges / 15
  /// (Beamer's direction optimisation, GAP's switching rule), each reading the global frontier
  /// bitmap, all-gathered. Off: every level top-down, as seed paper 004.
  bool direction_optimizing = true;
};

/// One level, summed over the ranks.
struct BfsLevel {
  std::uint64_t frontier = 0;     // vertices expanded
  std::uint64_t pairs_found = 0;  // (vertex, parent) pairs for other ranks' vertices
  std::uint64_t pairs_sent = 0;   // after the pruning (= pairs_found without it)
  bool bottom_up = false;         // GPU ranks: the level read the frontier bitmap instead
};

/// This rank's part of a search: level[i] and parent[i] of vertex first() + i (-1 and no_index
/// where unreached; the source is its own parent). `levels` is the same on every rank.
struct BfsResult {
  std::vector<std::int32_t> level;
  std::vector<Index> parent;
  std::vector<BfsLevel> levels;
};

struct Verdict {
  bool ok = true;
  std::string message;
};

}  // namespace grb::dist
