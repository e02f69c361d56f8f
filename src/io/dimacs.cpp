// 9th DIMACS Implementation Challenge shortest-path graphs (.gr): reader and writer
// (http://www.diag.uniroma1.it/challenge9/format.shtml).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "csr_assembly.hpp"
#include "fields.hpp"
#include "grb/io.hpp"
#include "line_reader.hpp"
#include "numbered_graph.hpp"

namespace grb::io {

namespace {

using detail::FieldSplitter;

/// A number in its shortest exact form, for messages.
std::string shortest(double value) {
  char text[64];
  auto [end, error] = std::to_chars(text, text + sizeof text, value);
  return error == std::errc{} ? std::string(text, end) : std::to_string(value);
}

/// An arc's weight: an integer as the specification has it (the fast path), else any real.
double parse_weight(std::string_view field, const detail::LineReader& reader) {
  std::uint64_t whole = 0;
  const char* end = field.data() + field.size();
  auto [stop, error] = std::from_chars(field.data(), end, whole);
  if (error == std::errc{} && stop == end && whole <= (std::uint64_t{1} << 53))
    return static_cast<double>(whole);
  return detail::parse_real(field, reader, "weight");
}

/// The graph's name for the comment line: one line, whatever the file was called.
std::string comment_text(const std::string& name) {
  std::string text = name.empty() ? "graph" : name;
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return text;
}
using detail::LineReader;

/// The shortest arc line, "a 1 1 0" and its line end, is 8 bytes; 6 leaves room for the last
/// line's missing line end and is what the bound promises.
constexpr std::uint64_t least_arc_bytes = 6;

struct Problem {
  Index n = 0;
  std::uint64_t m = 0;
  std::size_t line = 0;
};

/// The problem line `p sp N M`, checked against the file's size.
Problem parse_problem(std::string_view line, const LineReader& reader) {
  FieldSplitter fields(line, false);
  std::string_view p, type, n_field, m_field, extra;
  fields.next(p);
  if (!fields.next(type) || !fields.next(n_field) || !fields.next(m_field))
    reader.fail("problem line " + detail::quoted(line) + " must be 'p sp VERTICES ARCS'");
  if (type != "sp")
    reader.fail("problem type " + detail::quoted(type) +
                " is not a shortest-path graph (expected 'p sp VERTICES ARCS')");
  if (fields.next(extra)) reader.fail("unexpected " + detail::quoted(extra) + " after 'p sp N M'");
  Problem problem;
  problem.n = detail::parse_vertex_count(n_field, reader, "vertex count");
  problem.m = detail::parse_unsigned(m_field, reader, "arc count");
  problem.line = reader.line_number();
  const std::uint64_t bytes = detail::text_bytes_bound(reader);
  if (problem.m > bytes / least_arc_bytes + 1)
    reader.fail("the problem line declares " + std::to_string(problem.m) + " arcs, but a file of " +
                std::to_string(reader.file_bytes()) + " bytes" +
                (reader.compressed() ? " (compressed)" : "") + " holds at most " +
                std::to_string(bytes / least_arc_bytes + 1) + " arc lines");
  if (problem.n > detail::plausible_vertices(problem.m))
    reader.fail("the problem line declares " + std::to_string(problem.n) + " vertices for " +
                std::to_string(problem.m) + " arcs: more than 2^20 + 8 per arc is no graph "
                "(a corrupt header?)");
  return problem;
}

}  // namespace

Graph read_dimacs(const std::filesystem::path& path, const ReadOptions& options) {
  LineReader reader(path, options.progress);
  std::optional<Problem> problem;
  std::vector<Index> rows, cols;
  std::vector<double> weights;
  std::uint64_t arcs = 0;
  std::string_view line;
  while (reader.next(line)) {
    line = detail::trim(line);
    if (line.empty()) continue;
    const char kind = line[0];
    // A type letter is a field of its own ("a 1 2 3"); a comment is any line starting with 'c'
    // ("c", "c text", and "ctext" as some writers have it).
    const bool alone = line.size() == 1 || detail::is_blank(line[1]);
    if (kind == 'c') continue;
    if (kind == 'p' && alone) {
      if (problem)
        reader.fail("a second problem line (the first is line " + std::to_string(problem->line) +
                    ")");
      problem = parse_problem(line, reader);
      // M is bounded by the file's size; for gzip files, whose bound is loose, reserve no more
      // than an arc per compressed byte (the vectors grow if there are more).
      const std::size_t reserve = static_cast<std::size_t>(
          reader.compressed() ? std::min<std::uint64_t>(problem->m, reader.file_bytes())
                              : problem->m);
      rows.reserve(reserve);
      cols.reserve(reserve);
      weights.reserve(reserve);
      continue;
    }
    if (kind == 'a' && alone) {
      if (!problem) reader.fail("arc line before the problem line 'p sp VERTICES ARCS'");
      if (arcs == problem->m)
        reader.fail("more arc lines than the " + std::to_string(problem->m) +
                    " declared on the problem line (line " + std::to_string(problem->line) + ")");
      FieldSplitter fields(line, false);
      std::string_view a, u_field, v_field, w_field, extra;
      fields.next(a);
      if (!fields.next(u_field) || !fields.next(v_field) || !fields.next(w_field))
        reader.fail("arc line " + detail::quoted(line) + " must be 'a FROM TO WEIGHT'");
      if (fields.next(extra))
        reader.fail("unexpected " + detail::quoted(extra) + " after the arc's weight");
      rows.push_back(detail::parse_vertex(u_field, reader, "tail vertex", problem->n));
      cols.push_back(detail::parse_vertex(v_field, reader, "head vertex", problem->n));
      weights.push_back(parse_weight(w_field, reader));
      ++arcs;
      continue;
    }
    if (kind == 'v' && alone)
      reader.fail("a coordinate line 'v ID X Y': this is a DIMACS .co coordinate file, not a "
                  ".gr graph");
    reader.fail("line " + detail::quoted(line) +
                " is none of the DIMACS .gr lines ('c' comment, 'p sp N M', 'a U V W')");
  }
  if (!problem)
    throw ParseError(reader.file_name(), reader.line_number(),
                     "no problem line 'p sp VERTICES ARCS': not a DIMACS .gr file");
  if (arcs < problem->m)
    throw ParseError(reader.file_name(), reader.line_number(),
                     "the problem line (line " + std::to_string(problem->line) + ") declares " +
                         std::to_string(problem->m) + " arcs but the file ends after " +
                         std::to_string(arcs) + " (truncated?)");

  return detail::weighted_arcs_graph(problem->n, std::move(rows), std::move(cols),
                                     std::move(weights), detail::graph_name(path), options);
}

void write_dimacs(const std::filesystem::path& path, const Graph& graph) {
  const Matrix<double>& matrix = graph.matrix;
  if (matrix.nrows() != matrix.ncols())
    throw DimensionMismatch(path.string() + ": a DIMACS .gr graph must be square, not " +
                            std::to_string(matrix.nrows()) + " x " +
                            std::to_string(matrix.ncols()));
  const Csr<double> copy =
      matrix.backend() == Backend::cpu ? Csr<double>{} : matrix.csr().to(Backend::cpu);
  const Csr<double>& host = matrix.backend() == Backend::cpu ? matrix.csr() : copy;
  // Every weight is checked before the file is created: a refused graph leaves no file behind.
  constexpr double exact_limit = 9007199254740992.0;  // 2^53
  if (graph.weighted) {
    for (Index i = 0; i < host.nrows; ++i) {
      for (Offset e = host.row_offsets[i]; e < host.row_offsets[i + 1]; ++e) {
        const double w = host.values[e];
        if (!(std::abs(w) <= exact_limit) || w != std::trunc(w))
          throw InvalidValue(
              path.string() + ": DIMACS .gr weights are integers, but arc " +
              std::to_string(std::uint64_t{i} + 1) + " -> " +
              std::to_string(std::uint64_t{host.col_indices[e]} + 1) + " has weight " +
              shortest(w) +
              " (round the weights, or write .mtx or .grb, which keep real values)");
      }
    }
  }
  detail::TextFileWriter out(path);
  out.write("c ");
  out.write(comment_text(graph.name));
  out.write(", written by grb: ");
  out.write(graph.weighted ? "weights as stored" : "unweighted, every arc of weight 1");
  out.write("\np sp ");
  out.write_number(std::uint64_t{host.nrows});
  out.write(" ");
  out.write_number(std::uint64_t{host.nvals()});
  out.write("\n");
  for (Index i = 0; i < host.nrows; ++i) {
    for (Offset e = host.row_offsets[i]; e < host.row_offsets[i + 1]; ++e) {
      out.write("a ");
      out.write_number(std::uint64_t{i} + 1);
      out.write(" ");
      out.write_number(std::uint64_t{host.col_indices[e]} + 1);
      out.write(" ");
      out.write_number(graph.weighted ? static_cast<std::int64_t>(host.values[e])
                                      : std::int64_t{1});
      out.write("\n");
    }
  }
  out.close();
}

}  // namespace grb::io
