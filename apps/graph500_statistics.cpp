#include "graph500_statistics.hpp"

#include <algorithm>
#include <cmath>

namespace grb::app {

namespace {
double quantile(const std::vector<double>& sorted, double fraction) {
  const double position = fraction * double(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - double(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

Statistics statistics(std::vector<double> values) {
  Statistics s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const double n = double(values.size());
  s.min = values.front();
  s.max = values.back();
  s.first_quartile = quantile(values, 0.25);
  s.median = quantile(values, 0.5);
  s.third_quartile = quantile(values, 0.75);
  double sum = 0, inverse_sum = 0;
  for (double v : values) sum += v, inverse_sum += 1.0 / v;
  s.mean = sum / n;
  const double inverse_mean = inverse_sum / n;
  s.harmonic_mean = 1.0 / inverse_mean;
  if (values.size() > 1) {
    double squares = 0, inverse_squares = 0;
    for (double v : values) {
      squares += (v - s.mean) * (v - s.mean);
      inverse_squares += (1.0 / v - inverse_mean) * (1.0 / v - inverse_mean);
    }
    s.stddev = std::sqrt(squares / (n - 1));
    s.harmonic_stddev =
        std::sqrt(inverse_squares / (n - 1)) / (inverse_mean * inverse_mean * std::sqrt(n - 1));
  }
  return s;
}

void print_block(std::ostream& out, const std::string& prefix, const Searches& searches) {
  const auto print = [&](const char* what, const Statistics& s, bool rate_statistics) {
    out << prefix << "min_" << what << ": " << s.min << "\n"
        << prefix << "firstquartile_" << what << ": " << s.first_quartile << "\n"
        << prefix << "median_" << what << ": " << s.median << "\n"
        << prefix << "thirdquartile_" << what << ": " << s.third_quartile << "\n"
        << prefix << "max_" << what << ": " << s.max << "\n";
    if (rate_statistics)
      out << prefix << "harmonic_mean_" << what << ": " << s.harmonic_mean << "\n"
          << prefix << "harmonic_stddev_" << what << ": " << s.harmonic_stddev << "\n";
    else
      out << prefix << "mean_" << what << ": " << s.mean << "\n"
          << prefix << "stddev_" << what << ": " << s.stddev << "\n";
  };
  print("time", statistics(searches.seconds), false);
  print("nedge", statistics(searches.edges), false);
  print("TEPS", statistics(searches.teps), true);
  print("validate", statistics(searches.validate_seconds), false);
}

nlohmann::json to_json(const Searches& searches) {
  const auto json = [](const Statistics& s, bool rate_statistics) {
    nlohmann::json object{{"min", s.min},
                          {"firstquartile", s.first_quartile},
                          {"median", s.median},
                          {"thirdquartile", s.third_quartile},
                          {"max", s.max}};
    if (rate_statistics) {
      object["harmonic_mean"] = s.harmonic_mean;
      object["harmonic_stddev"] = s.harmonic_stddev;
    } else {
      object["mean"] = s.mean;
      object["stddev"] = s.stddev;
    }
    return object;
  };
  return {{"time", json(statistics(searches.seconds), false)},
          {"nedge", json(statistics(searches.edges), false)},
          {"TEPS", json(statistics(searches.teps), true)},
          {"validate", json(statistics(searches.validate_seconds), false)},
          {"seconds", searches.seconds},
          {"edges", searches.edges}};
}

}  // namespace grb::app
