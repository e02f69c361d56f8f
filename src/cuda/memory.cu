// Device memory for grb::detail::Array: a stream-ordered pool.
//
// Allocations come from the device's default memory pool (cudaMallocAsync / cudaFreeAsync) with
// its release threshold raised to "never": freed blocks stay in the pool, so the temporaries an
// operation makes on every BFS level are served from memory the pool already holds and never
// reach the driver's cudaMalloc after the first level. A block is allocated on the current
// context's stream (grb/context.hpp) and freed on that same stream, whichever context frees it:
// work is ordered on the stream, so a block freed by one operation is safely reused by the next.
//
// Freed blocks are also kept on the host side (KeptBlocks), a few per size and stream, and
// handed to the next allocation of that size on that stream without a call into the runtime: a
// linear-algebra BFS level makes and frees a handful of arrays (kilobytes on a grid, its n-sized
// results on a Kronecker graph), and each cudaMallocAsync or cudaFreeAsync costs ~1 us of host
// time (up to 20 after other host work), between a level's count and the next level's launch.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "grb/array.hpp"
#include "grb/cuda/primitives/check.cuh"
#include "grb/cuda/primitives/launch.cuh"
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

/// Stream-ordered: the block returns to the pool once the work queued before it on its stream
/// is done. A failure here (the runtime already shut down at exit) cannot be reported from a
/// destructor.
void free_on(void* pointer, cudaStream_t stream) noexcept {
  if (cudaFreeAsync(pointer, stream) != cudaSuccess) (void)cudaGetLastError();
}

/// Every block allocated from a pool, with the stream it was allocated on, and the freed blocks
/// kept on the host side, by size and stream, and handed to the next allocation of that size on
/// that stream without a call into the runtime. Reusing one at once is safe for the same reason
/// the pool's reuse is: whatever the block's last user queued on the stream runs before its next
/// user's work. Small blocks (up to 1 MiB) are kept by power-of-two class, 8 per
/// class; larger ones by class too, eight classes per power of two (at most 1/8 unused), 4 per
/// class and at most a sixteenth of the device's memory in all. Blocks are allocated at their
/// class's size, so a block serves every later size of its class: a BFS level's output list is
/// sized by its edges, which differ with every root, and a new size that misses the kept blocks
/// may make the pool map more memory (kron22: one cudaMallocAsync took 201 us, in
/// the middle of a search). Closed at exit (see kept_blocks): the kept blocks go back to the
/// pool and later frees go straight there.
class KeptBlocks {
 public:
  static constexpr std::size_t largest_small = std::size_t{1} << 20;

  /// A kept block for `bytes` on `device` and `stream`, else a new one of the rounded size; null
  /// when none is kept and the pool cannot give one.
  void* take(std::size_t bytes, int device, cudaStream_t stream, cudaError_t& status) {
    const std::size_t size = rounded(bytes);
    std::lock_guard lock(mutex_);
    void* pointer = nullptr;
    if (closed_) {
      status = cudaMallocAsync(&pointer, bytes, stream);
      if (status == cudaSuccess) live_.emplace(pointer, Block{pointer, device, bytes, stream, false});
      return pointer;
    }
    if (const auto kept = free_.find(size); kept != free_.end()) {
      std::vector<Block>& free = kept->second;
      for (std::size_t b = free.size(); b-- > 0;) {
        if (free[b].device != device || free[b].stream != stream) continue;
        const Block block = free[b];
        free.erase(free.begin() + std::ptrdiff_t(b));
        if (size > largest_small) kept_large_ -= size;
        live_.emplace(block.pointer, block);
        status = cudaSuccess;
        return block.pointer;
      }
    }
    status = cudaMallocAsync(&pointer, size, stream);
    bool keep = true;
    if (status == cudaErrorMemoryAllocation && size != bytes) {
      // The class's size does not fit where the exact one may: that block is not kept.
      (void)cudaGetLastError();
      status = cudaMallocAsync(&pointer, bytes, stream);
      keep = false;
    }
    if (status != cudaSuccess) return nullptr;
    live_.emplace(pointer, Block{pointer, device, keep ? size : bytes, stream, keep});
    return pointer;
  }

  /// Keeps `pointer` for reuse if take() made it as a class's block and there is room, else
  /// frees it on its stream; false: take() did not make it.
  bool give_back(void* pointer) noexcept {
    std::lock_guard lock(mutex_);
    const auto found = live_.find(pointer);
    if (found == live_.end()) return false;
    const Block block = found->second;
    live_.erase(found);
    const bool large = block.size > largest_small;
    std::vector<Block>& free = free_[block.size];
    if (!closed_ && block.keep && free.size() < (large ? per_large_class : per_small_class) &&
        (!large || kept_large_ + block.size <= large_limit(block.device))) {
      free.push_back(block);
      if (large) kept_large_ += block.size;
    } else {
      free_on(pointer, block.stream);
    }
    return true;
  }

  /// A stream's end (its context's): its kept blocks go back to the pool, and blocks still in
  /// use (an engine's arrays that outlive the context) will be freed on the legacy stream, which
  /// orders after the stream's work.
  void release_stream(cudaStream_t stream) noexcept {
    std::lock_guard lock(mutex_);
    for (auto& [size, free] : free_) {
      std::erase_if(free, [&](const Block& block) {
        if (block.stream != stream) return false;
        free_on(block.pointer, block.stream);
        if (block.size > largest_small) kept_large_ -= block.size;
        return true;
      });
    }
    for (auto& [pointer, block] : live_)
      if (block.stream == stream) block.stream = nullptr;
  }

