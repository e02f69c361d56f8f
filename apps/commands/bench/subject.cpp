#include "subject.hpp"

#include "grb/error.hpp"

namespace grb::app::bench {

std::unique_ptr<Runner> make_runner(const Entry& entry, double delta) {
  switch (entry.algorithm) {
    case Algorithm::bfs: return make_bfs_runner(bfs::find_engine(entry.engine, entry.backend));
    case Algorithm::sssp: {
      sssp::Options options;
      options.delta = delta;
      return make_sssp_runner(sssp::find_engine(entry.engine, entry.backend), options);
    }
    case Algorithm::cc: return make_cc_runner(cc::find_engine(entry.engine, entry.backend));
    case Algorithm::tc: return make_tc_runner(tc::find_engine(entry.engine, entry.backend));
  }
  throw InvalidValue("unknown algorithm");
}

}  // namespace grb::app::bench
