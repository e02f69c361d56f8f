// grb: graph algorithms as sparse linear algebra, from the command line.
//
// Exit status: 0 success; 1 a runtime error (one line on stderr, "grb: error: what and where");
// 2 a usage error (CLI11's message).
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "commands/commands.hpp"
#include "distributed.hpp"
#include "grb/error.hpp"
#include "grb/kernel_loading.hpp"

namespace {

/// The error as one safe line: newlines inside a message become "; ", and other control bytes
/// (a file name or path may carry escape sequences) are shown as \xNN.
std::string one_line(const std::string& message) { return grb::printable(message, "; "); }

}  // namespace

int main(int argc, char** argv) {
  grb::load_kernels_eagerly();  // before anything touches the GPU
  CLI::App app("grb: BFS, SSSP and connected components as sparse linear algebra, on the cpu "
               "and cuda backends",
               "grb");
  app.require_subcommand(1);
  app.footer(
      "Vertex ids are 0-based for generated graphs and for Matrix Market, DIMACS, METIS and TNTP "
      "files (whose ids count from 1), the file's own ids for LDBC graphs and edge lists.\nExit status: 0 success, 1 runtime error (one line on stderr), "
      "2 usage error.");
  app.set_version_flag("--version", "grb " GRB_VERSION);
  grb::app::add_algorithm_commands(app);
  grb::app::add_info_command(app);
  grb::app::add_convert_command(app);
  grb::app::add_engines_command(app);
  grb::app::add_demo_command(app);
  grb::app::add_tc_command(app);
  grb::app::add_graph500_command(app);
  grb::app::add_bench_command(app);

  try {
    // Under mpirun every rank runs this program: the distributed commands share the work, and
    // any other would run whole on every rank.
    if (grb::app::launched_by_mpi() && argc > 1 && argv[1][0] != '-') {
      const std::string command = argv[1];
      if (command != "bfs" && command != "sssp" && command != "cc" && command != "graph500")
        throw grb::InvalidValue("grb " + command +
                                " does not run distributed: under mpirun, run bfs, sssp, cc or "
                                "graph500");
    }
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version are "errors" with exit code 0; every other one is a usage error.
    return app.exit(error) == 0 ? 0 : 2;
  } catch (const std::exception& error) {
    std::cout.flush();
    std::cerr << "grb: error: " << one_line(error.what()) << std::endl;
    return 1;
  }
  return 0;
}
