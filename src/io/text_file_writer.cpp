#include <cerrno>
#include <cstring>

#include "grb/io.hpp"

namespace grb::io::detail {

TextFileWriter::TextFileWriter(const std::filesystem::path& path) : file_name_(path.string()) {
  file_ = std::fopen(file_name_.c_str(), "wb");
  if (!file_) throw IoError("cannot create " + file_name_ + ": " + std::strerror(errno));
  buffer_.reserve(buffer_limit + 64);
}

TextFileWriter::~TextFileWriter() {
  // Only reached without close() when an exception is already on its way: drop the output.
  if (file_) std::fclose(file_);
}

void TextFileWriter::write(std::string_view text) {
  if (buffer_.size() + text.size() > buffer_limit) flush();
  buffer_.append(text);
}

void TextFileWriter::flush() {
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    throw IoError("cannot write " + file_name_ + ": " + std::strerror(errno));
  buffer_.clear();
}

void TextFileWriter::close() {
  flush();
  std::FILE* file = file_;
  file_ = nullptr;
  if (std::fclose(file) != 0)
    throw IoError("cannot write " + file_name_ + ": " + std::strerror(errno));
}

}  // namespace grb::io::detail
