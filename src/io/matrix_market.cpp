// Matrix Market coordinate reader (https://math.nist.gov/MatrixMarket/formats.html).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"
#include "text_pieces.hpp"

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

/// The entries of the file, in file order, the mirror of each off-diagonal entry of a
/// symmetric file right after it; values empty for pattern files.
struct Entries {
  std::vector<Index> rows, cols;
  std::vector<double> values;
};

/// The entry lines after the size line, one at a time: every malformed line is reported at its
/// exact line.
void parse_entries(LineReader& reader, const Header& header, Index nrows, Index ncols,
                   std::uint64_t entries, Entries& parsed) {
  const bool mirrored = header.symmetry != Symmetry::general;
  std::vector<Index>& rows = parsed.rows;
  std::vector<Index>& cols = parsed.cols;
  std::vector<double>& values = parsed.values;
  // Every entry line takes at least 4 bytes ("1 1\n"): never reserve more than the file holds,
  // whatever the size line claims.
  const std::uint64_t reservable = std::min<std::uint64_t>(entries, reader.file_bytes() / 4 + 1);
  const std::size_t slots = static_cast<std::size_t>(reservable) * (mirrored ? 2 : 1);
  rows.reserve(slots);
  cols.reserve(slots);
  if (header.field != Field::pattern) values.reserve(slots);

  std::string_view line;
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

}

template <class Number>
bool whole_number(std::string_view field, Number& value) {
  const char* end = field.data() + field.size();
  auto [stop, error] = std::from_chars(field.data(), end, value);
  return error == std::errc{} && stop == end;
}

/// Where one thread writes its piece's entries: slots of the final columns.
struct EntrySlots {
  Index* rows;
  Index* cols;
  double* values;  // null for pattern files
  std::uint64_t written = 0;
};

/// Parses the entry lines of one piece into its slots. Only plain entries are taken: false at
/// the first line that the one-line-at-a-time parse would reject, or would read through a
/// slower route (a value out of double's range).
bool parse_piece(std::string_view piece, const Header& header, Index nrows, Index ncols,
                 EntrySlots& out) {
  const bool mirrored = header.symmetry != Symmetry::general;
  const bool pattern = header.field == Field::pattern;
  detail::PieceLines lines(piece);
  std::string_view line;
  while (lines.next(line)) {
    line = detail::trim(line);
    if (line.empty() || line[0] == '%') continue;
    FieldSplitter fields(line, false);
    std::string_view row_field, col_field, value_field, extra;
    std::uint64_t i = 0, j = 0;
    fields.next(row_field);
    if (!fields.next(col_field) || !whole_number(row_field, i) || !whole_number(col_field, j) ||
        i == 0 || i > nrows || j == 0 || j > ncols)
      return false;
    double value = 1.0;
    if (!pattern) {
      std::int64_t integer = 0;
      if (!fields.next(value_field)) return false;
      value_field = detail::without_plus(value_field);
      if (header.field == Field::real ? !whole_number(value_field, value)
                                      : !whole_number(value_field, integer))
        return false;
      if (header.field == Field::integer) value = static_cast<double>(integer);
    }
    if (fields.next(extra) || (header.symmetry == Symmetry::skew_symmetric && i == j))
      return false;
    const Index row = static_cast<Index>(i - 1), col = static_cast<Index>(j - 1);
    std::uint64_t& slot = out.written;
    out.rows[slot] = row;
    out.cols[slot] = col;
    if (!pattern) out.values[slot] = value;
    ++slot;
    if (mirrored && row != col) {
      out.rows[slot] = col;
      out.cols[slot] = row;
      if (!pattern) out.values[slot] = header.symmetry == Symmetry::skew_symmetric ? -value : value;
      ++slot;
    }
  }
  return true;
}

