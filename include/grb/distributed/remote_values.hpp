// The values of other ranks' vertices, asked of their owners: two all-to-alls (the ids, then
// their values in the order asked). The validators and the distributed extract use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "grb/distributed/partition.hpp"

namespace grb::dist::detail {

/// The values of other ranks' vertices, asked of their owners: add() each vertex whose value is
/// wanted, then fetch() (collective), then operator() for owned and fetched vertices alike.
template <class Comm, class T>
class RemoteValues {
 public:
  RemoteValues(const Comm& comm, const BlockPartition& partition, int rank,
               const std::vector<T>& local)
      : comm_(comm), partition_(partition), rank_(rank), local_(local), asked_(comm.size()) {}

  void add(Index v) {
    if (v < partition_.vertices() && partition_.owner(v) != rank_)
      asked_[partition_.owner(v)].push_back(v);
  }

  void fetch() {
    for (std::vector<Index>& ids : asked_) {
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    }
    std::vector<std::size_t> from;
    const std::vector<Index> requests = comm_.all_to_all(asked_, &from);
    std::vector<std::vector<T>> answers(comm_.size());
    const Index first = partition_.first(rank_);
    std::size_t at = 0;
    for (int r = 0; r < comm_.size(); ++r)
      for (std::size_t k = 0; k < from[r]; ++k, ++at)
        answers[r].push_back(local_[requests[at] - first]);
    replies_ = comm_.all_to_all(answers);  // in the order asked
    offsets_.assign(comm_.size() + 1, 0);
    for (int r = 0; r < comm_.size(); ++r) offsets_[r + 1] = offsets_[r] + asked_[r].size();
  }

  T operator()(Index v) const {
    const int owner = partition_.owner(v);
    if (owner == rank_) return local_[v - partition_.first(rank_)];
    const std::vector<Index>& ids = asked_[owner];
    return replies_[offsets_[owner] +
                    std::size_t(std::lower_bound(ids.begin(), ids.end(), v) - ids.begin())];
  }

 private:
  const Comm& comm_;
  const BlockPartition& partition_;
  int rank_;
  const std::vector<T>& local_;
  std::vector<std::vector<Index>> asked_;
  std::vector<T> replies_;
  std::vector<std::size_t> offsets_;
};

}  // namespace grb::dist::detail
