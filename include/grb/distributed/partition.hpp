// A graph distributed over ranks, 1-D by vertex blocks: rank r owns the vertices
// [first(r), first(r + 1)) and their out-edges, as a local CSR whose rows are its own vertices
// (row i is vertex first(r) + i) and whose column ids are global. Independent of the transport:
// the MPI ranks (grb/distributed/graph.hpp) and the GPU ranks (device_graph.hpp) share it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::dist {

/// Vertices [0, n) in `ranks` blocks of n / ranks (the first n % ranks one larger).
class BlockPartition {
 public:
  GRB_HOST_DEVICE BlockPartition(Index n, int ranks) : n_(n), ranks_(ranks) {}
  GRB_HOST_DEVICE Index vertices() const { return n_; }
  GRB_HOST_DEVICE int ranks() const { return ranks_; }
  GRB_HOST_DEVICE Index first(int rank) const {
    const std::uint64_t base = n_ / ranks_, extra = n_ % ranks_;
    return static_cast<Index>(base * rank +
                              (std::uint64_t(rank) < extra ? std::uint64_t(rank) : extra));
  }
  GRB_HOST_DEVICE Index count(int rank) const { return first(rank + 1) - first(rank); }
  GRB_HOST_DEVICE int owner(Index v) const {
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

}  // namespace grb::dist
