// DeviceCommunicator over NCCL (grb/distributed/device_communicator.hpp). Every collective is
// enqueued on the rank's own stream; the host-value ones then wait for it.
#include <cuda_runtime.h>
#include <nccl.h>

#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "grb/array.hpp"
#include "grb/cuda/primitives/check.cuh"
#include "grb/deferred.hpp"
#include "grb/distributed/device_communicator.hpp"

namespace grb::dist {
namespace {

void check_nccl(ncclResult_t status, const char* call, ncclComm_t comm = nullptr) {
  if (status == ncclSuccess) return;
  std::string message = std::string(call) + " failed: " + ncclGetErrorString(status);
  if (const char* last = ncclGetLastError(comm); last && *last)
    message += " (" + std::string(last) + ")";
  throw CommunicationError(message);
}

template <class T>
detail::Array<T> device_copy(const std::vector<T>& values) {
  return grb::detail::Array<T>::from(std::span<const T>(values.data(), values.size()), Backend::cuda);
}

}  // namespace

DeviceGroupId DeviceGroupId::make() {
  static_assert(sizeof(ncclUniqueId) == sizeof(DeviceGroupId::bytes));
  ncclUniqueId id;
  check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  DeviceGroupId result;
  std::memcpy(result.bytes.data(), &id, sizeof id);
  return result;
}

struct DeviceCommunicator::State {
  State(int rank, int size, int device) : rank(rank), size(size), device(device), context(device) {}

  ncclComm_t comm = nullptr;
  int rank = 0, size = 1, device = 0;
  Context context;
  std::mutex abort_mutex;
  bool aborted = false;

  /// Before a collective: after an abort the communicator is gone (NCCL frees it).
  void ensure_live() {
    std::lock_guard lock(abort_mutex);
    if (aborted)
      throw CommunicationError("rank " + std::to_string(rank) +
                               ": the group was aborted (another rank failed)");
  }

