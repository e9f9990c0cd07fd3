# SPDX-License-Identifier: BSL-1.0
# Starts pq_experiments on a volume that takes a while and kills it after TIMEOUT seconds
# (cmake -DBINARY=... -DTMP_DIR=... -DTIMEOUT=... -DARGS=... -P run_pq_killed.cmake): its disk
# files are unlinked at open, so its temp directory must be empty although it never cleaned up.
file(REMOVE_RECURSE "${TMP_DIR}")
file(MAKE_DIRECTORY "${TMP_DIR}")
execute_process(COMMAND "${BINARY}" ${ARGS} --tmp-dir "${TMP_DIR}"
                TIMEOUT ${TIMEOUT} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
message("pq_experiments ended with: ${rc}")
file(GLOB left "${TMP_DIR}/*")
file(REMOVE_RECURSE "${TMP_DIR}")
if(left)
  message(FATAL_ERROR "temp files left behind after the run was stopped: ${left}")
endif()
