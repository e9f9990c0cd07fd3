# SPDX-License-Identifier: BSL-1.0
# Runs pq_experiments once (cmake -DBINARY=... -DTMP_DIR=... -DARGS=... -P run_pq_smoke.cmake):
# the run must exit 0 with a verified CSV row and leave its private temp directory empty.
file(REMOVE_RECURSE "${TMP_DIR}")
file(MAKE_DIRECTORY "${TMP_DIR}")
execute_process(COMMAND "${BINARY}" ${ARGS} --tmp-dir "${TMP_DIR}" --header
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
file(GLOB left "${TMP_DIR}/*")
file(REMOVE_RECURSE "${TMP_DIR}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pq_experiments exited with ${rc}:\n${err}")
endif()
string(REGEX MATCH "\n[a-z_]+,[a-z-]+,[0-9]+,[^\n]*,yes,[^\n]*" row "${out}")
if(NOT row)
  message(FATAL_ERROR "no verified CSV row in the output:\n${out}\n${err}")
endif()
if(left)
  message(FATAL_ERROR "temp files left behind: ${left}")
endif()
