// The element-wise matrix operations on the GPU: ewise_add/ewise_mult, apply, select, extract,
// assign and transpose. Results are built row by row (one thread per row, two passes: count, then
// write at CUB-scanned offsets; see build_rows); where a row's entries come out of column order
// (extract with a column list) a CUB segmented sort puts them back, and assign sorts its source
// entries by target position first. Semantics are the
// cpu backend's (grb/cpu/*.hpp).
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <string>
#include <type_traits>
#include <vector>

#include "grb/cuda/views.cuh"
#include "grb/cuda/write_back.cuh"

namespace grb::cuda::detail {

template <bool is_union, class Z, class A, class B, class Op>
struct EwiseRow {
  CsrView<A> a;
  CsrView<B> b;
  Op op;
  __device__ void operator()(Index i, RowSink<Z>& sink) const {
    Offset p = a.row_offsets[i], p_end = a.row_offsets[i + 1];
    Offset q = b.row_offsets[i], q_end = b.row_offsets[i + 1];
    while (p < p_end || q < q_end) {
      const Index ja = p < p_end ? a.col_indices[p] : no_index;
      const Index jb = q < q_end ? b.col_indices[q] : no_index;
      const Index j = ja < jb ? ja : jb;
      if (ja == j && jb == j) sink.push(j, static_cast<Z>(op(a.values[p], b.values[q])));
      else if constexpr (is_union) {
        if (ja == j) sink.push(j, static_cast<Z>(a.values[p]));
        else sink.push(j, static_cast<Z>(b.values[q]));
      }
      if (ja == j) ++p;
      if (jb == j) ++q;
    }
  }
};

template <bool is_union, class C, class Mask, class Accum, class Op, class A, class B>
void ewise(const char* operation, Matrix<C>& c, const Mask& mask, const Accum& accum,
           const Op& op, const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  using Z = result_t<Op, A, B>;
  const Csr<A>& left = rows_of(a, desc.transpose_first);
  const Csr<B>& right = rows_of(b, desc.transpose_second);
  if (left.nrows != right.nrows || left.ncols != right.ncols || c.nrows() != left.nrows ||
      c.ncols() != left.ncols)
    dimension_mismatch(operation, "C (" + shape(c.nrows(), c.ncols()) + "), A (" +
                                      shape(left.nrows, left.ncols) + ") and B (" +
                                      shape(right.nrows, right.ncols) +
                                      ") differ (after transposes)");
  const auto mask_view = matrix_mask(mask, desc, c.nrows(), c.ncols(), operation);
  EwiseRow<is_union, Z, A, B, Op> program{view_of(left), view_of(right), op};
  write_back(c, mask_view, accum, build_rows<Z>(left.nrows, left.ncols, program), desc);
}

template <class Z, class A, class Op>
__global__ void apply_values_kernel(CsrView<A> a, Op op, Z* out) {
  GRB_GRID_STRIDE_LOOP(e, a.row_offsets[a.nrows]) {
    // The row is only looked up for index-unary operators.
    const Index i = is_index_unary<Op, A> ? owner_of(a.row_offsets, a.nrows, Offset{e}) : Index{0};
    out[e] = static_cast<Z>(apply_one(op, a.values[e], i, a.col_indices[e]));
  }
}

template <class A, class Predicate>
struct SelectRow {
  CsrView<A> a;
  Predicate predicate;
  __device__ void operator()(Index i, RowSink<A>& sink) const {
    for (Offset e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e)
      if (predicate(a.values[e], i, a.col_indices[e])) sink.push(a.col_indices[e], a.values[e]);
  }
};

/// Sorts each row of `t` by column (rows built out of order by extract and assign).
template <class T>
Csr<T> sort_rows(Csr<T>&& t) {
  if (t.nvals() == 0 || t.nrows == 0) return std::move(t);
  auto columns = device_array<Index>(t.nvals());
  auto values = device_array<T>(t.nvals());
  const std::int64_t items = static_cast<std::int64_t>(t.nvals());
  const std::int64_t segments = t.nrows;
  cub_run([&](void* temporary, std::size_t& bytes) {
    return cub::DeviceSegmentedSort::SortPairs(
        temporary, bytes, t.col_indices.data(), columns.data(), t.values.data(), values.data(),
        items, segments, t.row_offsets.data(), t.row_offsets.data() + 1, current_stream());
  });
  return Csr<T>{t.nrows, t.ncols, std::move(t.row_offsets), std::move(columns),
                std::move(values)};
}

/// Row p of A(rows, cols): row rows(p) of A, each column j repeated at every list position q
/// with cols(q) == j (positions[column_offsets[j] ..]).
template <class A>
struct ExtractRow {
  CsrView<A> a;
  IndexListView rows;
  const Offset* column_offsets;
  const Index* positions;
  __device__ void operator()(Index p, RowSink<A>& sink) const {
    const Index i = rows(p);
    for (Offset e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
      const Index j = a.col_indices[e];
      for (Offset s = column_offsets[j]; s < column_offsets[j + 1]; ++s)
        sink.push(positions[s], a.values[e]);
    }
  }
};

/// Source entry e of a matrix assign as its target key (rows(p) << 32 | cols(q)) and value, in
/// source (row-major) order; a scalar source is every (p, q) of the lists.
template <class S>
__global__ void assign_matrix_targets(Offset entries, CsrView<S> source, bool scalar,
                                      S scalar_value, Index scalar_columns, IndexListView rows,
                                      IndexListView cols, std::uint64_t* keys, S* values) {
  GRB_GRID_STRIDE_LOOP(e, entries) {
    Index p, q;
    if (scalar) {
      p = static_cast<Index>(e / scalar_columns);
      q = static_cast<Index>(e % scalar_columns);
      values[e] = scalar_value;
    } else {
      p = owner_of(source.row_offsets, source.nrows, Offset{e});
      q = source.col_indices[e];
      values[e] = source.values[e];
    }
    keys[e] = (std::uint64_t(rows(p)) << 32) | cols(q);
  }
}

/// Row i of Z for assign: the old row (less the region without an accumulator) merged with the
/// source entries sent to row i, which are folded through accum in source order (or, without
/// one, the last wins): the cpu backend's rule for repeated indices.
template <class C, class S, class Accum>
struct AssignRow {
  CsrView<C> old;
  const std::uint64_t* keys;
  const S* values;
  Offset entries;
  const std::uint8_t* row_listed;
  const std::uint8_t* col_listed;
  Accum accum;

