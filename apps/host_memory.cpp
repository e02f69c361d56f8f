#include "host_memory.hpp"

#include <fstream>
#include <string>

namespace grb::app {

std::size_t peak_host_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) != 0) continue;
    try {
      return static_cast<std::size_t>(std::stoull(line.substr(6))) * 1024;  // "VmHWM:  123 kB"
    } catch (const std::exception&) {
      return 0;
    }
  }
  return 0;
}

void reset_peak_host_bytes() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";  // "5": reset the peak resident set size to the present one (Linux 4.0 on)
}

}  // namespace grb::app