/// The entry lines parsed by several threads, for large plain files: each piece's entry lines
/// are counted first, so that every thread writes straight into its own part of the final
/// columns. False (and nothing parsed) when the file is small or compressed, when the entry
/// lines are not as many as the size line says, or when any piece met a line it does not take:
/// parse_entries then reads the entries from where `reader` stands and reports the first
/// problem at its exact line.
bool parse_entries_in_parallel(const LineReader& reader, const Header& header, Index nrows,
                               Index ncols, std::uint64_t entries, Entries& parsed) {
  if (reader.compressed() ||
      reader.file_bytes() < reader.offset() + detail::piece_sizing().piece_bytes)
    return false;
  const detail::MappedText mapped(reader.file_name(), reader.offset());
  const std::vector<std::string_view> pieces =
      detail::split_at_lines(mapped.text(), detail::parse_workers(mapped.text().size()));
  std::vector<std::uint64_t> lines(pieces.size());
  detail::parallel_for(pieces.size(), [&](std::size_t k) {
    lines[k] = detail::count_content_lines(pieces[k], "%");
  });
  std::uint64_t total = 0;
  for (std::uint64_t count : lines) total += count;
  if (total != entries) return false;

  // A symmetric file's off-diagonal entries take two slots: each piece gets room for two, and
  // the pieces close ranks afterwards.
  const std::uint64_t slots_per_line = header.symmetry == Symmetry::general ? 1 : 2;
  const bool pattern = header.field == Field::pattern;
  parsed.rows.resize(static_cast<std::size_t>(total * slots_per_line));
  parsed.cols.resize(parsed.rows.size());
  if (!pattern) parsed.values.resize(parsed.rows.size());
  std::vector<EntrySlots> slots;
  std::vector<std::uint64_t> first(pieces.size());
  for (std::size_t k = 0, start = 0; k < pieces.size(); start += lines[k] * slots_per_line, ++k) {
    first[k] = start;
    slots.push_back({parsed.rows.data() + start, parsed.cols.data() + start,
                     pattern ? nullptr : parsed.values.data() + start});
  }
  std::vector<char> ok(pieces.size(), 0);
  detail::parallel_for(pieces.size(), [&](std::size_t k) {
    ok[k] = parse_piece(pieces[k], header, nrows, ncols, slots[k]);
  });
  if (std::find(ok.begin(), ok.end(), 0) != ok.end()) {
    parsed = Entries{};
    return false;
  }
  std::size_t end = 0;
  auto close_ranks = [&](auto& column, std::size_t from, std::size_t count) {
    std::copy(column.begin() + static_cast<std::ptrdiff_t>(from),
              column.begin() + static_cast<std::ptrdiff_t>(from + count),
              column.begin() + static_cast<std::ptrdiff_t>(end));
  };
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const std::size_t written = static_cast<std::size_t>(slots[k].written);
    const std::size_t from = static_cast<std::size_t>(first[k]);
    if (end != from) {
      close_ranks(parsed.rows, from, written);
      close_ranks(parsed.cols, from, written);
      if (!pattern) close_ranks(parsed.values, from, written);
    }
    end += written;
  }
  parsed.rows.resize(end);
  parsed.cols.resize(end);
  if (!pattern) parsed.values.resize(end);
  return true;
}

/// What precedes the entries.
struct Preamble {
  Header header;
  Index nrows = 0, ncols = 0;
  std::uint64_t entries = 0;
};

/// The banner and the size line, checked; `reader` is left at the first entry line.
Preamble read_preamble(LineReader& reader) {
  Preamble preamble;
  const Header header = parse_banner(reader);
  preamble.header = header;

  std::string_view line;
  if (!next_content_line(reader, line))
    reader.fail("missing size line 'ROWS COLUMNS ENTRIES' after the banner");
  Index& nrows = preamble.nrows;
  Index& ncols = preamble.ncols;
  std::uint64_t& entries = preamble.entries;
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

  // Each entry line takes at least 4 bytes ("1 1\n"): an uncompressed file that declares more
  // entries than that is cut short, and is refused before anything is reserved for them.
  if (reader.size_known() && !reader.compressed() && entries > reader.file_bytes() / 4 + 1)
    reader.fail("the size line declares " + std::to_string(entries) + " entries, more than a " +
                std::to_string(reader.file_bytes()) +
                "-byte file can hold (each entry line takes at least 4 bytes)");
  return preamble;
}

}  // namespace

