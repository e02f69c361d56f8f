#include "grb/distributed/communicator.hpp"

#include <map>
#include <mutex>

namespace grb::dist {

Environment::Environment(int* argc, char*** argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized && MPI_Init(argc, argv) != MPI_SUCCESS)
    throw CommunicationError("MPI_Init failed");
}

Environment::~Environment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

void Communicator::check(int status, const char* what) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw CommunicationError(std::string(what) + ": " + std::string(text, length));
}

int Communicator::count(std::size_t items, const char* what) {
  // MPI 3's counts and displacements are ints; a bytes_type item is one count.
  if (items > std::size_t(std::numeric_limits<int>::max()))
    throw OutOfMemory(std::string(what) + ": " + std::to_string(items) +
                          " items in one exchange, more than MPI's 2^31 - 1",
                      items, std::size_t(std::numeric_limits<int>::max()));
  return static_cast<int>(items);
}

MPI_Datatype Communicator::bytes_type(std::size_t bytes) {
  static std::mutex mutex;
  static std::map<std::size_t, MPI_Datatype> types;  // freed by MPI_Finalize
  std::lock_guard lock(mutex);
  if (auto found = types.find(bytes); found != types.end()) return found->second;
  MPI_Datatype type;
  check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type), "MPI_Type_contiguous");
  check(MPI_Type_commit(&type), "MPI_Type_commit");
  types.emplace(bytes, type);
  return type;
}

std::uint64_t Communicator::sum(std::uint64_t value) const {
  std::uint64_t result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_UINT64_T, MPI_SUM, comm_), "MPI_Allreduce");
  return result;
}

std::vector<std::uint64_t> Communicator::sum(const std::vector<std::uint64_t>& values) const {
  std::vector<std::uint64_t> result(values.size());
  check(MPI_Allreduce(values.data(), result.data(), count(values.size(), "sum"), MPI_UINT64_T,
                      MPI_SUM, comm_),
        "MPI_Allreduce");
  return result;
}

std::uint64_t Communicator::max(std::uint64_t value) const {
  std::uint64_t result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_UINT64_T, MPI_MAX, comm_), "MPI_Allreduce");
  return result;
}

double Communicator::max_real(double value) const {
  double result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce");
  return result;
}

bool Communicator::all(bool value) const {
  int mine = value ? 1 : 0, result = 0;
  check(MPI_Allreduce(&mine, &result, 1, MPI_INT, MPI_LAND, comm_), "MPI_Allreduce");
  return result != 0;
}

void Communicator::broadcast(void* data, std::size_t bytes, int root) const {
  check(MPI_Bcast(data, count(bytes, "broadcast"), MPI_BYTE, root, comm_), "MPI_Bcast");
}

int Communicator::local_rank() const {
  MPI_Comm host;
  check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host),
        "MPI_Comm_split_type");
  int rank = 0;
  const int status = MPI_Comm_rank(host, &rank);
  MPI_Comm_free(&host);
  check(status, "MPI_Comm_rank");
  return rank;
}

}  // namespace grb::dist
