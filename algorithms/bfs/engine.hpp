// The BFS engine interface: the linear-algebra BFS and every hand-written GPU kernel sit behind
// it, registered in one table (registry.cpp) that `grb engines`, `grb bfs --engine`, the tests
// and the benchmark all use. Measurement belongs to the caller: run() is synchronous, and the
// caller times it; engines only count (frontier sizes, edges inspected, directions).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::bfs {

enum class Direction { push, pull };
std::string_view to_string(Direction direction);

/// What one level of a search did.
struct LevelStats {
  Index frontier = 0;          // vertices in the frontier expanded at this level
  Offset edges_inspected = 0;  // edges the level read (0 where the engine does not count)
  Direction direction = Direction::push;
  double milliseconds = 0;     // only with Options::level_timing
};

struct Options {
  bool parents = true;        // compute the parent tree as well as levels
  bool level_timing = false;  // time each level (events per level: slightly perturbs timing)
};

/// A finished search, on the host. level[v] = -1 and parent[v] = no_index where unreached;
/// parent[source] == source.
struct Result {
  std::vector<std::int32_t> level;
  std::vector<Index> parent;  // empty when Options::parents was false
  std::vector<LevelStats> levels;
};

class Engine {
 public:
  virtual ~Engine() = default;
  /// One-time setup on a graph: copies to the device, transposes, degree arrays. Not timed as
  /// part of a search. `graph` is square; A(i, j) is an edge i -> j; values are ignored.
  virtual void prepare(const Matrix<bool>& graph) = 0;
  /// One search from `source` (throws IndexOutOfBounds for a bad source). Returns when done.
  virtual void run(Index source, const Options& options) = 0;
  /// The last search's levels, parents and per-level stats (copied to the host).
  virtual Result result() const = 0;
  /// Device bytes this engine holds after prepare() (0 for cpu engines).
  virtual std::size_t device_bytes() const { return 0; }
  /// For an engine that delegates (auto): the name of the engine prepare() picked; else empty.
  virtual std::string_view chosen() const { return {}; }
  /// Whether result().levels holds each level's edges inspected, direction and (with
  /// Options::level_timing) time; false: the frontier sizes alone.
  virtual bool counts_levels() const { return true; }
};

struct EngineInfo {
  std::string_view name;         // as given to `grb bfs --engine NAME`
  std::string_view description;  // one line
  Backend backend;               // where it runs (the linear-algebra engine exists for both)
  std::unique_ptr<Engine> (*make)();
};

/// Every engine built into this grb (cuda engines only when built with CUDA), in table order.
const std::vector<EngineInfo>& engines();
/// The engine called `name` on `backend`; throws InvalidValue naming the known engines.
const EngineInfo& find_engine(std::string_view name, Backend backend);

}  // namespace grb::bfs
