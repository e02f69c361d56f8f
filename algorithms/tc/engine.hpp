// The triangle-counting engine interface: the linear-algebra count (masked mxm over plus.pair)
// and the hand-written GPU kernel sit behind it, registered in one table (registry.cpp) that
// `grb engines`, `grb tc --engine`, the tests and the benchmark all use.
//
// Triangles are those of the undirected graph A + A' without its self loops: a directed graph
// is symmetrized in prepare(), once (LAGraph's known counts are defined the same way), so that
// run() times the count alone. Counts are 64-bit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::tc {

/// A finished count.
struct Result {
  std::uint64_t triangles = 0;
  /// Edges whose two neighbour lists were intersected: the lower triangle's entries (linalg),
  /// the degree-ordered DAG's edges (merge).
  Offset edges_intersected = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;
  /// One-time setup on a graph: symmetrization, the oriented (lower / degree-ordered) graph,
  /// copies to the device. Not timed as part of a run. `graph` is square; values are ignored.
  virtual void prepare(const Matrix<bool>& graph) = 0;
  /// One count; returns when it is known.
  virtual void run() = 0;
  virtual Result result() const = 0;
  /// Device bytes this engine holds after prepare() (0 for cpu engines).
  virtual std::size_t device_bytes() const { return 0; }
};

struct EngineInfo {
  std::string_view name;         // as given to `grb tc --engine NAME`
  std::string_view description;  // one line
  Backend backend;               // where it runs (linalg exists for both)
  std::unique_ptr<Engine> (*make)();
};

/// Every engine built into this grb (cuda engines only when built with CUDA), in table order.
const std::vector<EngineInfo>& engines();
/// The engine called `name` on `backend`; throws InvalidValue naming the known engines.
const EngineInfo& find_engine(std::string_view name, Backend backend);

}  // namespace grb::tc
