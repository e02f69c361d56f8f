// grb graph500: the Graph500 benchmark procedure (specification 3.0) on one backend.
//
//   1. generation: the Kronecker edge list of 2^scale vertices and edge_factor * 2^scale edges
//      (on the GPU for --backend cuda: the same edges as on the cpu, to the bit);
//   2. kernel 1, timed on its own: edge list -> CSR (undirected: symmetrized, self loops and
//      parallel edges dropped, a parallel edge keeping its smallest weight), on the device;
//   3. search keys: --roots vertices drawn at random, without repetition, among those of degree
//      >= 1 (all of them when fewer exist);
//   4. kernel 2: a BFS from every key through the BFS engine table, each validated;
//   5. kernel 3: SSSP from every key (weights uniform in [0, 1)) through the SSSP engine table,
//      each validated;
//      (validation: on the device for --backend cuda, validate/on_device.hpp, which decides the
//      same verdicts as the host validators in milliseconds instead of tens of seconds per
//      search at scale 26; --validation host runs the host validators instead);
//   6. the specification's output block, with TEPS = input edges (edge-list tuples, parallel
//      edges and self loops included) in the searched component / search time.
//
// A failed validation ends the command with grb::ValidationFailed (exit 1): never a number.
//
// Device memory (cuda backend; bytes per input edge, m = edge_factor * 2^scale input edges,
// s ~ 2m stored entries after symmetrizing, e <= s after dropping self loops and duplicates):
//   generation        16 m                 (source, target: 4 + 4; weight: 8)
//   kernel 1 (peak)   8 m + 24 (2m) = 56 m (weights kept; endpoints freed once the sort keys
//                                          hold them; keys 8 + 8, edge numbers 4 + 4 per slot)
//   kernel 1 (after)  12 e + 8 n           (the weighted CSR)
//   BFS               engine copies of the pattern (direction-optimized: out- and in-edges,
//                     4 e + 8 n each) plus the matrix's own pattern and cached transpose, and the
//                     transposes' sort temporaries (20 e) while the engine prepares
//   SSSP              the engine's copy of the weighted CSR (12 e + 8 n) and its work arrays
// Validating on the device keeps the weighted CSR (12 e + 8 n) on the device throughout, plus
// the answer being checked (12 n BFS, 20 n SSSP). Between phases the previous phase's arrays are
// freed; docs/graph500.md has the numbers for
// scales 26 and 27.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../device_memory.hpp"
#include "../distributed.hpp"
#include "../distributed_graph500.hpp"
#include "../graph500_statistics.hpp"
#include "bfs/engine.hpp"
#include "commands.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"
#include "grb/matrix.hpp"
#include "sssp/engine.hpp"
#include "validate/on_device.hpp"
#include "validate/validate.hpp"

namespace grb::app {
namespace {

struct Graph500Options {
  int scale = 0;
  int edge_factor = 16;
  int roots = 64;
  std::uint64_t seed = 1;
  std::string backend;  // default: cuda where available, else cpu
  std::string bfs_engine;
  std::string sssp_engine = "auto";
  std::string validation;  // device or host; default: device on cuda, host on cpu
  std::string json;
  int gpus = 0;  // distributed: GPU ranks in this process
};

using Clock = std::chrono::steady_clock;

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(1ull << 30));
  return text;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void progress(const std::string& line) { std::cerr << "graph500: " << line << std::endl; }

/// The search keys: `count` distinct vertices of degree >= 1, drawn from a generator seeded by
/// the run's seed (so a run is repeatable), or all such vertices when there are fewer.
std::vector<Index> search_keys(const detail::Array<Offset>& row_offsets, int count,
                               std::uint64_t seed) {
  std::vector<Index> candidates;
  for (std::size_t v = 0; v + 1 < row_offsets.size(); ++v)
    if (row_offsets[v + 1] > row_offsets[v]) candidates.push_back(static_cast<Index>(v));
  std::mt19937_64 random(seed ^ 0x6772617068353030ULL);  // "graph500": keys apart from edges
  const std::size_t wanted = std::min<std::size_t>(std::size_t(count), candidates.size());
  // A partial Fisher-Yates shuffle: the first `wanted` candidates are a uniform sample.
  for (std::size_t k = 0; k < wanted; ++k) {
    std::uniform_int_distribution<std::size_t> pick(k, candidates.size() - 1);
    std::swap(candidates[k], candidates[pick(random)]);
  }
  candidates.resize(wanted);
  return candidates;
}

/// tuples[v] = the input edges (u, w) with u == v. An edge's two ends are in one component, so
/// the input edges in a search's component are the sum of tuples[v] over the reached v.
std::vector<std::uint64_t> tuples_per_vertex(Index nvertices, const std::vector<Index>& source) {
  std::vector<std::uint64_t> tuples(nvertices, 0);
  for (Index u : source) ++tuples[u];
  return tuples;
}

template <class Reached>
double input_edges_in_component(const std::vector<std::uint64_t>& tuples, Reached reached) {
  double total = 0;
  for (std::size_t v = 0; v < tuples.size(); ++v)
    if (reached(v)) total += tuples[v];
  return total;
}

/// "1.23 G": a rate in billions, for the progress lines.
std::string rate(double per_second) {
  std::ostringstream text;
  text << std::setprecision(3) << per_second / 1e9 << " G";
  return text.str();
}

struct Report {
  Report(const Graph500Options& options, Backend backend) : options(options), backend(backend) {}
  const Graph500Options& options;
  Backend backend;
  std::string bfs_engine, sssp_engine, device, validation;
  std::uint64_t input_edges = 0;
  Offset stored_entries = 0;
  double generation_seconds = 0, construction_seconds = 0;
  std::size_t peak_generation = 0, peak_construction = 0, peak_bfs = 0, peak_sssp = 0;
  Searches bfs, sssp;
};

/// Host bytes that answers waiting for validation may take: half of the free memory.
std::size_t answer_budget() {
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) / 2 : std::size_t{1} << 30;
}

