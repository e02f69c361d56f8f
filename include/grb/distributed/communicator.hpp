// The ranks of a distributed run and what they exchange, over MPI (OpenMPI): one process per CPU
// rank (the cpu backend), started by `mpirun -np P`. grb writes no transport of its own: every
// exchange is one MPI collective. Built only where MPI is found (GRB_WITH_MPI).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "grb/error.hpp"

namespace grb::dist {

/// MPI_Init and MPI_Finalize for the program's lifetime (one per process, first in main).
class Environment {
 public:
  Environment(int* argc, char*** argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
};

/// A group of ranks (MPI_COMM_WORLD unless made otherwise). Collective calls must be made by
/// every rank of the group, in the same order.
class Communicator {
 public:
  /// Every rank of the run.
  static Communicator world() { return Communicator(MPI_COMM_WORLD); }

  int rank() const { return rank_; }
  int size() const { return size_; }

  /// All-to-all with counts that differ per pair: send[r] goes to rank r. Returns what every
  /// rank sent here, in rank order; with `from`, also how many items came from each rank. T
  /// must be trivially copyable.
  template <class T>
  std::vector<T> all_to_all(const std::vector<std::vector<T>>& send,
                            std::vector<std::size_t>* from = nullptr) const;

  /// The sum, and the maximum, over the ranks (every rank gets it).
  std::uint64_t sum(std::uint64_t value) const;
  std::uint64_t max(std::uint64_t value) const;
  double max_real(double value) const;
  /// The element-wise sums over the ranks, in one all-reduce.
  std::vector<std::uint64_t> sum(const std::vector<std::uint64_t>& values) const;
  /// Whether `value` is true on every rank.
  bool all(bool value) const;
  /// Copies `bytes` bytes at `data` from rank `root` to every rank.
  void broadcast(void* data, std::size_t bytes, int root = 0) const;
  /// This rank's number among the ranks on its host (0, 1, ...): the GPU it takes.
  int local_rank() const;

  /// Every rank's `values`, concatenated in rank order, on rank `root` (empty elsewhere).
  template <class T>
  std::vector<T> gather(const std::vector<T>& values, int root = 0) const;

 private:
  explicit Communicator(MPI_Comm comm);
  static void check(int status, const char* what);
  /// A contiguous type of `bytes` bytes, committed once per size.
  static MPI_Datatype bytes_type(std::size_t bytes);
  static int count(std::size_t items, const char* what);

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

template <class T>
std::vector<T> Communicator::all_to_all(const std::vector<std::vector<T>>& send,
                                        std::vector<std::size_t>* from) const {
  if (send.size() != std::size_t(size_))
    throw InvalidValue("all_to_all: " + std::to_string(send.size()) + " send lists for " +
                       std::to_string(size_) + " ranks");
  std::vector<int> send_counts(size_), send_offsets(size_), receive_counts(size_),
      receive_offsets(size_);
  std::vector<T> packed;
  std::size_t total = 0;
  for (int r = 0; r < size_; ++r) total += send[r].size();
  packed.reserve(total);
  for (int r = 0; r < size_; ++r) {
    send_offsets[r] = count(packed.size(), "all_to_all");
    send_counts[r] = count(send[r].size(), "all_to_all");
    packed.insert(packed.end(), send[r].begin(), send[r].end());
  }
  check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm_),
        "MPI_Alltoall");
  std::size_t received = 0;
  for (int r = 0; r < size_; ++r) {
    receive_offsets[r] = count(received, "all_to_all");
    received += std::size_t(receive_counts[r]);
  }
  if (from) from->assign(receive_counts.begin(), receive_counts.end());
  std::vector<T> result(received);
  const MPI_Datatype type = bytes_type(sizeof(T));
  check(MPI_Alltoallv(packed.data(), send_counts.data(), send_offsets.data(), type, result.data(),
                      receive_counts.data(), receive_offsets.data(), type, comm_),
        "MPI_Alltoallv");
  return result;
}

template <class T>
std::vector<T> Communicator::gather(const std::vector<T>& values, int root) const {
  const int mine = count(values.size(), "gather");
  std::vector<int> counts(rank_ == root ? size_ : 0), offsets(counts.size());
  check(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm_), "MPI_Gather");
  std::size_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = count(total, "gather");
    total += std::size_t(counts[r]);
  }
  std::vector<T> result(total);
  const MPI_Datatype type = bytes_type(sizeof(T));
  check(MPI_Gatherv(values.data(), mine, type, result.data(), counts.data(), offsets.data(), type,
                    root, comm_),
        "MPI_Gatherv");
  return result;
}

}  // namespace grb::dist
