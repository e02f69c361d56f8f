// The cuda backend's tuning constants, in one place. Each says what it decides, why it has its
// value, the figure that justifies it (H100, at the commit that set it), and the command that
// re-derives it: change the constant, rebuild, and compare the command's table before and after
// (the linear-algebra engines are the ones these constants shape).
//
//   BFS:  grb bench --algorithms bfs --engines linear-algebra --graphs kron22,kron24,grid2000 --roots 64
//   SpMV: grb bench --algorithms sssp,cc --engines linear-algebra,bellman-ford,fastsv --graphs kron22,grid2000
#pragma once

#include <cstdint>

#include "grb/types.hpp"

namespace grb::cuda::detail {

// ------------------------------------------------------------------ mxv: push or pull
// Push reads the rows of u's entries (m_f edges, a BFS frontier's edges), pull the rows of the
// allowed outputs (about allowed * average degree: m_u, the unexplored edges). Pull is cheaper
// per edge: it writes each output once (push sorts or scatters every edge), and with a terminal
// monoid it stops at the first hit. Automatic mxv pulls when m_f > m_u / advantage.

/// For monoids that stop early (any, lor). Beamer et al. (SC'12) take 14 for a BFS; 40 also
/// counts a large push's cost to its consumers (its assigns walk the output list with scattered
/// writes, and the next pull needs it made dense). kron24 BFS, 64 roots: mean 1.73 -> 1.48 ms
/// (p90 3.2 -> 1.9) from 14 to 40; kron22 within noise. Command: BFS.
inline constexpr double pull_advantage_early_exit = 40.0;
/// For monoids that read whole rows (plus, min): a push of every edge sorts its (output,
/// value) pairs and costs 4.9x a pull of them (kron22 SpMV over plus_times: 7.27 against 1.47
/// ms, docs/results/mxv). From 2 to 5, the min.plus engines on an H100, 4 roots: Bellman-Ford
/// kron20 18.6 -> 15.4 ms, kron22 68.4 -> 59.1; delta-stepping kron22 89.9 -> 80.4; grid1000
/// and FastSV unchanged (docs/results/mxv/pull-advantage-*.txt). Command: SpMV, with
/// --graphs kron20,kron22,grid1000 --roots 4 --runs 1.
inline constexpr double pull_advantage = 5.0;

// ------------------------------------------------------------------ mxv: pull kernels
/// Average row length at or above which a warp (not a thread) takes each output row; rows that
/// usually stop early (terminal monoids) need far longer rows to fill a warp. Command: SpMV, BFS.
inline constexpr double warp_per_row_length = 8.0;
inline constexpr double warp_per_row_length_early_exit = 256.0;

/// The grid of a stopping pull with a warp per row, at most (its blocks loop). Each block has
/// fixed costs (barriers, tallies, its finish on the shared counter): with a block per 256 of
/// kron22's 4 M outputs (16 384 blocks) they were a fifth of the pulls' time. A search's three
/// pulls: 2 048 blocks 218 us, 1 024: 219, 4 096: 227, 16 384: 267, 528: 337. Command: BFS.
inline constexpr unsigned pull_most_blocks = 2048;

/// Consecutive rows a thread of the stopping pull takes per step. A step ends at a block barrier
/// (the output list's slots), and lasts as long as its longest row walk: ncu found 37% of a
/// kron22 pull's cycles at that barrier. Three kron22 roots' 3rd / 4th pulls (us): 2 rows 100/58,
/// 88/50, 87/51; 1 row 104/62, 89/56, 90/58; 4 rows 118/65, 104/54, 105/56. Command: BFS.
inline constexpr unsigned pull_rows_per_thread = 2;

/// Rows longer than this are split over blocks (long_row_threads threads, 8 entries each) and
/// their partial sums combined per row, so one hub's row does not hold one group for its whole
/// length. Command: SpMV (kron22's hubs).
inline constexpr Offset split_row_length = 2048;
inline constexpr unsigned long_row_threads = 256;

/// Entries per lane per step of the whole-row pull (a group of lanes per row). kron22 / grid2000
/// SpMV: 2 entries 1.47 / 0.091 ms; 4 entries 1.55 / 0.094; 1 (no evict-first loads) 1.60 /
/// 0.094. Command: SpMV.
inline constexpr int group_batch = 2;

// ------------------------------------------------------------------ mxv: push kernels
/// Inputs of at most block_scan_inputs entries have their row lengths scanned by one block (one
/// launch, no temporary storage), not by the device-wide scan (three launches and an
/// allocation): the small frontiers of a high-diameter graph's BFS. Command: BFS on grid2000.
inline constexpr unsigned block_scan_threads = 256;
inline constexpr unsigned block_scan_items = 16;
inline constexpr Index block_scan_inputs = block_scan_threads * block_scan_items;

/// Inputs of at most this many entries get no scan launch: each block of the push scans them
/// with one warp's shuffles (a BFS's first levels; the scan's launch was a tenth of such a
/// level's host time). Command: BFS.
inline constexpr Index warp_scan_inputs = 32;

/// Rows of at most this many entries are expanded by a group of lanes per input entry, with no
/// scan of the row lengths (push_claim_any_by_row). Command: BFS on grid2000.
inline constexpr Offset lane_row_entries = 16;

/// A push of at most this many edges (by the longest-row bound) is expanded by one kernel whose
/// blocks each repeat the scan of the input's row lengths (push_claim_any_small): no scan launch.
/// Command: BFS.
inline constexpr Offset small_push_edges = Offset{1} << 16;

/// A push may queue behind the push that makes its input, reading that input's count on the
/// device (chained_push), when its rows are at most lane_row_entries long and its bound is at
/// most this many edges. Command: BFS on grid2000 (2 845 levels).
inline constexpr Offset chained_push_edges = Offset{1} << 20;

// ------------------------------------------------------------------ assign, mxm, formats
/// Positions per thread and step of the in-place assign's list path (block_threads apart): their
/// loads go out together, one chain of dependent loads for all of them. Command: BFS.
inline constexpr unsigned assign_items_per_thread = 4;

/// Automatic mxm pulls (a dot product per allowed output) when the products outnumber the mask's
/// entries this many times. Command: grb bench --algorithms tc --engines linear-algebra.
inline constexpr Offset pull_ratio = 4;

/// Sorting distinct indices below `size`: a list of at least size / bitmap_sort_ratio and
/// bitmap_sort_least entries goes through a bitmap of the positions (a pass over size / 32
/// words and a scan of their counts) rather than a radix sort, whose three passes over a list
/// longer than one tile are each a latency-bound launch (53 us for kron22's 180 K-entry BFS
/// level, at ncu's base clocks). Shorter lists take the radix sort's single-tile kernel.
/// Command: BFS.
inline constexpr Index bitmap_sort_ratio = 1024;
inline constexpr Index bitmap_sort_least = 8192;

}  // namespace grb::cuda::detail
