// Timing one algorithm on one backend the same way everywhere (DESIGN.md, performance method):
// prepare (copies to the backend) timed apart, one warm-up run, then the median of N timed runs;
// throughput as Graph500 TEPS, input edges of the traversed part of the graph per second.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "grb/io.hpp"
#include "runner.hpp"

namespace grb::app {

/// Wall-clock milliseconds that `work()` takes.
template <class Work>
double milliseconds(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// The median of `samples` (the mean of the middle two for an even count; 0 for none).
double median(std::vector<double> samples);

struct Measurement {
  Algorithm algorithm = Algorithm::bfs;
  Backend backend = Backend::cpu;
  std::string engine;
  Index source = 0;
  double prepare_ms = 0;
  std::vector<double> run_ms;  // the timed runs, after one untimed warm-up run
  double median_ms = 0;
  /// Input edges in the part of the graph the run covered (see input_edges_reached).
  double input_edges = 0;
  /// Present when the result was validated.
  std::optional<validate::Result> validation;
  /// The last run's values (see Runner::values).
  std::vector<double> values;
  /// The peaks while the runner prepared and ran: the process's resident memory (the graph
  /// included), and the device memory it took beyond what was in use before (0 on the cpu).
  std::size_t peak_host_bytes = 0;
  std::size_t peak_device_bytes = 0;

  double teps() const { return median_ms > 0 ? input_edges / (median_ms / 1000.0) : 0.0; }
};

/// Prepares `runner` on the graph, runs it once untimed and `runs` times timed, and validates
/// the last run when asked.
Measurement measure(Runner& runner, const io::Graph& graph, Index source, int runs,
                    bool validate);

/// measure() of a runner already prepared on `graph` (many sources, one preparation), with the
/// untimed warm-up run only when asked. With `validate_each`, every timed run is validated
/// (outside the clock), and `validation` holds the first failure, else the last success.
Measurement measure_prepared(Runner& runner, const io::Graph& graph, Index source, int runs,
                             bool warm_up, bool validate_each);

/// Edges whose source vertex the run reached (its value is finite): for BFS and SSSP the edges
/// of the traversed component, for CC all of them. An undirected graph stores each input edge
/// both ways, and counts it once.
double input_edges_reached(const io::Graph& graph, const std::vector<double>& values);

}  // namespace grb::app
