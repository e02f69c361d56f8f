// Under mpirun, one GPU rank per process: the MPI ranks of a Communicator become the ranks of a
// DeviceCommunicator. Each takes the GPU numbered by its rank among the ranks of its host (or
// the one GPU it sees, where the launcher gives every rank its own), and
// NCCL's unique id goes from rank 0 to every rank over MPI.
#pragma once

#include <string>

#include "grb/distributed/communicator.hpp"
#include "grb/distributed/device_communicator.hpp"

namespace grb::dist {

/// Collective over `comm`. InvalidValue on every rank when a host runs more ranks than it has
/// GPUs (checked before any rank joins, so that none waits for a rank that cannot come).
inline DeviceCommunicator connect_devices(const Communicator& comm) {
  const int local = comm.local_rank();
  const int devices = visible_devices();
  // One GPU visible: the launcher gave each rank its own (CUDA_VISIBLE_DEVICES per rank).
  const int device = devices == 1 ? 0 : local;
  if (!comm.all(device < devices))
    throw InvalidValue("one GPU per rank: a host runs more ranks than it has GPUs (rank " +
                       std::to_string(comm.rank()) + " is number " + std::to_string(local) +
                       " on its host, which has " + std::to_string(devices) + " GPU(s))");
  DeviceGroupId id;
  if (comm.rank() == 0) id = DeviceGroupId::make();
  comm.broadcast(id.bytes.data(), id.bytes.size(), 0);
  return DeviceCommunicator(id, comm.rank(), comm.size(), device);
}

}  // namespace grb::dist