Graph read_matrix_market_graph(const std::filesystem::path& path, const ReadOptions& options) {
  LineReader reader(path, options.progress);
  const Preamble preamble = read_preamble(reader);
  const Header& header = preamble.header;
  const Index nrows = preamble.nrows, ncols = preamble.ncols;
  const std::uint64_t entries = preamble.entries;
  const bool mirrored = header.symmetry != Symmetry::general;
  // Row offsets, and per stored entry its tuple while parsing plus its CSR slot (an index and a
  // value each), mirrored entries twice: known before anything is read.
  const std::uint64_t stored = entries * (mirrored ? 2 : 1);
  grb::detail::check_host_memory(
      static_cast<std::size_t>((std::uint64_t{nrows} + 1) * sizeof(Offset) + stored * 2 * 16),
      "the " + std::to_string(nrows) + " x " + std::to_string(ncols) + " matrix of " +
          std::to_string(entries) + " entries in " + reader.file_name());

  Entries parsed;
  if (!parse_entries_in_parallel(reader, header, nrows, ncols, entries, parsed))
    parse_entries(reader, header, nrows, ncols, entries, parsed);

  Graph graph;
  Csr<double> csr = detail::assemble_csr(nrows, ncols, std::move(parsed.rows),
                                         std::move(parsed.cols), std::move(parsed.values),
                                         detail::Duplicates::sum);
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
  // Skew-symmetric files mirror with negated values: their structure is symmetric, the matrix not.
  if (header.symmetry == Symmetry::symmetric ||
      (options.symmetrize && header.symmetry == Symmetry::general))
    graph.matrix.mark_symmetric();
  graph.weighted = header.field != Field::pattern;
  graph.name = detail::graph_name(path);
  return graph;
}

MatrixMarketPart read_matrix_market_part(const std::filesystem::path& path, std::size_t part,
                                         std::size_t parts) {
  if (parts == 0 || part >= parts)
    throw InvalidValue("read_matrix_market_part: part " + std::to_string(part) + " of " +
                       std::to_string(parts));
  LineReader reader(path, false);
  const Preamble preamble = read_preamble(reader);
  const Header& header = preamble.header;
  MatrixMarketPart result;
  result.nrows = preamble.nrows;
  result.ncols = preamble.ncols;
  result.declared_entries = preamble.entries;
  result.weighted = header.field != Field::pattern;
  result.symmetric = header.symmetry != Symmetry::general;
  if (reader.compressed()) return result;  // no byte ranges in a compressed stream
  const detail::MappedText mapped(reader.file_name(), reader.offset());
  const std::vector<std::string_view> pieces = detail::split_at_lines(mapped.text(), parts);
  if (part >= pieces.size()) {  // less text than parts: this part is empty
    result.parsed = true;
    return result;
  }
  result.lines = detail::count_content_lines(pieces[part], "%");
  const std::uint64_t slots = result.lines * (result.symmetric ? 2 : 1);
  grb::detail::check_host_memory(static_cast<std::size_t>(slots * 16),
                                 "part " + std::to_string(part) + " of " + std::to_string(parts) +
                                     " of " + reader.file_name());
  result.rows.resize(static_cast<std::size_t>(slots));
  result.cols.resize(result.rows.size());
  if (result.weighted) result.values.resize(result.rows.size());
  EntrySlots out{result.rows.data(), result.cols.data(),
                 result.weighted ? result.values.data() : nullptr};
  result.parsed = parse_piece(pieces[part], header, result.nrows, result.ncols, out);
  result.rows.resize(static_cast<std::size_t>(out.written));
  result.cols.resize(result.rows.size());
  if (result.weighted) result.values.resize(result.rows.size());
  return result;
}

Matrix<double> read_matrix_market(const std::filesystem::path& path) {
  return std::move(read_matrix_market_graph(path).matrix);
}

}  // namespace grb::io