/// Kernel 2 or 3: a search from every key, timed, each answer validated and recorded. The
/// searches run back to back and are validated afterwards, in batches whose answers fit
/// answer_budget(): validating on the device between two timed searches slowed the next one by
/// up to 5x (scale 22, 16 keys: harmonic mean 61 instead of 163 GTEPS; a second, untimed run of
/// the same search was fast again: the validator's memory traffic evicts what the engine had
/// warm), which would measure the validator, not the engine.
/// `search(key)` runs one search; `answer()` fetches its answer (after the clock stops);
/// `check(key, answer)` validates; `reached(answer, v)` tells the vertices in the component.
template <class Search, class Answer, class Check, class Reached>
void run_searches(const std::string& kernel, const std::string& engine,
                  const std::vector<Index>& keys, std::size_t answer_bytes,
                  const std::vector<std::uint64_t>& tuples, Search search, Answer answer,
                  Check check, Reached reached, Searches& record) {
  const std::size_t batch =
      std::max<std::size_t>(1, answer_budget() / std::max<std::size_t>(answer_bytes, 1));
  for (std::size_t first = 0; first < keys.size(); first += batch) {
    const std::size_t last = std::min(keys.size(), first + batch);
    std::vector<decltype(answer())> answers;
    std::vector<double> times;
    for (std::size_t k = first; k < last; ++k) {
      const Clock::time_point start = Clock::now();
      search(keys[k]);
      times.push_back(seconds_since(start));
      answers.push_back(answer());
    }
    for (std::size_t k = first; k < last; ++k) {
      const auto& result = answers[k - first];
      const double time = times[k - first];
      const Clock::time_point validation_start = Clock::now();
      const validate::Result verdict = check(keys[k], result);
      if (!verdict)
        throw ValidationFailed("graph500: " + kernel + " " + std::to_string(k) + " (engine " +
                               engine + ", root " + std::to_string(keys[k]) +
                               ") failed validation: " + verdict.message);
      const double nedge = input_edges_in_component(
          tuples, [&](std::size_t v) { return reached(result, v); });
      record.add(time, nedge, seconds_since(validation_start));
      progress(kernel + " " + std::to_string(k + 1) + "/" + std::to_string(keys.size()) +
               ": root " + std::to_string(keys[k]) + ", " + std::to_string(time * 1e3) + " ms, " +
               rate(nedge / time) + "TEPS, validated");
    }
  }
}

/// The block's first part, printed as soon as kernel 2 is done: should kernel 3 fail (out of
/// device memory, say), the validated BFS results are still on record above the error.
void print_bfs_report(const Report& r) {
  std::cout.precision(9);
  std::cout << "SCALE: " << r.options.scale << "\n"
            << "edgefactor: " << r.options.edge_factor << "\n"
            << "NBFS: " << r.bfs.seconds.size() << "\n"
            << "graph_generation: " << r.generation_seconds << "\n"
            << "num_mpi_processes: 1\n"
            << "construction_time: " << r.construction_seconds << "\n";
  print_block(std::cout, "bfs  ", r.bfs);
  std::cout << std::flush;
}

