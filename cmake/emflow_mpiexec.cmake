# SPDX-License-Identifier: BSL-1.0
# How the project's own MPI programs (tests, benchmarks) are started on one machine, after
# find_package(MPI): sets
#   EMFLOW_MPIEXEC         the mpiexec of the MPI library emflow is built against
#   EMFLOW_MPIEXEC_FLAGS   the flags that implementation needs here (a list)
#   EMFLOW_MPIEXEC_ENV     environment settings for it (a list of NAME=VALUE)
#   EMFLOW_MPI_IMPLEMENTATION  openmpi, mpich or unknown (the library's)
#
# Debian installs Open MPI and MPICH side by side (mpiexec.openmpi, mpiexec.mpich) and points
# plain mpiexec at one of them, which FindMPI takes whatever the library: a build against the
# other one (-DMPI_CXX_COMPILER=/usr/bin/mpicxx.mpich) gets that library's own mpiexec here.
#
# Open MPI refuses more ranks than cores, would pin each rank to one core (its arena to one
# thread), and refuses to run as root (CI) unless told twice; its environment variables say the
# latter whoever runs the programs, root or not. MPICH's mpiexec needs none of this. Both get
# OMP_WAIT_POLICY=passive (below).

function(_emflow_mpiexec_implementation exe out)
  execute_process(COMMAND ${exe} --version OUTPUT_VARIABLE version ERROR_QUIET)
  if(version MATCHES "Open MPI|OpenRTE")
    set(${out} openmpi PARENT_SCOPE)
  elseif(version MATCHES "HYDRA|MPICH")
    set(${out} mpich PARENT_SCOPE)
  else()
    set(${out} unknown PARENT_SCOPE)
  endif()
endfunction()

set(EMFLOW_MPI_IMPLEMENTATION unknown)
foreach(_emflow_dir ${MPI_CXX_HEADER_DIR} ${MPI_CXX_ADDITIONAL_INCLUDE_DIRS})
  if(EXISTS "${_emflow_dir}/mpi.h")
    file(STRINGS "${_emflow_dir}/mpi.h" _emflow_mpi_h REGEX "define (MPICH_VERSION|OMPI_MAJOR_VERSION)")
    if(_emflow_mpi_h MATCHES "OMPI_MAJOR_VERSION")
      set(EMFLOW_MPI_IMPLEMENTATION openmpi)
    elseif(_emflow_mpi_h MATCHES "MPICH_VERSION")
      set(EMFLOW_MPI_IMPLEMENTATION mpich)
    endif()
    break()
  endif()
endforeach()

if(NOT MPIEXEC_EXECUTABLE)
  message(FATAL_ERROR "emflow: MPI has no mpiexec (set MPIEXEC_EXECUTABLE, or -DEMFLOW_MPI=OFF)")
endif()
set(EMFLOW_MPIEXEC "${MPIEXEC_EXECUTABLE}")
_emflow_mpiexec_implementation("${EMFLOW_MPIEXEC}" _emflow_exec_impl)
if(NOT EMFLOW_MPI_IMPLEMENTATION STREQUAL "unknown"
   AND NOT _emflow_exec_impl STREQUAL EMFLOW_MPI_IMPLEMENTATION)
  get_filename_component(_emflow_hint1 "${MPIEXEC_EXECUTABLE}" DIRECTORY)
  get_filename_component(_emflow_hint2 "${MPI_CXX_COMPILER}" DIRECTORY)
  set(_emflow_var EMFLOW_MPIEXEC_${EMFLOW_MPI_IMPLEMENTATION})
  find_program(${_emflow_var} NAMES mpiexec.${EMFLOW_MPI_IMPLEMENTATION} HINTS ${_emflow_hint1} ${_emflow_hint2})
  mark_as_advanced(${_emflow_var})
  if(NOT ${_emflow_var})
    message(FATAL_ERROR "emflow: MPI library is ${EMFLOW_MPI_IMPLEMENTATION}, but ${MPIEXEC_EXECUTABLE} "
                        "is ${_emflow_exec_impl}'s mpiexec: set MPIEXEC_EXECUTABLE to the library's")
  endif()
  message(STATUS "emflow: MPI programs start with ${${_emflow_var}} (the ${EMFLOW_MPI_IMPLEMENTATION} "
                 "library's; ${MPIEXEC_EXECUTABLE} is ${_emflow_exec_impl}'s)")
  set(EMFLOW_MPIEXEC "${${_emflow_var}}")
  set(_emflow_exec_impl ${EMFLOW_MPI_IMPLEMENTATION})
endif()

set(EMFLOW_MPIEXEC_FLAGS ${MPIEXEC_PREFLAGS})
# Ranks here share the cores: OpenMP threads that spin while waiting (libgomp's default spins a
# while before sleeping) take the core from the rank that holds the work. With passive waiting
# the distributed DAG evaluation at 2 and 4 ranks ran 8x and 50x faster on 2 loaded cores.
set(EMFLOW_MPIEXEC_ENV OMP_WAIT_POLICY=passive)
if(_emflow_exec_impl STREQUAL "openmpi")
  list(APPEND EMFLOW_MPIEXEC_FLAGS --oversubscribe --bind-to none)
  list(APPEND EMFLOW_MPIEXEC_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
elseif(_emflow_exec_impl STREQUAL "unknown")
  message(WARNING "emflow: ${EMFLOW_MPIEXEC} is neither Open MPI's nor MPICH's mpiexec; "
                  "MPI tests and benchmarks run it without extra flags")
endif()
