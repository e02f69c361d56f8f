#include "csr_assembly.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace grb::io::detail {

using grb::detail::Array;

namespace {

/// Sorts one row's columns, carrying the values along, stably (equal columns keep file order).
class RowSorter {
  using Pair = std::pair<Index, double>;

 public:
  void sort(Index* cols, double* values, std::size_t size) {
    if (std::is_sorted(cols, cols + size)) return;
    if (!values) {
      std::sort(cols, cols + size);  // all values are 1.0: order among equals is moot
    } else if (size <= small_row) {
      for (std::size_t k = 1; k < size; ++k) {
        const Index column = cols[k];
        const double value = values[k];
        std::size_t slot = k;
        for (; slot > 0 && cols[slot - 1] > column; --slot) {
          cols[slot] = cols[slot - 1];
          values[slot] = values[slot - 1];
        }
        cols[slot] = column;
        values[slot] = value;
      }
    } else {
      order_.resize(size);
      for (std::size_t k = 0; k < size; ++k) order_[k] = {cols[k], values[k]};
      std::stable_sort(order_.begin(), order_.end(),
                       [](const Pair& a, const Pair& b) { return a.first < b.first; });
      for (std::size_t k = 0; k < size; ++k) cols[k] = order_[k].first, values[k] = order_[k].second;
    }
  }

 private:
  static constexpr std::size_t small_row = 32;  // insertion sort below this
  std::vector<Pair> order_;
};

}  // namespace

Csr<double> assemble_csr(Index nrows, Index ncols, std::vector<Index>&& rows,
                         std::vector<Index>&& cols, std::vector<double>&& values,
                         Duplicates duplicates) {
  const std::size_t count = rows.size();
  const bool ones = values.empty();

  Array<Offset> offsets(std::size_t(nrows) + 1, Backend::cpu);
  std::fill(offsets.begin(), offsets.end(), Offset{0});
  for (Index row : rows) ++offsets[std::size_t(row) + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());

  // Scatter by row; the scatter is stable, so each row keeps file order (needed by `last`).
  Array<Index> scattered_cols(count, Backend::cpu);
  Array<double> scattered_values(ones ? 0 : count, Backend::cpu);
  {
    std::vector<Offset> next(offsets.begin(), offsets.end() - 1);
    for (std::size_t e = 0; e < count; ++e) {
      const Offset slot = next[rows[e]]++;
      scattered_cols[slot] = cols[e];
      if (!ones) scattered_values[slot] = values[e];
    }
  }
  std::vector<Index>().swap(rows);
  std::vector<Index>().swap(cols);
  std::vector<double>().swap(values);

  // Sort each row by column (stably: duplicates stay in file order), then combine duplicates
  // while compacting in place (the write position never passes the read position).
  RowSorter sorter;
  Offset out = 0;
  for (Index i = 0; i < nrows; ++i) {
    const Offset begin = offsets[i], end = offsets[i + 1];
    const Offset row_start = out;
    offsets[i] = out;
    sorter.sort(scattered_cols.data() + begin, ones ? nullptr : scattered_values.data() + begin,
                static_cast<std::size_t>(end - begin));
    for (Offset e = begin; e < end; ++e) {
      if (out > row_start && scattered_cols[out - 1] == scattered_cols[e]) {
        if (!ones) {
          if (duplicates == Duplicates::sum) scattered_values[out - 1] += scattered_values[e];
          else scattered_values[out - 1] = scattered_values[e];
        }
      } else {
        scattered_cols[out] = scattered_cols[e];
        if (!ones) scattered_values[out] = scattered_values[e];
        ++out;
      }
    }
  }
  offsets[nrows] = out;

  Csr<double> csr{nrows, ncols, std::move(offsets), Array<Index>(), Array<double>()};
  if (out == count) {
    csr.col_indices = std::move(scattered_cols);
  } else {
    csr.col_indices = Array<Index>(out, Backend::cpu);
    std::copy_n(scattered_cols.begin(), out, csr.col_indices.begin());
    scattered_cols = Array<Index>();
  }
  if (ones) {
    csr.values = Array<double>(out, Backend::cpu);
    std::fill(csr.values.begin(), csr.values.end(), 1.0);
  } else if (out == count) {
    csr.values = std::move(scattered_values);
  } else {
    csr.values = Array<double>(out, Backend::cpu);
    std::copy_n(scattered_values.begin(), out, csr.values.begin());
  }
  return csr;
}

namespace {
/// Row i of A ∪ A' in column order, as emit(column, value) calls.
template <class Emit>
void merge_row(const Csr<double>& a, const Csr<double>& t, Index i, Emit emit) {
  Offset x = a.row_offsets[i], x_end = a.row_offsets[i + 1];
  Offset y = t.row_offsets[i], y_end = t.row_offsets[i + 1];
  while (x < x_end || y < y_end) {
    if (y == y_end || (x < x_end && a.col_indices[x] < t.col_indices[y])) {
      emit(a.col_indices[x], a.values[x]);
      ++x;
    } else if (x == x_end || t.col_indices[y] < a.col_indices[x]) {
      emit(t.col_indices[y], t.values[y]);
      ++y;
    } else {
      emit(a.col_indices[x], std::min(a.values[x], t.values[y]));
      ++x, ++y;
    }
  }
}
}  // namespace

Csr<double> symmetrize_min(const Csr<double>& a) {
  const Csr<double> t = grb::detail::transpose_host(a);
  const Index n = a.nrows;
  Array<Offset> offsets(std::size_t(n) + 1, Backend::cpu);
  offsets[0] = 0;
  for (Index i = 0; i < n; ++i) {
    Offset size = 0;
    merge_row(a, t, i, [&](Index, double) { ++size; });
    offsets[i + 1] = offsets[i] + size;
  }
  Array<Index> cols(offsets[n], Backend::cpu);
  Array<double> values(offsets[n], Backend::cpu);
  for (Index i = 0; i < n; ++i) {
    Offset out = offsets[i];
    merge_row(a, t, i, [&](Index column, double value) {
      cols[out] = column;
      values[out] = value;
      ++out;
    });
  }
  return Csr<double>{n, n, std::move(offsets), std::move(cols), std::move(values)};
}

}  // namespace grb::io::detail
