#include "selection.hpp"

#include <algorithm>

#include "../commands.hpp"
#include "bfs/engine.hpp"
#include "cc/engine.hpp"
#include "grb/error.hpp"
#include "sssp/engine.hpp"
#include "tc/engine.hpp"

namespace grb::app::bench {
namespace {

constexpr Algorithm every_algorithm[] = {Algorithm::bfs, Algorithm::sssp, Algorithm::cc,
                                         Algorithm::tc};

struct Listed {
  std::string name;
  Backend backend;
};

template <class Info>
std::vector<Listed> listed(const std::vector<Info>& table) {
  std::vector<Listed> engines;
  for (const Info& info : table) engines.push_back({std::string(info.name), info.backend});
  return engines;
}

/// The engines of `algorithm` built into this grb, in table order.
std::vector<Listed> engines_of(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::bfs: return listed(bfs::engines());
    case Algorithm::sssp: return listed(sssp::engines());
    case Algorithm::cc: return listed(cc::engines());
    case Algorithm::tc: return listed(tc::engines());
  }
  return {};
}

Algorithm parse_algorithm(const std::string& name) {
  for (Algorithm algorithm : every_algorithm)
    if (to_string(algorithm) == name) return algorithm;
  throw InvalidValue("unknown algorithm '" + name + "' (expected bfs, sssp, cc or tc)");
}

/// Every engine name of every algorithm, once each: "linalg, vertex-push, ...".
std::string every_engine_name() {
  std::vector<std::string> names;
  for (Algorithm algorithm : every_algorithm)
    for (const Listed& engine : engines_of(algorithm))
      if (std::find(names.begin(), names.end(), engine.name) == names.end())
        names.push_back(engine.name);
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined;
}

}  // namespace

std::string_view to_string(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::bfs: return "bfs";
    case Algorithm::sssp: return "sssp";
    case Algorithm::cc: return "cc";
    case Algorithm::tc: return "tc";
  }
  return "unknown";
}

std::vector<Entry> select_entries(const Selection& selection) {
  const std::vector<Backend> backends = select_backends(selection.backend);
  const bool every_engine = std::find(selection.engines.begin(), selection.engines.end(),
                                      "all") != selection.engines.end();
  std::vector<std::string> unused = every_engine ? std::vector<std::string>{} : selection.engines;
  std::vector<Entry> entries;
  bool sssp_selected = false;
  for (const std::string& name : selection.algorithms) {
    const Algorithm algorithm = parse_algorithm(name);
    sssp_selected |= algorithm == Algorithm::sssp;
    std::string known;
    std::size_t added = 0;
    for (const Listed& engine : engines_of(algorithm)) {
      if (std::find(backends.begin(), backends.end(), engine.backend) == backends.end()) continue;
      if (known.find(engine.name) == std::string::npos)
        known += (known.empty() ? "" : ", ") + engine.name;
      const bool named = std::find(selection.engines.begin(), selection.engines.end(),
                                   engine.name) != selection.engines.end();
      if (!every_engine && !named) continue;
      std::erase(unused, engine.name);
      entries.push_back({algorithm, engine.name, engine.backend, 0});
      ++added;
      if (algorithm == Algorithm::sssp)
        for (double factor : selection.delta_factors)
          entries.push_back({algorithm, engine.name, engine.backend, factor});
    }
    if (added == 0)
      throw InvalidValue("--engines selects no " + name + " engine on --backend " +
                         selection.backend + " (" + name + " has: " +
                         (known.empty() ? std::string("none") : known) + ")");
  }
  if (!unused.empty())
    throw InvalidValue("--engines: no selected algorithm has an engine '" + unused.front() +
                       "' on --backend " + selection.backend + " (see `grb engines`)");
  if (!selection.delta_factors.empty() && !sssp_selected)
    throw InvalidValue("--delta-factors: sssp is not among --algorithms");
  return entries;
}

std::string check_algorithm_name(const std::string& name) {
  try {
    (void)parse_algorithm(name);
    return {};
  } catch (const InvalidValue& error) {
    return error.what();
  }
}

std::string check_engine_name(const std::string& name) {
  if (name == "all") return {};
  for (Algorithm algorithm : every_algorithm)
    for (const Listed& engine : engines_of(algorithm))
      if (engine.name == name) return {};
  return "unknown engine '" + name + "' (expected all, or one of: " + every_engine_name() +
         "; see `grb engines`)";
}

}  // namespace grb::app::bench
