# Tests of grb as its users meet it, from outside: the installed package (a tiny project using
# find_package(grb), tests/consumer, which also builds README.md's example) and the `grb` command (tests/cli).
add_test(NAME consumer
  COMMAND ${CMAKE_COMMAND}
    -DGRB_BUILD_DIR=${PROJECT_BINARY_DIR}
    -DCONSUMER_SOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}/consumer
    -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/consumer
    -DGENERATOR=${CMAKE_GENERATOR}
    -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DREADME=${PROJECT_SOURCE_DIR}/README.md
    -P ${CMAKE_CURRENT_LIST_DIR}/consumer/check.cmake)

if(TARGET grb_command)
  include(${CMAKE_CURRENT_LIST_DIR}/cli/tests.cmake)
endif()
