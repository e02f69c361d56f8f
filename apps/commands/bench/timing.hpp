// The timing loop of `grb bench` (DESIGN.md, performance method). Per graph: read or generated
// once; the same random roots of out-degree > 0 for every engine. Per engine: prepare() once
// (timed apart); the first engine of each algorithm then runs every root once, untimed, to give
// the roots their validated references (subject.hpp); one untimed warm-up run; then per root
// --runs timed runs, each a steady clock around the synchronous run(), each followed by its
// result and its check, outside the clock.
//
// Cold by default, as Graph500's loop is: a timed run follows the previous run's result and
// check, with the host's caches and the driver cold, which costs an engine in proportion to its
// host work per run. --warm runs each search once more, untimed, right before the timed one
// (searches back to back): the two measures apart show that cost (docs/bfs.md, "Measuring").
// BFS engines that time their levels run once more per root with per-level clocks on, for the
// per-level times and directions; those clocks never touch the timed runs. --seconds caps the
// time an engine spends on a graph's roots, the reference runs' and the timed runs' each (at
// least one root runs), for slow engines on large graphs.
#pragma once

#include <string>
#include <vector>

#include "../../graph_input.hpp"
#include "selection.hpp"

namespace grb::app::bench {

struct Options {
  std::vector<GraphSpec> graphs;
  std::vector<Entry> entries;  // select_entries' choice
  Index roots = 16;
  int runs = 3;
  bool warm = false;
  double seconds = 0;  // 0: no cap
  std::string json;    // the JSON lines' file; empty: none
  std::uint64_t seed = 1;
  std::string commit;
};

/// Runs every entry on every graph, prints the table and writes the JSON lines; then, if any
/// run failed validation (or its engine failed), throws ValidationFailed naming the first.
void run_benchmark(const Options& options);

}  // namespace grb::app::bench
