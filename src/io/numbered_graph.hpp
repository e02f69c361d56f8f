// What the readers of 1-based numbered-vertex formats (DIMACS .gr, METIS .graph, TNTP) share:
// sanity bounds on declared sizes, 1-based vertex ids, and CSR assembly that keeps the smallest
// weight of repeated edges.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fields.hpp"
#include "grb/matrix.hpp"
#include "grb/types.hpp"
#include "line_reader.hpp"

namespace grb::io::detail {

/// The most bytes of text the file can hold: its size, or for gzip files its size times
/// deflate's best ratio (about 1032:1), so that declared sizes can be checked before anything
/// is allocated for them; unbounded for a pipe (then only the memory budget bounds them).
inline std::uint64_t text_bytes_bound(const LineReader& reader) {
  constexpr std::uint64_t deflate_ratio = 1032;
  const std::uint64_t bytes = reader.file_bytes();
  if (!reader.size_known()) return std::numeric_limits<std::uint64_t>::max();  // a pipe
  if (!reader.compressed()) return bytes;
  return bytes > std::numeric_limits<std::uint64_t>::max() / deflate_ratio
             ? std::numeric_limits<std::uint64_t>::max()
             : bytes * deflate_ratio;
}

/// More vertices than this for `edges` edges is no graph, only a corrupt header: the bound of
/// the edge-list reader (2^20 + 8 per edge), so that a 30-byte file cannot ask for gigabytes.
inline std::uint64_t plausible_vertices(std::uint64_t edges) {
  return (std::uint64_t{1} << 20) + 8 * std::min<std::uint64_t>(edges, std::uint64_t{1} << 56);
}

/// A vertex count that fits grb's 32-bit vertex ids.
inline Index parse_vertex_count(std::string_view field, const LineReader& reader,
                                const char* what) {
  const std::uint64_t value = parse_unsigned(field, reader, what);
  if (value > std::numeric_limits<Index>::max())
    reader.fail(std::string(what) + " " + std::to_string(value) +
                " exceeds grb's 32-bit vertex ids (at most " +
                std::to_string(std::numeric_limits<Index>::max()) + ")");
  return static_cast<Index>(value);
}

/// A 1-based vertex id in 1..n, returned 0-based.
inline Index parse_vertex(std::string_view field, const LineReader& reader, const char* what,
                          Index n) {
  const std::uint64_t value = parse_unsigned(field, reader, what);
  if (value == 0)
    reader.fail(std::string(what) + " 0 is out of range: vertices are numbered from 1 (1.." +
                std::to_string(n) + ")");
  if (value > n)
    reader.fail(std::string(what) + " " + std::to_string(value) + " is out of range 1.." +
                std::to_string(n) + (n == 0 ? " (the graph has no vertices)" : ""));
  return static_cast<Index>(value - 1);
}

/// A host n x n CSR from tuples that lie inside it; repeated (row, column) tuples keep the
/// smallest value (parallel roads: the shorter one). `values` empty means every value is 1.0.
/// Consumes the tuple vectors.
inline Csr<double> assemble_csr_min(Index n, std::vector<Index>&& rows, std::vector<Index>&& cols,
                                    std::vector<double>&& values) {
  const bool ones = values.empty();
  const std::size_t count = rows.size();
  std::vector<Offset> offsets(std::size_t{n} + 1, 0);
  for (Index row : rows) ++offsets[std::size_t{row} + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  std::vector<std::pair<Index, double>> slots(count);
  {
    std::vector<Offset> next(offsets.begin(), offsets.end() - 1);
    for (std::size_t e = 0; e < count; ++e)
      slots[next[rows[e]]++] = {cols[e], ones ? 1.0 : values[e]};
  }
  std::vector<Index>().swap(rows);
  std::vector<Index>().swap(cols);
  std::vector<double>().swap(values);

  // Each row sorted by (column, value): the first of equal columns is the smallest value.
  // NaN sorts after every number (a strict weak order), so a NaN is kept only alone.
  auto before = [](const std::pair<Index, double>& a, const std::pair<Index, double>& b) {
    if (a.first != b.first) return a.first < b.first;
    const bool a_nan = a.second != a.second, b_nan = b.second != b.second;
    if (a_nan || b_nan) return !a_nan && b_nan;
    return a.second < b.second;
  };
  std::size_t kept = 0;
  std::vector<Offset> new_offsets(std::size_t{n} + 1, 0);
  for (Index i = 0; i < n; ++i) {
    auto begin = slots.begin() + static_cast<std::ptrdiff_t>(offsets[i]);
    auto end = slots.begin() + static_cast<std::ptrdiff_t>(offsets[i + 1]);
    if (!std::is_sorted(begin, end, before)) std::stable_sort(begin, end, before);
    for (auto it = begin; it != end; ++it)
      if (it == begin || it->first != (it - 1)->first) slots[kept++] = *it;
    new_offsets[std::size_t{i} + 1] = kept;
  }
  Csr<double> csr{n, n, grb::detail::Array<Offset>(std::size_t{n} + 1, Backend::cpu),
                  grb::detail::Array<Index>(kept, Backend::cpu),
                  grb::detail::Array<double>(kept, Backend::cpu)};
  std::copy(new_offsets.begin(), new_offsets.end(), csr.row_offsets.begin());
  for (std::size_t e = 0; e < kept; ++e) {
    csr.col_indices[e] = slots[e].first;
    csr.values[e] = slots[e].second;
  }
  return csr;
}

}  // namespace grb::io::detail
