// LineReader: a text file as a sequence of lines, read in large chunks (gzip-compressed files
// are inflated on the fly when grb has zlib). Lines come back as views into the chunk, without
// their "\n" or "\r\n", so parsers never copy text or touch iostreams.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace grb::io::detail {

/// A file's stem, ignoring a ".gz" suffix: the name a graph read from it gets.
inline std::string graph_name(const std::filesystem::path& path) {
  return path.extension() == ".gz" ? path.stem().stem().string() : path.stem().string();
}

/// The longest line a text reader accepts. A METIS line of a vertex with 10^7 neighbours is
/// about 90 MB; anything longer is not a graph file.
inline constexpr std::size_t max_line_bytes = std::size_t{256} << 20;

class LineReader {
 public:
  /// Opens `path`; a missing, unreadable or directory path is a grb::IoError.
  /// With `progress`, files over 50 MB report every 10% on stderr.
  LineReader(const std::filesystem::path& path, bool progress);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// The next line; false at the end of the file. The view is valid until the next call.
  bool next(std::string_view& line);
  /// The 1-based number of the line last returned (0 before the first).
  std::size_t line_number() const { return line_number_; }
  const std::string& file_name() const { return file_name_; }
  /// Size on disk (compressed size for gzip files); 0 for a pipe.
  std::uint64_t file_bytes() const { return file_bytes_; }
  /// False for a pipe or other stream, whose size is unknown until it is read.
  bool size_known() const { return size_known_; }
  /// True when the file is gzip-compressed (offsets are then into the inflated text).
  bool compressed() const { return compressed_; }
  /// Where the next unread line starts: bytes of text before it.
  std::uint64_t offset() const { return buffer_offset_ + begin_; }

  /// About how many lines the file has, from the line density of its first chunk (exact for
  /// files of one chunk); for reserving memory. Valid after the first next().
  std::uint64_t estimated_lines() const { return estimated_lines_; }

  /// Throws grb::ParseError at the current line.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  class Source;
  /// Moves the unread tail to the front of the buffer and reads more; false at end of file.
  bool refill();
  void report_progress();

  std::string file_name_;
  std::unique_ptr<Source> source_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // first unread byte
  std::size_t end_ = 0;    // one past the last valid byte
  std::uint64_t buffer_offset_ = 0;  // bytes of text before buffer_[0]
  bool compressed_ = false;
  bool at_end_ = false;
  std::size_t line_number_ = 0;
  std::uint64_t file_bytes_ = 0;
  bool size_known_ = false;
  std::uint64_t estimated_lines_ = 0;
  bool progress_ = false;
  int progress_step_ = 0;  // tenths reported so far
};

}  // namespace grb::io::detail
