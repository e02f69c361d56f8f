// Vector format conversions on the GPU: sparse (sorted indices + values) <-> dense (values +
// presence bytes). Values are moved as raw words of their size, so one instantiation per size
// serves every value type.
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>

#include "grb/cuda/launch.cuh"
#include "grb/vector.hpp"

namespace grb::detail {

namespace {

template <class Word>
__global__ void scatter_sparse_entries(Index nvals, const Index* indices, const Word* values,
                                       Word* dense_values, std::uint8_t* present) {
  GRB_GRID_STRIDE_LOOP(e, nvals) {
    const Index i = indices[e];
    dense_values[i] = values[e];
    present[i] = 1;
  }
}

template <class Word>
__global__ void gather_dense_entries(Index nvals, const Index* indices, const Word* dense_values,
                                     Word* values) {
  GRB_GRID_STRIDE_LOOP(e, nvals) { values[e] = dense_values[indices[e]]; }
}

}  // namespace

void sparse_to_dense_cuda(std::size_t element_bytes, Index size, Index nvals, const Index* indices,
                          const void* values, void* dense_values, std::uint8_t* present) {
  using namespace grb::cuda::detail;
  if (size == 0) return;
  fill_zero(present, size);
  // Absent positions get zero bytes too: their values are unspecified, but never uninitialized
  // memory (so copies of the whole array are clean under compute-sanitizer's initcheck).
  GRB_CUDA_CHECK(cudaMemsetAsync(dense_values, 0, std::size_t(size) * element_bytes, 0));
  if (nvals == 0) return;
  dispatch_element_size(element_bytes, "sparse_to_dense", [&](auto word) {
    using Word = decltype(word);
    scatter_sparse_entries<<<blocks_for(nvals), block_threads>>>(
        nvals, indices, static_cast<const Word*>(values), static_cast<Word*>(dense_values),
        present);
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
                                      present, indices, selected.data(), items);
  });
  dispatch_element_size(element_bytes, "dense_to_sparse", [&](auto word) {
    using Word = decltype(word);
    gather_dense_entries<<<blocks_for(nvals), block_threads>>>(
        nvals, indices, static_cast<const Word*>(dense_values), static_cast<Word*>(values));
    GRB_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace grb::detail
