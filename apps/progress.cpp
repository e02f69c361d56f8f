#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace grb::app {

bool progress_wanted() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string what, bool announce)
    : what_(std::move(what)), shown_(progress_wanted()), start_(std::chrono::steady_clock::now()) {
  if (shown_ && announce) {
    std::fprintf(stderr, "grb: %s ...", what_.c_str());
    std::fflush(stderr);
    open_line_ = true;
  }
}

Progress::~Progress() {
  if (shown_ && open_line_) std::fputc('\n', stderr);
}

void Progress::step(std::uint64_t done, std::uint64_t total, std::string_view detail) {
  if (!shown_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done < total && open_line_ && now - last_step_ < std::chrono::milliseconds(100)) return;
  last_step_ = now;
  // "\r" and clear to the end of the line: the step overwrites the one before.
  std::fprintf(stderr, "\rgrb: %s %llu/%llu %.*s\x1b[K", what_.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
               static_cast<int>(detail.size()), detail.data());
  std::fflush(stderr);
  open_line_ = true;
}

void Progress::finish() {
  if (!shown_) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(stderr, "%sgrb: %s: done in %.1f s\x1b[K\n", open_line_ ? "\r" : "", what_.c_str(),
               seconds);
  open_line_ = false;
}

}  // namespace grb::app
