// A command's graph, kept with its weights (io::Graph::matrix) or as its pattern
// (io::Graph::pattern_only): what the runners and reports read of it, either way. Plain C++,
// for the runners that nvcc compiles too.
#pragma once

#include "grb/io.hpp"
#include "grb/types.hpp"

namespace grb::app {

/// The graph's vertices and stored entries, however it is kept.
inline Index vertices(const io::Graph& graph) {
  return graph.pattern_only ? graph.pattern.nrows() : graph.matrix.nrows();
}
inline Offset stored_entries(const io::Graph& graph) {
  return graph.pattern_only ? graph.pattern.nvals() : graph.matrix.nvals();
}

/// f(matrix) with the graph's matrix: the pattern of a pattern-only graph, else the weighted one.
template <class F>
decltype(auto) with_matrix(const io::Graph& graph, F&& f) {
  if (graph.pattern_only) return f(graph.pattern);
  return f(graph.matrix);
}

/// engine.prepare() with the graph's pattern: the one kept, or one made from the weighted matrix
/// (BFS, CC and TC engines read no weights).
template <class Engine>
void prepare_on_pattern(Engine& engine, const io::Graph& graph) {
  if (graph.pattern_only) engine.prepare(graph.pattern);
  else engine.prepare(pattern(graph.matrix));
}

}  // namespace grb::app
