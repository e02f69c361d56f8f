// Splitting a text line into fields and parsing them with std::from_chars, with error messages
// that quote the offending text.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>

#include "grb/error.hpp"
#include "line_reader.hpp"

namespace grb::io::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

/// The line without leading and trailing blanks.
inline std::string_view trim(std::string_view line) {
  std::size_t begin = 0, end = line.size();
  while (begin < end && is_blank(line[begin])) ++begin;
  while (end > begin && is_blank(line[end - 1])) --end;
  return line.substr(begin, end - begin);
}

/// Fields separated by runs of blanks (and of commas, when `commas` is set).
class FieldSplitter {
 public:
  FieldSplitter(std::string_view line, bool commas) : line_(line), commas_(commas) {}

  /// The next field; false when none is left.
  bool next(std::string_view& field) {
    while (position_ < line_.size() && is_separator(line_[position_])) ++position_;
    if (position_ == line_.size()) return false;
    const std::size_t begin = position_;
    while (position_ < line_.size() && !is_separator(line_[position_])) ++position_;
    field = line_.substr(begin, position_ - begin);
    return true;
  }

 private:
  bool is_separator(char c) const { return is_blank(c) || (commas_ && c == ','); }
  std::string_view line_;
  bool commas_;
  std::size_t position_ = 0;
};

/// For error messages: the field in quotes, shortened if long.
inline std::string quoted(std::string_view field) {
  constexpr std::size_t longest = 40;
  std::string result;
  result.reserve(longest + 5);
  result += '\'';
  result += printable(field.substr(0, longest));  // never raw control bytes on a terminal
  if (field.size() > longest) result += "...";
  result += '\'';
  return result;
}

/// A non-negative integer (an id or a size); `what` names it in the error.
inline std::uint64_t parse_unsigned(std::string_view field, const LineReader& reader,
                                    const char* what) {
  std::uint64_t value = 0;
  const char* end = field.data() + field.size();
  auto [stop, error] = std::from_chars(field.data(), end, value);
  if (error == std::errc{} && stop == end) return value;
  if (!field.empty() && field[0] == '-')
    reader.fail(std::string(what) + " " + quoted(field) + " is negative");
  if (error == std::errc::result_out_of_range)
    reader.fail(std::string(what) + " " + quoted(field) + " is too large (more than 64 bits)");
  reader.fail(std::string(what) + " " + quoted(field) + " is not a non-negative integer");
}

/// The field without a leading '+' (which std::from_chars does not take); "+-1" stays as it is,
/// so that it fails.
inline std::string_view without_plus(std::string_view field) {
  if (field.size() > 1 && field[0] == '+' && field[1] != '-') field.remove_prefix(1);
  return field;
}

/// A real number ("inf" and "nan" included; a leading '+' is accepted).
inline double parse_real(std::string_view field, const LineReader& reader, const char* what) {
  field = without_plus(field);
  double value = 0;
  const char* end = field.data() + field.size();
  auto [stop, error] = std::from_chars(field.data(), end, value);
  // Out of range, yet a number: keep what strtod gives (infinity, or zero / a denormal).
  if (error == std::errc::result_out_of_range && stop == end)
    return std::strtod(std::string(field).c_str(), nullptr);
  if (error != std::errc{} || stop != end)
    reader.fail(std::string(what) + " " + quoted(field) + " is not a number");
  return value;
}

/// A signed integer (Matrix Market "integer" values).
inline std::int64_t parse_integer(std::string_view field, const LineReader& reader,
                                  const char* what) {
  field = without_plus(field);
  std::int64_t value = 0;
  const char* end = field.data() + field.size();
  auto [stop, error] = std::from_chars(field.data(), end, value);
  if (error == std::errc::result_out_of_range)
    reader.fail(std::string(what) + " " + quoted(field) + " does not fit in 64 bits");
  if (error != std::errc{} || stop != end)
    reader.fail(std::string(what) + " " + quoted(field) + " is not an integer");
  return value;
}

}  // namespace grb::io::detail
