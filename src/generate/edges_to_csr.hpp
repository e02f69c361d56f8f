// Edges -> CSR adjacency matrix, for the generators and to_matrix, in about the final matrix's
// memory: no edge list and no staging copy beside the CSR. Edge k is edge_of(k), a pure function
// of k (the generators draw it from a counter, to_matrix reads it from a list), so the edges are
// visited twice: once to count each row's entries, once to write them into their rows. Then each
// row is sorted by (column, weight), its parallel edges combined, and the rows closed up.
//
// Host memory: 8 bytes a vertex for the row offsets and 8 for the rows' write cursors, 12 bytes
// an entry before parallel edges are combined (a column id and a weight; 5 for a pattern, whose
// values are all true and whose weights are never stored). That is the final
// CSR's size plus its combined duplicates (about 2% on Graph500 graphs) and the cursors: kron26
// (2.1 G stored entries) peaks near 26 GB where an edge list, a staging copy and the CSR took 76.
//
// Entries land in their rows in any order (atomic cursors), and each row is then sorted by
// (column, weight): the result does not depend on the number of threads or on timing.
//
// Where an edge's endpoints cost far more than its weight (a Kronecker edge: 2 * scale hashes
// against 2), the edge source says so by a weight(k) member: the first pass then keeps the
// endpoints (8 bytes an edge, a third of a weighted CSR) when the host has the memory and the
// peak stays within 1.5x the matrix, and the second pass reads them instead of drawing the edge
// again.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "grb/array.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"
#include "parallel.hpp"

namespace grb::generate::detail {

struct Edge {
  Index source, target;
  double weight;
};

struct Ends {
  Index source, target;
};

/// Row ranges [first, last) of about equal entries (by `offsets`), one per thread.
inline std::vector<Range> rows_by_entries(const grb::detail::Array<Offset>& offsets, Index n) {
  const std::uint64_t parts = split(offsets[n], 1 << 16).size();
  std::vector<Range> ranges(parts);
  Index first = 0;
  for (std::uint64_t p = 0; p < parts; ++p) {
    const Offset target = offsets[n] / parts * (p + 1);
    Index last = p + 1 == parts ? n
                                : Index(std::lower_bound(offsets.begin() + first,
                                                         offsets.begin() + n, target) -
                                        offsets.begin());
    ranges[p] = {first, last};
    first = last;
  }
  return ranges;
}

/// The n x n adjacency matrix of edges edge_of(0 .. nedges) under `options` (see to_matrix):
/// T = double holds the weights, T = bool the pattern (parallel edges become one; the weights
/// are ignored). `what` names the graph in errors. IndexOutOfBounds for an edge with an end
/// >= n; OutOfMemory, with the sizes, before anything large is allocated when the host lacks
/// memory.
template <class T, class EdgeOf>
Matrix<T> edges_to_csr(Index n, std::uint64_t nedges, const EdgeOf& edge_of,
                       const Options& options, const std::string& what) {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, bool>);
  constexpr bool weighted = std::is_same_v<T, double>;
  const auto skipped = [&](const Edge& e) {
    return options.drop_self_loops && e.source == e.target;
  };
  // A self loop is its own mirror image: symmetrizing must not store it twice.
  const auto mirrored = [&](const Edge& e) { return options.symmetrize && e.source != e.target; };
  const std::uint64_t most_entries = nedges * (options.symmetrize ? 2 : 1);
  grb::detail::check_host_memory(
      (std::uint64_t{n} * 2 + 1) * sizeof(Offset) + most_entries * (sizeof(Index) + sizeof(T)),
      what + "'s adjacency matrix (" + std::to_string(n) + " vertices, up to " +
          std::to_string(most_entries) + " entries)");

