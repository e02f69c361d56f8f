// Comma-separated lists on the command line, checked item by item: every item of every value
// ("kron20,grid1000", repeated or space-separated values too) must pass its check, an empty
// item included ("bfs,,cc"), so that a bad item is a usage error naming it, never dropped or
// read as something else. Header-only: the benchmark programs in benchmarks/ parse their lists
// the same way.
#pragma once

#include <CLI/CLI.hpp>

#include <charconv>
#include <functional>
#include <limits>
#include <type_traits>
#include <string>
#include <vector>

namespace grb::app::lists {

/// Says what is wrong with one item; empty when it is good.
using ItemCheck = std::function<std::string(const std::string& item)>;

/// The items of the values, split at commas, in order.
inline std::vector<std::string> split(const std::vector<std::string>& values) {
  std::vector<std::string> items;
  for (const std::string& value : values) {
    std::size_t start = 0;
    for (std::size_t comma = value.find(','); ; comma = value.find(',', start)) {
      items.push_back(value.substr(start, comma == std::string::npos ? comma : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return items;
}

/// A validator applying `check` to every comma-separated item of a value.
inline CLI::Validator each(ItemCheck check, const std::string& items) {
  return CLI::Validator(
      [check](std::string& value) -> std::string {
        for (const std::string& item : split({value})) {
          if (item.empty()) return "an empty item in '" + value + "'";
          if (std::string problem = check(item); !problem.empty()) return problem;
        }
        return {};
      },
      items);
}

/// Whether `item` is, whole, a number of type `Number`.
template <class Number>
bool parse_integer(const std::string& item, Number& value) {
  const char* end = item.data() + item.size();
  const auto [stop, error] = std::from_chars(item.data(), end, value);
  return error == std::errc{} && stop == end;
}

/// `item` as a whole number in [low, high].
inline ItemCheck integer_in(long long low, long long high) {
  return [low, high](const std::string& item) -> std::string {
    long long value = 0;
    if (!parse_integer(item, value) || value < low || value > high)
      return "'" + item + "' is not a whole number in " + std::to_string(low) + ".." +
             std::to_string(high);
    return {};
  };
}

/// `item` as a finite number in (0, high].
inline ItemCheck positive_up_to(double high, const std::string& range) {
  return [high, range](const std::string& item) -> std::string {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || !(value > 0) || !(value <= high))
      return "'" + item + "' is not a number in " + range;
    return {};
  };
}

/// The items as numbers (after `each` has checked them).
template <class Number>
std::vector<Number> numbers(const std::vector<std::string>& values) {
  std::vector<Number> parsed;
  for (const std::string& item : split(values)) {
    if constexpr (std::is_floating_point_v<Number>) {
      parsed.push_back(static_cast<Number>(std::stod(item)));
    } else {
      Number value{};
      parse_integer(item, value);
      parsed.push_back(value);
    }
  }
  return parsed;
}

}  // namespace grb::app::lists
