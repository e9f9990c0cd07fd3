# SPDX-License-Identifier: BSL-1.0
# Script run by the install:find_package_consumer test.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
if(DEFINED ENV{EMFLOW_TMPDIR})  # the consumers' disks; other tests may not have made it yet
  file(MAKE_DIRECTORY "$ENV{EMFLOW_TMPDIR}")
endif()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()

run(${CMAKE_COMMAND} --install "${EMFLOW_BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
# MPIEXEC set: emflow has its MPI component; the consumer of emflow::mpi is built against the same
# MPI library and run with its mpiexec (MPIEXEC_FLAGS separated by |).
set(mpi_args -DCONSUMER_MPI=OFF)
if(MPIEXEC)
  set(mpi_args -DCONSUMER_MPI=ON -DMPI_CXX_COMPILER=${MPI_CXX_COMPILER})
endif()
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
    -DEMFLOW_EXAMPLES_DIR=${EXAMPLES_DIR} ${mpi_args})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
if(MPIEXEC)
  string(REPLACE "|" ";" flags "${MPIEXEC_FLAGS}")
  run(${MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 2 ${flags} "${WORK_DIR}/build/mpi_consumer")
endif()
