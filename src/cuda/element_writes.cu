// Small writes to cuda vectors' device arrays (Vector::clear_dense, set_element), queued as
// deferred work without results (grb/deferred.hpp) so that those called one after another run as
// one launch. A BFS's set-up empties its level and parent vectors and sets three elements: one
// launch instead of five, each of which costs the host ~4 us on the H100 (and ~10 after other
// host work has cooled its caches), while the GPU has nothing else to do.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "grb/cuda/runtime.cuh"
#include "grb/deferred.hpp"
#include "grb/vector.hpp"

namespace grb::detail {

namespace {

/// One write: a dense vector's presence zeroed (size > 0), with at most one element then set in
/// it; a dense vector's element set; or `bytes` stored at `values` (an empty sparse vector's
/// first entry, as its index and its value).
struct ElementJob {
  enum Kind : std::uint32_t { clear, element, store };
  Kind kind = store;
  std::uint32_t bytes = 0;  // of the value; 0: a clear without an element
  void* values = nullptr;
  std::uint8_t* present = nullptr;
  std::int64_t* nvals_change = nullptr;
  std::uint64_t size = 0;  // presence bytes to zero (clear)
  Index index = 0;
  bool fresh_count = false;  // element: the count is new: set, not added to
  std::int64_t count_base = 0;      // clear: the count's value after it, before its element
  std::uint64_t value[2] = {0, 0};  // its bytes, little-endian
};

constexpr int max_jobs = 8;

struct ElementJobs {
  ElementJob job[max_jobs];
  int count = 0;
};

/// values[index] = the job's value, whatever its size (at most 16 bytes).
__device__ void store_value(const ElementJob& job, void* values, Index index) {
  switch (job.bytes) {
    case 1: static_cast<std::uint8_t*>(values)[index] = std::uint8_t(job.value[0]); break;
    case 2: static_cast<std::uint16_t*>(values)[index] = std::uint16_t(job.value[0]); break;
    case 4: static_cast<std::uint32_t*>(values)[index] = std::uint32_t(job.value[0]); break;
    case 8: static_cast<std::uint64_t*>(values)[index] = job.value[0]; break;
    default: {
      auto* to = static_cast<unsigned char*>(values) + std::size_t(index) * job.bytes;
      for (std::uint32_t b = 0; b < job.bytes; ++b)
        to[b] = static_cast<unsigned char>(job.value[b / 8] >> (8 * (b % 8)));
    }
  }
}

/// Every job, in order. A clear's presence is zeroed 16 bytes a thread, the byte of its element
/// set by the thread that zeroes it; everything else is one thread's (block 0's first), in the
/// jobs' order, so that writes to one vector land in the order they were called. (The host
/// never queues a clear behind another write to its vector: see ElementWrites::takes.)
__global__ void element_writes(const __grid_constant__ ElementJobs jobs) {
  const bool first = blockIdx.x == 0 && threadIdx.x == 0;
#pragma unroll
  for (int j = 0; j < max_jobs; ++j) {
    if (j >= jobs.count) break;
    const ElementJob& job = jobs.job[j];
    if (job.kind == ElementJob::clear) {
      const bool has_element = job.bytes > 0;
      const std::size_t words = job.size / sizeof(uint4);
      GRB_GRID_STRIDE_LOOP(w, words) {
        uint4 zero{0, 0, 0, 0};
        if (has_element && job.index / sizeof(uint4) == w)
          reinterpret_cast<std::uint8_t*>(&zero)[job.index % sizeof(uint4)] = 1;
        reinterpret_cast<uint4*>(job.present)[w] = zero;
      }
      const std::size_t tail = words * sizeof(uint4) + threadIdx.x;
      if (blockIdx.x == 0 && tail < job.size)
        job.present[tail] = has_element && tail == job.index ? 1 : 0;
      if (first) {
        *job.nvals_change = job.count_base + (has_element ? 1 : 0);
        if (has_element) store_value(job, job.values, job.index);
      }
    } else if (first && job.kind == ElementJob::element) {
      const bool had = job.present[job.index] != 0;
      if (job.fresh_count) *job.nvals_change = had ? 0 : 1;
      else if (!had) ++*job.nvals_change;
      job.present[job.index] = 1;
      store_value(job, job.values, job.index);
    } else if (first) {
      store_value(job, job.values, 0);
    }
  }
}

/// The queued writes (at most max_jobs), and the vectors they write.
class ElementWrites final : public Deferred {
 public:
  /// Whether `job` on `object` can join: room, and no clear of a vector already written here
  /// (its zeroing threads would race the earlier write), nor an element of a vector cleared
  /// here, unless it is the clear's one element (then merged: see add).
  bool takes(const ElementJob& job, const void* object) const {
    if (jobs_.count == max_jobs) return false;
    for (int j = 0; j < jobs_.count; ++j) {
      if (objects_[j] != object) continue;
      if (job.kind == ElementJob::clear) return false;
      const ElementJob& cleared = jobs_.job[j];
      const bool merges = job.kind == ElementJob::element && cleared.bytes == 0;
      if (cleared.kind == ElementJob::clear && !merges) return false;
    }
    return true;
  }