  cudaStream_t stream() const { return static_cast<cudaStream_t>(context.stream()); }
  /// Waits for the stream; after an abort, says so rather than CUDA's error.
  void synchronize() {
    const cudaError_t status = cudaStreamSynchronize(stream());
    {
      std::lock_guard lock(abort_mutex);
      if (aborted)
        throw CommunicationError("rank " + std::to_string(rank) +
                                 ": the group was aborted (another rank failed)");
    }
    GRB_CUDA_CHECK(status);
    ncclResult_t async = ncclSuccess;
    check_nccl(ncclCommGetAsyncError(comm, &async), "ncclCommGetAsyncError", comm);
    check_nccl(async, "an NCCL collective", comm);
  }
};

DeviceCommunicator::DeviceCommunicator(const DeviceGroupId& id, int rank, int size, int device) {
  if (size < 1 || rank < 0 || rank >= size)
    throw InvalidValue("DeviceCommunicator: rank " + std::to_string(rank) + " of " +
                       std::to_string(size));
  const int devices = visible_devices();
  if (device < 0 || device >= devices)
    throw InvalidValue("DeviceCommunicator: rank " + std::to_string(rank) + " asks for GPU " +
                       std::to_string(device) + ", but this process sees " +
                       std::to_string(devices) + " GPU(s)");
  GRB_CUDA_CHECK(cudaSetDevice(device));
  state_ = std::make_unique<State>(rank, size, device);
  ncclUniqueId unique;
  std::memcpy(&unique, id.bytes.data(), sizeof unique);
  check_nccl(ncclCommInitRank(&state_->comm, size, unique, rank), "ncclCommInitRank");
}

DeviceCommunicator::~DeviceCommunicator() {
  if (!state_) return;
  std::lock_guard lock(state_->abort_mutex);
  if (!state_->aborted && state_->comm) {
    (void)cudaStreamSynchronize(state_->stream());
    (void)ncclCommDestroy(state_->comm);
  }
}

DeviceCommunicator::DeviceCommunicator(std::unique_ptr<State> state) : state_(std::move(state)) {}

DeviceCommunicator::DeviceCommunicator(DeviceCommunicator&&) noexcept = default;
DeviceCommunicator& DeviceCommunicator::operator=(DeviceCommunicator&& other) noexcept {
  DeviceCommunicator moved(std::move(other));
  std::swap(state_, moved.state_);  // the old communicator ends with `moved`
  return *this;
}

int DeviceCommunicator::rank() const { return state_->rank; }
int DeviceCommunicator::size() const { return state_->size; }
int DeviceCommunicator::device() const { return state_->device; }
const Context& DeviceCommunicator::context() const { return state_->context; }

void DeviceCommunicator::abort() {
  std::lock_guard lock(state_->abort_mutex);
  if (state_->aborted) return;
  state_->aborted = true;
  (void)ncclCommAbort(state_->comm);
}

void DeviceCommunicator::all_to_all_bytes(const void* send,
                                          const std::vector<std::uint64_t>& send_counts,
                                          void* receive,
                                          const std::vector<std::uint64_t>& receive_counts,
                                          std::size_t item_bytes) const {
  const std::size_t ranks = std::size_t(size());
  if (send_counts.size() != ranks || receive_counts.size() != ranks)
    throw InvalidValue("all_to_all_bytes: counts for " + std::to_string(send_counts.size()) +
                       " and " + std::to_string(receive_counts.size()) + " ranks, not " +
                       std::to_string(ranks));
  state_->ensure_live();
  const auto* out = static_cast<const std::uint8_t*>(send);
  auto* in = static_cast<std::uint8_t*>(receive);
  check_nccl(ncclGroupStart(), "ncclGroupStart", state_->comm);
  std::size_t sent = 0, received = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    const std::size_t out_bytes = send_counts[r] * item_bytes,
                      in_bytes = receive_counts[r] * item_bytes;
    if (out_bytes > 0)
      check_nccl(ncclSend(out + sent, out_bytes, ncclUint8, int(r), state_->comm, state_->stream()),
                 "ncclSend", state_->comm);
    if (in_bytes > 0)
      check_nccl(
          ncclRecv(in + received, in_bytes, ncclUint8, int(r), state_->comm, state_->stream()),
          "ncclRecv", state_->comm);
    sent += out_bytes;
    received += in_bytes;
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd", state_->comm);
}

void DeviceCommunicator::all_gather_bytes(const void* send, void* receive,
                                          std::size_t bytes) const {
  state_->ensure_live();
  check_nccl(ncclAllGather(send, receive, bytes, ncclUint8, state_->comm, state_->stream()),
             "ncclAllGather", state_->comm);
}

std::vector<std::uint64_t> DeviceCommunicator::exchange_counts(
    const std::vector<std::uint64_t>& send_counts) const {
  if (send_counts.size() != std::size_t(size()))
    throw InvalidValue("exchange_counts: " + std::to_string(send_counts.size()) + " counts for " +
                       std::to_string(size()) + " ranks");
  state_->ensure_live();
  grb::detail::ContextSwitch use(state_->context.state());
  grb::detail::Array<std::uint64_t> out = device_copy(send_counts);
  grb::detail::Array<std::uint64_t> in(send_counts.size(), Backend::cuda);
  check_nccl(ncclAlltoAll(out.data(), in.data(), 1, ncclUint64, state_->comm, state_->stream()),
             "ncclAlltoAll", state_->comm);
  state_->synchronize();
  return in.to_vector();
}

std::vector<std::uint64_t> DeviceCommunicator::sum(const std::vector<std::uint64_t>& values) const {
  if (values.empty()) return {};
  state_->ensure_live();
  grb::detail::ContextSwitch use(state_->context.state());
  grb::detail::Array<std::uint64_t> buffer = device_copy(values);
  check_nccl(ncclAllReduce(buffer.data(), buffer.data(), values.size(), ncclUint64, ncclSum,
                           state_->comm, state_->stream()),
             "ncclAllReduce", state_->comm);
  state_->synchronize();
  return buffer.to_vector();
}

std::uint64_t DeviceCommunicator::max(std::uint64_t value) const {
  state_->ensure_live();
  grb::detail::ContextSwitch use(state_->context.state());
  grb::detail::Array<std::uint64_t> buffer = device_copy(std::vector{value});
  check_nccl(ncclAllReduce(buffer.data(), buffer.data(), 1, ncclUint64, ncclMax, state_->comm,
                           state_->stream()),
             "ncclAllReduce", state_->comm);
  state_->synchronize();
  return buffer.to_vector()[0];
}

bool DeviceCommunicator::all(bool value) const { return sum(value ? 0 : 1) == 0; }

std::vector<std::uint8_t> DeviceCommunicator::all_to_all_host(
    const std::vector<std::vector<std::uint8_t>>& send, std::size_t item_bytes,
    std::vector<std::size_t>* from) const {
  std::vector<std::uint64_t> send_counts(send.size());
  std::vector<std::uint8_t> packed;
  for (std::size_t r = 0; r < send.size(); ++r) {
    send_counts[r] = send[r].size() / item_bytes;
    packed.insert(packed.end(), send[r].begin(), send[r].end());
  }
  const std::vector<std::uint64_t> receive_counts = exchange_counts(send_counts);
  std::uint64_t total = 0;
  for (std::uint64_t count : receive_counts) total += count;
  if (from) from->assign(receive_counts.begin(), receive_counts.end());
  state_->ensure_live();
  grb::detail::ContextSwitch use(state_->context.state());
  grb::detail::Array<std::uint8_t> out = device_copy(packed);
  grb::detail::Array<std::uint8_t> in(total * item_bytes, Backend::cuda);
  all_to_all_bytes(out.data(), send_counts, in.data(), receive_counts, item_bytes);
  state_->synchronize();
  return in.to_vector();
}

int visible_devices() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return devices;
}

