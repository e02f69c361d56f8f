// Shared by the libFuzzer targets in fuzz/: the readers take a file path, so every target writes
// its input to a file in a per-process folder (in /dev/shm when there is one; reused, never
// left behind) and reads it with grb::io::read_graph.
//
// What counts as a finding: any crash, sanitizer report, hang, or allocation blow-up
// (std::bad_alloc is deliberately NOT caught: run with -rss_limit_mb=2048 -malloc_limit_mb=2048),
// and any graph that a reader returns with a broken CSR (check_graph aborts). A grb::Error of any
// kind (ParseError, IoError, InvalidValue, DimensionMismatch, ...) is the reader doing its job.
//
// The reading options come from the input's length: an odd number of bytes reads with
// ReadOptions::symmetrize, an even one without, so that the fuzzer reaches both paths without a
// prefix byte that seed files would need.
//
// A new text reader is one file fuzz/fuzz_NAME.cpp holding one line, as fuzz_dimacs.cpp does:
//   GRB_FUZZ_TEXT_READER(grb::io::Format::dimacs, ".gr")
// and a seed folder fuzz/corpus/fuzz_NAME/ (optionally a dictionary fuzz/fuzz_NAME.dict);
// fuzz/CMakeLists.txt builds every fuzz_*.cpp and scripts/fuzz.sh runs them all.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "grb/error.hpp"
#include "grb/io.hpp"
#include "io/text_pieces.hpp"

namespace grb_fuzz {

namespace fs = std::filesystem;

/// The per-process folder the inputs are written to; removed at exit. Processes that end
/// without exit handlers (crashes, libFuzzer's fork-mode workers) leave theirs behind, and in
/// /dev/shm that is memory: the folders of processes that are gone are removed first.
inline const fs::path& work_dir() {
  static const fs::path dir = [] {
    std::error_code error;
    const fs::path base = fs::is_directory("/dev/shm", error) ? fs::path("/dev/shm")
                                                               : fs::temp_directory_path();
    const std::string prefix = "grb-fuzz-";
    for (const fs::directory_entry& entry : fs::directory_iterator(base, error)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(prefix, 0) != 0) continue;
      const std::string pid = name.substr(prefix.size());
      if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
      std::error_code ignored;
      if (!fs::exists("/proc/" + pid, ignored)) fs::remove_all(entry.path(), ignored);
    }
    fs::path path = base / (prefix + std::to_string(::getpid()));
    fs::create_directories(path);
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(work_dir(), ignored);
    });
    return path;
  }();
  return dir;
}

/// `name` inside work_dir().
inline fs::path work_file(const std::string& name) { return work_dir() / name; }

/// Writes the bytes as the whole file; aborts when it cannot, since a target that silently reads
/// a stale file would fuzz nothing. The file is overwritten in place and then cut to size.
inline void write_file(const fs::path& path, const void* data, std::size_t size) {
  const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  bool ok = file >= 0;
  for (std::size_t done = 0; ok && done < size;) {
    const ssize_t count = ::pwrite(file, static_cast<const char*>(data) + done, size - done,
                                   static_cast<off_t>(done));
    ok = count > 0;
    if (ok) done += static_cast<std::size_t>(count);
  }
  ok = ok && ::ftruncate(file, static_cast<off_t>(size)) == 0;
  if (file >= 0) ok = ::close(file) == 0 && ok;
  if (!ok) {
    std::perror(path.c_str());
    std::abort();
  }
}
inline void write_file(const fs::path& path, std::string_view text) {
  write_file(path, text.data(), text.size());
}

inline void remove_file(const fs::path& path) {
  std::error_code ignored;
  fs::remove(path, ignored);
}

[[noreturn]] inline void broken(const char* what) {
  std::fprintf(stderr, "grb fuzz: a reader returned a broken graph: %s\n", what);
  std::abort();
}

