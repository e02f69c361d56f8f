// Which runs `grb bench` makes: algorithms x engines x backends, from the engine registries of
// BFS, SSSP, CC and TC (the tables `grb engines` lists), and SSSP's delta sweep. A name that no
// engine or algorithm has is refused when the command line is parsed; a benchmark never leaves
// out silently what it was asked to measure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "grb/types.hpp"

namespace grb::app::bench {

enum class Algorithm { bfs, sssp, cc, tc };
std::string_view to_string(Algorithm algorithm);

/// One run of the benchmark on each graph: an engine on a backend; for SSSP, delta_factor > 0
/// runs it with delta = delta_factor x the engine's default delta (EngineInfo::default_delta).
struct Entry {
  Algorithm algorithm = Algorithm::bfs;
  std::string engine;  // as `grb engines` names it
  Backend backend = Backend::cpu;
  double delta_factor = 0;
};

struct Selection {
  std::vector<std::string> algorithms;
  std::vector<std::string> engines;  // names, or "all"
  std::string backend;               // cpu, cuda or all
  std::vector<double> delta_factors;
};

/// The entries asked for, algorithm by algorithm in the order given, each algorithm's engines in
/// table order; with delta factors, each SSSP engine's default run is followed by one run per
/// factor. Every named engine must exist for a selected algorithm on a selected backend, and
/// every algorithm must get an entry (InvalidValue naming what is missing and what there is).
std::vector<Entry> select_entries(const Selection& selection);

/// What is wrong with an item of --algorithms (bfs, sssp, cc, tc); empty if nothing.
std::string check_algorithm_name(const std::string& name);
/// What is wrong with an item of --engines ("all", or an engine built into this grb); empty if
/// nothing.
std::string check_engine_name(const std::string& name);

}  // namespace grb::app::bench
