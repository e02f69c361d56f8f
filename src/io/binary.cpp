// grb's binary CSR format (layout in include/grb/io.hpp).
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "grb/io.hpp"

namespace grb::io {

static_assert(std::endian::native == std::endian::little,
              "the binary graph format is little-endian; this host is not");

namespace {

constexpr char magic[8] = {'\x89', 'G', 'R', 'B', 'C', 'S', 'R', '\n'};
constexpr std::uint32_t format_version = 1;
constexpr std::uint64_t max_name_bytes = 4096;

enum Flag : std::uint32_t { directed = 1, weighted = 2, has_vertex_ids = 4, has_source = 8 };
constexpr std::uint32_t known_flags = directed | weighted | has_vertex_ids | has_source;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t flags;
  std::uint64_t nrows, ncols, nvals, source, name_bytes;
};
static_assert(sizeof(Header) == 56);

/// FNV-1a, 64-bit, taken over 8-byte little-endian words (a byte at a time is too slow for
/// multi-gigabyte files); a last partial word is zero-padded.
class Checksum {
 public:
  void update(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    if (pending_bytes_ != 0) {
      const std::size_t take = std::min(bytes, 8 - pending_bytes_);
      std::memcpy(pending_ + pending_bytes_, p, take);
      pending_bytes_ += take, p += take, bytes -= take;
      if (pending_bytes_ < 8) return;
      mix_pending();
    }
    for (; bytes >= 8; p += 8, bytes -= 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      mix(word);
    }
    std::memcpy(pending_, p, bytes);
    pending_bytes_ = bytes;
  }
  std::uint64_t value() {
    if (pending_bytes_ != 0) {
      std::memset(pending_ + pending_bytes_, 0, 8 - pending_bytes_);
      mix_pending();
    }
    return hash_;
  }

 private:
  void mix(std::uint64_t word) { hash_ = (hash_ ^ word) * 0x100000001b3ull; }
  void mix_pending() {
    std::uint64_t word;
    std::memcpy(&word, pending_, 8);
    mix(word);
    pending_bytes_ = 0;
  }
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
  unsigned char pending_[8] = {};
  std::size_t pending_bytes_ = 0;
};

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

class Writer {
 public:
  explicit Writer(const std::filesystem::path& path) : name_(path.string()) {
    file_.reset(std::fopen(name_.c_str(), "wb"));
    if (!file_) throw IoError("cannot create " + name_ + ": " + std::strerror(errno));
  }
  void write(const void* data, std::size_t bytes) {
    if (bytes == 0) return;
    checksum_.update(data, bytes);
    if (std::fwrite(data, 1, bytes, file_.get()) != bytes)
      throw IoError("cannot write " + name_ + ": " + std::strerror(errno));
  }
  void finish() {
    const std::uint64_t sum = checksum_.value();
    if (std::fwrite(&sum, sizeof sum, 1, file_.get()) != 1 || std::fclose(file_.release()) != 0)
      throw IoError("cannot write " + name_ + ": " + std::strerror(errno));
  }

 private:
  std::string name_;
  File file_;
  Checksum checksum_;
};

class Reader {
 public:
  explicit Reader(const std::filesystem::path& path) : name_(path.string()) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
      throw IoError("cannot read " + name_ + ": it is a directory");
    file_.reset(std::fopen(name_.c_str(), "rb"));
    if (!file_) throw IoError("cannot open " + name_ + ": " + std::strerror(errno));
    size_ = std::filesystem::file_size(path, error);
    if (error) throw IoError("cannot read " + name_ + ": " + error.message());
  }
  std::uint64_t size() const { return size_; }
  void read(void* data, std::size_t bytes) {
    if (bytes == 0) return;
    if (std::fread(data, 1, bytes, file_.get()) != bytes) {
      if (std::ferror(file_.get()))
        throw IoError("cannot read " + name_ + ": " + std::strerror(errno));
      fail("truncated file");
    }
    checksum_.update(data, bytes);
  }
  std::uint64_t checksum() { return checksum_.value(); }
  /// Binary files have no lines: errors name line 0 and say where in the file.
  [[noreturn]] void fail(const std::string& message) const { throw ParseError(name_, 0, message); }

 private:
  std::string name_;
  File file_;
  std::uint64_t size_ = 0;
  Checksum checksum_;
};

}  // namespace

void write_binary(const std::filesystem::path& path, const Graph& graph) {
  const Matrix<double>& matrix = graph.matrix;
  const Csr<double> copy = matrix.backend() == Backend::cpu ? Csr<double>{} : matrix.csr().to(Backend::cpu);
  const Csr<double>& csr = matrix.backend() == Backend::cpu ? matrix.csr() : copy;
  if (!graph.vertex_ids.empty() && graph.vertex_ids.size() != csr.nrows)
    throw InvalidValue("write_binary: the graph has " + std::to_string(graph.vertex_ids.size()) +
                       " vertex ids for " + std::to_string(csr.nrows) + " vertices");
  if (graph.name.size() > max_name_bytes)
    throw InvalidValue("write_binary: graph name longer than " + std::to_string(max_name_bytes) + " bytes");

  Header header{};
  std::memcpy(header.magic, magic, sizeof magic);
  header.version = format_version;
  header.flags = (graph.directed ? directed : 0u) | (graph.weighted ? weighted : 0u) |
                 (graph.vertex_ids.empty() ? 0u : has_vertex_ids) | (graph.source ? has_source : 0u);
  header.nrows = csr.nrows;
  header.ncols = csr.ncols;
  header.nvals = csr.nvals();
  header.source = graph.source.value_or(0);
  header.name_bytes = graph.name.size();

  Writer out(path);
  out.write(&header, sizeof header);
  out.write(graph.name.data(), graph.name.size());
  out.write(csr.row_offsets.data(), csr.row_offsets.size() * sizeof(Offset));
  out.write(csr.col_indices.data(), csr.col_indices.size() * sizeof(Index));
  out.write(csr.values.data(), csr.values.size() * sizeof(double));
  out.write(graph.vertex_ids.data(), graph.vertex_ids.size() * sizeof(std::uint64_t));
  out.finish();
}

