// The Graph500 output block's statistics (specification 3.0): shared by `grb graph500` on one
// backend and on distributed ranks.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace grb::app {

/// The summary statistics of the specification's output, over the values of all searches.
/// Quartiles interpolate linearly between order statistics (the median of an even count is the
/// mean of the middle two). For rates, the harmonic mean and its standard deviation as the
/// reference code computes them: mean and sample deviation of the reciprocals, mapped back
/// (stddev of 1/x divided by mean(1/x)^2 * sqrt(n - 1)).
struct Statistics {
  double min = 0, first_quartile = 0, median = 0, third_quartile = 0, max = 0, mean = 0, stddev = 0,
         harmonic_mean = 0, harmonic_stddev = 0;
};
Statistics statistics(std::vector<double> values);

/// One kernel's searches: time, input edges in the component, TEPS and validation time each.
struct Searches {
  std::vector<double> seconds, edges, teps, validate_seconds;
  void add(double time, double nedge, double validate_time) {
    seconds.push_back(time);
    edges.push_back(nedge);
    teps.push_back(nedge / time);
    validate_seconds.push_back(validate_time);
  }
};

/// The block's lines for one kernel ("bfs  min_time: ...", ...), each prefixed.
void print_block(std::ostream& out, const std::string& prefix, const Searches& searches);
/// The same statistics as JSON, with every search's time and edges.
nlohmann::json to_json(const Searches& searches);

}  // namespace grb::app
