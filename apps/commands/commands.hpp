// The subcommands of `grb`. Each adds itself to the application and does its work from its
// CLI11 callback; errors are exceptions (grb::Error), turned into exit codes by main().
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "grb/types.hpp"

namespace grb::app {

/// bfs, sssp and cc.
void add_algorithm_commands(CLI::App& app);
void add_info_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_engines_command(CLI::App& app);
void add_demo_command(CLI::App& app);
/// Triangle counting (tc.cpp).
void add_tc_command(CLI::App& app);
/// The Graph500 benchmark procedure (graph500.cpp).
void add_graph500_command(CLI::App& app);
void add_bench_command(CLI::App& app);

/// The backends named by --backend: "cpu", "cuda", or "all" (every available one, cpu first).
/// Asking for cuda where it is unavailable is a grb::BackendUnavailable saying why.
std::vector<Backend> select_backends(const std::string& name);

}  // namespace grb::app
