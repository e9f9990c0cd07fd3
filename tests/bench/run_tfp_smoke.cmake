# SPDX-License-Identifier: BSL-1.0
# Runs tfp_dag_limits once on a tiny graph (cmake -DBINARY=... -DTMP_DIR=... -P
# run_tfp_smoke.cmake): it must exit 0 (every rule computed the same values), print the CSV header
# and one row per rule, the ratios of the adaptive window to the fixed ones, and leave its temp
# directory empty. Nothing here looks at time.
file(REMOVE_RECURSE "${TMP_DIR}")
file(MAKE_DIRECTORY "${TMP_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env "EMFLOW_TMPDIR=${TMP_DIR}"
                        "${BINARY}" --nodes 30000 --rounds 1 --widths 512,4096
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
file(GLOB left "${TMP_DIR}/*")
file(REMOVE_RECURSE "${TMP_DIR}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tfp_dag_limits exited with ${rc}")
endif()
set(number "[0-9.e+-]+")
set(seven_numbers ",${number},${number},${number},${number},${number},${number},${number}")
foreach(pattern
    "^rule,width,seconds,bulks,mean_bulk,max_bulk,pop_seconds,process_seconds,push_end_seconds\n"
    "\nadaptive,[0-9]+${seven_numbers}\n"
    "\nfixed,512${seven_numbers}\n"
    "\nfixed,4096${seven_numbers}\n")
  if(NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "no match for ${pattern} in the output")
  endif()
endforeach()
if(NOT err MATCHES "target bulk 524288 \\(queue budget 32 MiB\\)")
  message(FATAL_ERROR "the adaptive window did not use the library's default target")
endif()
if(NOT err MATCHES "x the best fixed width \\((512|4096)\\), ${number}x the naive fixed width \\(512\\)")
  message(FATAL_ERROR "no ratios of the adaptive window to the fixed widths")
endif()
if(left)
  message(FATAL_ERROR "temp files left behind: ${left}")
endif()