  void add(const ElementJob& job, const void* object) {
    for (int j = 0; j < jobs_.count; ++j) {
      ElementJob& cleared = jobs_.job[j];
      if (objects_[j] == object && cleared.kind == ElementJob::clear) {
        // The element written into the clear: present, and the count 1.
        cleared.bytes = job.bytes;
        cleared.values = job.values;
        cleared.index = job.index;
        std::memcpy(cleared.value, job.value, sizeof cleared.value);
        return;
      }
    }
    objects_[jobs_.count] = object;
    jobs_.job[jobs_.count++] = job;
  }

  void launch() override {
    using namespace grb::cuda::detail;
    std::uint64_t words = 1;
    for (int j = 0; j < jobs_.count; ++j)
      if (jobs_.job[j].kind == ElementJob::clear)
        words = std::max<std::uint64_t>(words, jobs_.job[j].size / sizeof(uint4));
    element_writes<<<blocks_for(words), block_threads, 0, current_stream()>>>(jobs_);
    GRB_CUDA_CHECK_LAUNCH();
  }
  void finish() override {}
  bool has_results() const override { return false; }
  bool writes(const void* object) const override {
    for (int j = 0; j < jobs_.count; ++j)
      if (objects_[j] == object) return true;
    return false;
  }
  bool replaces(const void*) const override { return false; }

 private:
  ElementJobs jobs_;
  const void* objects_[max_jobs] = {};
};

/// Queues `job` with the pending writes, or in new ones behind whatever was deferred (completed
/// first). Inside a hold nothing may be queued (the pending work is not ours to replace), nor in
/// blocking mode: the writes are launched at once there.
void queue(const ElementJob& job, const void* object) {
  auto* pending = dynamic_cast<ElementWrites*>(pending_work());
  if (pending && pending->takes(job, object)) {
    pending->add(job, object);
  } else if (deferred_state().holds > 0) {
    launch_pending();  // whatever was called before goes first
    ElementWrites now;
    now.add(job, object);
    now.launch();
    return;
  } else {
    auto writes = std::make_unique<ElementWrites>();
    writes->add(job, object);
    defer(std::move(writes));
  }
  if (mode() == Mode::blocking) launch_pending();
}

ElementJob with_value(ElementJob job, std::size_t element_bytes, const void* value) {
  if (element_bytes > sizeof job.value)
    throw InvalidValue("set_element: element size " + std::to_string(element_bytes) +
                       " is not supported on cuda (at most 16 bytes)");
  job.bytes = static_cast<std::uint32_t>(element_bytes);
  std::memcpy(job.value, value, element_bytes);
  return job;
}

}  // namespace

bool element_writes_pending() { return dynamic_cast<ElementWrites*>(pending_work()) != nullptr; }

void queue_clear_dense(const void* object, std::uint8_t* present, std::size_t size,
                       std::int64_t* nvals_change, std::int64_t count_base) {
  ElementJob job;
  job.kind = ElementJob::clear;
  job.present = present;
  job.size = size;
  job.nvals_change = nvals_change;
  job.count_base = count_base;
  queue(job, object);
}

void queue_dense_element(const void* object, std::size_t element_bytes, void* values,
                         std::uint8_t* present, Index i, const void* value,
                         std::int64_t* nvals_change, bool fresh_count) {
  ElementJob job;
  job.kind = ElementJob::element;
  job.values = values;
  job.present = present;
  job.index = i;
  job.nvals_change = nvals_change;
  job.fresh_count = fresh_count;
  queue(with_value(job, element_bytes, value), object);
}

void queue_store(const void* object, void* address, std::size_t bytes, const void* value) {
  ElementJob job;
  job.kind = ElementJob::store;
  job.values = address;
  queue(with_value(job, bytes, value), object);
}

}  // namespace grb::detail
