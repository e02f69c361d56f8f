// The parallel half of the text readers: a plain file's text after its header, mapped into
// memory and cut at line ends into one piece per worker thread, each piece parsed by its own
// std::thread, the pieces' columns joined in file order. Reading a file of 100M lines is then
// bounded by the cores and the disk, not by one thread's parsing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace grb::io::detail {

/// How text is cut for the parallel parse. Text under `piece_bytes` is parsed by LineReader
/// alone (threads would cost more than they save, and every small file, the tests' malformed
/// ones too, keeps one code path); larger text gets one piece per `piece_bytes`, at most
/// `max_pieces` (0: one per core). Process-wide and read-only in normal use; the fuzz targets
/// of the parallel readers shrink both once at start, so that inputs of a few bytes take the
/// parallel path with several pieces.
struct PieceSizing {
  std::uint64_t piece_bytes = std::uint64_t{1} << 20;
  std::size_t max_pieces = 0;
};
PieceSizing& piece_sizing();

/// A read-only memory map of a file from byte `offset` to its end.
class MappedText {
 public:
  /// IoError naming the file when it cannot be opened or mapped.
  MappedText(const std::string& file_name, std::uint64_t offset);
  ~MappedText();
  MappedText(const MappedText&) = delete;
  MappedText& operator=(const MappedText&) = delete;

  std::string_view text() const { return text_; }

 private:
  void* base_ = nullptr;
  std::size_t mapped_bytes_ = 0;
  std::string_view text_;
};

/// How many threads parse `bytes` of text: one per piece_sizing().piece_bytes, at most one per
/// core (or piece_sizing().max_pieces).
std::size_t parse_workers(std::uint64_t bytes);

/// `text` cut into at most `parts` pieces, each ending just after a '\n' (the last one at the
/// end of the text), so that no line is split.
std::vector<std::string_view> split_at_lines(std::string_view text, std::size_t parts);

/// The lines of a piece, without their "\n" or "\r\n", as LineReader::next gives them.
class PieceLines {
 public:
  explicit PieceLines(std::string_view piece) : rest_(piece) {}
  bool next(std::string_view& line) {
    if (rest_.empty()) return false;
    const std::size_t end = rest_.find('\n');
    line = rest_.substr(0, end);
    rest_.remove_prefix(end == std::string_view::npos ? rest_.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }

 private:
  std::string_view rest_;
};

/// Lines of `piece` that hold something: not blank, and not starting (after blanks) with one
/// of the `comment` characters. The entry lines of a piece, before it is parsed.
std::uint64_t count_content_lines(std::string_view piece, std::string_view comment);

/// work(k) for every k in [0, count), each on its own std::thread; the first exception thrown
/// by any of them is rethrown here after all have finished.
template <class Work>
void parallel_for(std::size_t count, Work work) {
  std::vector<std::exception_ptr> errors(count);
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (std::size_t k = 0; k < count; ++k)
    threads.emplace_back([&, k] {
      try {
        work(k);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace grb::io::detail
