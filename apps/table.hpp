// A plain text table: columns sized to their widest cell, numbers right-aligned. The command's
// human-readable output (result rows, `grb engines`, `grb demo`) is printed through it.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace grb::app {

class Table {
 public:
  enum class Align { left, right };
  struct Column {
    std::string title;
    Align align = Align::left;
  };

  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}
  /// One row; it must have one cell per column.
  void add(std::vector<std::string> cells);
  void print(std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// A number with `digits` digits after the point ("12.35").
std::string fixed(double value, int digits);
/// An integer with thousands separators ("1,048,576").
std::string grouped(std::uint64_t value);
/// Bytes as whole mebibytes, grouped ("12,288").
std::string mebibytes(std::uint64_t bytes);

}  // namespace grb::app
