#include "measure.hpp"

#include <algorithm>
#include <cmath>

#include "device_memory.hpp"
#include "graph_matrix.hpp"
#include "host_memory.hpp"

namespace grb::app {

double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const std::size_t middle = samples.size() / 2;
  return samples.size() % 2 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
}

Measurement measure(Runner& runner, const io::Graph& graph, Index source, int runs,
                    bool validate) {
  reset_peak_host_bytes();
  reset_peak_device_bytes();
  const std::size_t device_before = used_device_bytes();
  const double prepare_ms = milliseconds([&] { runner.prepare(graph); });
  Measurement measurement = measure_prepared(runner, graph, source, runs, true, false);
  measurement.prepare_ms = prepare_ms;
  measurement.peak_host_bytes = peak_host_bytes();
  const std::size_t device_peak = peak_device_bytes();
  measurement.peak_device_bytes = device_peak > device_before ? device_peak - device_before : 0;
  if (validate) measurement.validation = runner.validate(graph, source);
  return measurement;
}

Measurement measure_prepared(Runner& runner, const io::Graph& graph, Index source, int runs,
                             bool warm_up, bool validate_each) {
  Measurement measurement;
  measurement.source = source;
  // warm-up: first-touch allocations, lazily built transposes, clocks
  if (warm_up) runner.run(source);
  for (int r = 0; r < runs; ++r) {
    measurement.run_ms.push_back(milliseconds([&] { runner.run(source); }));
    if (validate_each && (!measurement.validation || measurement.validation->ok))
      measurement.validation = runner.validate(graph, source);
  }
  measurement.median_ms = median(measurement.run_ms);
  measurement.values = runner.values();
  measurement.input_edges = input_edges_reached(graph, measurement.values);
  return measurement;
}

double input_edges_reached(const io::Graph& graph, const std::vector<double>& values) {
  const Offset edges = with_matrix(graph, [&](const auto& matrix) {
    const auto& csr = matrix.csr();
    Offset reached = 0;
    for (Index v = 0; v < csr.nrows; ++v)
      if (std::isfinite(values[v])) reached += csr.row_offsets[v + 1] - csr.row_offsets[v];
    return reached;
  });
  return graph.directed ? static_cast<double>(edges) : static_cast<double>(edges) / 2;
}

}  // namespace grb::app