/// Aborts unless the graph is a well-formed host CSR: offsets from 0 rising to nvals, column
/// ids in range and strictly increasing within each row, one value per entry, one vertex id per
/// row (when the file names its vertices). With `metadata`, also what the text readers promise
/// beyond the CSR: an undirected graph is square, a source vertex is a vertex of the graph
/// (the binary reader takes both flags from the file's header as they are).
inline void check_graph(const grb::io::Graph& graph, bool metadata) {
  const grb::Csr<double>& csr = graph.matrix.csr();
  if (csr.row_offsets.size() != std::size_t(csr.nrows) + 1) broken("row offsets are not nrows + 1");
  if (csr.values.size() != csr.col_indices.size()) broken("values and column ids differ in number");
  if (csr.row_offsets[0] != 0 || csr.row_offsets[csr.nrows] != csr.nvals())
    broken("row offsets do not span the entries");
  for (grb::Index i = 0; i < csr.nrows; ++i) {
    const grb::Offset begin = csr.row_offsets[i], end = csr.row_offsets[i + 1];
    if (begin > end) broken("row offsets decrease");
    for (grb::Offset e = begin; e < end; ++e) {
      if (csr.col_indices[e] >= csr.ncols) broken("column id out of range");
      if (e > begin && csr.col_indices[e - 1] >= csr.col_indices[e])
        broken("column ids out of order or repeated");
    }
  }
  if (!graph.vertex_ids.empty() && graph.vertex_ids.size() != csr.nrows)
    broken("vertex ids are not one per row");
  if (!metadata) return;
  if (!graph.directed && csr.nrows != csr.ncols) broken("an undirected graph that is not square");
  if (graph.source) {
    try {
      (void)grb::io::to_internal(graph, *graph.source);
    } catch (const grb::Error&) {
      broken("the source vertex is not a vertex of the graph");
    }
  }
}

/// Reads `path` as `format` (with `options` otherwise) and checks the result. grb::Error is the
/// reader's answer to bad input; everything else propagates (an uncaught exception is a finding).
inline void read_and_check(const fs::path& path, grb::io::Format format, bool symmetrize,
                           grb::io::ReadOptions options = {}) {
  options.format = format;
  options.symmetrize = symmetrize;
  try {
    check_graph(grb::io::read_graph(path, options), format != grb::io::Format::binary);
  } catch (const grb::Error&) {
  }
}

/// The usual target: the input as a file named g<extension>, read as `format`.
inline int read_text(grb::io::Format format, const char* extension, const std::uint8_t* data,
                     std::size_t size) {
  const fs::path path = work_file(std::string("g") + extension);
  write_file(path, data, size);
  read_and_check(path, format, size % 2 == 1);
  return 0;
}

}  // namespace grb_fuzz

/// Before the first input: the readers refuse a graph whose declared sizes need more host memory
/// than GRB_HOST_MEMORY_LIMIT (else /proc/meminfo's MemAvailable) with grb::OutOfMemory. A
/// budget of 32 MiB, under the -malloc_limit_mb / -rss_limit_mb of 2048 the targets run with,
/// keeps a tiny file that declares a legitimately huge (empty) matrix from being a finding; an
/// out-of-memory that remains is a reader allocating more than it checked. It also keeps every
/// accepted input fast: 60-byte Matrix Market headers declaring 7 to 126 M empty rows (one is
/// fuzz/corpus/fuzz_matrix_market/empty-126M-rows.mtx) were read with budgets of 1 GiB and
/// 256 MiB, and writing their 60 MB to 1 GB of row offsets under AddressSanitizer took up to
/// 16 s an input on a busy 2-core machine, and past libFuzzer's 30 s timeout once. An explicit
/// GRB_HOST_MEMORY_LIMIT in the environment is kept.
///
/// A target that defines GRB_FUZZ_PARALLEL_PIECES before including this header fuzzes the
/// parallel half of the text readers (src/io/text_pieces): text of 8 bytes and more is cut into
/// up to 3 pieces, each parsed by its own thread, where a normal run cuts only text of 1 MiB and
/// more. Small inputs then reach piece boundaries, the pieces' line counts and the joins at
/// thousands of executions a second.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::setenv("GRB_HOST_MEMORY_LIMIT", "32M", 0);
#ifdef GRB_FUZZ_PARALLEL_PIECES
  grb::io::detail::piece_sizing() = {.piece_bytes = 8, .max_pieces = 3};
#endif
  return 0;
}

/// A whole fuzz target for a text reader: GRB_FUZZ_TEXT_READER(grb::io::Format::edge_list, ".txt")
#define GRB_FUZZ_TEXT_READER(format, extension)                                       \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    return grb_fuzz::read_text(format, extension, data, size);                        \
  }
