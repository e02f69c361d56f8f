#include "line_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "grb/error.hpp"

#if GRB_WITH_ZLIB
#include <zlib.h>
#endif

namespace grb::io::detail {

namespace {
constexpr std::size_t chunk_bytes = std::size_t{1} << 24;
constexpr std::uint64_t progress_threshold_bytes = 50'000'000;
}  // namespace

/// Where the bytes come from: a plain file, or a gzip stream over one.
class LineReader::Source {
 public:
  /// `prefix`: bytes already read from a stream that cannot seek back (a pipe's first bytes,
  /// read to look for gzip's magic), returned before the rest.
  Source(const std::string& file_name, std::FILE* file, std::string prefix)
      : file_name_(file_name), file_(file), prefix_(std::move(prefix)) {}
#if GRB_WITH_ZLIB
  Source(const std::string& file_name, gzFile gzip) : file_name_(file_name), gzip_(gzip) {
    gzbuffer(gzip_, 1u << 20);
  }
#endif
  ~Source() {
    if (file_) std::fclose(file_);
#if GRB_WITH_ZLIB
    if (gzip_) gzclose(gzip_);
#endif
  }

  std::size_t read(char* destination, std::size_t bytes) {
#if GRB_WITH_ZLIB
    if (gzip_) {
      const int count = gzread(gzip_, destination, static_cast<unsigned>(bytes));
      if (count < 0) {
        int code = 0;
        const char* message = gzerror(gzip_, &code);
        throw IoError("cannot read " + file_name_ + ": " + message);
      }
      return static_cast<std::size_t>(count);
    }
#endif
    std::size_t from_prefix = 0;
    if (!prefix_.empty()) {
      from_prefix = std::min(bytes, prefix_.size());
      std::memcpy(destination, prefix_.data(), from_prefix);
      prefix_.erase(0, from_prefix);
      destination += from_prefix;
      bytes -= from_prefix;
    }
    const std::size_t count = from_prefix + std::fread(destination, 1, bytes, file_);
    if (count < from_prefix + bytes && std::ferror(file_))
      throw IoError("cannot read " + file_name_ + ": " + std::strerror(errno));
    return count;
  }

  /// Bytes of the file consumed so far (compressed bytes for gzip).
  std::uint64_t position() const {
#if GRB_WITH_ZLIB
    if (gzip_) return static_cast<std::uint64_t>(gzoffset(gzip_));
#endif
    return static_cast<std::uint64_t>(std::ftell(file_));
  }

 private:
  std::string file_name_;
  std::FILE* file_ = nullptr;
  std::string prefix_;
#if GRB_WITH_ZLIB
  gzFile gzip_ = nullptr;
#endif
};

LineReader::LineReader(const std::filesystem::path& path, bool progress)
    : file_name_(path.string()), progress_(progress) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw IoError("cannot read " + file_name_ + ": it is a directory");
  std::FILE* file = std::fopen(file_name_.c_str(), "rb");
  if (!file) throw IoError("cannot open " + file_name_ + ": " + std::strerror(errno));
  size_known_ = std::filesystem::is_regular_file(path, error);
  file_bytes_ = size_known_ ? std::filesystem::file_size(path, error) : 0;
  if (error) file_bytes_ = 0, size_known_ = false;

