#include "report.hpp"

#include "graph_input.hpp"
#include "result_summary.hpp"

namespace grb::app {

Table measurement_table() {
  using Align = Table::Align;
  return Table({{"algorithm"}, {"backend"}, {"engine"}, {"prepare ms", Align::right},
                {"ms", Align::right}, {"GTEPS", Align::right}, {"validated"},
                {"host MiB", Align::right}, {"device MiB", Align::right}});
}

void add_row(Table& table, const Measurement& m) {
  std::string validated = "-";
  if (m.validation) validated = m.validation->ok ? "yes" : "FAILED";
  table.add({std::string(to_string(m.algorithm)), std::string(to_string(m.backend)), m.engine,
             fixed(m.prepare_ms, 2), fixed(m.median_ms, 3), fixed(m.teps() / 1e9, 4), validated,
             mebibytes(m.peak_host_bytes), mebibytes(m.peak_device_bytes)});
}

nlohmann::ordered_json to_json(const LoadedGraph& loaded, const Measurement& m) {
  const io::Graph& graph = loaded.graph;
  nlohmann::ordered_json record = {
      {"graph", graph.name},
      {"n", vertices(graph)},
      {"m", stored_entries(graph)},
      {"directed", graph.directed},
      {"algorithm", to_string(m.algorithm)},
      {"engine", m.engine},
      {"backend", to_string(m.backend)},
      {"source", nullptr},
      {"runs", m.run_ms.size()},
      {"ms", m.median_ms},
      {"times_ms", m.run_ms},
      {"load_ms", loaded.load_ms},
      {"load_peak_host_bytes", loaded.peak_host_bytes},
      {"prepare_ms", m.prepare_ms},
      {"edges", m.input_edges},
      {"teps", m.teps()},
      {"validated", nullptr},
      {"peak_host_bytes", m.peak_host_bytes},
      {"peak_device_bytes", m.peak_device_bytes},
  };
  if (m.algorithm != Algorithm::cc) record["source"] = external_vertex(graph, m.source);
  if (m.validation) record["validated"] = m.validation->ok;
  add_fields(record, summarize(m.algorithm, m.values));
  return record;
}

std::string failure(const Measurement& m) {
  return std::string(to_string(m.algorithm)) + " on " + std::string(to_string(m.backend)) +
         " (engine " + m.engine + ") failed validation: " +
         (m.validation ? m.validation->message : std::string("not validated"));
}

}  // namespace grb::app
