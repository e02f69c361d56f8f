#include "csr_assembly.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <thread>
#include <utility>

#include "text_pieces.hpp"

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

/// About this many tuples per block of rows: small enough that a block's counting sort stays
/// in a core's cache.
constexpr std::uint64_t entries_per_block = 1 << 14;
/// More blocks than this and pass 2's write streams (one per block) stop fitting in cache.
constexpr int most_block_bits = 12;
/// A block spans at most 2^most_row_bits rows where the row count allows: each block's counting
/// sort needs a slot per row, so a few tuples over 2^31 rows must not make one block of them all.
constexpr int most_row_bits = 16;
/// A CSR of this many entries takes a second or more to build: worth a progress line.
constexpr std::uint64_t progress_entries = std::uint64_t{1} << 24;

/// Threads for `count` tuples: one per core, none with fewer than 2^16 tuples.
std::size_t workers_for(std::uint64_t count) {
  const std::uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(count >> 16, 1, cores));
}

}  // namespace

// The tuples are assembled on every core without atomic counters, and the result does not
// depend on the number of threads: the tuples are cut into one contiguous piece per thread;
// each thread counts its piece's tuples per block of consecutive rows, and after a scan each
// thread scatters its piece into the blocks (a stable partition: within a block, tuples stay in
// file order). Each block is then a small independent problem — counting sort by row, each row
// sorted by column, duplicates combined — and the blocks are handed out to the threads.
Csr<double> assemble_csr(Index nrows, Index ncols, std::vector<Index>&& rows,
                         std::vector<Index>&& cols, std::vector<double>&& values,
                         Duplicates duplicates) {
  const std::uint64_t count = rows.size();
  const bool ones = values.empty();
  const bool announce = report_progress && count >= progress_entries;
  const auto start = std::chrono::steady_clock::now();
  if (announce) {
    std::fprintf(stderr, "grb: building the CSR of %llu entries ...",
                 static_cast<unsigned long long>(count));
    std::fflush(stderr);
  }

  // Blocks of 2^row_shift consecutive rows, about entries_per_block tuples each.
  const int row_bits = nrows == 0 ? 0 : int(std::bit_width(std::uint64_t{nrows} - 1));
  const int block_bits =
      std::min({most_block_bits, row_bits,
                std::max(int(std::bit_width(count / entries_per_block)), row_bits - most_row_bits)});
  const int row_shift = row_bits - block_bits;
  const std::size_t nblocks = nrows == 0 ? 0 : ((std::uint64_t{nrows} - 1) >> row_shift) + 1;
  const std::size_t parts = workers_for(count);
  const auto piece = [&](std::size_t p) {
    return std::pair<std::uint64_t, std::uint64_t>{count * p / parts, count * (p + 1) / parts};
  };

  // Pass 1: tuples per (piece, block); then each (piece, block)'s first slot, block-major.
  std::vector<Offset> cursor(parts * nblocks, 0);
  parallel_for(parts, [&](std::size_t p) {
    Offset* counts = cursor.data() + p * nblocks;
    const auto [begin, end] = piece(p);
    for (std::uint64_t e = begin; e < end; ++e) ++counts[std::uint64_t{rows[e]} >> row_shift];
  });
  std::vector<Offset> block_start(nblocks + 1, 0);
  Offset running = 0;
  for (std::size_t b = 0; b < nblocks; ++b) {
    block_start[b] = running;
    for (std::size_t p = 0; p < parts; ++p) {
      const Offset tuples = cursor[p * nblocks + b];
      cursor[p * nblocks + b] = running;
      running += tuples;
    }
  }
  block_start[nblocks] = running;

  // Pass 2: the stable partition into blocks.
  Array<Index> staged_rows(count, Backend::cpu), staged_cols(count, Backend::cpu);
  Array<double> staged_values(ones ? 0 : count, Backend::cpu);
  parallel_for(parts, [&](std::size_t p) {
    Offset* next = cursor.data() + p * nblocks;
    const auto [begin, end] = piece(p);
    for (std::uint64_t e = begin; e < end; ++e) {
      const Offset slot = next[std::uint64_t{rows[e]} >> row_shift]++;
      staged_rows[slot] = rows[e];
      staged_cols[slot] = cols[e];
      if (!ones) staged_values[slot] = values[e];
    }
  });
  std::vector<Index>().swap(rows);
  std::vector<Index>().swap(cols);
  std::vector<double>().swap(values);

  // Pass 3, a block at a time: counting sort by row (stable), each row sorted by column
  // (stably: duplicates stay in file order) and its duplicates combined, compacting the block
  // towards its start. offsets[i] holds row i's start relative to its block for now.
  Array<Offset> offsets(std::size_t(nrows) + 1, Backend::cpu);
  Array<Index> sorted_cols(count, Backend::cpu);
  Array<double> sorted_values(ones ? 0 : count, Backend::cpu);
  std::vector<Offset> block_kept(nblocks, 0);
  std::atomic<std::size_t> next_block = 0;
  parallel_for(parts, [&](std::size_t) {
    RowSorter sorter;
    std::vector<Offset> row_start;
    for (std::size_t b = next_block++; b < nblocks; b = next_block++) {
      const Index first_row = static_cast<Index>(b << row_shift);
      const Index block_rows = static_cast<Index>(
          std::min<std::uint64_t>(nrows, std::uint64_t(b + 1) << row_shift) - first_row);
      const Offset base = block_start[b], block_end = block_start[b + 1];
      row_start.assign(std::size_t(block_rows) + 1, 0);
      for (Offset k = base; k < block_end; ++k) ++row_start[staged_rows[k] - first_row + 1];
      std::partial_sum(row_start.begin(), row_start.end(), row_start.begin());
      {
        std::vector<Offset> next(row_start.begin(), row_start.end() - 1);
        for (Offset k = base; k < block_end; ++k) {
          const Offset slot = base + next[staged_rows[k] - first_row]++;
          sorted_cols[slot] = staged_cols[k];
          if (!ones) sorted_values[slot] = staged_values[k];
        }
      }
      Index* block_cols = sorted_cols.data() + base;
      double* block_values = ones ? nullptr : sorted_values.data() + base;
      Offset out = 0;
      for (Index r = 0; r < block_rows; ++r) {
        const Offset begin = row_start[r], end = row_start[r + 1];
        const Offset row_out = out;
        offsets[first_row + r] = out;
        sorter.sort(block_cols + begin, block_values ? block_values + begin : nullptr,
                    static_cast<std::size_t>(end - begin));
        for (Offset e = begin; e < end; ++e) {
          if (out > row_out && block_cols[out - 1] == block_cols[e]) {
            if (block_values) {
              double& kept = block_values[out - 1];
              const double value = block_values[e];
              switch (duplicates) {
                case Duplicates::sum: kept += value; break;
                case Duplicates::last: kept = value; break;
                case Duplicates::min:
                  if (kept != kept || value < kept) kept = value;  // a NaN loses to any number
                  break;
              }
            }
          } else {
            block_cols[out] = block_cols[e];
            if (block_values) block_values[out] = block_values[e];
            ++out;
          }
        }
      }
      block_kept[b] = out;
    }
  });
  staged_rows = Array<Index>();
  staged_cols = Array<Index>();
  staged_values = Array<double>();

  // Each block's kept entries move to their final place (a copy only where duplicates were
  // combined), and the row starts become absolute.
  std::vector<Offset> final_start(nblocks + 1, 0);
  for (std::size_t b = 0; b < nblocks; ++b) final_start[b + 1] = final_start[b] + block_kept[b];
  const Offset kept = final_start[nblocks];
  const bool moved = kept != count;
  Csr<double> csr{nrows, ncols, std::move(offsets), Array<Index>(), Array<double>()};
  Array<Index> final_cols = moved ? Array<Index>(kept, Backend::cpu) : std::move(sorted_cols);
  Array<double> final_values =
      ones ? Array<double>(kept, Backend::cpu)
           : (moved ? Array<double>(kept, Backend::cpu) : std::move(sorted_values));
  next_block = 0;
  parallel_for(parts, [&](std::size_t) {
    for (std::size_t b = next_block++; b < nblocks; b = next_block++) {
      const Index first_row = static_cast<Index>(b << row_shift);
      const Index last_row =
          static_cast<Index>(std::min<std::uint64_t>(nrows, std::uint64_t(b + 1) << row_shift));
      for (Index r = first_row; r < last_row; ++r) csr.row_offsets[r] += final_start[b];
      const Offset from = block_start[b], to = final_start[b], size = block_kept[b];
      if (moved) {
        std::copy_n(sorted_cols.begin() + from, size, final_cols.begin() + to);
        if (!ones) std::copy_n(sorted_values.begin() + from, size, final_values.begin() + to);
      }
      if (ones) std::fill_n(final_values.begin() + to, size, 1.0);
    }
  });
  csr.row_offsets[nrows] = kept;
  csr.col_indices = std::move(final_cols);
  csr.values = std::move(final_values);
  if (announce)
    std::fprintf(stderr, " done in %.1f s\n",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
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