  unsigned char magic[2] = {0, 0};
  const std::size_t magic_bytes = std::fread(magic, 1, 2, file);
  const bool gzip = magic_bytes == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  compressed_ = gzip;
  if (!gzip) {
    // A pipe cannot seek back: its first bytes are handed back by the source instead.
    std::string prefix;
    if (std::fseek(file, 0, SEEK_SET) != 0)
      prefix.assign(reinterpret_cast<const char*>(magic), magic_bytes);
    source_ = std::make_unique<Source>(file_name_, file, std::move(prefix));
  } else {
    std::fclose(file);
    if (!size_known_)
      throw IoError("cannot read " + file_name_ +
                    ": gzip-compressed text from a pipe (decompress it first: zcat FILE | grb ...)");
#if GRB_WITH_ZLIB
    gzFile gzip_file = gzopen(file_name_.c_str(), "rb");
    if (!gzip_file) throw IoError("cannot open " + file_name_ + ": " + std::strerror(errno));
    source_ = std::make_unique<Source>(file_name_, gzip_file);
#else
    throw IoError("cannot read " + file_name_ +
                  ": it is gzip-compressed and grb was built without zlib (decompress it first)");
#endif
  }
  // Small files get a buffer of their size: many small reads (tests, LDBC property files)
  // should not each pay for a 16 MB allocation.
  // A gzip file's text is some times its size: start at 8 times that and grow for long lines.
  const std::uint64_t expected_text = gzip ? 8 * file_bytes_ : file_bytes_ + 1;
  buffer_.resize(static_cast<std::size_t>(std::clamp<std::uint64_t>(expected_text, 4096, chunk_bytes)));
}

LineReader::~LineReader() = default;

bool LineReader::refill() {
  if (at_end_) return false;
  const std::size_t unread = end_ - begin_;
  if (begin_ > 0) std::memmove(buffer_.data(), buffer_.data() + begin_, unread);
  buffer_offset_ += begin_;
  begin_ = 0;
  end_ = unread;
  // A line longer than the buffer: grow it rather than split the line, up to max_line_bytes
  // (a file with no line ends, such as /dev/zero, must not take all memory).
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= max_line_bytes)
      throw ParseError(file_name_, line_number_ + 1,
                       "line longer than " + std::to_string(max_line_bytes >> 20) +
                           " MiB: not a text graph file, or a line without line ends");
    buffer_.resize(std::min(buffer_.size() * 2, max_line_bytes));
  }
  const std::size_t count = source_->read(buffer_.data() + end_, buffer_.size() - end_);
  if (count == 0) at_end_ = true;
  if (estimated_lines_ == 0 && count > 0) {
    std::uint64_t newlines = 1;
    const char* const stop = buffer_.data() + count;
    for (const char* p = buffer_.data();
         (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(stop - p))));
         ++p)
      ++newlines;
    // A short read is the whole file. Otherwise scale by bytes on disk (for gzip that is an
    // underestimate: vectors then grow).
    const double scale = std::max(1.0, static_cast<double>(file_bytes_) / static_cast<double>(count));
    estimated_lines_ = count < buffer_.size() ? newlines
                                              : static_cast<std::uint64_t>(1.02 * scale * newlines);
  }
  end_ += count;
  if (progress_) report_progress();
  return count > 0;
}

void LineReader::report_progress() {
  if (file_bytes_ < progress_threshold_bytes) return;
  const std::uint64_t done = at_end_ ? file_bytes_ : source_->position();
  const int step = static_cast<int>(10 * done / file_bytes_);
  if (step <= progress_step_) return;
  progress_step_ = step;
  std::fprintf(stderr, "grb: reading %s: %d%% (%.0f of %.0f MB)\n", file_name_.c_str(),
               10 * std::min(step, 10), static_cast<double>(done) / 1e6,
               static_cast<double>(file_bytes_) / 1e6);
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const void* newline = std::memchr(start, '\n', end_ - begin_);
    if (newline) {
      const char* stop = static_cast<const char*>(newline);
      begin_ += static_cast<std::size_t>(stop - start) + 1;
      if (stop > start && stop[-1] == '\r') --stop;
      line = std::string_view(start, static_cast<std::size_t>(stop - start));
      ++line_number_;
      return true;
    }
    if (!refill()) {
      if (begin_ == end_) return false;
      // The last line has no newline.
      const char* stop = buffer_.data() + end_;
      start = buffer_.data() + begin_;
      begin_ = end_;
      if (stop > start && stop[-1] == '\r') --stop;
      line = std::string_view(start, static_cast<std::size_t>(stop - start));
      ++line_number_;
      return true;
    }
  }
}

void LineReader::fail(const std::string& message) const {
  throw ParseError(file_name_, line_number_, message);
}

}  // namespace grb::io::detail
