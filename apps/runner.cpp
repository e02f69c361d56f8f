#include "runner.hpp"

namespace grb::app {

std::string_view to_string(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::bfs: return "bfs";
    case Algorithm::sssp: return "sssp";
    case Algorithm::cc: return "cc";
  }
  return "unknown";
}

}  // namespace grb::app
