#include "text_pieces.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "fields.hpp"
#include "grb/error.hpp"

namespace grb::io::detail {

MappedText::MappedText(const std::string& file_name, std::uint64_t offset) {
  const int file = ::open(file_name.c_str(), O_RDONLY);
  if (file < 0) throw IoError("cannot open " + file_name + ": " + std::strerror(errno));
  const off_t size = ::lseek(file, 0, SEEK_END);
  if (size < 0 || static_cast<std::uint64_t>(size) < offset) {
    ::close(file);
    throw IoError("cannot read " + file_name + ": it changed while being read");
  }
  // mmap wants a page-aligned start: map from the page holding `offset`, and skip to it.
  const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t start = offset / page * page;
  mapped_bytes_ = static_cast<std::size_t>(static_cast<std::uint64_t>(size) - start);
  if (mapped_bytes_ > 0) {
    base_ = ::mmap(nullptr, mapped_bytes_, PROT_READ, MAP_PRIVATE, file, static_cast<off_t>(start));
    if (base_ == MAP_FAILED) {
      base_ = nullptr;
      const int error = errno;
      ::close(file);
      throw IoError("cannot map " + file_name + " into memory: " + std::strerror(error));
    }
    // Every page is read once, front to back within each piece.
    ::madvise(base_, mapped_bytes_, MADV_SEQUENTIAL);
    text_ = std::string_view(static_cast<const char*>(base_) + (offset - start),
                             mapped_bytes_ - static_cast<std::size_t>(offset - start));
  }
  ::close(file);
}

MappedText::~MappedText() {
  if (base_) ::munmap(base_, mapped_bytes_);
}

PieceSizing& piece_sizing() {
  static PieceSizing sizing;
  return sizing;
}

std::size_t parse_workers(std::uint64_t bytes) {
  const PieceSizing& sizing = piece_sizing();
  const std::size_t cores = sizing.max_pieces > 0
                                ? sizing.max_pieces
                                : std::size_t{std::max(1u, std::thread::hardware_concurrency())};
  const std::size_t by_size = static_cast<std::size_t>(bytes / sizing.piece_bytes);
  return std::clamp<std::size_t>(std::min(cores, by_size), 1, 256);
}

std::vector<std::string_view> split_at_lines(std::string_view text, std::size_t parts) {
  std::vector<std::string_view> pieces;
  std::size_t begin = 0;
  for (std::size_t k = 1; k <= parts && begin < text.size(); ++k) {
    std::size_t end = text.size();
    if (k < parts) {
      const std::size_t target = std::max(begin, text.size() / parts * k);
      const std::size_t newline = text.find('\n', target);
      if (newline != std::string_view::npos) end = newline + 1;
    }
    pieces.push_back(text.substr(begin, end - begin));
    begin = end;
  }
  return pieces;
}

std::uint64_t count_content_lines(std::string_view piece, std::string_view comment) {
  PieceLines lines(piece);
  std::string_view line;
  std::uint64_t count = 0;
  while (lines.next(line)) {
    line = trim(line);
    if (!line.empty() && comment.find(line[0]) == std::string_view::npos) ++count;
  }
  return count;
}

}  // namespace grb::io::detail
