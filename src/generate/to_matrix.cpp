// Edge list -> CSR adjacency matrix, built directly rather than through Matrix::build because the
// generators feed it tens of millions of edges. Scattering entries straight to their rows would
// miss the cache on every entry (rows of a permuted Kronecker graph are random), so entries are
// first partitioned into blocks of consecutive rows small enough to sort in cache (a radix
// partition, one sequential write stream per block), then each block is sorted by row, column
// and weight on its own. Every pass runs in parallel without atomic counters, and the result
// does not depend on the number of threads.
#include <algorithm>
#include <atomic>
#include <bit>
#include <string>
#include <utility>
#include <vector>

#include "grb/array.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"
#include "parallel.hpp"

namespace grb::generate {
namespace {

struct Staged {
  Index row, column;
  double weight;
};

/// About this many entries per block: 16-byte entries, a few hundred KiB, within a core's L2.
constexpr std::uint64_t entries_per_block = 1 << 14;
/// More blocks than this and the partition's write streams stop fitting in cache themselves.
constexpr int most_block_bits = 12;

}  // namespace

Matrix<double> to_matrix(const EdgeList& edges, const Options& options) {
  const std::uint64_t nedges = edges.source.size();
  if (edges.target.size() != nedges || edges.weight.size() != nedges)
    throw DimensionMismatch("to_matrix: " + std::to_string(nedges) + " sources, " +
                            std::to_string(edges.target.size()) + " targets and " +
                            std::to_string(edges.weight.size()) + " weights");
  const Index n = edges.nvertices;
  const auto skipped = [&](std::uint64_t e) {
    return options.drop_self_loops && edges.source[e] == edges.target[e];
  };
  // A self loop is its own mirror image: symmetrizing must not store it twice.
  const auto mirrored = [&](std::uint64_t e) {
    return options.symmetrize && edges.source[e] != edges.target[e];
  };

  // Blocks of 2^row_shift consecutive rows.
  const std::uint64_t estimated_entries = nedges * (options.symmetrize ? 2 : 1);
  const int row_bits = n == 0 ? 0 : int(std::bit_width(std::uint64_t{n} - 1));
  const int block_bits = std::min({most_block_bits, row_bits,
                                   int(std::bit_width(estimated_entries / entries_per_block))});
  const int row_shift = row_bits - block_bits;
  const std::uint64_t nblocks = n == 0 ? 0 : ((std::uint64_t{n} - 1) >> row_shift) + 1;

  // Pass 1: each thread counts its edges' entries per block (and checks the endpoints).
  const std::vector<detail::Range> parts = detail::split(nedges, 1 << 16);
  const std::size_t nparts = parts.size();
  std::vector<Offset> cursor(nparts * nblocks, 0);
  std::atomic<std::uint64_t> first_bad_edge = nedges;
  detail::run_parallel(nparts, [&](std::size_t part) {
    Offset* count = cursor.data() + part * nblocks;
    for (std::uint64_t e = parts[part].begin; e < parts[part].end; ++e) {
      if (edges.source[e] >= n || edges.target[e] >= n) {
        std::uint64_t bad = first_bad_edge.load();
        while (e < bad && !first_bad_edge.compare_exchange_weak(bad, e)) {
        }
        return;
      }
      if (skipped(e)) continue;
      ++count[edges.source[e] >> row_shift];
      if (mirrored(e)) ++count[edges.target[e] >> row_shift];
    }
  });
  if (const std::uint64_t e = first_bad_edge.load(); e < nedges)
    throw IndexOutOfBounds("to_matrix: edge " + std::to_string(e) + " (" +
                           std::to_string(edges.source[e]) + " -> " +
                           std::to_string(edges.target[e]) + ") has an end outside [0, " +
                           std::to_string(n) + ")");

  // Block b's entries are contiguous; within them, part p's follow part p - 1's.
  std::vector<Offset> block_start(nblocks + 1, 0);
  for (std::uint64_t b = 0; b < nblocks; ++b) {
    Offset position = block_start[b];
    for (std::size_t part = 0; part < nparts; ++part) {
      const Offset count = cursor[part * nblocks + b];
      cursor[part * nblocks + b] = position;
      position += count;
    }
    block_start[b + 1] = position;
  }
  const Offset nentries = block_start[nblocks];

  // Pass 2: the partition. Uninitialized storage (every slot is written exactly once), on huge
  // pages: the writes scatter over all of it (src/memory.cpp).
  grb::detail::Array<Staged> staged(nentries, Backend::cpu);
  detail::run_parallel(nparts, [&](std::size_t part) {
    Offset* next = cursor.data() + part * nblocks;
    for (std::uint64_t e = parts[part].begin; e < parts[part].end; ++e) {
      if (skipped(e)) continue;
      const Index source = edges.source[e], target = edges.target[e];
      staged[next[source >> row_shift]++] = {source, target, edges.weight[e]};
      if (mirrored(e)) staged[next[target >> row_shift]++] = {target, source, edges.weight[e]};
    }
  });

  // Pass 3, per block: counting sort by row into a scratch buffer, sort each row by (column,
  // weight), combine parallel edges, and write the surviving entries back to the front of the
  // block's range. Sorting by weight as well makes a summed weight independent of input order.
  std::vector<Offset> kept(n, 0);
  detail::parallel_for(
      nblocks,
      [&](std::uint64_t first_block, std::uint64_t last_block) {
        std::vector<Offset> row_start;
        std::vector<std::pair<Index, double>> scratch;
        for (std::uint64_t b = first_block; b < last_block; ++b) {
          const Index first_row = static_cast<Index>(b << row_shift);
          const Index last_row = static_cast<Index>(
              std::min<std::uint64_t>(n, (b + 1) << row_shift));
          Staged* block = staged.data() + block_start[b];
          const Offset size = block_start[b + 1] - block_start[b];
          row_start.assign(std::size_t(last_row - first_row) + 1, 0);
          for (Offset k = 0; k < size; ++k) ++row_start[block[k].row - first_row + 1];
          for (std::size_t r = 1; r < row_start.size(); ++r) row_start[r] += row_start[r - 1];
          scratch.resize(size);
          {
            std::vector<Offset> next(row_start.begin(), row_start.end() - 1);
            for (Offset k = 0; k < size; ++k)
              scratch[next[block[k].row - first_row]++] = {block[k].column, block[k].weight};
          }
          Offset out = 0;
          for (Index row = first_row; row < last_row; ++row) {
            const auto begin = scratch.begin() + std::ptrdiff_t(row_start[row - first_row]);
            const auto end = scratch.begin() + std::ptrdiff_t(row_start[row - first_row + 1]);
            std::sort(begin, end);
            const Offset row_out = out;
            for (auto it = begin; it != end; ++it) {
              if (out > row_out && block[out - 1].column == it->first) {
                if (!options.drop_duplicates) block[out - 1].weight += it->second;
              } else {
                block[out++] = {row, it->first, it->second};
              }
            }
            kept[row] = out - row_out;
          }
        }
      },
      1);

  grb::detail::Array<Offset> row_offsets(std::size_t(n) + 1, Backend::cpu);
  row_offsets[0] = 0;
  for (Index i = 0; i < n; ++i) row_offsets[i + 1] = row_offsets[i] + kept[i];
  grb::detail::Array<Index> columns(row_offsets[n], Backend::cpu);
  grb::detail::Array<double> values(row_offsets[n], Backend::cpu);
  detail::parallel_for(
      nblocks,
      [&](std::uint64_t first_block, std::uint64_t last_block) {
        for (std::uint64_t b = first_block; b < last_block; ++b) {
          const Offset first = row_offsets[b << row_shift];
          const Offset last = row_offsets[std::min<std::uint64_t>(n, (b + 1) << row_shift)];
          const Staged* block = staged.data() + block_start[b];
          for (Offset k = 0; k < last - first; ++k) {
            columns[first + k] = block[k].column;
            values[first + k] = block[k].weight;
          }
        }
      },
      1);
  Matrix<double> matrix(
      Csr<double>{n, n, std::move(row_offsets), std::move(columns), std::move(values)});
  // Every entry has its mirror, with the same combined weight (runs are combined in weight order).
  if (options.symmetrize) matrix.mark_symmetric();
  return matrix;
}

}  // namespace grb::generate
