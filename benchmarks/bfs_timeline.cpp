// Where a BFS engine's time goes: a CUPTI timeline of a few searches on a generated graph. For each
// search it prints the wall time, how long the GPU was busy, the launches and waits the host made,
// the time per kernel, and (with --events) every host call and GPU activity in order, so that the
// GPU's idle gaps can be matched with what the host was doing then. Each traced search is
// validated (Graph500 rules, on the device).
//
//   bfs_timeline --scale 22 --engine linalg --roots 3 [--grid SIDE] [--calls] [--events FILE]
//   bfs_timeline --scale 22 --root 4047228,1103298   (these roots, after the warm-up)
//
// CUPTI's own bookkeeping lengthens each launch by a few microseconds, so the wall times here are
// a little longer than `grb bench`'s (which is what to quote); the shares and the order are what
// this tool is for.
#include <CLI/CLI.hpp>
#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <string>
#include <vector>

#include <grb/generate.hpp>
#include <grb/kernel_loading.hpp>
#include <grb/matrix.hpp>

#include "bfs/engine.hpp"
#include "validate/on_device.hpp"

#include "../apps/commands/bench/lists.hpp"

namespace {

using grb::Index;

void check(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS) return;
  const char* message = nullptr;
  cuptiGetResultString(result, &message);
  std::fprintf(stderr, "bfs_timeline: %s: %s\n", what, message ? message : "unknown CUPTI error");
  std::exit(1);
}

/// One host call or GPU activity, in ns of CUPTI's clock.
struct Event {
  bool gpu = false;
  std::uint64_t start = 0, end = 0;
  std::uint32_t correlation = 0;
  std::string name;
};

// CUPTI may hand buffers back on a thread of its own.
std::mutex recording;
std::vector<Event> recorded;

/// A kernel's name without its namespace's clutter and template arguments.
std::string short_name(const char* mangled) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
  std::string name = status == 0 && demangled ? demangled.get() : mangled;
  // Kernels of a .cu file's anonymous namespace (the vector format and element-write kernels).
  const std::string anonymous = "(anonymous namespace)::";
  for (auto at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous))
    name.erase(at, anonymous.size());
  name = name.substr(0, name.find_first_of("<("));
  if (const auto colon = name.rfind("::"); colon != std::string::npos) name = name.substr(colon + 2);
  return name;
}

// Activity buffers, touched before the first search and reused: a fresh 8 MB buffer's page
// faults, taken when CUPTI first writes it, put about 800 us of host time into the search being
// traced.
constexpr std::size_t buffer_bytes = std::size_t{8} << 20;
std::vector<std::uint8_t*> free_buffers;

std::uint8_t* touched_buffer() {
  auto* buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
  if (!buffer) throw std::bad_alloc();
  std::memset(buffer, 0, buffer_bytes);
  return buffer;
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  const std::lock_guard lock(recording);
  if (free_buffers.empty()) free_buffers.push_back(touched_buffer());
  *buffer = free_buffers.back();
  free_buffers.pop_back();
  *size = buffer_bytes;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                               std::size_t valid) {
  const std::lock_guard lock(recording);
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    Event event;
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        event = {true, kernel->start, kernel->end, kernel->correlationId, short_name(kernel->name)};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        event = {true, copy->start, copy->end, copy->correlationId,
                 "memcpy " + std::to_string(copy->bytes) + " B"};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* set = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        event = {true, set->start, set->end, set->correlationId,
                 "memset " + std::to_string(set->bytes) + " B"};
        break;
      }
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const auto* call = reinterpret_cast<const CUpti_ActivityAPI*>(record);
        const char* name = nullptr;
        cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, call->cbid, &name);
        event = {false, call->start, call->end, call->correlationId, name ? name : "runtime call"};
        break;
      }
      default: continue;
    }
    recorded.push_back(std::move(event));
  }
  free_buffers.push_back(buffer);
}

double us(std::uint64_t ns) { return double(ns) / 1000.0; }

