#include "table.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace grb::app {

void Table::add(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw std::logic_error("Table::add: " + std::to_string(cells.size()) + " cells for " +
                           std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = columns_[c].title.size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  auto print_row = [&](auto cell_of) {
    std::string line;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string& cell = cell_of(c);
      const std::string padding(width[c] - cell.size(), ' ');
      if (c > 0) line += "  ";
      line += columns_[c].align == Align::right ? padding + cell : cell + padding;
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
  };
  print_row([&](std::size_t c) -> const std::string& { return columns_[c].title; });
  for (const auto& row : rows_) print_row([&](std::size_t c) -> const std::string& { return row[c]; });
}

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string mebibytes(std::uint64_t bytes) {
  return grouped((bytes + (std::uint64_t{1} << 19)) >> 20);
}

std::string grouped(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string result;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) result += ',';
    result += digits[i];
  }
  return result;
}

}  // namespace grb::app
