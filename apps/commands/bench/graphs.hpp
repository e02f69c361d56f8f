// The graphs of `grb bench`: by name (kronSCALE, gridSIDE, berlin) or as graph files. Every item
// of a list is checked when the command line is parsed, so that a misspelt graph is a usage
// error naming it, not a benchmark that silently leaves it out or reads it as a file name.
#pragma once

#include <string>

#include "../../graph_input.hpp"

namespace grb::app::bench {

/// The largest Kronecker scale and grid side the generators take (as `grb bfs --kron/--grid`).
inline constexpr int max_kron_scale = 31;
inline constexpr Index max_grid_side = 65535;

/// What `item` names, with the options of `shape` (seed, edge factor, drop, format...):
/// "kronSCALE" or "kron-SCALE" (Graph500 Kronecker, 2^SCALE vertices), "gridSIDE" or
/// "grid-SIDE" (road-like grid), "berlin" (tests/data/road/berlin-center.mtx, see
/// berlin_path), or a graph file: an item with a '/' or a '.', or one that exists. Anything
/// else, or a scale or side out of range, is InvalidValue naming the item and the choices.
GraphSpec graph_spec(const std::string& item, const GraphSpec& shape);

/// What graph_spec would refuse in `item`, in words; empty when it names a graph.
std::string check_graph_item(const std::string& item);

/// Berlin's road network: $GRB_DATA_DIR/road/berlin-center.mtx where GRB_DATA_DIR is set, else
/// the source tree's tests/data.
std::string berlin_path();

}  // namespace grb::app::bench
