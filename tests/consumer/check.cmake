# Installs the grb build into a fresh prefix, then configures, builds and runs tests/consumer
# against it, as a user's project would (find_package(grb) through CMAKE_PREFIX_PATH). The
# project also builds and runs README.md's example (its first ```cpp block), so that the README
# shows code that works.
#   cmake -DGRB_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=...
#         -DCXX_COMPILER=... -DBUILD_TYPE=... -DREADME=... -P check.cmake
cmake_minimum_required(VERSION 3.25)

function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    string(JOIN " " shown ${ARGN})
    message(FATAL_ERROR "consumer: ${name} failed (${status}): ${shown}\n${out}\n${err}")
  endif()
  message(STATUS "consumer: ${name} done")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(READ ${README} readme)
if(NOT readme MATCHES "```cpp\n(.*)")
  message(FATAL_ERROR "consumer: ${README} has no ```cpp example")
endif()
string(FIND "${CMAKE_MATCH_1}" "```" example_end)
string(SUBSTRING "${CMAKE_MATCH_1}" 0 ${example_end} example)
file(WRITE ${WORK_DIR}/readme_example.cpp "${example}")

step(install ${CMAKE_COMMAND} --install ${GRB_BUILD_DIR} --prefix ${prefix})
step(configure ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
     -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
     -DREADME_EXAMPLE=${WORK_DIR}/readme_example.cpp)
if(NOT step_output MATCHES "grb found in ${prefix}/")
  message(FATAL_ERROR "consumer: grb was not found in the installed prefix ${prefix}:\n${step_output}")
endif()
step(build ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(run ${WORK_DIR}/build/consumer)
message(STATUS "${step_output}")
step(readme_example ${WORK_DIR}/build/readme_example)
if(EXISTS ${WORK_DIR}/build/readme_example_cuda)
  step(readme_example_cuda ${WORK_DIR}/build/readme_example_cuda)
endif()
message(STATUS "${step_output}")