void run_on_devices(int devices, const std::function<void(DeviceCommunicator&)>& body) {
  const int visible = visible_devices();
  if (devices < 1 || devices > visible)
    throw InvalidValue("--gpus " + std::to_string(devices) + ": this machine has " +
                       std::to_string(visible) + " GPU(s)");
  const DeviceGroupId id = DeviceGroupId::make();
  std::mutex mutex;
  std::vector<DeviceCommunicator*> joined(std::size_t(devices), nullptr);
  std::exception_ptr first_error;
  const auto fail = [&](int rank) {
    std::lock_guard lock(mutex);
    if (!first_error) first_error = std::current_exception();
    for (int r = 0; r < devices; ++r)
      if (joined[r] && r != rank) joined[r]->abort();
  };
  std::vector<std::thread> threads;
  for (int rank = 0; rank < devices; ++rank)
    threads.emplace_back([&, rank] {
      try {
        DeviceCommunicator communicator(id, rank, devices, rank);
        // Listed while alive, so that a failing rank can abort it; unlisted before it ends.
        struct Listing {
          std::mutex& mutex;
          DeviceCommunicator*& slot;
          Listing(std::mutex& m, DeviceCommunicator*& s, DeviceCommunicator* c,
                  const std::exception_ptr& failed)
              : mutex(m), slot(s) {
            std::lock_guard lock(mutex);
            slot = c;
            if (failed) c->abort();  // a rank failed before this one joined
          }
          ~Listing() {
            std::lock_guard lock(mutex);
            slot = nullptr;
          }
        } listing(mutex, joined[rank], &communicator, first_error);
        try {
          ContextScope scope(communicator.context());
          body(communicator);
          communicator.context().wait();
        } catch (...) {
          fail(rank);
          communicator.abort();
        }
      } catch (...) {
        fail(rank);
      }
    });
  for (std::thread& thread : threads) thread.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace grb::dist