  /// Returns every kept block to the pool (before retrying an allocation that failed).
  void release_kept() noexcept {
    std::lock_guard lock(mutex_);
    release_kept_locked();
  }

  /// The bytes of the blocks kept now.
  std::size_t kept_bytes() {
    std::lock_guard lock(mutex_);
    std::size_t bytes = 0;
    for (const auto& [size, free] : free_) bytes += size * free.size();
    return bytes;
  }

  /// At exit: nothing is kept any more.
  void close() noexcept {
    std::lock_guard lock(mutex_);
    closed_ = true;
    release_kept_locked();
  }

 private:
  void release_kept_locked() noexcept {
    for (auto& [size, free] : free_) {
      for (const Block& block : free) free_on(block.pointer, block.stream);
      free.clear();
    }
    kept_large_ = 0;
  }

  /// The large blocks' limit: a sixteenth of the device's memory (read once).
  std::size_t large_limit(int device) noexcept {
    if (limit_device_ != device) {
      std::size_t free = 0, total = 0;
      if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
        (void)cudaGetLastError();
        total = 0;
      }
      large_limit_ = total / 16;
      limit_device_ = device;
    }
    return large_limit_;
  }

  static constexpr std::size_t smallest = 256;
  static constexpr std::size_t large_classes_per_power = 8;
  static constexpr std::size_t per_small_class = 8;
  static constexpr std::size_t per_large_class = 4;
  /// The size of `bytes`' class: a power of two up to largest_small, then a multiple of an
  /// eighth of the power of two below it (sizes too large for any device are left as they are).
  static std::size_t rounded(std::size_t bytes) {
    if (bytes <= largest_small) {
      std::size_t size = smallest;
      while (size < bytes) size *= 2;
      return size;
    }
    if (bytes > std::numeric_limits<std::size_t>::max() / 4) return bytes;
    std::size_t power = largest_small;
    while (power * 2 <= bytes) power *= 2;
    const std::size_t step = power / large_classes_per_power;
    return (bytes + step - 1) / step * step;
  }
  struct Block {
    void* pointer;
    int device;
    std::size_t size;
    cudaStream_t stream;  // where it was allocated, and is to be freed
    bool keep;            // a class's block, which may be kept for reuse
  };
  std::mutex mutex_;
  std::unordered_map<std::size_t, std::vector<Block>> free_;  // by rounded size
  std::unordered_map<void*, Block> live_;
  std::size_t kept_large_ = 0;
  std::size_t large_limit_ = 0;
  int limit_device_ = -1;
  bool closed_ = false;
};

KeptBlocks& kept_blocks() {
  // Never destroyed: arrays freed by other static objects' destructors at exit still ask it.
  // Closed by a static made on first use, after the runtime, so before its teardown: nothing
  // kept is left for compute-sanitizer's leak check.
  static KeptBlocks* blocks = new KeptBlocks;
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
  // While a device loop is recorded, its blocks are allocated at once, on the stream that will
  // run the loop: the recorded work uses them on every iteration (grb/loop.hpp).
  ContextState& context = current_context();
  const cudaStream_t stream =
      static_cast<cudaStream_t>(context.recording ? context.outer_stream : context.stream);
  void* pointer = nullptr;
  cudaError_t status = cudaSuccess;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (pooled) pointer = kept_blocks().take(bytes, device, stream, status);
    else status = cudaMalloc(&pointer, bytes);
    if (status != cudaErrorMemoryAllocation || !pooled) break;
    // The kept blocks, and the pool's unused memory, may be what is missing: both go back to
    // the driver (once the work queued before is done) before the second try.
    (void)cudaGetLastError();
    kept_blocks().release_kept();
    cudaMemPool_t pool;
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess ||
        cudaMemPoolTrimTo(pool, 0) != cudaSuccess)
      (void)cudaGetLastError();
  }
  if (status == cudaErrorMemoryAllocation) throw_out_of_memory(bytes);
  GRB_CUDA_CHECK(status);
  return pointer;
}

void free_device_bytes(void* pointer) noexcept {
  ContextState& context = current_context();
  if (context.recording) {  // the recorded work still uses it: freed once the loop has run
    try {
      context.freed_while_recording.push_back(pointer);
      return;
    } catch (...) {  // no memory for the list: keep the block (a leak, never a reuse too soon)
      return;
    }
  }
  // Blocks not from a pool (a device without stream-ordered allocation) are freed at once.
  if (!kept_blocks().give_back(pointer) && cudaFree(pointer) != cudaSuccess)
    (void)cudaGetLastError();
}

void release_stream_blocks(void* stream) noexcept {
  kept_blocks().release_stream(static_cast<cudaStream_t>(stream));
}

std::size_t kept_device_bytes() { return kept_blocks().kept_bytes(); }

void release_kept_device_blocks() { kept_blocks().release_kept(); }

void copy_device_bytes(void* destination, const void* source, std::size_t bytes) {
  // cudaMemcpyDefault infers the direction from unified addressing; the copy is ordered after
  // the work already queued on the stream and finished when it returns.
  const cudaStream_t stream = grb::cuda::detail::current_stream();
  GRB_CUDA_CHECK(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDefault, stream));
  GRB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void fill_device_bytes(void* destination, unsigned char value, std::size_t bytes) {
  GRB_CUDA_CHECK(cudaMemsetAsync(destination, value, bytes, grb::cuda::detail::current_stream()));
}

bool device_memory_used() { return device_used.load(std::memory_order_relaxed); }

}  // namespace detail
}  // namespace grb
