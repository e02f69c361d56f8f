// mxm on the GPU: C<M> = accum(C, A ⊕.⊗ B) for any semiring, two ways.
//
// push (expand, sort, reduce: the ESC SpGEMM): every product A(i,k) ⊗ B(k,j) gets one thread
// (load-balanced like the push mxv: a scan of |B(k,:)| over A's entries and a binary search of
// each product's entry); products the mask forbids get a key past every position; a radix sort
// by (i, j) and a reduce-by-key with the add monoid leave one sum per output entry, already in
// CSR order. Work and memory are proportional to the number of products.
//
// pull (masked dot products): with a mask that is not complemented, one thread per mask entry
// (i, j) computes A(i,:) ⊕.⊗ B(:,j) from A's row and B's column (a row of B', built once and
// cached), walking the shorter list and binary-searching the longer. Work is proportional to the
// mask's entries times the shorter lists, memory to the mask: triangle counting's C<L> = L L
// makes 2.5e11 products on kron22 (4 TB for push) but has only L's 6.4e7 entries to fill.
//
// automatic: pull where the mask allows it and the products outnumber its entries
// `pull_ratio` times, else push. Positional multiply operators see (i, k, j) as the cpu backend
// gives them.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <string>

#include "grb/cuda/policy.hpp"
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

