// The connected-components engine interface: the linear-algebra FastSV and the hand-written GPU
// kernels sit behind it, registered in one table (registry.cpp) that `grb engines`,
// `grb cc --engine`, the tests and the benchmark all use, as the BFS engines are.
//
// Components are those of the undirected graph A + A' (weakly connected components for a
// directed A): every engine symmetrizes once, in prepare(), so that run() times the algorithm
// alone. Labels are canonical: each vertex gets the smallest vertex id of its component.
// Measurement belongs to the caller: run() is synchronous, and the caller times it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::cc {

/// What one run did.
struct Stats {
  /// Rounds of the engine's main loop: FastSV rounds, label-propagation sweeps, hook-jump
  /// linking passes (sampled neighbour rounds plus the final pass).
  std::uint32_t iterations = 0;
};

/// A finished run, on the host: label[v] is the smallest vertex of v's component.
struct Result {
  std::vector<Index> label;
  Stats stats;
};

class Engine {
 public:
  virtual ~Engine() = default;
  /// One-time setup on a graph: symmetrization (A + A'), copies to the device, buffers. Not
  /// timed as part of a run. `graph` is square; A(i, j) is an edge i -> j; values are ignored.
  virtual void prepare(const Matrix<bool>& graph) = 0;
  /// One run; returns when the labels are complete (on the engine's backend).
  virtual void run() = 0;
  /// The last run's labels and stats (copied to the host).
  virtual Result result() const = 0;
  /// Device bytes this engine holds after prepare() (0 for cpu engines).
  virtual std::size_t device_bytes() const { return 0; }
};

struct EngineInfo {
  std::string_view name;         // as given to `grb cc --engine NAME`
  std::string_view description;  // one line
  Backend backend;               // where it runs (fastsv exists for both)
  std::unique_ptr<Engine> (*make)();
};

/// Every engine built into this grb (cuda engines only when built with CUDA), in table order.
const std::vector<EngineInfo>& engines();
/// The engine called `name` on `backend`; throws InvalidValue naming the known engines.
const EngineInfo& find_engine(std::string_view name, Backend backend);

}  // namespace grb::cc
