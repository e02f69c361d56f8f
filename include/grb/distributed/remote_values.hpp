// The values of other ranks' vertices, asked of their owners: two all-to-alls (the ids, then
// their values in the order asked). The validators and the distributed extract use it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "grb/distributed/partition.hpp"

namespace grb::dist::detail {

/// The values of other ranks' vertices, asked of their owners: add() each vertex whose value is
/// wanted, then fetch() (collective), then operator() for owned and fetched vertices alike.
///
/// The wanted vertices are bits of a bitmap over all n vertices (n / 8 bytes), not a list: a
/// validator adds a vertex per edge, millions with repeats, which a list would have to sort and
/// deduplicate. Scanning the bitmap gives each owner its ids in increasing order, and the
/// replies come back in that order, so vertex v's value is at the number of wanted vertices
/// before it: a per-word count and a popcount.
template <class Comm, class T>
class RemoteValues {
 public:
  RemoteValues(const Comm& comm, const BlockPartition& partition, int rank,
               const std::vector<T>& local)
      : comm_(comm),
        partition_(partition),
        rank_(rank),
        local_(local),
        wanted_(std::size_t(partition.vertices()) / 64 + 1, 0) {}

  void add(Index v) {
    if (v < partition_.vertices() && partition_.owner(v) != rank_)
      wanted_[v / 64] |= std::uint64_t{1} << (v % 64);
  }

  void fetch() {
    // Words before each word: the replies' positions.
    before_.resize(wanted_.size());
    std::size_t count = 0;
    for (std::size_t w = 0; w < wanted_.size(); ++w)
      before_[w] = count, count += std::size_t(std::popcount(wanted_[w]));
    std::vector<std::vector<Index>> asked(comm_.size());
    for (std::size_t w = 0; w < wanted_.size(); ++w)
      for (std::uint64_t bits = wanted_[w]; bits != 0; bits &= bits - 1) {
        const Index v = Index(w * 64 + std::size_t(std::countr_zero(bits)));
        asked[partition_.owner(v)].push_back(v);
      }
    std::vector<std::size_t> from;
    const std::vector<Index> requests = comm_.all_to_all(asked, &from);
    std::vector<std::vector<T>> answers(comm_.size());
    const Index first = partition_.first(rank_);
    std::size_t at = 0;
    for (int r = 0; r < comm_.size(); ++r)
      for (std::size_t k = 0; k < from[r]; ++k, ++at)
        answers[r].push_back(local_[requests[at] - first]);
    replies_ = comm_.all_to_all(answers);  // by owner, each in increasing id: increasing id
  }

  T operator()(Index v) const {
    if (partition_.owner(v) == rank_) return local_[v - partition_.first(rank_)];
    const std::uint64_t below = wanted_[v / 64] & ((std::uint64_t{1} << (v % 64)) - 1);
    return replies_[before_[v / 64] + std::size_t(std::popcount(below))];
  }

 private:
  const Comm& comm_;
  const BlockPartition& partition_;
  int rank_;
  const std::vector<T>& local_;
  std::vector<std::uint64_t> wanted_;
  std::vector<std::size_t> before_;
  std::vector<T> replies_;
};

}  // namespace grb::dist::detail
