// grb engines: the BFS engines built into this grb (the registry's table).
#include <iostream>

#include "../table.hpp"
#include "bfs/engine.hpp"
#include "commands.hpp"

namespace grb::app {

void add_engines_command(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("engines", "list the BFS engines (for `grb bfs --engine NAME`)");
  command->callback([] {
    Table table({{"name"}, {"backend"}, {"available"}, {"description"}});
    for (const bfs::EngineInfo& engine : bfs::engines()) {
      const bool available =
          engine.backend == Backend::cpu || cuda_available();
      table.add({std::string(engine.name), std::string(to_string(engine.backend)),
                 available ? "yes" : "no (no GPU)", std::string(engine.description)});
    }
    table.print(std::cout);
  });
}

}  // namespace grb::app
