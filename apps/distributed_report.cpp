#include "distributed_report.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "table.hpp"

namespace grb::app {

void print_graph_line(const DistributedReport& report, bool json) {
  if (json) return;
  std::cout << "graph " << report.graph << ": n " << grouped(report.n) << ", m "
            << grouped(report.m) << " (undirected), built on " << report.ranks << " "
            << (report.backend == "cuda" ? "GPU" : "CPU") << " rank(s) in "
            << fixed(report.load_ms, 1) << " ms\n";
  if (report.algorithm != "cc") {
    std::cout << "source " << report.source_in_file;
    if (report.source_in_file != report.source)
      std::cout << " (vertex " << report.source << " after relabelling)";
    std::cout << "\n";
  }
}

void print_report(const DistributedReport& report, bool json) {
  const double median = report.times.empty() ? 0 : report.times[report.times.size() / 2];
  const double teps = median > 0 ? report.edges / (median / 1e3) : 0;
  std::uint64_t found = 0, sent = 0, pulled = 0;
  for (const dist::BfsLevel& level : report.levels)
    found += level.pairs_found, sent += level.pairs_sent, pulled += level.bottom_up;
  const std::size_t depth = report.levels.empty() ? 0 : report.levels.size() - 1;
  if (json) {
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    const auto counted = [&](std::uint64_t pairs) {
      return report.pairs_counted ? nlohmann::ordered_json(pairs) : nlohmann::ordered_json(nullptr);
    };
    for (const dist::BfsLevel& level : report.levels)
      levels.push_back({{"frontier", level.frontier},
                        {"pairs_found", counted(level.pairs_found)},
                        {"pairs_sent", counted(level.pairs_sent)},
                        {"bottom_up", level.bottom_up}});
    nlohmann::ordered_json record{{"graph", report.graph},   {"n", report.n},
                                  {"m", report.m},           {"algorithm", report.algorithm},
                                  {"engine", report.engine}, {"backend", report.backend},
                                  {"ranks", report.ranks}};
    if (report.algorithm != "cc") {
      record["source"] = report.source_in_file;
      if (report.source_in_file != report.source) record["relabelled_source"] = report.source;
    }
    record["runs"] = report.times.size();
    record["ms"] = median;
    record["load_ms"] = report.load_ms;
    record["edges"] = report.edges;
    record["teps"] = teps;
    record["validated"] = report.validated ? nlohmann::ordered_json(*report.validated)
                                           : nlohmann::ordered_json(nullptr);
    if (report.algorithm == "cc") {
      record["components"] = report.components;
    } else {
      record["reached"] = report.reached;
      if (report.algorithm == "sssp") record["farthest"] = report.farthest;
    }
    if (report.algorithm == "bfs") {
      record["depth"] = depth;
      record["pairs_found"] = counted(found);
      record["pairs_sent"] = counted(sent);
      record["per_level"] = levels;
    }
    std::cout << record.dump() << std::endl;
    return;
  }
  const std::string validated = report.validated ? (*report.validated ? "yes" : "FAILED") : "-";
  Table table({{"algorithm"},
               {"backend"},
               {"engine"},
               {"ranks", Table::Align::right},
               {"ms", Table::Align::right},
               {"GTEPS", Table::Align::right},
               {"validated"}});
  table.add({report.algorithm, report.backend, report.engine, std::to_string(report.ranks),
             fixed(median, 3), fixed(teps / 1e9, 4), validated});
  std::cout << "median of " << report.times.size() << " runs after one warm-up\n";
  table.print(std::cout);
  if (report.algorithm == "cc") {
    std::cout << "result: " << grouped(report.components) << " components\n";
    return;
  }
  if (report.algorithm == "sssp") {
    std::cout << "result: reached " << grouped(report.reached) << " of " << grouped(report.n)
              << " vertices, farthest at " << report.farthest << "\n";
    return;
  }
  std::cout << "result: reached " << grouped(report.reached) << " of " << grouped(report.n)
            << " vertices, depth " << depth << " (" << pulled << " level(s) bottom-up)\n";
  if (report.pairs_counted)
    std::cout << "exchange: " << grouped(found) << " (vertex, parent) pairs for other ranks, "
              << grouped(sent) << " sent after sorting and deduplicating ("
              << grouped(sent * 2 * sizeof(Index)) << " bytes)\n";
}

}  // namespace grb::app
