// Seed paper 004's breadth-first search on GPU ranks (a DeviceGraph over a DeviceCommunicator).
// Each level, on every rank's GPU:
//   1. expand: a prefix sum of the frontier's degrees, then one thread per edge, which finds its
//      frontier vertex by binary search (the load balancing that makes hubs cost no more than
//      their edges); an edge into this rank's block claims its vertex at once (compare-and-swap
//      on the parent), an edge into another's block becomes a (vertex, parent) pair;
//   2. prune: the pairs are sorted by vertex (which also groups them by owner) and one pair a
//      vertex is kept, the paper's ~4x saving (BfsOptions::prune off: sorted, all sent);
//   3. exchange: the counts, then the pairs, all-to-all over NCCL;
//   4. claim: the owners claim the received vertices not yet reached;
//   5. one all-reduce of the next frontier's size and the level's counts decides whether to go on.
// With direction optimisation (BfsOptions, on by default), the levels whose frontier has many
// edges run bottom-up instead (Beamer): each rank sets its frontier's bits in its slice of a
// global bitmap, the slices are all-gathered, and every unreached vertex of the rank looks for a
// neighbour in it. Such a level sends no pairs: n / 8 bytes of bitmap replace them.
// Buffers are made once, with the object, and reused by every search.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "grb/distributed/bfs_result.hpp"
#include "grb/distributed/device_communicator.hpp"
#include "grb/distributed/device_graph.hpp"
#include "grb/distributed/validate.hpp"

namespace grb::dist {

class DeviceBfs {
 public:
  /// Both must outlive the object; made with the rank's context current.
  DeviceBfs(const DeviceCommunicator& comm, const DeviceGraph& graph, BfsOptions options = {});
  ~DeviceBfs();
  DeviceBfs(const DeviceBfs&) = delete;
  DeviceBfs& operator=(const DeviceBfs&) = delete;

  /// One search from `source` (every rank calls it with the same source): returns the levels'
  /// counts, the same on every rank. The levels and parents stay on the GPU (result()).
  /// IndexOutOfBounds for a source outside the graph.
  const std::vector<BfsLevel>& run(Index source);

  /// This rank's levels and parents from the last search, copied to the host.
  BfsResult result() const;
  /// Stored entries in the rows of the vertices the last search reached, over every rank: twice
  /// the input edges it covered (Graph500's TEPS numerator), for an undirected graph.
  std::uint64_t reached_entries() const;
  /// Vertices the last search reached, over every rank.
  std::uint64_t reached() const;

 private:
  struct Buffers;
  /// A top-down level's steps 1-4; returns the pairs found and sent.
  std::pair<std::uint64_t, std::uint64_t> top_down(std::int32_t depth, Index frontier,
                                                   std::uint64_t edges);
  const DeviceCommunicator& comm_;
  const DeviceGraph& graph_;
  BfsOptions options_;
  std::unique_ptr<Buffers> buffers_;
  std::vector<BfsLevel> levels_;
};

}  // namespace grb::dist
