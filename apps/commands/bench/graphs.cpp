#include "graphs.hpp"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "grb/error.hpp"

#ifndef GRB_SOURCE_DATA_DIR
#define GRB_SOURCE_DATA_DIR "tests/data"
#endif

namespace grb::app::bench {
namespace {

const std::string choices =
    "expected kronSCALE (1.." + std::to_string(max_kron_scale) + "), gridSIDE (1.." +
    std::to_string(max_grid_side) + "), berlin, or a graph file (a path with a '/' or an "
    "extension)";

/// The number after `prefix` (and an optional '-'), if the rest of `item` is one.
std::optional<std::uint64_t> number_after(const std::string& item, const std::string& prefix) {
  if (!item.starts_with(prefix)) return std::nullopt;
  std::size_t at = prefix.size();
  if (at < item.size() && item[at] == '-') ++at;
  std::uint64_t value = 0;
  const char* end = item.data() + item.size();
  const auto [stop, error] = std::from_chars(item.data() + at, end, value);
  if (at == item.size() || stop != end) return std::nullopt;
  if (error == std::errc::result_out_of_range) return UINT64_MAX;
  if (error != std::errc{}) return std::nullopt;
  return value;
}

bool names_a_file(const std::string& item) {
  if (item.find_first_of("/.") != std::string::npos) return true;
  std::error_code ignored;
  // An LDBC graph may be named by the stem its NAME.v and NAME.e share.
  return std::filesystem::exists(item, ignored) || std::filesystem::exists(item + ".v", ignored);
}

}  // namespace

std::string berlin_path() {
  const char* data = std::getenv("GRB_DATA_DIR");
  const std::string directory = data && *data ? data : GRB_SOURCE_DATA_DIR;
  return directory + "/road/berlin-center.mtx";
}

GraphSpec graph_spec(const std::string& item, const GraphSpec& shape) {
  GraphSpec spec = shape;
  if (item == "berlin") {
    spec.file = berlin_path();
    return spec;
  }
  if (const auto scale = number_after(item, "kron")) {
    if (*scale < 1 || *scale > std::uint64_t(max_kron_scale))
      throw InvalidValue("graph '" + item + "': Kronecker scale out of range (1.." +
                         std::to_string(max_kron_scale) + ")");
    spec.kron_scale = static_cast<int>(*scale);
    return spec;
  }
  if (const auto side = number_after(item, "grid")) {
    if (*side < 1 || *side > max_grid_side)
      throw InvalidValue("graph '" + item + "': grid side out of range (1.." +
                         std::to_string(max_grid_side) + ")");
    spec.grid_side = static_cast<Index>(*side);
    return spec;
  }
  if (item.empty() || !names_a_file(item))
    throw InvalidValue("unknown graph '" + item + "' (" + choices + ")");
  spec.file = item;
  return spec;
}

std::string check_graph_item(const std::string& item) {
  try {
    (void)graph_spec(item, GraphSpec{});
    return {};
  } catch (const InvalidValue& error) {
    return error.what();
  }
}

}  // namespace grb::app::bench
