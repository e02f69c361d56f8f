#include "engine_choice.hpp"

#include "bfs/engine.hpp"
#include "cc/engine.hpp"
#include "grb/error.hpp"
#include "sssp/engine.hpp"

namespace grb::app {

std::vector<EngineChoice> engines_of(Algorithm algorithm) {
  std::vector<EngineChoice> choices;
  switch (algorithm) {
    case Algorithm::bfs:
      for (const bfs::EngineInfo& info : bfs::engines())
        choices.push_back({algorithm, std::string(info.name), info.backend});
      break;
    case Algorithm::sssp:
      for (const sssp::EngineInfo& info : sssp::engines())
        choices.push_back({algorithm, std::string(info.name), info.backend});
      break;
    case Algorithm::cc:
      for (const cc::EngineInfo& info : cc::engines())
        choices.push_back({algorithm, std::string(info.name), info.backend});
      break;
  }
  return choices;
}

std::unique_ptr<Runner> make_runner(const EngineChoice& choice) {
  switch (choice.algorithm) {
    case Algorithm::bfs:
      return make_bfs_runner(bfs::find_engine(choice.engine, choice.backend));
    case Algorithm::sssp:
      return make_sssp_runner(sssp::find_engine(choice.engine, choice.backend));
    case Algorithm::cc:
      return make_cc_runner(cc::find_engine(choice.engine, choice.backend));
  }
  throw InvalidValue("unknown algorithm");
}

}  // namespace grb::app