  __device__ Offset first_key(std::uint64_t key) const {
    Offset low = 0, high = entries;
    while (low < high) {
      const Offset middle = low + (high - low) / 2;
      if (keys[middle] < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  __device__ void operator()(Index i, RowSink<C>& sink) const {
    const bool clear_region = !has_accum<Accum> && row_listed[i];
    Offset a = old.row_offsets[i];
    const Offset a_end = old.row_offsets[i + 1];
    Offset s = first_key(std::uint64_t(i) << 32);
    const Offset s_end = first_key(std::uint64_t(i + 1) << 32);
    while (a < a_end || s < s_end) {
      if (a < a_end && clear_region && col_listed[old.col_indices[a]]) {
        ++a;
        continue;
      }
      const Index ja = a < a_end ? old.col_indices[a] : no_index;
      const Index js = s < s_end ? static_cast<Index>(keys[s] & 0xffffffffu) : no_index;
      const Index j = ja < js ? ja : js;
      bool has = false;
      C value{};
      if (ja == j) has = true, value = old.values[a++];
      for (; s < s_end && static_cast<Index>(keys[s] & 0xffffffffu) == j; ++s) {
        if constexpr (has_accum<Accum>) {
          value = has ? static_cast<C>(accum(value, values[s])) : static_cast<C>(values[s]);
        } else {
          value = static_cast<C>(values[s]);
        }
        has = true;
      }
      sink.push(j, value);
    }
  }
};

template <class C, class Mask, class Accum, class S>
void assign_matrix(Matrix<C>& c, const Mask& mask, const Accum& accum, Index source_nrows,
                   Index source_ncols, const Csr<S>* source, S scalar_value,
                   const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  grb::cuda::detail::check_indices(rows, c.nrows(), "assign", "row index");
  grb::cuda::detail::check_indices(cols, c.ncols(), "assign", "column index");
  const Index row_count = rows.size(c.nrows()), col_count = cols.size(c.ncols());
  if (source_nrows != row_count || source_ncols != col_count)
    dimension_mismatch("assign", "source of " + shape(source_nrows, source_ncols) + " for " +
                                     shape(row_count, col_count) + " indices");
  const auto mask_view = matrix_mask(mask, desc, c.nrows(), c.ncols(), "assign");
  const DeviceIndexList row_list(rows), col_list(cols);
  const auto row_listed = listed_flags(rows, row_list.view(), c.nrows());
  const auto col_listed = listed_flags(cols, col_list.view(), c.ncols());
  const Offset entries = source ? source->nvals() : Offset(row_count) * col_count;
  auto keys = device_array<std::uint64_t>(entries);
  auto values = device_array<S>(entries);
  auto sorted_keys = device_array<std::uint64_t>(entries);
  auto sorted_values = device_array<S>(entries);
  if (entries > 0) {
    assign_matrix_targets<<<blocks_for(entries), block_threads, 0, current_stream()>>>(
        entries, source ? view_of(*source) : CsrView<S>{}, source == nullptr, scalar_value,
        col_count, row_list.view(), col_list.view(), keys.data(), values.data());
    GRB_CUDA_CHECK_LAUNCH();
    // A stable sort: entries sent to one position keep their source order.
    const std::int64_t items = static_cast<std::int64_t>(entries);
    cub_run([&](void* temporary, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temporary, bytes, keys.data(), sorted_keys.data(),
                                             values.data(), sorted_values.data(), items, 0,
                                             int(sizeof(*keys.data()) * 8), current_stream());
    });
  }
  AssignRow<C, S, Accum> program{view_of(c.csr()), sorted_keys.data(), sorted_values.data(),
                                 entries,          row_listed.data(),  col_listed.data(),
                                 accum};
  write_back(c, mask_view, no_accum, build_rows<C>(c.nrows(), c.ncols(), program), desc);
}

}  // namespace grb::cuda::detail

namespace grb::cuda {

template <class C, class Mask, class Accum, class Op, class A, class B>
void ewise_add(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op,
               const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  detail::ewise<true>("ewise_add", c, mask, accum, op, a, b, desc);
}

template <class C, class Mask, class Accum, class Op, class A, class B>
void ewise_mult(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op,
                const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  detail::ewise<false>("ewise_mult", c, mask, accum, op, a, b, desc);
}

template <class C, class Mask, class Accum, class Op, class A>
void apply(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op, const Matrix<A>& a,
           const Descriptor& desc) {
  using Z = detail::apply_result_t<Op, A>;
  const Csr<A>& input = detail::rows_of(a, desc.transpose_first);
  if (c.nrows() != input.nrows || c.ncols() != input.ncols)
    detail::dimension_mismatch("apply", "C (" + detail::shape(c.nrows(), c.ncols()) + ") and A (" +
                                            detail::shape(input.nrows, input.ncols) +
                                            (desc.transpose_first ? ", transposed" : "") + ") differ");
  const auto mask_view = detail::matrix_mask(mask, desc, c.nrows(), c.ncols(), "apply");
  auto values = detail::device_array<Z>(input.nvals());
  if (input.nvals() > 0) {
    detail::apply_values_kernel<<<detail::blocks_for(input.nvals()), detail::block_threads, 0,
                                  detail::current_stream()>>>(detail::view_of(input), op, values.data());
    GRB_CUDA_CHECK_LAUNCH();
  }
  Csr<Z> t{input.nrows, input.ncols, input.row_offsets.clone(), input.col_indices.clone(),
           std::move(values)};
  detail::write_back(c, mask_view, accum, std::move(t), desc);
}

template <class C, class Mask, class Accum, class Predicate, class A>
void select(Matrix<C>& c, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Matrix<A>& a, const Descriptor& desc) {
  const Csr<A>& input = detail::rows_of(a, desc.transpose_first);
  if (c.nrows() != input.nrows || c.ncols() != input.ncols)
    detail::dimension_mismatch("select", "C (" + detail::shape(c.nrows(), c.ncols()) + ") and A (" +
                                             detail::shape(input.nrows, input.ncols) +
                                             (desc.transpose_first ? ", transposed" : "") + ") differ");
  const auto mask_view = detail::matrix_mask(mask, desc, c.nrows(), c.ncols(), "select");
  detail::SelectRow<A, Predicate> program{detail::view_of(input), predicate};
  detail::write_back(c, mask_view, accum,
                     detail::build_rows<A>(input.nrows, input.ncols, program), desc);
}

template <class C, class Mask, class Accum, class A>
void extract(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  const Csr<A>& source = detail::rows_of(a, desc.transpose_first);
  grb::cuda::detail::check_indices(rows, source.nrows, "extract", "row index");
  grb::cuda::detail::check_indices(cols, source.ncols, "extract", "column index");
  const Index nrows = rows.size(source.nrows), ncols = cols.size(source.ncols);
  if (c.nrows() != nrows || c.ncols() != ncols)
    detail::dimension_mismatch("extract", "C (" + detail::shape(c.nrows(), c.ncols()) + ") for " +
                                              detail::shape(nrows, ncols) + " indices");
  const auto mask_view = detail::matrix_mask(mask, desc, c.nrows(), c.ncols(), "extract");
  // Which list positions each source column goes to: a counting sort of the list, on the host
  // (the list itself is a host array).
  std::vector<Offset> column_offsets(std::size_t(source.ncols) + 1, 0);
  std::vector<Index> positions(ncols);
  for (Index q = 0; q < ncols; ++q) ++column_offsets[cols(q) + 1];
  for (Index j = 0; j < source.ncols; ++j) column_offsets[j + 1] += column_offsets[j];
  {
    std::vector<Offset> next(column_offsets.begin(), column_offsets.end() - 1);
    for (Index q = 0; q < ncols; ++q) positions[next[cols(q)]++] = q;
  }
  const auto device_offsets =
      detail::DeviceArray<Offset>::from(std::span<const Offset>(column_offsets), Backend::cuda);
  const auto device_positions =
      detail::DeviceArray<Index>::from(std::span<const Index>(positions), Backend::cuda);
  const detail::DeviceIndexList row_list(rows);
  detail::ExtractRow<A> program{detail::view_of(source), row_list.view(), device_offsets.data(),
                                device_positions.data()};
  Csr<A> t = detail::build_rows<A>(nrows, ncols, program);
  if (!cols.is_all()) t = detail::sort_rows(std::move(t));
  detail::write_back(c, mask_view, accum, std::move(t), desc);
}

template <class C, class Mask, class Accum, class A>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  const Csr<A>& source = detail::rows_of(a, desc.transpose_first);
  detail::assign_matrix(c, mask, accum, source.nrows, source.ncols, &source, A{}, rows, cols,
                        desc);
}

template <class C, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  detail::assign_matrix<C, Mask, Accum, Scalar>(c, mask, accum, rows.size(c.nrows()),
                                                cols.size(c.ncols()), nullptr, value, rows, cols,
                                                desc);
}

template <class C, class Mask, class Accum, class A>
void transpose(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
               const Descriptor& desc) {
  const Csr<A>& source = detail::rows_of(a, !desc.transpose_first);
  if (c.nrows() != source.nrows || c.ncols() != source.ncols)
    detail::dimension_mismatch("transpose", "C (" + detail::shape(c.nrows(), c.ncols()) +
                                                ") for a result of " +
                                                detail::shape(source.nrows, source.ncols));
  const auto mask_view = detail::matrix_mask(mask, desc, c.nrows(), c.ncols(), "transpose");
  detail::write_back(c, mask_view, accum, source.to(Backend::cuda), desc);
}

}  // namespace grb::cuda
