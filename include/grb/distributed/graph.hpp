// A graph distributed over the ranks of a Communicator (grb/distributed/partition.hpp). No rank
// ever holds the whole graph: a generator draws each rank's share of the edges and sends each to
// its owner.
#pragma once

#include <cstdint>

#include "grb/distributed/communicator.hpp"
#include "grb/distributed/partition.hpp"

namespace grb::dist {

/// The Graph500 Kronecker graph of generate::kronecker_pattern(scale, edge_factor, {seed})
/// (T = bool) or generate::kronecker (T = double: parallel edges keep the smallest weight),
/// built distributed: each rank draws an equal share of the edge numbers, sends both
/// directions of each to their owners in one all-to-all, and sorts its rows. Rank r's rows
/// equal rows [first(r), first(r + 1)) of the single-process matrix.
template <class T = bool>
Graph<T> kronecker(const Communicator& comm, int scale, int edge_factor = 16,
                   std::uint64_t seed = 1);

}  // namespace grb::dist
