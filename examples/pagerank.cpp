// PageRank on a graph file, or on a small built-in graph, with grb operations (pagerank.hpp);
// prints the ten highest-ranked vertices.
//
//   pagerank [--backend cpu|cuda] [--damping D] [--tolerance T] [--iterations N] [FILE]
//
// FILE: anything grb::io::read_graph reads (Matrix Market, edge list, LDBC, .grb). Vertex ids are
// printed as the file names them (0-based for Matrix Market). Exit status: 0, 1 on a runtime
// error (one line on stderr), 2 on a usage error.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grb/grb.hpp"
#include "pagerank.hpp"

namespace {

struct Arguments {
  grb::Backend backend = grb::Backend::cpu;
  grb::examples::PageRankOptions options;
  std::optional<std::string> file;
};

[[noreturn]] void usage(const std::string& problem) {
  if (!problem.empty()) std::fprintf(stderr, "pagerank: %s\n", problem.c_str());
  std::fprintf(stderr,
               "usage: pagerank [--backend cpu|cuda] [--damping D] [--tolerance T] "
               "[--iterations N] [FILE]\n");
  std::exit(problem.empty() ? 0 : 2);
}

double number(const char* text, const std::string& option) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0') usage(option + " needs a number, not '" + text + "'");
  return value;
}

Arguments parse(int argc, char** argv) {
  Arguments arguments;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const bool has_value = i + 1 < argc;
    auto value = [&]() -> const char* {
      if (!has_value) usage(std::string(argument) + " needs a value");
      return argv[++i];
    };
    if (argument == "--help" || argument == "-h") usage("");
    else if (argument == "--backend") {
      const std::string_view name = value();
      if (name != "cpu" && name != "cuda") usage("--backend is cpu or cuda");
      arguments.backend = grb::parse_backend(name);
    } else if (argument == "--damping") arguments.options.damping = number(value(), "--damping");
    else if (argument == "--tolerance") arguments.options.tolerance = number(value(), "--tolerance");
    else if (argument == "--iterations")
      arguments.options.max_iterations = static_cast<int>(number(value(), "--iterations"));
    else if (argument.starts_with("-")) usage("unknown option " + std::string(argument));
    else if (arguments.file) usage("one graph file only");
    else arguments.file = std::string(argument);
  }
  return arguments;
}

/// Eight pages: 0 -> 1 -> 2 -> 3 -> 0 with shortcuts 1 -> 0 and 2 -> 0; 4 and 5 link to each
/// other and to 0; 6 links to 4 and nothing links to 6; 3 links to 7, which links nowhere (a
/// dangling vertex).
grb::io::Graph built_in_graph() {
  const std::vector<grb::Index> from{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6};
  const std::vector<grb::Index> to{1, 2, 0, 3, 0, 0, 7, 5, 0, 4, 0, 4};
  grb::io::Graph graph;
  graph.matrix = grb::Matrix<double>(8, 8, grb::Backend::cpu);
  graph.matrix.build(from, to, std::vector<double>(from.size(), 1.0));
  graph.name = "built-in";
  return graph;
}

}  // namespace

int main(int argc, char** argv) {
  const Arguments arguments = parse(argc, argv);
  try {
    if (arguments.backend == grb::Backend::cuda && !grb::cuda_available())
      throw grb::BackendUnavailable(GRB_WITH_CUDA ? "no usable GPU on this machine"
                                                  : "grb was built without CUDA");
    const grb::io::Graph graph =
        arguments.file ? grb::io::read_graph(*arguments.file) : built_in_graph();
    // Readers return host matrices; the computation runs where the matrix lives.
    const grb::Matrix<double> matrix = graph.matrix.to(arguments.backend);
    const grb::examples::PageRankResult result =
        grb::examples::pagerank(matrix, arguments.options);

    std::vector<double> rank;
    result.rank.extract_dense(rank, 0.0);
    std::vector<grb::Index> order(rank.size());
    std::iota(order.begin(), order.end(), grb::Index{0});
    const std::size_t shown = std::min<std::size_t>(10, order.size());
    std::partial_sort(order.begin(), order.begin() + shown, order.end(),
                      [&](grb::Index x, grb::Index y) {
                        return rank[x] > rank[y] || (rank[x] == rank[y] && x < y);
                      });
    std::printf("%s: %u vertices, %llu edges, backend %s, %d iterations, L1 change %.3g\n",
                graph.name.c_str(), matrix.nrows(),
                static_cast<unsigned long long>(matrix.nvals()),
                std::string(grb::to_string(arguments.backend)).c_str(), result.iterations,
                result.change);
    std::printf("%-12s %s\n", "vertex", "rank");
    for (std::size_t k = 0; k < shown; ++k)
      std::printf("%-12llu %.6f\n",
                  static_cast<unsigned long long>(grb::io::to_external(graph, order[k])),
                  rank[order[k]]);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "pagerank: error: %s\n", error.what());
    return 1;
  }
}