/// The first position in [low, high) of sorted `list` whose value is >= key.
__device__ inline Offset lower_bound(const Index* list, Offset low, Offset high, Index key) {
  while (low < high) {
    const Offset middle = low + (high - low) / 2;
    if (list[middle] < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/// pull: sums[m] = A(i,:) ⊕.⊗ B(:,j) for mask entry m = (i, j) (`bt` holds B's columns as rows),
/// found[m] = 1 where some k has both A(i,k) and B(k,j) (and the mask entry allows a value).
template <class Z, class A, class B, class M, class Semiring>
__global__ void masked_dots(CsrView<A> a, CsrView<B> bt, MatrixMaskView<M> mask,
                            Semiring semiring, Z* sums, Offset* found) {
  const CsrView<M>& pattern = mask.mask;
  GRB_GRID_STRIDE_LOOP(m, pattern.row_offsets[pattern.nrows]) {
    const Index i = owner_of(pattern.row_offsets, pattern.nrows, Offset{m});
    const Index j = pattern.col_indices[m];
    bool any = false;
    Z sum{};
    const auto add = [&](const A& x, const B& y, Index k) {
      const Z product =
          static_cast<Z>(grb::detail::multiply(semiring.multiply, x, y, i, k, j));
      sum = any ? static_cast<Z>(semiring.add(sum, product)) : product;
      any = true;
    };
    if (mask_entry_allows(pattern.values[m], mask.structural)) {
      Offset p = a.row_offsets[i];
      const Offset p_end = a.row_offsets[i + 1];
      Offset q = bt.row_offsets[j];
      const Offset q_end = bt.row_offsets[j + 1];
      if (p_end - p <= q_end - q) {
        for (; p < p_end && q < q_end; ++p) {
          q = lower_bound(bt.col_indices, q, q_end, a.col_indices[p]);
          if (q < q_end && bt.col_indices[q] == a.col_indices[p])
            add(a.values[p], bt.values[q], a.col_indices[p]);
        }
      } else {
        for (; q < q_end && p < p_end; ++q) {
          p = lower_bound(a.col_indices, p, p_end, bt.col_indices[q]);
          if (p < p_end && a.col_indices[p] == bt.col_indices[q])
            add(a.values[p], bt.values[q], bt.col_indices[q]);
        }
      }
    }
    sums[m] = sum;
    found[m] = any;
  }
}

/// The found mask entries, compacted: `position` is the exclusive scan of found (one longer).
template <class Z, class M>
__global__ void compact_dots(CsrView<M> pattern, const Offset* position, const Z* sums,
                             Offset* row_offsets, Index* columns, Z* values) {
  GRB_GRID_STRIDE_LOOP(r, std::uint64_t(pattern.nrows) + 1) {
    row_offsets[r] = position[pattern.row_offsets[r]];
  }
  GRB_GRID_STRIDE_LOOP(m, pattern.row_offsets[pattern.nrows]) {
    if (position[m + 1] > position[m]) {
      columns[position[m]] = pattern.col_indices[m];
      values[position[m]] = sums[m];
    }
  }
}

/// The mask's stored entries (read back from its row offsets).
template <class M>
Offset mask_entries(const MatrixMaskView<M>& mask) {
  return mask.mask.row_offsets ? read_scalar(mask.mask.row_offsets + mask.mask.nrows) : 0;
}

/// `entries` = mask_entries(mask), where the caller has read it already.
template <class Semiring, class A, class B, class M>
Csr<typename Semiring::value_type> masked_dot_product(const Semiring& semiring, const Csr<A>& a,
                                                      const Csr<B>& bt,
                                                      const MatrixMaskView<M>& mask,
                                                      Offset entries) {
  using Z = typename Semiring::value_type;
  auto sums = device_array<Z>(entries);
  auto position = device_array<Offset>(entries + 1);
  if (entries > 0) {
    masked_dots<Z><<<blocks_for(entries), block_threads, 0, current_stream()>>>(
        view_of(a), view_of(bt), mask, semiring, sums.data(), position.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  exclusive_scan_counts(position.data(), entries);
  const Offset nvals = read_scalar(position.data() + entries);
  auto row_offsets = device_array<Offset>(std::size_t(a.nrows) + 1);
  auto columns = device_array<Index>(nvals);
  auto values = device_array<Z>(nvals);
  compact_dots<<<blocks_for(std::max<std::uint64_t>(a.nrows + 1ull, entries)), block_threads, 0,
                 current_stream()>>>(mask.mask, position.data(), sums.data(), row_offsets.data(),
                                     columns.data(), values.data());
  GRB_CUDA_CHECK_LAUNCH();
  return Csr<Z>{a.nrows, bt.nrows, std::move(row_offsets), std::move(columns), std::move(values)};
}

/// `columns_of_b()` gives B's columns as the rows of a CSR (B', built on first use and cached).
template <class Semiring, class A, class B, class M, class ColumnsOfB>
Csr<typename Semiring::value_type> multiply_matrices(const Semiring& semiring, const Csr<A>& a,
                                                     const Csr<B>& b,
                                                     const MatrixMaskView<M>& mask,
                                                     MxvStrategy strategy,
                                                     const ColumnsOfB& columns_of_b) {
  using Z = typename Semiring::value_type;
  if (a.nvals() == 0 || b.nvals() == 0 || (mask.everything && mask.complement))
    return Csr<Z>::empty(a.nrows, b.ncols, Backend::cuda);
  const bool can_pull = !mask.everything && !mask.complement;
  if (can_pull && strategy == MxvStrategy::pull)
    return masked_dot_product(semiring, a, columns_of_b(), mask, mask_entries(mask));
  const Offset entries = a.nvals();
  auto starts = device_array<Offset>(entries + 1);
  product_counts<<<blocks_for(entries), block_threads, 0, current_stream()>>>(
      view_of(a), view_of(b), starts.data());
  GRB_CUDA_CHECK_LAUNCH();
  exclusive_scan_counts(starts.data(), entries);
  const Offset products = read_scalar(starts.data() + entries);
  if (products == 0) return Csr<Z>::empty(a.nrows, b.ncols, Backend::cuda);
  if (can_pull && strategy == MxvStrategy::automatic) {
    const Offset entries = mask_entries(mask);
    if (products / pull_ratio > entries)
      return masked_dot_product(semiring, a, columns_of_b(), mask, entries);
  }
  auto keys = device_array<std::uint64_t>(products);
  auto values = device_array<Z>(products);
  expand_products<Z><<<blocks_for(products), block_threads, 0, current_stream()>>>(
      products, starts.data(), view_of(a), view_of(b), mask, semiring.multiply, keys.data(),
      values.data());
  GRB_CUDA_CHECK_LAUNCH();
  auto sorted_keys = device_array<std::uint64_t>(products);
  auto sorted_values = device_array<Z>(products);
  const std::int64_t items = static_cast<std::int64_t>(products);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temporary, bytes, keys.data(), sorted_keys.data(),
                                           values.data(), sorted_values.data(), items, 0,
                                           int(sizeof(*keys.data()) * 8), current_stream());
  });
  auto runs = device_array<std::int64_t>(1);
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceReduce::ReduceByKey(temporary, bytes, sorted_keys.data(), keys.data(),
                                          sorted_values.data(), values.data(), runs.data(),
                                          semiring.add, items, current_stream());
  });
  std::int64_t nvals = read_scalar(runs.data());
  // Masked-out products share the largest key, so they form (at most) the last run.
  if (nvals > 0 && read_scalar(keys.data() + nvals - 1) == excluded_key) --nvals;
  auto row_offsets = device_array<Offset>(std::size_t(a.nrows) + 1);
  auto columns = device_array<Index>(nvals);
  auto sums = device_array<Z>(nvals);
  rows_from_keys<<<blocks_for(std::max<std::uint64_t>(a.nrows + 1ull, nvals)), block_threads, 0,
                   current_stream()>>>(a.nrows, nvals, keys.data(), row_offsets.data(),
                                       columns.data());
  GRB_CUDA_CHECK_LAUNCH();
  if (nvals > 0)
    GRB_CUDA_CHECK(cudaMemcpyAsync(sums.data(), values.data(), nvals * sizeof(Z),
                                   cudaMemcpyDeviceToDevice, current_stream()));
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
  const auto columns_of_right = [&]() -> const Csr<B>& {
    return detail::rows_of(b, !desc.transpose_second);
  };
  detail::write_back(c, mask_view, accum,
                     detail::multiply_matrices(semiring, left, right, mask_view, desc.strategy,
                                               columns_of_right),
                     desc);
}

}  // namespace grb::cuda
