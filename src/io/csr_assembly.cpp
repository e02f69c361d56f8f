#include "csr_assembly.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace grb::io::detail {

using grb::detail::Array;

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

  // Sort each row by column (stably) and combine duplicates, compacting in place: the write
  // position never passes the read position.
  std::vector<std::pair<Index, Offset>> order;  // (column, position in the row)
  std::vector<Index> sorted_cols;
  std::vector<double> sorted_values;
  Offset out = 0;
  for (Index i = 0; i < nrows; ++i) {
    const Offset begin = offsets[i], end = offsets[i + 1];
    offsets[i] = out;
    bool increasing = true;
    for (Offset e = begin + 1; e < end && increasing; ++e)
      increasing = scattered_cols[e - 1] < scattered_cols[e];
    if (increasing) {
      for (Offset e = begin; e < end; ++e, ++out) {
        scattered_cols[out] = scattered_cols[e];
        if (!ones) scattered_values[out] = scattered_values[e];
      }
      continue;
    }
    order.clear();
    for (Offset e = begin; e < end; ++e) order.emplace_back(scattered_cols[e], e - begin);
    std::sort(order.begin(), order.end());  // ties broken by position: stable
    sorted_cols.clear();
    sorted_values.clear();
    for (const auto& [column, position] : order) {
      const double value = ones ? 1.0 : scattered_values[begin + position];
      if (!sorted_cols.empty() && sorted_cols.back() == column) {
        if (!ones) {
          if (duplicates == Duplicates::sum) sorted_values.back() += value;
          else sorted_values.back() = value;
        }
      } else {
        sorted_cols.push_back(column);
        if (!ones) sorted_values.push_back(value);
      }
    }
    std::copy(sorted_cols.begin(), sorted_cols.end(), scattered_cols.begin() + out);
    if (!ones) std::copy(sorted_values.begin(), sorted_values.end(), scattered_values.begin() + out);
    out += sorted_cols.size();
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