void print_sssp_report(const Report& r) {
  std::cout << "NSSSP: " << r.sssp.seconds.size() << "\n";
  print_block(std::cout, "sssp ", r.sssp);
  std::cout << "input_edges: " << r.input_edges << "\n"
            << "stored_entries: " << r.stored_entries << "\n"
            << "construction_edges_per_second: "
            << double(r.input_edges) / r.construction_seconds << "\n"
            << "backend: " << to_string(r.backend) << "\n"
            << "bfs_engine: " << r.bfs_engine << "\n"
            << "sssp_engine: " << r.sssp_engine << "\n"
            << "device: " << r.device << "\n"
            << "commit: " << GRB_COMMIT << "\n"
            << "peak_device_memory: "
            << std::max({r.peak_generation, r.peak_construction, r.peak_bfs, r.peak_sssp})
            << "\n"
            << "peak_device_memory_generation: " << r.peak_generation << "\n"
            << "peak_device_memory_construction: " << r.peak_construction << "\n"
            << "peak_device_memory_bfs: " << r.peak_bfs << "\n"
            << "peak_device_memory_sssp: " << r.peak_sssp << "\n"
            << "validated_on: " << r.validation << "\n"
            << "validation: passed\n";
}

void write_json(const std::string& path, const Report& r) {
  const nlohmann::json record{
      {"SCALE", r.options.scale},
      {"edgefactor", r.options.edge_factor},
      {"seed", r.options.seed},
      {"NBFS", r.bfs.seconds.size()},
      {"graph_generation", r.generation_seconds},
      {"num_mpi_processes", 1},
      {"construction_time", r.construction_seconds},
      {"input_edges", r.input_edges},
      {"stored_entries", r.stored_entries},
      {"bfs", to_json(r.bfs)},
      {"sssp", to_json(r.sssp)},
      {"backend", std::string(to_string(r.backend))},
      {"bfs_engine", r.bfs_engine},
      {"sssp_engine", r.sssp_engine},
      {"device", r.device},
      {"commit", GRB_COMMIT},
      {"peak_device_memory",
       {{"generation", r.peak_generation},
        {"construction", r.peak_construction},
        {"bfs", r.peak_bfs},
        {"sssp", r.peak_sssp}}},
      {"validated_on", r.validation},
      {"validated", true}};
  std::ofstream out(path, std::ios::binary);
  if (!out) throw IoError(path + ": cannot open for writing");
  out << record.dump() << "\n";
  out.close();
  if (!out) throw IoError(path + ": write failed");
}

