// A graph distributed over the ranks of a Communicator, 1-D by vertex blocks: rank r owns the
// vertices [first(r), first(r + 1)) and their out-edges, as a local CSR whose rows are its own
// vertices (row i is vertex first(r) + i) and whose column ids are global. No rank ever holds
// the whole graph: a generator draws each rank's share of the edges and sends each to its owner.
#pragma once

#include <cstdint>

#include "grb/distributed/communicator.hpp"
#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::dist {

/// Vertices [0, n) in `ranks` blocks of n / ranks (the first n % ranks one larger).
class BlockPartition {
 public:
  BlockPartition(Index n, int ranks) : n_(n), ranks_(ranks) {}
  Index vertices() const { return n_; }
  int ranks() const { return ranks_; }
  Index first(int rank) const {
    const std::uint64_t base = n_ / ranks_, extra = n_ % ranks_;
    return static_cast<Index>(base * rank + std::min<std::uint64_t>(rank, extra));
  }
  Index count(int rank) const { return first(rank + 1) - first(rank); }
  int owner(Index v) const {
    const std::uint64_t base = n_ / ranks_, extra = n_ % ranks_;
    const std::uint64_t big = (base + 1) * extra;  // the vertices of the larger blocks
    return v < big ? int(v / (base + 1)) : int(extra + (v - big) / base);
  }

 private:
  Index n_;
  int ranks_;
};

/// This rank's share of an undirected graph: its vertices' rows (global column ids), with
/// values of T (bool: the pattern; double: the weights).
template <class T = bool>
struct Graph {
  BlockPartition partition{0, 1};
  int rank = 0;
  Matrix<T> local;  // count(rank) x vertices(), on the cpu backend
  /// Edges stored on every rank together (each undirected edge twice).
  std::uint64_t global_entries = 0;

  Index first() const { return partition.first(rank); }
  bool owns(Index v) const { return partition.owner(v) == rank; }
};

/// The Graph500 Kronecker graph of generate::kronecker_pattern(scale, edge_factor, {seed})
/// (T = bool) or generate::kronecker (T = double: parallel edges keep the smallest weight),
/// built distributed: each rank draws an equal share of the edge numbers, sends both
/// directions of each to their owners in one all-to-all, and sorts its rows. Rank r's rows
/// equal rows [first(r), first(r + 1)) of the single-process matrix.
template <class T = bool>
Graph<T> kronecker(const Communicator& comm, int scale, int edge_factor = 16,
                   std::uint64_t seed = 1);

}  // namespace grb::dist
