// Progress on a terminal for long work (generating a large graph, building its CSR, a
// benchmark's many runs): lines on stderr while stderr is a terminal, nothing otherwise, so that
// logs and pipes get only results.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace grb::app {

/// True when stderr is a terminal.
bool progress_wanted();

/// One piece of long work: "grb: WHAT ..." when it starts and "grb: WHAT: done in 2.1 s" when
/// finish() is called; counted work shows "grb: WHAT 12/96 DETAIL" in place as steps are made.
class Progress {
 public:
  explicit Progress(std::string what, bool announce = true);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Shows `done` of `total`, with a detail (the item now running); at most ten times a second.
  void step(std::uint64_t done, std::uint64_t total, std::string_view detail = {});
  /// Ends the line: "done in S s".
  void finish();

 private:
  std::string what_;
  bool shown_;
  bool open_line_ = false;
  std::chrono::steady_clock::time_point start_, last_step_;
};

}  // namespace grb::app