/// The summary of one search between host timestamps begin and end; its events go to `events`.
void report(Index root, std::uint64_t begin, std::uint64_t end, std::FILE* events) {
  std::vector<Event> in;
  for (const Event& e : recorded)
    if (e.end >= begin && e.start <= end) in.push_back(e);
  std::sort(in.begin(), in.end(), [](const Event& a, const Event& b) { return a.start < b.start; });
  std::map<std::uint32_t, std::uint64_t> launched;  // correlation -> host call start
  std::uint64_t busy = 0, covered = begin, host_calls = 0;
  int launches = 0, waits = 0;
  std::map<std::string, std::pair<int, std::uint64_t>> per_kernel;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> gaps;  // GPU idle: start, length
  for (const Event& e : in) {
    if (!e.gpu) {
      launched[e.correlation] = e.start;
      host_calls += e.end - e.start;
      if (e.name.find("Launch") != std::string::npos) ++launches;
      if (e.name.find("Synchronize") != std::string::npos) ++waits;
      continue;
    }
    auto& kernel = per_kernel[e.name];
    ++kernel.first;
    kernel.second += e.end - e.start;
    if (e.start > covered) gaps.emplace_back(covered, e.start - covered);
    busy += e.end > covered ? e.end - std::max(e.start, covered) : 0;
    covered = std::max(covered, e.end);
  }
  if (end > covered) gaps.emplace_back(covered, end - covered);
  // From the first kernel on: under CUPTI the host's first calls of a search can take far longer
  // than without it (a search's wall time is `grb bench`'s to measure).
  std::uint64_t first_kernel = end;
  for (const Event& e : in)
    if (e.gpu && e.name.rfind("mem", 0) != 0) first_kernel = std::min(first_kernel, e.start);
  std::printf("root %u: wall %.1f us (%.1f from the first kernel), GPU busy %.1f us, %d launches, "
              "%d synchronizations, %.1f us in runtime calls\n",
              root, us(end - begin), us(end - std::max(first_kernel, begin)), us(busy), launches,
              waits, us(host_calls));
  std::vector<std::pair<std::string, std::pair<int, std::uint64_t>>> kernels(per_kernel.begin(),
                                                                             per_kernel.end());
  std::sort(kernels.begin(), kernels.end(),
            [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  for (const auto& [name, tally] : kernels)
    std::printf("  %8.1f us  %3d x  %s\n", us(tally.second), tally.first, name.c_str());
  std::uint64_t idle = 0;
  for (const auto& gap : gaps) idle += gap.second;
  std::printf("  GPU idle %.1f us in %zu gaps\n", us(idle), gaps.size());
  if (!events) return;
  std::fprintf(events, "# root %u: host (h) calls and GPU (g) activities, us from the search's start\n",
               root);
  for (const Event& e : in) {
    const double at = e.start >= begin ? us(e.start - begin) : -us(begin - e.start);
    if (e.gpu) {
      const auto host = launched.find(e.correlation);
      const double queued = host == launched.end() ? 0 : us(e.start - host->second);
      std::fprintf(events, "g %9.1f %7.1f  %s (#%u, %.1f us after its call)\n", at,
                   us(e.end - e.start), e.name.c_str(), e.correlation, queued);
    } else {
      std::fprintf(events, "h %9.1f %7.1f  %s (#%u)\n", at, us(e.end - e.start), e.name.c_str(),
                   e.correlation);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  grb::load_kernels_eagerly();  // before anything touches the GPU
  CLI::App app{"A CUPTI timeline of a BFS engine's searches: GPU busy and idle time, launches, "
               "time per kernel"};
  int scale = 22, side = 0;
  Index roots = 3, warmup = 3;
  std::vector<Index> chosen;
  std::string engine_name = "linalg", events_path;
  bool calls = false;
  app.add_option("--scale", scale, "Kronecker graph scale (0: use --grid)")
      ->check(CLI::Range(0, 31))
      ->capture_default_str();
  app.add_option("--grid", side, "grid side instead of a Kronecker graph")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  app.add_option("--engine", engine_name, "the engine to trace")->capture_default_str();
  app.add_option("--roots", roots, "searches traced (random roots of degree > 0)")
      ->check(CLI::Range(Index{1}, Index{1} << 20))
      ->capture_default_str();
  std::vector<std::string> root_list;  // checked item by item, as `grb bench` checks its lists
  app.add_option("--root", root_list,
                 "trace these roots (comma-separated or repeated; replaces the random roots)")
      ->check(grb::app::lists::each(grb::app::lists::integer_in(0, grb::no_index - 1),
                                    "VERTEX,..."));
  app.add_option("--warmup", warmup, "untraced searches first")->capture_default_str();
  app.add_option("--events", events_path, "write every event of each traced search here");
  app.add_flag("--calls", calls,
               "trace the host's runtime calls too (each costs a few more microseconds)");
  try {  // a usage error exits 2, as the `grb` command's do
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  chosen = grb::app::lists::numbers<Index>(root_list);
  try {
    if (!grb::cuda_available()) {
      std::fprintf(stderr, "bfs_timeline: no GPU\n");
      return 1;
    }
    const grb::Matrix<bool> graph = grb::pattern(side > 0 ? grb::generate::grid(side)
                                                          : grb::generate::kronecker(scale));
    const auto& offsets = graph.csr().row_offsets;
    std::mt19937_64 random(2024);
    std::uniform_int_distribution<Index> vertex(0, graph.nrows() - 1);
    for (Index v : chosen) {
      if (v >= graph.nrows()) {
        std::fprintf(stderr, "bfs_timeline: --root %u is not a vertex (%u vertices)\n", v,
                     graph.nrows());
        return 1;
      }
    }
    if (!chosen.empty()) roots = Index(chosen.size());
    std::vector<Index> sources;
    for (std::size_t tries = 0; sources.size() < warmup + roots; ++tries) {
      if (tries > 100 * std::size_t(warmup + roots) + 1000) {
        std::fprintf(stderr, "bfs_timeline: found no %u vertices with edges to start from\n",
                     warmup + roots);
        return 1;
      }
      const Index v = vertex(random);
      if (offsets[v + 1] > offsets[v]) sources.push_back(v);
    }
    // Chosen roots replace the random ones after the warm-up searches.
    std::copy(chosen.begin(), chosen.end(), sources.begin() + warmup);
    auto engine = grb::bfs::find_engine(engine_name, grb::Backend::cuda).make();
    engine->prepare(graph);
    const grb::Matrix<bool> on_device = graph.to(grb::Backend::cuda);
    std::FILE* events = events_path.empty() ? nullptr : std::fopen(events_path.c_str(), "w");
    if (!events_path.empty() && !events) {
      std::fprintf(stderr, "bfs_timeline: cannot write %s\n", events_path.c_str());
      return 1;
    }
    std::printf("%s on %s: %u vertices, %llu stored entries\n", engine_name.c_str(),
                side > 0 ? ("grid" + std::to_string(side)).c_str()
                         : ("kron" + std::to_string(scale)).c_str(),
                graph.nrows(), static_cast<unsigned long long>(graph.nvals()));
    for (int k = 0; k < 4; ++k) free_buffers.push_back(touched_buffer());
    check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "callbacks");
    for (Index k = 0; k < warmup + roots; ++k) {
      const bool traced = k >= warmup;
      if (traced && k == warmup) {
        for (auto kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                          CUPTI_ACTIVITY_KIND_MEMSET})
          check(cuptiActivityEnable(kind), "enable");
        if (calls) check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), "enable");
      }
      std::uint64_t begin = 0, end = 0;
      cuptiGetTimestamp(&begin);
      engine->run(sources[k], grb::bfs::Options{});
      cuptiGetTimestamp(&end);
      const grb::bfs::Result result = engine->result();
      const auto verdict =
          grb::validate::bfs_on_device(on_device, sources[k], result.level, result.parent);
      if (!verdict.ok) {
        std::fprintf(stderr, "bfs_timeline: root %u: VALIDATION FAILED: %s\n", sources[k],
                     verdict.message.c_str());
        return 1;
      }
      if (!traced) continue;
      check(cuptiActivityFlushAll(1), "flush");
      const std::lock_guard lock(recording);
      report(sources[k], begin, end, events);
      recorded.clear();
    }
    if (events) std::fclose(events);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bfs_timeline: %s\n", error.what());
    return 1;
  }
  return 0;
}
