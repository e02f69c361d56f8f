// mxm on the GPU: C<M> = accum(C, A ⊕.⊗ B) for any semiring, by expansion, sort and reduction
// (the ESC SpGEMM): every product A(i,k) ⊗ B(k,j) gets one thread (load-balanced like the
// push mxv: a scan of |B(k,:)| over A's entries and a binary search of each product's entry);
// products the mask forbids get a key past every position; a radix sort by (i, j) and a
// reduce-by-key with the add monoid leave one sum per output entry, already in CSR order.
// Work and memory are proportional to the number of products. Positional multiply operators
// see (i, k, j) as the cpu backend gives them.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <string>

#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

inline constexpr std::uint64_t excluded_key = ~std::uint64_t{0};

template <class A, class B>
__global__ void product_counts(CsrView<A> a, CsrView<B> b, Offset* counts) {
  GRB_GRID_STRIDE_LOOP(e, a.row_offsets[a.nrows]) {
    const Index k = a.col_indices[e];
    counts[e] = b.row_offsets[k + 1] - b.row_offsets[k];
  }
}

/// The entry e of A with starts[e] <= f < starts[e + 1] (empty entries skipped).
__device__ inline Offset product_owner(const Offset* starts, Offset entries, Offset f) {
  Offset low = 0, high = entries;
  while (high - low > 1) {
    const Offset middle = low + (high - low) / 2;
    if (starts[middle] <= f) low = middle;
    else high = middle;
  }
  return low;
}

template <class Z, class A, class B, class M, class Multiply>
__global__ void expand_products(Offset products, const Offset* starts, CsrView<A> a, CsrView<B> b,
                                MatrixMaskView<M> mask, Multiply multiply, std::uint64_t* keys,
                                Z* values) {
  const Offset entries = a.row_offsets[a.nrows];
  GRB_GRID_STRIDE_LOOP(f, products) {
    const Offset e = product_owner(starts, entries, f);
    const Index i = owner_of(a.row_offsets, a.nrows, e);
    const Index k = a.col_indices[e];
    const Offset q = b.row_offsets[k] + (f - starts[e]);
    const Index j = b.col_indices[q];
    if (mask.allows(i, j)) {
      keys[f] = (std::uint64_t(i) << 32) | j;
      values[f] = static_cast<Z>(grb::detail::multiply(multiply, a.values[e], b.values[q], i, k, j));
    } else {
      keys[f] = excluded_key;
      values[f] = Z{};
    }
  }
}

/// CSR rows from sorted (i, j) keys: row_offsets[r] = the first key of row r or later.
__global__ inline void rows_from_keys(Index nrows, Offset nvals, const std::uint64_t* keys,
                                      Offset* row_offsets, Index* columns) {
  GRB_GRID_STRIDE_LOOP(r, std::uint64_t(nrows) + 1) {
    const std::uint64_t first = std::uint64_t(r) << 32;
    Offset low = 0, high = nvals;
    while (low < high) {
      const Offset middle = low + (high - low) / 2;
      if (keys[middle] < first) low = middle + 1;
      else high = middle;
    }
    row_offsets[r] = low;
  }
  GRB_GRID_STRIDE_LOOP(e, nvals) columns[e] = static_cast<Index>(keys[e] & 0xffffffffu);
}

template <class Semiring, class A, class B, class M>
Csr<typename Semiring::value_type> multiply_matrices(const Semiring& semiring, const Csr<A>& a,
                                                     const Csr<B>& b,
                                                     const MatrixMaskView<M>& mask) {
  using Z = typename Semiring::value_type;
  if (a.nvals() == 0 || b.nvals() == 0 || (mask.everything && mask.complement))
    return Csr<Z>::empty(a.nrows, b.ncols, Backend::cuda);
  const Offset entries = a.nvals();
  auto starts = device_array<Offset>(entries + 1);
  product_counts<<<blocks_for(entries), block_threads>>>(view_of(a), view_of(b), starts.data());
  GRB_CUDA_CHECK_LAUNCH();
  fill_zero(starts.data() + entries, 1);
  const std::int64_t scan_items = static_cast<std::int64_t>(entries) + 1;
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temporary, bytes, starts.data(), starts.data(),
                                         scan_items);
  });
  const Offset products = read_scalar(starts.data() + entries);
  if (products == 0) return Csr<Z>::empty(a.nrows, b.ncols, Backend::cuda);
  auto keys = device_array<std::uint64_t>(products);
  auto values = device_array<Z>(products);
  expand_products<Z><<<blocks_for(products), block_threads>>>(
      products, starts.data(), view_of(a), view_of(b), mask, semiring.multiply, keys.data(),
      values.data());
  GRB_CUDA_CHECK_LAUNCH();
  auto sorted_keys = device_array<std::uint64_t>(products);
  auto sorted_values = device_array<Z>(products);
  const std::int64_t items = static_cast<std::int64_t>(products);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temporary, bytes, keys.data(), sorted_keys.data(),
                                           values.data(), sorted_values.data(), items);
  });
  auto runs = device_array<std::int64_t>(1);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceReduce::ReduceByKey(temporary, bytes, sorted_keys.data(), keys.data(),
                                          sorted_values.data(), values.data(), runs.data(),
                                          semiring.add, items);
  });
  std::int64_t nvals = read_scalar(runs.data());
  // Masked-out products share the largest key, so they form (at most) the last run.
  if (nvals > 0 && read_scalar(keys.data() + nvals - 1) == excluded_key) --nvals;
  auto row_offsets = device_array<Offset>(std::size_t(a.nrows) + 1);
  auto columns = device_array<Index>(nvals);
  auto sums = device_array<Z>(nvals);
  rows_from_keys<<<blocks_for(std::max<std::uint64_t>(a.nrows + 1ull, nvals)), block_threads>>>(
      a.nrows, nvals, keys.data(), row_offsets.data(), columns.data());
  GRB_CUDA_CHECK_LAUNCH();
  if (nvals > 0)
    GRB_CUDA_CHECK(cudaMemcpyAsync(sums.data(), values.data(), nvals * sizeof(Z),
                                   cudaMemcpyDeviceToDevice, 0));
  return Csr<Z>{a.nrows, b.ncols, std::move(row_offsets), std::move(columns), std::move(sums)};
}

}  // namespace grb::cuda::detail

namespace grb::cuda {

template <class C, class Mask, class Accum, class Semiring, class A, class B>
void mxm(Matrix<C>& c, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  const Csr<A>& left = detail::rows_of(a, desc.transpose_first);
  const Csr<B>& right = detail::rows_of(b, desc.transpose_second);
  if (left.ncols != right.nrows || c.nrows() != left.nrows || c.ncols() != right.ncols)
    detail::dimension_mismatch("mxm", "C (" + detail::shape(c.nrows(), c.ncols()) + ") = A (" +
                                          detail::shape(left.nrows, left.ncols) + ") * B (" +
                                          detail::shape(right.nrows, right.ncols) +
                                          ") (after transposes)");
  const auto mask_view = detail::matrix_mask(mask, desc, c.nrows(), c.ncols(), "mxm");
  detail::write_back(c, mask_view, accum,
                     detail::multiply_matrices(semiring, left, right, mask_view), desc);
}

}  // namespace grb::cuda
