// The lookup every engine table (bfs, sssp, cc, tc) shares: an engine by name on one backend,
// or an InvalidValue that lists the engines that backend has.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "grb/error.hpp"
#include "grb/types.hpp"

namespace grb::engine_table {

/// `Info` has `name` and `backend`; `algorithm` names the table in the message ("BFS").
template <class Info>
const Info& find(const std::vector<Info>& table, std::string_view name, Backend backend,
                 std::string_view algorithm) {
  std::string known;
  for (const Info& info : table) {
    if (info.backend != backend) continue;
    if (info.name == name) return info;
    known += known.empty() ? "" : ", ";
    known += info.name;
  }
  throw InvalidValue("no " + std::string(algorithm) + " engine '" + std::string(name) +
                     "' on the " + std::string(to_string(backend)) + " backend (known: " +
                     (known.empty() ? std::string("none") : known) + ")");
}

}  // namespace grb::engine_table
