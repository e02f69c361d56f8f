// Device memory for grb::detail::Array: a stream-ordered pool on the default stream.
//
// Allocations come from the device's default memory pool (cudaMallocAsync / cudaFreeAsync) with
// its release threshold raised to "never": freed blocks stay in the pool, so the temporaries an
// operation makes on every BFS level are served from memory the pool already holds and never
// reach the driver's cudaMalloc after the first level. All grb work runs on the legacy default
// stream, so a block freed by one operation is safely reused by the next.
//
// Blocks of up to 1 MiB are also kept on the host side when freed (SmallBlocks), a few per size
// class, and handed to the next allocation of that class without a call into the runtime: a
// linear-algebra BFS level on a grid makes and frees a handful of kilobyte arrays, and each
// cudaMallocAsync or cudaFreeAsync costs ~0.7 us of host time, a tenth of the level.
#include <cuda_runtime.h>

#include <unordered_map>

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "grb/array.hpp"
#include "grb/cuda/check.cuh"
#include "grb/error.hpp"
#include "grb/types.hpp"

namespace grb {

bool cuda_available() {
  // Probed once: without a driver or a GPU the runtime reports an error, which means "no".
  static const bool available = [] {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return count > 0;
  }();
  return available;
}

namespace detail {

namespace {

struct PoolState {
  std::mutex mutex;
  std::vector<int> configured;    // devices whose pool has been configured
  std::vector<int> without_pool;  // devices without stream-ordered allocation support
};

PoolState& pool_state() {
  // Never destroyed: arrays freed by other static objects' destructors at exit still ask it.
  static PoolState* state = new PoolState;
  return *state;
}

/// Whether `device` allocates through its (configured) default pool.
bool uses_pool(int device) {
  PoolState& state = pool_state();
  std::lock_guard lock(state.mutex);
  for (int d : state.configured)
    if (d == device) return true;
  for (int d : state.without_pool)
    if (d == device) return false;
  int supported = 0;
  GRB_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
  if (!supported) {
    state.without_pool.push_back(device);
    return false;
  }
  cudaMemPool_t pool;
  GRB_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t keep_everything = std::numeric_limits<std::uint64_t>::max();
  GRB_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
  state.configured.push_back(device);
  return true;
}

[[noreturn]] void throw_out_of_memory(std::size_t bytes) {
  (void)cudaGetLastError();  // allocation failures are not sticky; clear the last-error slot
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    (void)cudaGetLastError();
    free = 0;
  }
  throw OutOfMemory("cuda: device allocation of " + std::to_string(bytes) + " bytes failed (" +
                        std::to_string(free) + " of " + std::to_string(total) +
                        " bytes free on the device)",
                    bytes, free);
}

/// Stream-ordered: the block returns to the pool once the work queued before it is done. A
/// failure here (the runtime already shut down at exit) cannot be reported from a destructor.
void release(void* pointer) noexcept {
  int device = 0;
  bool pooled = cudaGetDevice(&device) == cudaSuccess;
  if (pooled) {
    PoolState& state = pool_state();
    std::lock_guard lock(state.mutex);
    pooled = false;
    for (int d : state.configured) pooled = pooled || d == device;
  }
  const cudaError_t status = pooled ? cudaFreeAsync(pointer, cudaStream_t{0}) : cudaFree(pointer);
  if (status != cudaSuccess) (void)cudaGetLastError();
}

/// Freed small blocks, by size class (powers of two from 256 bytes to 1 MiB). Reusing one at
/// once is safe for the same reason the pool's reuse is: all work is on the default stream, so
/// whatever the block's last user queued runs before its next user's work. Closed at exit (see
/// small_blocks): the cached blocks go back to the pool and later frees go straight there.
class SmallBlocks {
 public:
  static constexpr std::size_t largest = std::size_t{1} << 20;

  /// A cached block for `bytes` on `device`, else a new one of the class's size; null when the
  /// class is empty and the pool cannot give one.
  void* take(std::size_t bytes, int device, cudaError_t& status) {
    const unsigned size_class = class_of(bytes);
    std::lock_guard lock(mutex_);
    if (closed_) {
      void* pointer = nullptr;
      status = cudaMallocAsync(&pointer, bytes, cudaStream_t{0});
      return pointer;
    }
    std::vector<Block>& free = free_[size_class];
    for (std::size_t b = free.size(); b-- > 0;) {
      if (free[b].device != device) continue;
      void* pointer = free[b].pointer;
      free.erase(free.begin() + std::ptrdiff_t(b));
      live_.emplace(pointer, Block{pointer, device, size_class});
      status = cudaSuccess;
      return pointer;
    }
    void* pointer = nullptr;
    status = cudaMallocAsync(&pointer, class_bytes(size_class), cudaStream_t{0});
    if (status != cudaSuccess) return nullptr;
    live_.emplace(pointer, Block{pointer, device, size_class});
    return pointer;
  }

