// grb engines: the BFS engines built into this grb (the registry's table), then the
// connected-components and triangle-counting engines under their own headings.
#include <iostream>

#include "../table.hpp"
#include "bfs/engine.hpp"
#include "cc/engine.hpp"
#include "commands.hpp"
#include "sssp/engine.hpp"
#include "tc/engine.hpp"

namespace grb::app {
namespace {

/// A heading, then one row per engine of a registry table (each has name, backend, description).
template <class Info>
void print_engine_table(std::ostream& out, const std::string& heading,
                        const std::vector<Info>& engines) {
  out << "\n" << heading << "\n";
  Table table({{"name"}, {"backend"}, {"available"}, {"description"}});
  for (const Info& engine : engines) {
    const bool available = engine.backend == Backend::cpu || cuda_available();
    table.add({std::string(engine.name), std::string(to_string(engine.backend)),
               available ? "yes" : "no (no GPU)", std::string(engine.description)});
  }
  table.print(out);
}

}  // namespace

void add_engines_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "engines", "list the engines of each algorithm (for `grb ALGORITHM --engine NAME`)");
  command->callback([] {
    Table table({{"name"}, {"backend"}, {"available"}, {"description"}});
    for (const bfs::EngineInfo& engine : bfs::engines()) {
      const bool available =
          engine.backend == Backend::cpu || cuda_available();
      table.add({std::string(engine.name), std::string(to_string(engine.backend)),
                 available ? "yes" : "no (no GPU)", std::string(engine.description)});
    }
    table.print(std::cout);
    print_engine_table(std::cout, "single-source shortest paths (grb sssp --engine NAME)",
                       sssp::engines());
    print_engine_table(std::cout, "connected components (grb cc --engine NAME)", cc::engines());
    print_engine_table(std::cout, "triangle counting (grb tc --engine NAME)", tc::engines());
  });
}

}  // namespace grb::app
