// Graph input and output: Matrix Market, edge lists (SNAP style), LDBC Graphalytics, the road
// and partitioning formats (9th DIMACS shortest-path .gr, METIS / DIMACS10 .graph,
// TransportationNetworks _net.tntp), and grb's own binary CSR for fast reloads. Every reader returns a host (Backend::cpu) matrix of doubles;
// move it with Matrix::to(Backend::cuda) when the GPU should hold it.
//
// Errors: a file that cannot be opened or read is a grb::IoError; malformed content is a
// grb::ParseError naming the file and line; read_graph adds which format the file was read as
// and the --format choices. A stored value 0.0 is an edge and is never dropped.
//
// Declared sizes are never trusted for memory: a header that claims more vertices or edges than
// the file can hold is a ParseError before anything of that size is allocated.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "grb/error.hpp"
#include "grb/matrix.hpp"
#include "grb/types.hpp"

namespace grb::io {

/// A graph as read from a file: the adjacency matrix (A(i, j) = weight of edge i -> j) and how
/// the file names its vertices.
struct Graph {
  /// The adjacency matrix with its values; empty (0 x 0) when pattern_only.
  Matrix<double> matrix;
  /// A graph kept without values (generated for an algorithm that reads none: BFS, CC, TC):
  /// its structure is `pattern`, and `matrix` is empty. Readers return matrix, never this.
  bool pattern_only = false;
  Matrix<bool> pattern;
  /// vertex_ids[i] is the file's own id of vertex i; empty when vertex i is named i in the file.
  std::vector<std::uint64_t> vertex_ids;
  /// False when the matrix is symmetric by construction (symmetric file, undirected LDBC graph,
  /// or ReadOptions::symmetrize).
  bool directed = true;
  /// False when the file gives no values (Matrix Market pattern, edge lists of two columns):
  /// every stored value is then 1.0.
  bool weighted = false;
  /// An LDBC properties file's BFS (else SSSP) source vertex, as the file's own id.
  std::optional<std::uint64_t> source;
  /// The file's stem (the LDBC graph name).
  std::string name;
};

/// The internal vertex (0..n-1) that the file calls `id`; throws grb::InvalidValue
/// ("vertex ID not in graph") when there is none. Linear in n when the ids are mapped.
Index to_internal(const Graph& graph, std::uint64_t id);
/// The file's own id of internal vertex `vertex`; throws grb::IndexOutOfBounds past n.
std::uint64_t to_external(const Graph& graph, Index vertex);

enum class Format { automatic, matrix_market, edge_list, ldbc, binary, dimacs, metis, tntp };

/// The short name: "auto", "mtx", "edges", "ldbc", "binary", "dimacs", "metis", "tntp".
std::string_view to_string(Format format);
/// Parses the short names above (and "automatic", "matrix-market", "edge-list", "grb", "gr",
/// "graph"); throws grb::InvalidValue listing the choices otherwise.
Format parse_format(std::string_view name);
/// The formats a file can be forced to, as the command line spells them:
/// "mtx|edges|ldbc|binary|dimacs|metis|tntp".
std::string_view format_choices();
/// What the format is, in words ("a METIS / DIMACS10 .graph file"), for messages.
std::string_view describe_format(Format format);

/// The format read_graph picks for `path` (a trailing .gz is looked through):
/// .mtx -> Matrix Market; .grb -> binary; .gr -> DIMACS; .graph -> METIS; .tntp -> TNTP;
/// .properties, or NAME where NAME.v and NAME.e exist, or NAME.v / NAME.e beside each other
/// -> LDBC. Any other name: the first non-blank line decides — "%%MatrixMarket" -> Matrix
/// Market, "p sp ..." or a "c" comment line -> DIMACS, a "<" metadata line -> TNTP; anything
/// else (or a file that cannot be read, or is no regular file, such as a pipe) -> edge list.
Format detect_format(const std::filesystem::path& path);

/// Which TNTP column becomes the edge weight.
enum class TntpWeight { length, free_flow_time };
/// "length" or "time".
std::string_view to_string(TntpWeight weight);
/// Parses "length", or "time" / "free-flow-time" / "free_flow_time"; InvalidValue otherwise.
TntpWeight parse_tntp_weight(std::string_view name);

/// True when grb was built with zlib, so that gzip-compressed text files can be read.
bool gzip_supported();

struct ReadOptions {
  /// Store both directions of every edge (A ∪ A'); where A(i,j) and A(j,i) are both present
  /// with different values, both become the smaller one (an undirected road of the shorter
  /// length). The result has directed = false.
  bool symmetrize = false;
  /// Progress lines on stderr, every 10% of a file larger than 50 MB.
  bool progress = false;
  Format format = Format::automatic;
  /// TNTP files: the column that gives the weights.
  TntpWeight tntp_weight = TntpWeight::length;
};

/// Reads any supported format (see detect_format, or options.format). A grb::ParseError from
/// the reader keeps its file and line, and its message ends with the format the file was read
/// as and the --format choices, e.g. "(read as an edge list; if it is another format, pass
/// --format mtx|edges|ldbc|binary|dimacs|metis|tntp)".
Graph read_graph(const std::filesystem::path& path, const ReadOptions& options = {});

/// Matrix Market "coordinate" files: fields pattern, integer or real; symmetry general,
/// symmetric or skew-symmetric (expanded to both triangles; skew negates the mirror).
/// Indices are 1-based in the file, 0-based in the matrix. Duplicate entries are summed
/// (pattern duplicates stay 1.0). Dense "array", complex and hermitian files are rejected.
/// The Graph is directed unless the file is symmetric or skew-symmetric (or symmetrize is set);
/// weighted unless the field is pattern. vertex_ids stay empty.
Graph read_matrix_market_graph(const std::filesystem::path& path, const ReadOptions& options = {});
Matrix<double> read_matrix_market(const std::filesystem::path& path);

/// One part of a Matrix Market file's entries, for ranks that share a file (the distributed
/// layer): the text after the size line, cut at line ends into `parts` pieces of about equal
/// bytes, and piece `part` parsed. The banner and size line are checked as read_matrix_market
/// checks them (a ParseError alike on every part).
struct MatrixMarketPart {
  Index nrows = 0, ncols = 0;
  std::uint64_t declared_entries = 0;  // the size line's count
  std::uint64_t lines = 0;             // entry lines in this part
  bool weighted = false;               // the field is not pattern
  bool symmetric = false;              // (skew-)symmetric: each entry's mirror follows it
  /// False when the part holds a line that this fast parse does not take (a malformed entry,
  /// or a value out of double's range), or the file is compressed: read it whole
  /// (read_matrix_market_graph), which reports a problem at its line.
  bool parsed = false;
  std::vector<Index> rows, cols;  // 0-based
  std::vector<double> values;     // empty for pattern files
};
MatrixMarketPart read_matrix_market_part(const std::filesystem::path& path, std::size_t part,
                                         std::size_t parts);

/// Edge lists: one `source destination [weight]` per line, separated by spaces, tabs or
/// commas; lines starting with '#' or '%' are comments; CRLF line ends are fine. Ids are
/// non-negative integers and keep their meaning: while the largest id is below 2^32-1 and
/// not much larger than the edge count (max id < 2^20 + 8 * edges), vertex i is id i
/// (n = max id + 1, isolated ids included) and vertex_ids stays empty; otherwise the
/// distinct ids are numbered in ascending order and vertex_ids holds them. The first edge
/// line decides whether the file has weights; every line must then agree. Duplicate edges
/// keep one entry, with the weight of the last occurrence in the file. The graph is
/// directed unless options.symmetrize is set.
Graph read_edge_list(const std::filesystem::path& path, const ReadOptions& options = {});

/// LDBC Graphalytics: `path` is NAME.properties, or NAME (or NAME.v / NAME.e) beside NAME.v
/// and NAME.e. The properties file gives the vertex and edge files (relative to its folder),
/// `directed`, the weight column (edge-properties.names) and the BFS / SSSP source vertex.
/// Vertex i is the i-th id of the vertex file (file order); vertex_ids holds them all.
/// Undirected graphs are symmetrized. Duplicate edges keep the last weight.
/// Upstream slip: some properties files (test-sssp-undirected, test-wcc-directed) name the
/// vertex file as the edge file. When the named edge file is the vertex file, or its first
/// line holds a single column, and NAME.e exists, NAME.e is read instead.
/// Without a properties file the graph is directed (unless symmetrize) and weighted when
/// the edge lines have a third column.
Graph read_ldbc(const std::filesystem::path& path, const ReadOptions& options = {});

/// 9th DIMACS Implementation Challenge shortest-path graphs (.gr, as USA-road-d.*.gr and the
/// GAP benchmark suite use): comment lines starting with `c`, one problem line `p sp N M` before any arc,
/// then M arc lines `a U V W` (U -> V of weight W; ids 1..N in the file, 0..N-1 in the matrix;
/// vertex_ids stays empty). Blank lines are skipped. The weights are integers in the
/// specification; any real number is accepted. Checked: exactly one problem line, of type sp;
/// every id within 1..N; exactly M arc lines (more, at the first extra line; fewer, at the end).
/// Duplicate arcs keep the smallest weight (the one a shortest path uses); self loops are kept.
/// Directed and weighted; options.symmetrize stores both directions (the smaller weight where
/// both exist). Sanity bounds before allocating: an arc line takes at least 6 bytes, so M may
/// not exceed the file's size / 6 (for gzip files, its inflated size at deflate's best ratio),
/// and N may not exceed 2^20 + 8 M (more is no graph, only a corrupt header).
Graph read_dimacs(const std::filesystem::path& path, const ReadOptions& options = {});
/// Writes `graph` as a DIMACS .gr file: a `c` line naming the graph, `p sp N M` with M the
/// stored entries, and one `a U V W` line per stored entry in row order (ids 1-based). An
/// unweighted graph writes weight 1 on every arc. DIMACS weights are integers: a weighted
/// graph with any value that is not a whole number of at most 2^53 in magnitude (1.5, inf,
/// nan) is refused with grb::InvalidValue naming the first such arc, and nothing is written.
/// The file's own vertex ids (vertex_ids) are not kept: vertex i is written as i + 1.
/// A non-square matrix is a grb::DimensionMismatch.
void write_dimacs(const std::filesystem::path& path, const Graph& graph);

/// METIS / DIMACS10 graphs (.graph, as METIS, KaHIP, NetworKit and the 10th DIMACS Challenge
/// use): after `%` comment lines, the header `N M [FMT [NCON]]` (M counts undirected edges),
/// then one line per vertex, in order, listing its neighbours (1-based in the file, 0-based in
/// the matrix). After the header a blank line is a vertex without neighbours: blank lines are
/// not skipped (those after the N-th vertex line are ignored). FMT has up to three digits
/// "abc": a = 1, each line starts with the vertex size; b = 1, then NCON (default 1) vertex
/// weights; c = 1, each neighbour is followed by the edge weight. Vertex sizes and weights are
/// checked to be non-negative integers and dropped (grb graphs have no vertex weights); edge
/// weights may be any real number (NetworKit writes non-integer ones). Checked: the neighbour
/// entries total 2M (a self loop, listed once by its vertex, counts twice), every neighbour is
/// within 1..N, the file has N vertex lines, and the lists agree (u lists v exactly when v
/// lists u). Where u's and v's lines give the edge different weights, both directions take the
/// smaller; duplicate entries keep the smallest weight. The Graph is undirected (the matrix is
/// symmetric), weighted when c = 1; vertex_ids stays empty. Sanity bound before allocating:
/// every vertex needs a line, so N may not exceed the bytes of the file (for gzip files, its
/// inflated size at deflate's best ratio), nor 2M the number of bytes.
Graph read_metis(const std::filesystem::path& path, const ReadOptions& options = {});

/// TransportationNetworks `_net.tntp` files (github.com/bstabler/TransportationNetworks):
/// `<KEY> value` metadata lines up to `<END OF METADATA>` (`<NUMBER OF NODES>` is required and
/// gives N; `<NUMBER OF LINKS>`, when present, must equal the number of link lines), then a
/// `~` line naming the columns (`~ init_node term_node capacity length free_flow_time ... ;`),
/// then one link per line, usually ending in `;`. Columns are found by name in the `~` line
/// (init_node / term_node, or tail / head; length; free_flow_time, or fftt), case-insensitive;
/// without a `~` line the standard order above is assumed. Later `~` lines and blank lines are
/// skipped. The weight is the `length` column, or `free_flow_time` with
/// options.tntp_weight. Nodes are 1..N in the file, 0..N-1 in the matrix (vertex_ids stays
/// empty); zones (nodes below `<FIRST THRU NODE>`) are ordinary vertices. Duplicate links
/// (parallel roads) keep the smallest weight. Directed and weighted; options.symmetrize stores
/// both directions. Sanity bounds before allocating: the declared links may not exceed the
/// file's size / 6, and N may not exceed 2^20 + 8 per link.
Graph read_tntp(const std::filesystem::path& path, const ReadOptions& options = {});

/// grb's binary CSR (extension .grb), for fast reloads of converted graphs. Little-endian:
///   magic "\x89GRBCSR\n", u32 version (1), u32 flags (1 directed, 2 weighted, 4 vertex ids,
///   8 source), u64 nrows, ncols, nvals, source, name length; the name; then row offsets
///   (nrows + 1 u64), column ids (nvals u32), values (nvals f64), vertex ids (nrows u64, if
///   flagged); then a u64 checksum (FNV-1a over 8-byte words) of everything before it.
/// read_binary checks magic, version, sizes against the file length, the checksum and the CSR
/// structure; any mismatch is a grb::ParseError naming the file (at line 0: binary files have
/// no lines; the message says what is wrong).
void write_binary(const std::filesystem::path& path, const Graph& graph);
Graph read_binary(const std::filesystem::path& path);

namespace detail {

/// Buffered text output for the writers; throws grb::IoError naming the file on failure.
class TextFileWriter {
 public:
  explicit TextFileWriter(const std::filesystem::path& path);
  TextFileWriter(const TextFileWriter&) = delete;
  TextFileWriter& operator=(const TextFileWriter&) = delete;
  ~TextFileWriter();