  /// Keeps `pointer` for reuse if it came from take() and its class has room; false: not ours.
  bool give_back(void* pointer) noexcept {
    std::lock_guard lock(mutex_);
    const auto found = live_.find(pointer);
    if (found == live_.end()) return false;
    const Block block = found->second;
    live_.erase(found);
    if (closed_) return false;
    std::vector<Block>& free = free_[block.size_class];
    if (free.size() < per_class) free.push_back(block);
    else if (cudaFreeAsync(pointer, cudaStream_t{0}) != cudaSuccess) (void)cudaGetLastError();
    return true;
  }

  /// Returns every cached block to the pool (before retrying an allocation that failed).
  void release_cached() noexcept {
    std::lock_guard lock(mutex_);
    release_cached_locked();
  }

  /// At exit: nothing is cached any more.
  void close() noexcept {
    std::lock_guard lock(mutex_);
    closed_ = true;
    release_cached_locked();
  }

 private:
  void release_cached_locked() noexcept {
    for (std::vector<Block>& free : free_) {
      for (const Block& block : free)
        if (cudaFreeAsync(block.pointer, cudaStream_t{0}) != cudaSuccess) (void)cudaGetLastError();
      free.clear();
    }
  }

  static constexpr unsigned smallest_log2 = 8;
  static constexpr unsigned classes = 13;  // 2^8 .. 2^20 bytes
  static constexpr std::size_t per_class = 8;
  struct Block {
    void* pointer;
    int device;
    unsigned size_class;
  };
  static unsigned class_of(std::size_t bytes) {
    unsigned size_class = 0;
    while (class_bytes(size_class) < bytes) ++size_class;
    return size_class;
  }
  static std::size_t class_bytes(unsigned size_class) {
    return std::size_t{1} << (smallest_log2 + size_class);
  }
  std::mutex mutex_;
  std::vector<Block> free_[classes];
  std::unordered_map<void*, Block> live_;
  bool closed_ = false;
};

SmallBlocks& small_blocks() {
  // Never destroyed: arrays freed by other static objects' destructors at exit still ask it.
  // Closed by a static made on first use, after the runtime, so before its teardown: nothing
  // cached is left for compute-sanitizer's leak check.
  static SmallBlocks* blocks = new SmallBlocks;
  static const struct Closer {
    ~Closer() { blocks->close(); }
  } closer;
  return *blocks;
}

/// Set by the first device allocation: before it, no grb work can have run on the device, and
/// a wait must not create a CUDA context just to find nothing to wait for.
std::atomic<bool> device_used{false};

}  // namespace

void* allocate_device_bytes(std::size_t bytes) {
  if (!cuda_available())
    throw BackendUnavailable("cuda: no usable GPU (or driver) for a device allocation");
  device_used.store(true, std::memory_order_relaxed);
  int device = 0;
  GRB_CUDA_CHECK(cudaGetDevice(&device));
  const bool pooled = uses_pool(device);
  void* pointer = nullptr;
  cudaError_t status = cudaSuccess;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (pooled && bytes <= SmallBlocks::largest)
      pointer = small_blocks().take(bytes, device, status);
    else if (pooled)
      status = cudaMallocAsync(&pointer, bytes, cudaStream_t{0});
    else
      status = cudaMalloc(&pointer, bytes);
    if (status != cudaErrorMemoryAllocation || !pooled) break;
    (void)cudaGetLastError();
    small_blocks().release_cached();  // the cached blocks may be what is missing
  }
  if (status == cudaErrorMemoryAllocation) throw_out_of_memory(bytes);
  GRB_CUDA_CHECK(status);
  return pointer;
}

void free_device_bytes(void* pointer) noexcept {
  if (!small_blocks().give_back(pointer)) release(pointer);
}

void copy_device_bytes(void* destination, const void* source, std::size_t bytes) {
  // cudaMemcpyDefault infers the direction from unified addressing; the copy is ordered after
  // the work already queued on the default stream and finished when it returns.
  GRB_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyDefault));
}

void synchronize_device() {
  if (device_used.load(std::memory_order_relaxed)) GRB_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace detail
}  // namespace grb