  // Pass 1: every row's entries, counted at offsets[row + 1] (and the endpoints checked).
  grb::detail::Array<Offset> offsets(std::size_t(n) + 1, Backend::cpu);
  std::fill(offsets.begin(), offsets.end(), Offset{0});
  constexpr bool costly_ends = requires(std::uint64_t k) { edge_of.weight(k); };
  // Kept where the host has twice the room, and where they add at most half the entries' bytes:
  // the peak then stays within 1.5x the matrix (a weighted Kronecker graph keeps them, 8 bytes
  // an edge beside 24 of entries; a pattern, 10 bytes of entries an edge, draws its edges twice).
  const std::uint64_t entry_bytes = most_entries * (sizeof(Index) + sizeof(T));
  const bool keep_ends =
      costly_ends && nedges * sizeof(Ends) * 2 <= entry_bytes &&
      grb::detail::host_memory_available() / 2 >
          (std::uint64_t{n} * 2 + 1) * sizeof(Offset) + entry_bytes + nedges * sizeof(Ends);
  grb::detail::Array<Ends> ends(keep_ends ? nedges : 0, Backend::cpu);
  std::atomic<std::uint64_t> first_bad = nedges;
  parallel_for(nedges, [&](std::uint64_t begin, std::uint64_t end) {
    // A private copy: stores to the (unsigned) ids could otherwise alias an edge source's (int)
    // fields, forcing a reload of its keys for every edge.
    const EdgeOf local = edge_of;
    for (std::uint64_t k = begin; k < end; ++k) {
      const Edge e = local(k);
      if (keep_ends) ends[k] = {e.source, e.target};
      if (e.source >= n || e.target >= n) {
        std::uint64_t bad = first_bad.load();
        while (k < bad && !first_bad.compare_exchange_weak(bad, k)) {
        }
        return;
      }
      if (skipped(e)) continue;
      std::atomic_ref<Offset>(offsets[e.source + 1]).fetch_add(1, std::memory_order_relaxed);
      if (mirrored(e))
        std::atomic_ref<Offset>(offsets[e.target + 1]).fetch_add(1, std::memory_order_relaxed);
    }
  });
  if (const std::uint64_t k = first_bad.load(); k < nedges) {
    const Edge e = edge_of(k);
    throw IndexOutOfBounds(what + ": edge " + std::to_string(k) + " (" + std::to_string(e.source) +
                           " -> " + std::to_string(e.target) + ") has an end outside [0, " +
                           std::to_string(n) + ")");
  }
  for (Index i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  const Offset entries = offsets[n];

  // Pass 2: each entry into its row, at the row's cursor.
  grb::detail::Array<Offset> cursor(n, Backend::cpu);
  std::copy(offsets.begin(), offsets.begin() + n, cursor.begin());
  grb::detail::Array<Index> columns(entries, Backend::cpu);
  grb::detail::Array<T> values(entries, Backend::cpu);
  const auto value_of = [](const Edge& e) -> T {
    if constexpr (weighted) return e.weight;
    else return true;  // a weight of 0.0 is still an edge
  };
  parallel_for(nedges, [&](std::uint64_t begin, std::uint64_t end) {
    const EdgeOf local = edge_of;
    const auto edge_again = [&](std::uint64_t k) {
      if constexpr (costly_ends) {
        if (keep_ends) return Edge{ends[k].source, ends[k].target, local.weight(k)};
      }
      return Edge(local(k));
    };
    for (std::uint64_t k = begin; k < end; ++k) {
      const Edge e = edge_again(k);
      if (skipped(e)) continue;
      Offset at =
          std::atomic_ref<Offset>(cursor[e.source]).fetch_add(1, std::memory_order_relaxed);
      columns[at] = e.target;
      values[at] = value_of(e);
      if (!mirrored(e)) continue;
      at = std::atomic_ref<Offset>(cursor[e.target]).fetch_add(1, std::memory_order_relaxed);
      columns[at] = e.source;
      values[at] = value_of(e);
    }
  });

  ends = {};

  // Pass 3, per row: sort by (column, weight), combine parallel edges (the smallest weight, or
  // the sum in weight order; a pattern keeps one), keep the survivors at the row's front;
  // cursor[row] = their count.
  // The rows are then closed up, in place: each part moves its rows to the front of its own
  // range, in parallel, then the parts' blocks move down in order.
  const std::vector<Range> parts = rows_by_entries(offsets, n);
  std::vector<Offset> part_kept(parts.size());
  run_parallel(parts.size(), [&](std::size_t p) {
    std::vector<std::pair<Index, double>> row;
    Offset out = offsets[parts[p].begin];
    for (Index i = Index(parts[p].begin); i < Index(parts[p].end); ++i) {
      if constexpr (!weighted) {  // columns alone, sorted in place; every value is true
        const auto first = columns.begin() + offsets[i], last = columns.begin() + offsets[i + 1];
        std::sort(first, last);
        const auto kept = std::unique(first, last);
        std::copy(first, kept, columns.begin() + out);  // never ahead of what it reads
        std::fill(values.begin() + out, values.begin() + out + (kept - first), true);
        cursor[i] = Offset(kept - first);
        out += cursor[i];
      } else {
        row.clear();
        for (Offset at = offsets[i]; at < offsets[i + 1]; ++at)
          row.emplace_back(columns[at], values[at]);
        std::sort(row.begin(), row.end());
        const Offset row_out = out;
        for (const auto& [column, weight] : row) {
          if (out > row_out && columns[out - 1] == column) {
            if (!options.drop_duplicates) values[out - 1] += weight;
          } else {
            columns[out] = column;
            values[out] = weight;
            ++out;
          }
        }
        cursor[i] = out - row_out;
      }
    }
    part_kept[p] = out - offsets[parts[p].begin];
  });
  Offset stored = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Offset from = offsets[parts[p].begin];
    if (from != stored && part_kept[p] > 0) {
      // Left moves of overlapping ranges: std::copy goes front to back.
      const Offset end = from + part_kept[p];
      std::copy(columns.begin() + from, columns.begin() + end, columns.begin() + stored);
      std::copy(values.begin() + from, values.begin() + end, values.begin() + stored);
    }
    stored += part_kept[p];
  }
  for (Index i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + cursor[i];
  cursor = {};
  columns.truncate(stored);
  values.truncate(stored);
  Matrix<T> matrix(Csr<T>{n, n, std::move(offsets), std::move(columns), std::move(values)});
  // Every entry has its mirror, with the same combined weight (runs are combined in weight order).
  if (options.symmetrize) matrix.mark_symmetric();
  return matrix;
}

}  // namespace grb::generate::detail