  void write(std::string_view text);
  /// Appends a number in its shortest exact (round-trip) form.
  template <class Number>
  void write_number(Number value) {
    if (buffer_.size() + 64 > buffer_limit) flush();
    const std::size_t used = buffer_.size();
    buffer_.resize(used + 64);
    auto [end, error] = std::to_chars(buffer_.data() + used, buffer_.data() + used + 64, value);
    buffer_.resize(error == std::errc{} ? static_cast<std::size_t>(end - buffer_.data()) : used);
  }
  /// Flushes and closes; a failure here (disk full) is an IoError.
  void close();

 private:
  static constexpr std::size_t buffer_limit = std::size_t{1} << 22;
  void flush();
  std::string file_name_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
};

}  // namespace detail

/// Writes a Matrix Market coordinate file, 1-based, "general": field pattern for bool
/// matrices (every stored entry, even a false one, is written as an edge), integer for
/// integral types, real otherwise (values in shortest exact form).
template <class T>
void write_matrix_market(const std::filesystem::path& path, const Matrix<T>& matrix) {
  const Csr<T> copy = matrix.backend() == Backend::cpu ? Csr<T>{} : matrix.csr().to(Backend::cpu);
  const Csr<T>& host = matrix.backend() == Backend::cpu ? matrix.csr() : copy;
  constexpr bool pattern = std::is_same_v<T, bool>;
  const char* field = pattern ? "pattern" : std::is_integral_v<T> ? "integer" : "real";
  detail::TextFileWriter out(path);
  out.write("%%MatrixMarket matrix coordinate ");
  out.write(field);
  out.write(" general\n");
  out.write_number(std::uint64_t{host.nrows});
  out.write(" ");
  out.write_number(std::uint64_t{host.ncols});
  out.write(" ");
  out.write_number(std::uint64_t{host.nvals()});
  out.write("\n");
  for (Index i = 0; i < host.nrows; ++i) {
    for (Offset e = host.row_offsets[i]; e < host.row_offsets[i + 1]; ++e) {
      out.write_number(std::uint64_t{i} + 1);
      out.write(" ");
      out.write_number(std::uint64_t{host.col_indices[e]} + 1);
      if constexpr (!pattern) {
        out.write(" ");
        out.write_number(host.values[e]);
      }
      out.write("\n");
    }
  }
  out.close();
}

}  // namespace grb::io