void run_graph500(const Graph500Options& options) {
  if (launched_by_mpi() || options.gpus > 0) {
    if (options.backend == "cpu" && options.gpus > 0)
      throw InvalidValue("--gpus runs on GPUs: leave out --backend cpu");
    return run_distributed_graph500({.scale = options.scale,
                                     .edge_factor = options.edge_factor,
                                     .roots = options.roots,
                                     .seed = options.seed,
                                     .cuda = options.backend == "cuda",
                                     .gpus = options.gpus,
                                     .json = options.json});
  }
  const Backend backend = options.backend.empty()
                              ? (cuda_available() ? Backend::cuda : Backend::cpu)
                              : select_backends(options.backend).front();
  Report report(options, backend);
  report.bfs_engine = options.bfs_engine;
  report.sssp_engine = options.sssp_engine;
  report.device = device_name(backend);
  if (report.bfs_engine.empty())
    report.bfs_engine = backend == Backend::cuda ? "direction-optimized" : "linalg";
  report.validation = options.validation;
  if (report.validation.empty()) report.validation = backend == Backend::cuda ? "device" : "host";
  if (report.validation == "device" && backend != Backend::cuda)
    throw InvalidValue("graph500: --validation device needs the cuda backend (this run uses " +
                       std::string(to_string(backend)) + ")");
  const bool on_device = report.validation == "device";
  // Looked up before the long steps, so that a misspelt engine fails at once.
  const bfs::EngineInfo& bfs_info = bfs::find_engine(report.bfs_engine, backend);
  const sssp::EngineInfo& sssp_info = sssp::find_engine(report.sssp_engine, backend);
  const generate::Options undirected{.seed = options.seed};

  progress("scale " + std::to_string(options.scale) + ", edge factor " +
           std::to_string(options.edge_factor) + ", seed " + std::to_string(options.seed) +
           ", backend " + std::string(to_string(backend)) + " (" + report.device + ")");
  reset_peak_device_bytes();
  Matrix<double> weighted;
  std::vector<std::uint64_t> tuples;
  if (backend == Backend::cuda) {
    // The first device allocation creates the CUDA context: not part of generating the graph.
    { grb::detail::Array<std::uint8_t> start_up(1, Backend::cuda); }
    // Kernel 1's peak is known from the edge count alone: a scale the device cannot build is
    // refused now, not after generating its edges (scale 27 needs 120 GB, more than an H100).
    const std::uint64_t input_edges = std::uint64_t(options.edge_factor) << options.scale;
    const std::uint64_t needed = generate::to_matrix_peak_device_bytes(input_edges, true);
    if (const std::size_t available = free_device_bytes(); needed > available)
      throw OutOfMemory("graph500: kernel 1 at scale " + std::to_string(options.scale) + " (" +
                            std::to_string(input_edges) + " input edges) needs " + gib(needed) +
                            " of device memory at its peak (the sort); " + gib(available) +
                            " are free on " + report.device +
                            ". Use --backend cpu, a device with more memory, or several GPUs "
                            "(mpirun -np P grb graph500 ...: docs/distributed.md)",
                        needed, available);
    Clock::time_point start = Clock::now();
    generate::DeviceEdgeList edges =
        generate::kronecker_edges_cuda(options.scale, options.edge_factor, options.seed);
    synchronize_device();
    report.generation_seconds = seconds_since(start);
    report.peak_generation = peak_device_bytes();
    report.input_edges = edges.size();
    progress("generated " + std::to_string(edges.size()) + " edges on the GPU in " +
             std::to_string(report.generation_seconds) + " s; kernel 1 (edge list -> CSR)");
    tuples = tuples_per_vertex(edges.nvertices, edges.source.to_vector());
    reset_peak_device_bytes();
    start = Clock::now();
    weighted = generate::to_matrix(std::move(edges), undirected);
    synchronize_device();
    report.construction_seconds = seconds_since(start);
    report.peak_construction = peak_device_bytes();
  } else {
    Clock::time_point start = Clock::now();
    generate::EdgeList edges =
        generate::kronecker_edges(options.scale, options.edge_factor, options.seed);
    report.generation_seconds = seconds_since(start);
    report.input_edges = edges.source.size();
    progress("generated " + std::to_string(edges.source.size()) + " edges in " +
             std::to_string(report.generation_seconds) + " s; kernel 1 (edge list -> CSR)");
    tuples = tuples_per_vertex(edges.nvertices, edges.source);
    start = Clock::now();
    weighted = generate::to_matrix(edges, undirected);
    report.construction_seconds = seconds_since(start);
  }
  report.stored_entries = weighted.nvals();
  progress("kernel 1: " + std::to_string(report.stored_entries) + " stored entries in " +
           std::to_string(report.construction_seconds) + " s (" +
           rate(double(report.input_edges) / report.construction_seconds) + "input edges/s)");

  // The host validators read host CSR arrays: one host copy serves every validation; the
  // device validators read the weighted matrix on the device, and the host needs only its row
  // offsets (for the search keys).
  const bool host_copy = weighted.backend() != Backend::cpu && !on_device;
  const Matrix<double> host = host_copy ? weighted.to(Backend::cpu) : Matrix<double>{};
  const Matrix<double>& reference = host_copy ? host : weighted;
  const auto check_bfs = [&](Index key, const bfs::Result& result) {
    const std::span<const std::int32_t> level(result.level);
    const std::span<const Index> parent(result.parent);
#if GRB_WITH_CUDA
    if (on_device) return validate::bfs_on_device(weighted, key, level, parent);
#endif
    return validate::bfs(reference, key, level, parent);
  };
  const auto check_sssp = [&](Index key, const sssp::Result& result) {
    const std::span<const double> distance(result.distance);
    const std::span<const Index> parent(result.parent);
#if GRB_WITH_CUDA
    if (on_device) return validate::sssp_on_device(weighted, key, distance, parent);
#endif
    return validate::sssp(reference, key, distance, parent);
  };
  const std::vector<Index> keys =
      search_keys(reference.csr().row_offsets.to(Backend::cpu), options.roots, options.seed);
  if (keys.empty()) throw InvalidValue("graph500: the graph has no vertex of degree >= 1");

  // Kernel 2. The engine gets the pattern where the graph lives; unless the device validates,
  // the weighted device matrix is released first (SSSP uploads the host copy again) to leave
  // the BFS engine the most room.
  reset_peak_device_bytes();
  {
    std::unique_ptr<bfs::Engine> engine = bfs_info.make();
    {
      Matrix<bool> graph = pattern(weighted);
      if (backend == Backend::cuda && !on_device) weighted = Matrix<double>{};
      progress("kernel 2: preparing BFS engine " + report.bfs_engine);
      engine->prepare(graph);
    }
    run_searches(
        "bfs", report.bfs_engine, keys,
        std::size_t(reference.nrows()) * (sizeof(std::int32_t) + sizeof(Index)), tuples,
        [&](Index key) { engine->run(key, bfs::Options{}); }, [&] { return engine->result(); },
        check_bfs, [](const bfs::Result& r, std::size_t v) { return r.level[v] >= 0; },
        report.bfs);
  }
  report.peak_bfs = peak_device_bytes();
  print_bfs_report(report);

  // Kernel 3.
  reset_peak_device_bytes();
  {
    std::unique_ptr<sssp::Engine> engine = sssp_info.make();
    progress("kernel 3: preparing SSSP engine " + report.sssp_engine);
    engine->prepare(on_device ? weighted : reference);
    run_searches(
        "sssp", report.sssp_engine, keys,
        std::size_t(reference.nrows()) * (sizeof(double) + sizeof(Index)), tuples,
        [&](Index key) { engine->run(key, sssp::Options{}); }, [&] { return engine->result(); },
        check_sssp,
        [](const sssp::Result& r, std::size_t v) { return std::isfinite(r.distance[v]); },
        report.sssp);
  }
  report.peak_sssp = peak_device_bytes();

  print_sssp_report(report);
  if (!options.json.empty()) write_json(options.json, report);
}

}  // namespace

