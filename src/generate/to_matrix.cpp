// Edge list -> CSR adjacency matrix. Built directly (counting sort by row, then a sort within each
// row) rather than through Matrix::build, because the generators feed it tens of millions of
// edges and every pass parallelizes.
#include <algorithm>
#include <atomic>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "grb/error.hpp"
#include "grb/generate.hpp"
#include "parallel.hpp"

namespace grb::generate {

Matrix<double> to_matrix(const EdgeList& edges, const Options& options) {
  const std::size_t nedges = edges.source.size();
  if (edges.target.size() != nedges || edges.weight.size() != nedges)
    throw DimensionMismatch("to_matrix: " + std::to_string(nedges) + " sources, " +
                            std::to_string(edges.target.size()) + " targets and " +
                            std::to_string(edges.weight.size()) + " weights");
  const Index n = edges.nvertices;
  const auto skipped = [&](std::size_t e) {
    return options.drop_self_loops && edges.source[e] == edges.target[e];
  };
  // A self loop is its own mirror image: symmetrizing must not store it twice.
  const auto mirrored = [&](std::size_t e) {
    return options.symmetrize && edges.source[e] != edges.target[e];
  };

  // Row lengths before parallel edges combine. Threads count and scatter through atomic cursors;
  // the order of a row's entries thus varies from run to run, but the sort below erases it.
  grb::detail::Array<Offset> offsets(std::size_t(n) + 1, Backend::cpu);
  std::fill(offsets.begin(), offsets.end(), Offset{0});
  std::atomic<std::size_t> first_bad_edge = nedges;
  detail::parallel_for(nedges, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t e = begin; e < end; ++e) {
      if (edges.source[e] >= n || edges.target[e] >= n) {
        std::size_t bad = first_bad_edge.load();
        while (e < bad && !first_bad_edge.compare_exchange_weak(bad, e)) {
        }
        return;
      }
      if (skipped(e)) continue;
      std::atomic_ref(offsets[edges.source[e] + 1]).fetch_add(1, std::memory_order_relaxed);
      if (mirrored(e))
        std::atomic_ref(offsets[edges.target[e] + 1]).fetch_add(1, std::memory_order_relaxed);
    }
  });
  if (const std::size_t e = first_bad_edge.load(); e < nedges)
    throw IndexOutOfBounds("to_matrix: edge " + std::to_string(e) + " (" +
                           std::to_string(edges.source[e]) + " -> " +
                           std::to_string(edges.target[e]) + ") has an end outside [0, " +
                           std::to_string(n) + ")");
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());

  // (column, weight) pairs side by side: one cache miss per scattered entry, and rows sort in place.
  using Entry = std::pair<Index, double>;
  std::vector<Entry> entries(offsets[n]);
  {
    std::vector<Offset> next(offsets.begin(), offsets.end() - 1);
    const auto place = [&](Index row, Index column, double weight) {
      const Offset slot = std::atomic_ref(next[row]).fetch_add(1, std::memory_order_relaxed);
      entries[slot] = {column, weight};
    };
    detail::parallel_for(nedges, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t e = begin; e < end; ++e) {
        if (skipped(e)) continue;
        place(edges.source[e], edges.target[e], edges.weight[e]);
        if (mirrored(e)) place(edges.target[e], edges.source[e], edges.weight[e]);
      }
    });
  }

  // Sort each row by (column, weight) and combine parallel edges at the front of the row's slots.
  // Sorting by weight as well makes the result independent of the scatter order (a sum included).
  std::vector<Offset> kept(n);
  detail::parallel_for(n, [&](std::uint64_t first_row, std::uint64_t last_row) {
    for (std::uint64_t i = first_row; i < last_row; ++i) {
      Entry* row = entries.data() + offsets[i];
      Entry* row_end = entries.data() + offsets[i + 1];
      std::sort(row, row_end);
      Entry* out = row;
      for (Entry* entry = row; entry != row_end; ++entry) {
        if (out > row && (out - 1)->first == entry->first) {
          if (!options.drop_duplicates) (out - 1)->second += entry->second;
        } else {
          *out++ = *entry;
        }
      }
      kept[i] = static_cast<Offset>(out - row);
    }
  });

  grb::detail::Array<Offset> row_offsets(std::size_t(n) + 1, Backend::cpu);
  row_offsets[0] = 0;
  for (Index i = 0; i < n; ++i) row_offsets[i + 1] = row_offsets[i] + kept[i];
  grb::detail::Array<Index> columns(row_offsets[n], Backend::cpu);
  grb::detail::Array<double> values(row_offsets[n], Backend::cpu);
  detail::parallel_for(n, [&](std::uint64_t first_row, std::uint64_t last_row) {
    for (std::uint64_t i = first_row; i < last_row; ++i) {
      for (Offset k = 0; k < kept[i]; ++k) {
        columns[row_offsets[i] + k] = entries[offsets[i] + k].first;
        values[row_offsets[i] + k] = entries[offsets[i] + k].second;
      }
    }
  });
  return Matrix<double>(
      Csr<double>{n, n, std::move(row_offsets), std::move(columns), std::move(values)});
}

}  // namespace grb::generate
