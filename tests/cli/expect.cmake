# Runs one command and checks what it did: the `grb` command's contract tests.
#
#   cmake -DEXIT=<status> [-DSTDOUT=<regex>] [-DSTDERR=<regex>] [-DNOT_STDOUT=<regex>]
#         [-DOUTPUT=<file> -DEXPECTED=<file> [-DUNREACHABLE=<token>] [-DSORT_LINES=ON]]
#         [-DDATA_DIR=<dir>] -P expect.cmake -- <command> <arguments...>
#
# "@DATA@" in an argument or in EXPECTED becomes $ENV{GRB_DATA_DIR}, else DATA_DIR.
# EXIT 1 also requires the runtime-error contract: exactly one line on stderr, "grb: error: ...".
# OUTPUT is compared with EXPECTED line by line, after writing UNREACHABLE in EXPECTED as "inf"
# (LDBC writes 2^63-1 for unreached vertices) and, with SORT_LINES, sorting both.
cmake_minimum_required(VERSION 3.25)

if(DEFINED ENV{GRB_DATA_DIR})
  set(DATA_DIR "$ENV{GRB_DATA_DIR}")
endif()

set(command)
set(in_command OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(index RANGE ${last})
  set(argument "${CMAKE_ARGV${index}}")
  if(in_command)
    string(REPLACE "@DATA@" "${DATA_DIR}" argument "${argument}")
    list(APPEND command "${argument}")
  elseif(argument STREQUAL "--")
    set(in_command ON)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "expect.cmake: no command after --")
endif()

if(DEFINED OUTPUT)
  file(REMOVE "${OUTPUT}")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(JOIN " " shown ${command})
set(report "command: ${shown}\nexit status: ${status}\n--- stdout:\n${out}--- stderr:\n${err}")

if(NOT status STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit status ${EXIT}\n${report}")
endif()
if(EXIT STREQUAL "1" AND NOT err MATCHES "^grb: error: [^\n]+\n$")
  message(FATAL_ERROR "a runtime error must be one line 'grb: error: ...' on stderr\n${report}")
endif()
if(DEFINED STDOUT AND NOT out MATCHES "${STDOUT}")
  message(FATAL_ERROR "stdout does not match '${STDOUT}'\n${report}")
endif()
if(DEFINED NOT_STDOUT AND out MATCHES "${NOT_STDOUT}")
  message(FATAL_ERROR "stdout matches '${NOT_STDOUT}', which it must not\n${report}")
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not match '${STDERR}'\n${report}")
endif()

if(DEFINED OUTPUT)
  string(REPLACE "@DATA@" "${DATA_DIR}" EXPECTED "${EXPECTED}")
  if(NOT EXISTS "${OUTPUT}")
    message(FATAL_ERROR "${OUTPUT} was not written\n${report}")
  endif()
  file(STRINGS "${OUTPUT}" actual_lines)
  file(STRINGS "${EXPECTED}" expected_lines)
  if(DEFINED UNREACHABLE)
    list(TRANSFORM expected_lines REPLACE " ${UNREACHABLE}$" " inf")
  endif()
  if(SORT_LINES)
    list(SORT actual_lines)
    list(SORT expected_lines)
  endif()
  if(NOT actual_lines STREQUAL expected_lines)
    string(REPLACE ";" "\n" actual_text "${actual_lines}")
    string(REPLACE ";" "\n" expected_text "${expected_lines}")
    message(FATAL_ERROR "${OUTPUT} differs from ${EXPECTED}\n--- written:\n${actual_text}\n"
                        "--- expected:\n${expected_text}\n${report}")
  endif()
endif()