Graph read_binary(const std::filesystem::path& path) {
  Reader in(path);
  if (in.size() < sizeof(Header) + sizeof(std::uint64_t))
    in.fail("truncated file: " + std::to_string(in.size()) + " bytes, less than a header");
  Header header;
  in.read(&header, sizeof header);
  if (std::memcmp(header.magic, magic, sizeof magic) != 0)
    in.fail("not a grb binary graph (bad magic number)");
  if (header.version != format_version)
    in.fail("binary format version " + std::to_string(header.version) +
            " is not supported (this grb reads version " + std::to_string(format_version) + ")");
  if (header.flags & ~known_flags) in.fail("unknown flags " + std::to_string(header.flags));
  const std::uint64_t index_limit = std::numeric_limits<Index>::max();
  if (header.nrows > index_limit || header.ncols > index_limit)
    in.fail("dimensions " + std::to_string(header.nrows) + " x " + std::to_string(header.ncols) +
            " exceed grb's 32-bit vertex ids");
  if (header.name_bytes > max_name_bytes)
    in.fail("graph name length " + std::to_string(header.name_bytes) + " is implausible");
  // 12 bytes per entry: bound nvals by the file size before multiplying.
  if (header.nvals > in.size() / 12)
    in.fail("file is " + std::to_string(in.size()) + " bytes: too short for its " +
            std::to_string(header.nvals) + " entries (truncated)");
  const bool ids = header.flags & has_vertex_ids;
  const std::uint64_t expected = sizeof(Header) + header.name_bytes + (header.nrows + 1) * 8 +
                                 header.nvals * 12 + (ids ? header.nrows * 8 : 0) + 8;
  if (in.size() != expected)
    in.fail("file is " + std::to_string(in.size()) + " bytes but its header describes " +
            std::to_string(expected) + (in.size() < expected ? " (truncated)" : ""));

  Graph graph;
  graph.name.resize(header.name_bytes);
  in.read(graph.name.data(), header.name_bytes);
  const auto nrows = static_cast<Index>(header.nrows), ncols = static_cast<Index>(header.ncols);
  Csr<double> csr{nrows, ncols, grb::detail::Array<Offset>(std::size_t(nrows) + 1, Backend::cpu),
                  grb::detail::Array<Index>(header.nvals, Backend::cpu),
                  grb::detail::Array<double>(header.nvals, Backend::cpu)};
  in.read(csr.row_offsets.data(), csr.row_offsets.size() * sizeof(Offset));
  in.read(csr.col_indices.data(), csr.col_indices.size() * sizeof(Index));
  in.read(csr.values.data(), csr.values.size() * sizeof(double));
  if (ids) {
    graph.vertex_ids.resize(nrows);
    in.read(graph.vertex_ids.data(), graph.vertex_ids.size() * sizeof(std::uint64_t));
  }
  const std::uint64_t computed = in.checksum();
  std::uint64_t stored = 0;
  in.read(&stored, sizeof stored);
  if (stored != computed) in.fail("checksum mismatch: the file is corrupted");

  // The checksum guards against damage; the structure is checked too, so that a file written
  // by something else can never yield an inconsistent matrix.
  if (csr.row_offsets[0] != 0 || csr.row_offsets[nrows] != header.nvals)
    in.fail("row offsets do not span the entries");
  for (Index i = 0; i < nrows; ++i) {
    const Offset begin = csr.row_offsets[i], end = csr.row_offsets[i + 1];
    if (begin > end || end > header.nvals) in.fail("row offsets decrease at row " + std::to_string(i));
    for (Offset e = begin; e < end; ++e) {
      if (csr.col_indices[e] >= ncols || (e > begin && csr.col_indices[e - 1] >= csr.col_indices[e]))
        in.fail("row " + std::to_string(i) + " has column ids out of range, out of order or repeated");
    }
  }

  // The flags must fit the matrix: an undirected graph is square, a source is one of its
  // vertices (a file's own id where it has them).
  if (!(header.flags & directed) && nrows != ncols)
    in.fail("flagged undirected, but the matrix is " + std::to_string(nrows) + " x " +
            std::to_string(ncols));
  if ((header.flags & has_source) &&
      (ids ? std::find(graph.vertex_ids.begin(), graph.vertex_ids.end(), header.source) ==
                 graph.vertex_ids.end()
           : header.source >= nrows))
    in.fail("source vertex " + std::to_string(header.source) + " is not a vertex of the graph");

  graph.matrix = Matrix<double>(std::move(csr));
  graph.directed = header.flags & directed;
  graph.weighted = header.flags & weighted;
  if (header.flags & has_source) graph.source = header.source;
  return graph;
}

}  // namespace grb::io