void add_graph500_command(CLI::App& app) {
  auto options = std::make_shared<Graph500Options>();
  CLI::App* command = app.add_subcommand(
      "graph500",
      "the Graph500 benchmark (specification 3.0): Kronecker generation, kernel 1 (edge list -> "
      "CSR, timed alone), BFS (kernel 2) and SSSP (kernel 3) from random search keys of degree "
      ">= 1, every search validated, and the specification's output block");
  command->footer(
      "TEPS: input edges (edge-list tuples, parallel edges and self loops included) in the "
      "searched component, divided by the search time; the harmonic mean over the searches is "
      "the headline number. A search that fails validation stops the command with exit status 1. "
      "Progress goes to stderr, the output block to stdout. With --backend cuda the graph is "
      "generated and built on the GPU (the same graph as on the cpu for the same seed) and every "
      "search is validated on the GPU (the same rules and verdicts as the host validators; "
      "--validation host runs those instead).");
  command->add_option("--scale", options->scale, "log2 of the number of vertices")
      ->required()
      ->check(CLI::Range(1, 31));
  command->add_option("--edge-factor", options->edge_factor, "input edges per vertex")
      ->check(CLI::Range(1, 1 << 20))
      ->default_str("16");
  command->add_option("--roots", options->roots, "search keys (the specification's NBFS: 64)")
      ->check(CLI::Range(1, 1 << 20))
      ->default_str("64");
  command->add_option("--seed", options->seed, "generator seed (the search keys follow from it)")
      ->default_str("1");
  command->add_option("--backend", options->backend, "cuda or cpu (default: cuda where available)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  command->add_option("--bfs-engine", options->bfs_engine,
                      "BFS engine (see `grb engines`; default: direction-optimized on cuda, "
                      "linalg on cpu)");
  command
      ->add_option("--sssp-engine", options->sssp_engine,
                   "SSSP engine (see `grb engines`; auto: light-heavy on cuda for Kronecker "
                   "graphs, bellman-ford on cpu)")
      ->default_str("auto");
  command->add_option("--validation", options->validation,
                      "where searches are validated: device (default on cuda) or host")
      ->check(CLI::IsMember({"device", "host"}));
  command->add_option("--json", options->json, "also write the results as one JSON object to FILE");
  command
      ->add_option("--gpus", options->gpus,
                   "distributed on this many GPUs of this machine, one rank a GPU over NCCL "
                   "(kernels 1 and 2; under mpirun: --backend cuda for GPU ranks, else CPU ranks)")
      ->check(CLI::Range(1, 1024));
  command->callback([options] { run_graph500(*options); });
}

}  // namespace grb::app
