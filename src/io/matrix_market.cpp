// Matrix Market coordinate reader (https://math.nist.gov/MatrixMarket/formats.html).
#include <algorithm>
#include <cctype>
#include <limits>
#include <string>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"

namespace grb::io {

namespace {

using detail::FieldSplitter;
using detail::LineReader;

enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric, skew_symmetric };

struct Header {
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
};

std::string lowercase(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return result;
}

/// The banner: %%MatrixMarket matrix coordinate FIELD SYMMETRY (case-insensitive, as the
/// NIST reference reader allows).
Header parse_banner(LineReader& reader) {
  std::string_view line;
  if (!reader.next(line))
    reader.fail("empty file: expected a '%%MatrixMarket matrix coordinate ...' banner");
  FieldSplitter fields(line, false);
  std::string_view banner, object, format, field, symmetry, extra;
  fields.next(banner);
  if (lowercase(banner) != "%%matrixmarket")
    reader.fail("missing '%%MatrixMarket' banner (found " + detail::quoted(line) + ")");
  if (!fields.next(object) || !fields.next(format) || !fields.next(field) ||
      !fields.next(symmetry))
    reader.fail("incomplete banner: expected '%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
  if (fields.next(extra)) reader.fail("unexpected " + detail::quoted(extra) + " after the banner");

  if (lowercase(object) != "matrix")
    reader.fail("object " + detail::quoted(object) + " is not supported (only 'matrix')");
  const std::string format_name = lowercase(format);
  if (format_name == "array")
    reader.fail("dense 'array' Matrix Market files are not supported: graphs must be in "
                "'coordinate' format");
  if (format_name != "coordinate")
    reader.fail("unknown format " + detail::quoted(format) + " (expected 'coordinate')");

  Header header;
  const std::string field_name = lowercase(field);
  if (field_name == "real" || field_name == "double") header.field = Field::real;
  else if (field_name == "integer") header.field = Field::integer;
  else if (field_name == "pattern") header.field = Field::pattern;
  else if (field_name == "complex")
    reader.fail("complex Matrix Market files are not supported (values must be real, integer "
                "or pattern)");
  else reader.fail("unknown field " + detail::quoted(field) + " (expected real, integer or pattern)");

  const std::string symmetry_name = lowercase(symmetry);
  if (symmetry_name == "general") header.symmetry = Symmetry::general;
  else if (symmetry_name == "symmetric") header.symmetry = Symmetry::symmetric;
  else if (symmetry_name == "skew-symmetric") header.symmetry = Symmetry::skew_symmetric;
  else if (symmetry_name == "hermitian")
    reader.fail("hermitian Matrix Market files are not supported (they need complex values)");
  else
    reader.fail("unknown symmetry " + detail::quoted(symmetry) +
                " (expected general, symmetric or skew-symmetric)");
  return header;
}

/// The next line that is neither blank nor a '%' comment; false at the end of the file.
bool next_content_line(LineReader& reader, std::string_view& line) {
  while (reader.next(line)) {
    line = detail::trim(line);
    if (!line.empty() && line[0] != '%') return true;
  }
  return false;
}

Index parse_dimension(std::string_view field, const LineReader& reader, const char* what) {
  const std::uint64_t value = detail::parse_unsigned(field, reader, what);
  if (value > std::numeric_limits<Index>::max())
    reader.fail(std::string(what) + " " + std::to_string(value) +
                " exceeds grb's 32-bit vertex ids (at most " +
                std::to_string(std::numeric_limits<Index>::max()) + ")");
  return static_cast<Index>(value);
}

/// A 1-based index in 1..limit, returned 0-based.
Index parse_index(std::string_view field, const LineReader& reader, const char* what,
                  Index limit) {
  const std::uint64_t value = detail::parse_unsigned(field, reader, what);
  if (value == 0)
    reader.fail(std::string(what) + " 0 is out of range: Matrix Market indices are 1-based (1.." +
                std::to_string(limit) + ")");
  if (value > limit)
    reader.fail(std::string(what) + " " + std::to_string(value) + " is out of range 1.." +
                std::to_string(limit));
  return static_cast<Index>(value - 1);
}

}  // namespace

Graph read_matrix_market_graph(const std::filesystem::path& path, const ReadOptions& options) {
  LineReader reader(path, options.progress);
  const Header header = parse_banner(reader);

  std::string_view line;
  if (!next_content_line(reader, line))
    reader.fail("missing size line 'ROWS COLUMNS ENTRIES' after the banner");
  Index nrows = 0, ncols = 0;
  std::uint64_t entries = 0;
  {
    FieldSplitter fields(line, false);
    std::string_view rows_field, cols_field, entries_field, extra;
    if (!fields.next(rows_field) || !fields.next(cols_field) || !fields.next(entries_field))
      reader.fail("size line " + detail::quoted(line) +
                  " must hold three numbers: ROWS COLUMNS ENTRIES");
    if (fields.next(extra))
      reader.fail("unexpected " + detail::quoted(extra) +
                  " on the size line (a dense 'array' file?)");
    nrows = parse_dimension(rows_field, reader, "row count");
    ncols = parse_dimension(cols_field, reader, "column count");
    entries = detail::parse_unsigned(entries_field, reader, "entry count");
  }
  const bool mirrored = header.symmetry != Symmetry::general;
  if (mirrored && nrows != ncols)
    reader.fail("a " + std::string(header.symmetry == Symmetry::symmetric ? "symmetric" : "skew-symmetric") +
                " matrix must be square, not " + std::to_string(nrows) + " x " + std::to_string(ncols));

  // Every entry line takes at least 4 bytes ("1 1\n"): never reserve more than the file holds,
  // whatever the size line claims.
  const std::uint64_t reservable = std::min<std::uint64_t>(entries, reader.file_bytes() / 4 + 1);
  std::vector<Index> rows, cols;
  std::vector<double> values;
  const std::size_t slots = static_cast<std::size_t>(reservable) * (mirrored ? 2 : 1);
  rows.reserve(slots);
  cols.reserve(slots);
  if (header.field != Field::pattern) values.reserve(slots);

  std::uint64_t seen = 0;
  while (next_content_line(reader, line)) {
    if (seen == entries)
      reader.fail("more entries than the " + std::to_string(entries) +
                  " declared on the size line");
    ++seen;
    FieldSplitter fields(line, false);
    std::string_view row_field, col_field, value_field, extra;
    fields.next(row_field);
    if (!fields.next(col_field)) reader.fail("entry " + detail::quoted(line) + " has no column index");
    const Index i = parse_index(row_field, reader, "row index", nrows);
    const Index j = parse_index(col_field, reader, "column index", ncols);
    double value = 1.0;
    if (header.field != Field::pattern) {
      if (!fields.next(value_field))
        reader.fail("entry " + detail::quoted(line) + " has no value (the file's field is " +
                    (header.field == Field::real ? "real" : "integer") + ")");
      value = header.field == Field::real
                  ? detail::parse_real(value_field, reader, "value")
                  : static_cast<double>(detail::parse_integer(value_field, reader, "value"));
    }
    if (fields.next(extra))
      reader.fail("unexpected " + detail::quoted(extra) + " after the entry" +
                  (header.field == Field::pattern ? " (values in a pattern file?)" : ""));
    if (header.symmetry == Symmetry::skew_symmetric && i == j)
      reader.fail("diagonal entry (" + std::to_string(i + 1) +
                  ") in a skew-symmetric matrix, whose diagonal is zero by definition");

    rows.push_back(i);
    cols.push_back(j);
    if (header.field != Field::pattern) values.push_back(value);
    // The file holds one triangle of a symmetric matrix: store the mirror too.
    if (mirrored && i != j) {
      rows.push_back(j);
      cols.push_back(i);
      if (header.field != Field::pattern)
        values.push_back(header.symmetry == Symmetry::skew_symmetric ? -value : value);
    }
  }
  if (seen < entries)
    throw ParseError(reader.file_name(), reader.line_number(),
                     "the size line declares " + std::to_string(entries) +
                         " entries but the file ends after " + std::to_string(seen) +
                         " (truncated?)");

  Graph graph;
  Csr<double> csr = detail::assemble_csr(nrows, ncols, std::move(rows), std::move(cols),
                                         std::move(values), detail::Duplicates::sum);
  graph.directed = !mirrored;
  if (options.symmetrize) {
    if (nrows != ncols)
      throw DimensionMismatch(reader.file_name() + ": cannot symmetrize a " +
                              std::to_string(nrows) + " x " + std::to_string(ncols) +
                              " matrix (not square)");
    if (graph.directed) csr = detail::symmetrize_min(csr);
    graph.directed = false;
  }
  graph.matrix = Matrix<double>(std::move(csr));
  graph.weighted = header.field != Field::pattern;
  graph.name = detail::graph_name(path);
  return graph;
}

Matrix<double> read_matrix_market(const std::filesystem::path& path) {
  return std::move(read_matrix_market_graph(path).matrix);
}

}  // namespace grb::io
