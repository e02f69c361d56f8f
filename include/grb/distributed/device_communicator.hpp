// The GPUs of a distributed run and what they exchange, over NCCL: one rank per GPU, each with
// its own grb::Context (its device and a stream of its own). NCCL moves the data from GPU to GPU;
// grb writes no transport of its own. The ranks are made one per process under mpirun
// (grb/distributed/connect_devices.hpp: each rank takes its GPU by its rank on the host, and NCCL's
// unique id is broadcast over MPI) or one per thread of one process (run_on_devices, for a
// machine with several GPUs and no launcher). The algorithms cannot tell the two apart.
// Built where CUDA and NCCL are found (GRB_WITH_NCCL).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "grb/context.hpp"
#include "grb/error.hpp"

namespace grb::dist {

/// NCCL's unique id: made once by one rank and given to every rank before they join.
struct DeviceGroupId {
  std::array<char, 128> bytes{};
  static DeviceGroupId make();
};

class DeviceCommunicator {
 public:
  /// Joins as rank `rank` of `size` on GPU `device`. Collective: every rank joins with the same
  /// id, each from its own process or thread, and the call returns once all have joined.
  DeviceCommunicator(const DeviceGroupId& id, int rank, int size, int device);
  ~DeviceCommunicator();
  DeviceCommunicator(DeviceCommunicator&&) noexcept;
  DeviceCommunicator& operator=(DeviceCommunicator&&) noexcept;
  DeviceCommunicator(const DeviceCommunicator&) = delete;
  DeviceCommunicator& operator=(const DeviceCommunicator&) = delete;

  int rank() const;
  int size() const;
  int device() const;
  /// This rank's context: its device and stream. The collectives run on the stream; make it
  /// current (ContextScope) for the rank's grb work.
  const Context& context() const;

  /// Ends the group's pending and future collectives with an error (ncclCommAbort): what a
  /// failed rank does so that the others stop waiting for it. Callable from any thread.
  void abort();

  // ---- collectives on device buffers (every rank calls them, in the same order)

  /// Sends send_counts[r] items of `item_bytes` bytes, from `send` at the sum of the counts
  /// before r, to rank r; receives receive_counts[r] items from rank r into `receive` likewise.
  /// The counts are the ones exchange_counts agreed. Returns once the stream is enqueued.
  void all_to_all_bytes(const void* send, const std::vector<std::uint64_t>& send_counts,
                        void* receive, const std::vector<std::uint64_t>& receive_counts,
                        std::size_t item_bytes) const;

  /// Every rank's `bytes` bytes at `send`, concatenated in rank order at `receive` (which may
  /// hold `send` at rank() * bytes: in place).
  void all_gather_bytes(const void* send, void* receive, std::size_t bytes) const;

  // ---- collectives on host values (each waits for the stream)

  /// What every rank will send here: receive[r] = rank r's send_counts[rank()].
  std::vector<std::uint64_t> exchange_counts(const std::vector<std::uint64_t>& send_counts) const;
  /// The element-wise sums over the ranks, in one all-reduce.
  std::vector<std::uint64_t> sum(const std::vector<std::uint64_t>& values) const;
  std::uint64_t sum(std::uint64_t value) const { return sum(std::vector{value})[0]; }
  std::uint64_t max(std::uint64_t value) const;
  /// Whether `value` is true on every rank.
  bool all(bool value) const;

  /// The Communicator's all_to_all over NCCL, through device memory: send[r] goes to rank r;
  /// returns what every rank sent here, in rank order (with `from`, how many from each rank).
  template <class T>
  std::vector<T> all_to_all(const std::vector<std::vector<T>>& send,
                            std::vector<std::size_t>* from = nullptr) const;

 private:
  std::vector<std::uint8_t> all_to_all_host(const std::vector<std::vector<std::uint8_t>>& send,
                                            std::size_t item_bytes,
                                            std::vector<std::size_t>* from) const;
  struct State;
  explicit DeviceCommunicator(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

/// Runs body(communicator) on GPUs 0..devices-1 of this process, one thread per GPU (GPU r is
/// rank r), with the rank's context current. When a rank
/// throws, the group is aborted so that the others stop, and the first rank's exception is
/// rethrown here. InvalidValue when the process sees fewer GPUs.
void run_on_devices(int devices, const std::function<void(DeviceCommunicator&)>& body);

/// The GPUs this process sees (0 without CUDA or without a GPU).
int visible_devices();

template <class T>
std::vector<T> DeviceCommunicator::all_to_all(const std::vector<std::vector<T>>& send,
                                              std::vector<std::size_t>* from) const {
  static_assert(std::is_trivially_copyable_v<T>);
  if (send.size() != std::size_t(size()))
    throw InvalidValue("all_to_all: " + std::to_string(send.size()) + " send lists for " +
                       std::to_string(size()) + " ranks");
  std::vector<std::vector<std::uint8_t>> bytes(send.size());
  for (std::size_t r = 0; r < send.size(); ++r) {
    bytes[r].resize(send[r].size() * sizeof(T));
    if (!send[r].empty()) std::memcpy(bytes[r].data(), send[r].data(), bytes[r].size());
  }
  const std::vector<std::uint8_t> received = all_to_all_host(bytes, sizeof(T), from);
  std::vector<T> result(received.size() / sizeof(T));
  if (!result.empty()) std::memcpy(result.data(), received.data(), received.size());
  return result;
}

}  // namespace grb::dist
