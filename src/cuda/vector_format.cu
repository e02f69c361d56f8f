// Vector format conversions on the GPU: sparse (sorted indices + values) <-> dense (values +
// presence bytes), the sort of a jumbled sparse vector, and set_element on a sparse vector. Values
// are moved as raw words of their size, so one instantiation per size serves every value type.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>
#include <cstring>

#include "grb/cuda/policy.hpp"
#include "grb/cuda/primitives.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/vector.hpp"

namespace grb::detail {

namespace {

/// dense_values[i] = the entry at i, for each sparse entry; present[i] = 1 too unless `present`
/// is null (extract_dense's fill has no presence to mark).
template <class Word>
__global__ void scatter_sparse_entries(Index nvals, const Index* indices, const Word* values,
                                       Word* dense_values, std::uint8_t* present) {
  GRB_GRID_STRIDE_LOOP(e, nvals) {
    const Index i = indices[e];
    dense_values[i] = values[e];
    if (present) present[i] = 1;
  }
}

template <class Word>
__global__ void fill_dense_absent(Index size, const Word* values, const std::uint8_t* present,
                                  Word absent, Word* out) {
  GRB_GRID_STRIDE_LOOP(i, size) { out[i] = present[i] ? values[i] : absent; }
}

template <class Word>
__global__ void fill_value(Index size, Word value, Word* out) {
  GRB_GRID_STRIDE_LOOP(i, size) { out[i] = value; }
}

__global__ void mark_present(Index nvals, const Index* indices, std::uint8_t* present) {
  GRB_GRID_STRIDE_LOOP(e, nvals) { present[indices[e]] = 1; }
}

template <class Word>
__global__ void gather_dense_entries(Index nvals, const Index* indices, const Word* dense_values,
                                     Word* values) {
  GRB_GRID_STRIDE_LOOP(e, nvals) { values[e] = dense_values[indices[e]]; }
}

template <class Word>
__global__ void mark_entries(Index nvals, const Index* indices, const Word* values,
                             std::uint32_t* bits, Word* by_position) {
  GRB_GRID_STRIDE_LOOP(e, nvals) {
    const Index i = indices[e];
    grb::cuda::detail::bitmap_set(bits, i);
    by_position[i] = values[e];
  }
}

__global__ void count_marked(std::uint64_t words, const std::uint32_t* bits, Offset* counts) {
  GRB_GRID_STRIDE_LOOP(k, words) { counts[k] = __popc(bits[k]); }
}

template <class Word>
__global__ void emit_marked(std::uint64_t words, const std::uint32_t* bits, const Offset* starts,
                            const Word* by_position, Index* indices, Word* values) {
  GRB_GRID_STRIDE_LOOP(k, words) {
    Offset at = starts[k];
    for (std::uint32_t word = bits[k]; word != 0; word &= word - 1) {
      const Index i = static_cast<Index>(k * 32 + (__ffs(word) - 1));
      indices[at] = i;
      values[at] = by_position[i];
      ++at;
    }
  }
}

template <class Word>
void sort_by_bitmap(Index size, Index nvals, const Index* indices, const Word* values,
                    Index* sorted_indices, Word* sorted_values) {
  using namespace grb::cuda::detail;
  const std::uint64_t words = (std::uint64_t(size) + 31) / 32;
  auto bits = device_array<std::uint32_t>(words);
  fill_zero(bits.data(), words);
  auto by_position = device_array<Word>(size);  // read only where marked
  mark_entries<<<blocks_for(nvals), block_threads, 0, current_stream()>>>(
      nvals, indices, values, bits.data(), by_position.data());
  GRB_CUDA_CHECK_LAUNCH();
  auto starts = device_array<Offset>(words + 1);
  count_marked<<<blocks_for(words), block_threads, 0, current_stream()>>>(words, bits.data(),
                                                                          starts.data());
  GRB_CUDA_CHECK_LAUNCH();
  exclusive_scan_counts(starts.data(), words);
  emit_marked<<<blocks_for(words), block_threads, 0, current_stream()>>>(
      words, bits.data(), starts.data(), by_position.data(), sorted_indices, sorted_values);
  GRB_CUDA_CHECK_LAUNCH();
}

/// Where index i is among a sparse vector's nvals entries: where[1] = 1 and where[0] = its
/// position if present (where is zeroed before); else, for sorted entries, where[0] = the
/// position that keeps them sorted. Sorted: one thread's binary search; jumbled: a scan.
__global__ void locate_entry(Index nvals, const Index* indices, Index i, bool jumbled,
                             unsigned long long* where) {
  if (jumbled) {
    GRB_GRID_STRIDE_LOOP(p, nvals) {
      if (indices[p] == i) {  // indices are distinct: one thread at most
        where[0] = p;
        where[1] = 1;
      }
    }
    return;
  }
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  Index low = 0, high = nvals;
  while (low < high) {
    const Index middle = low + (high - low) / 2;
    if (indices[middle] < i) low = middle + 1;
    else high = middle;
  }
  where[0] = low;
  where[1] = low < nvals && indices[low] == i ? 1 : 0;
}

/// The entries with i set to `value`: overwritten where present (nvals entries out), else
/// inserted at where[0] (sorted) or after the others (jumbled, or no `where`: an empty vector).
template <class Word>
__global__ void store_entry(Index nvals, const Index* indices, const Word* values, Index i,
                            Word value, const unsigned long long* where, bool jumbled,
                            Index* out_indices, Word* out_values) {
  const bool found = where && where[1] != 0;
  const Index at = where && (found || !jumbled) ? static_cast<Index>(where[0]) : nvals;
  GRB_GRID_STRIDE_LOOP(p, std::uint64_t(nvals) + 1) {
    if (found) {
      if (p == nvals) continue;
      out_indices[p] = indices[p];
      out_values[p] = p == at ? value : values[p];
    } else if (p == at) {
      out_indices[p] = i;
      out_values[p] = value;
    } else {
      const std::uint64_t from = p < at ? p : p - 1;
      out_indices[p] = indices[from];
      out_values[p] = values[from];
    }
  }
}

}  // namespace

bool set_sparse_element_cuda(std::size_t element_bytes, const Index* indices, const void* values,
                             Index nvals, bool jumbled, Index i, const void* value,
                             Index* out_indices, void* out_values) {
  using namespace grb::cuda::detail;
  DeviceArray<unsigned long long> where;
  if (nvals > 0) {
    where = device_array<unsigned long long>(2);
    fill_zero(where.data(), 2);
    locate_entry<<<jumbled ? blocks_for(nvals) : 1, jumbled ? block_threads : 1, 0,
                   current_stream()>>>(nvals, indices, i, jumbled, where.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  dispatch_element_size(element_bytes, "set_element", [&](auto word) {
    using Word = decltype(word);
    std::memcpy(&word, value, sizeof word);
    store_entry<<<blocks_for(std::uint64_t(nvals) + 1), block_threads, 0, current_stream()>>>(
        nvals, indices, static_cast<const Word*>(values), i, word, where.data(), jumbled,
        out_indices, static_cast<Word*>(out_values));
    GRB_CUDA_CHECK_LAUNCH();
  });
  if (nvals == 0) return true;  // nothing to read back: a BFS's setup waits for nothing
  return read_scalar(where.data() + 1) == 0;
}

void zero_new_counter(void* pointer, std::size_t bytes) {
  const ContextState& context = current_context();
  if (bytes > 0)
    GRB_CUDA_CHECK(cudaMemsetAsync(
        pointer, 0, bytes,
        static_cast<cudaStream_t>(context.recording ? context.outer_stream : context.stream)));
}

void sparse_to_dense_cuda(std::size_t element_bytes, Index size, Index nvals, const Index* indices,
                          const void* values, void* dense_values, std::uint8_t* present) {
  using namespace grb::cuda::detail;
  if (size == 0) return;
  fill_zero(present, size);
  if (!dense_values) {
    if (nvals == 0) return;
    mark_present<<<blocks_for(nvals), block_threads, 0, current_stream()>>>(nvals, indices,
                                                                            present);
    GRB_CUDA_CHECK_LAUNCH();
    return;
  }
  // Absent positions get zero bytes too: their values are unspecified, but never uninitialized
  // memory (so copies of the whole array are clean under compute-sanitizer's initcheck).
  GRB_CUDA_CHECK(
      cudaMemsetAsync(dense_values, 0, std::size_t(size) * element_bytes, current_stream()));
  if (nvals == 0) return;
  dispatch_element_size(element_bytes, "sparse_to_dense", [&](auto word) {
    using Word = decltype(word);
    scatter_sparse_entries<<<blocks_for(nvals), block_threads, 0, current_stream()>>>(
        nvals, indices, static_cast<const Word*>(values), static_cast<Word*>(dense_values),
        present);
    GRB_CUDA_CHECK_LAUNCH();
  });
}

void fill_absent_cuda(std::size_t element_bytes, Index size, Index nvals, const Index* indices,
                      const void* values, const std::uint8_t* present, const void* absent,
                      void* out) {
  using namespace grb::cuda::detail;
  if (size == 0) return;
  dispatch_element_size(element_bytes, "extract_dense", [&](auto word) {
    using Word = decltype(word);
    Word fill;
    std::memcpy(&fill, absent, sizeof fill);
    auto* to = static_cast<Word*>(out);
    const auto* from = static_cast<const Word*>(values);
    if (present) {
      fill_dense_absent<<<blocks_for(size), block_threads, 0, current_stream()>>>(
          size, from, present, fill, to);
      GRB_CUDA_CHECK_LAUNCH();
      return;
    }
    fill_value<<<blocks_for(size), block_threads, 0, current_stream()>>>(size, fill, to);
    GRB_CUDA_CHECK_LAUNCH();
    if (nvals == 0) return;
    scatter_sparse_entries<<<blocks_for(nvals), block_threads, 0, current_stream()>>>(
        nvals, indices, from, to, nullptr);
    GRB_CUDA_CHECK_LAUNCH();
  });
}

void dense_to_sparse_cuda(std::size_t element_bytes, Index size, Index nvals,
                          const void* dense_values, const std::uint8_t* present, Index* indices,
                          void* values) {
  using namespace grb::cuda::detail;
  if (size == 0 || nvals == 0) return;
  // The present positions, compacted; the values are then gathered through them (one pass over
  // the presence bytes, not a second one over the values). The count is the caller's: no
  // read-back.
  auto selected = device_array<std::int64_t>(1);
  const std::int64_t items = size;
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceSelect::Flagged(temporary, bytes, thrust::counting_iterator<Index>(0),
                                      present, indices, selected.data(), items, current_stream());
  });
  dispatch_element_size(element_bytes, "dense_to_sparse", [&](auto word) {
    using Word = decltype(word);
    gather_dense_entries<<<blocks_for(nvals), block_threads, 0, current_stream()>>>(
        nvals, indices, static_cast<const Word*>(dense_values), static_cast<Word*>(values));
    GRB_CUDA_CHECK_LAUNCH();
  });
}

void sort_entries_cuda(std::size_t element_bytes, Index size, Index nvals, const Index* indices,
                       const void* values, Index* sorted_indices, void* sorted_values) {
  using namespace grb::cuda::detail;
  if (nvals == 0) return;
  dispatch_element_size(element_bytes, "sort_entries", [&](auto word) {
    using Word = decltype(word);
    const auto* in = static_cast<const Word*>(values);
    auto* out = static_cast<Word*>(sorted_values);
    if (nvals >= bitmap_sort_least && std::uint64_t(nvals) * bitmap_sort_ratio >= size) {
      sort_by_bitmap(size, nvals, indices, in, sorted_indices, out);
      return;
    }
    const std::int64_t items = nvals;
    cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temporary, bytes, indices, sorted_indices, in, out,
                                             items, 0, key_bits(size - 1), current_stream());
    });
  });
}

}  // namespace grb::detail
