#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/launch.sh -np N PROGRAM [ARGS...]: start PROGRAM under the MPI launcher that the
# build uses, with that launcher's own settings for a test machine; the one place that
# knows one MPI from another (the Makefile, tests/run.sh and scripts/bench.sh all call it).
#   MB_MPIRUN   the launcher command (default mpirun; `make MPI=mpich` sets mpiexec.mpich)
#   MB_MPI      openmpi, hydra (MPICH, Intel MPI), slurm (srun: Cray MPICH) or other; found
#               from `$MB_MPIRUN --version` when unset. `scripts/launch.sh --flavour` prints it.
#   MB_YIELD=1  the ranks share cores (tests, oversubscribed runs): waiting ranks yield
#               (Open MPI: mpi_yield_when_idle; MPICH: MB_UCX_IDLE names tests/ucx_idle.c's
#               build, preloaded).
# The launcher becomes this process (exec), so a signal to this PID reaches the launcher.
set -eu
MPIRUN=${MB_MPIRUN:-mpirun}

flavour=${MB_MPI:-}
if [ -z "$flavour" ]; then
    # shellcheck disable=SC2086 # MB_MPIRUN is a command line: split on purpose
    case "$($MPIRUN --version 2>&1 || true)" in
        *"Open MPI"* | *OpenRTE*) flavour=openmpi ;;
        *HYDRA* | *Hydra* | *"Intel(R) MPI"*) flavour=hydra ;;
        slurm*) flavour=slurm ;;
        *) flavour=other ;;
    esac
fi
if [ "${1:-}" = --flavour ]; then
    echo "$flavour"
    exit 0
fi

case $flavour in
    openmpi)
        # mpirun refuses root (CI, containers) and more ranks than cores unless told. mbsuite
        # binds each rank to a core itself; a launcher binding to one core also makes
        # libgomp give up spinning at start-up, which inflates OpenMP fork/join and barrier
        # times (shm/omp_fork.c).
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        [ "${MB_YIELD:-}" = 1 ] && export OMPI_MCA_mpi_yield_when_idle=1
        # shellcheck disable=SC2086
        exec $MPIRUN --oversubscribe --bind-to none "$@"
        ;;
    hydra)
        # Hydra runs as root, starts any number of ranks and binds none unless asked
        # (-bind-to), and passes the whole environment on: nothing to add. MPICH's ch4
        # polls while it waits, with no setting to yield instead: under MB_YIELD the
        # tests' build of tests/ucx_idle.c (MB_UCX_IDLE) is preloaded, which does.
        if [ "${MB_YIELD:-}" = 1 ] && [ -f "${MB_UCX_IDLE:-}" ]; then
            LD_PRELOAD="$(realpath "$MB_UCX_IDLE")${LD_PRELOAD:+ $LD_PRELOAD}"
            # An AddressSanitizer build (make asan MPI=mpich) would refuse a library
            # preloaded ahead of its runtime; the shim allocates nothing.
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
            export LD_PRELOAD ASAN_OPTIONS
        fi
        # shellcheck disable=SC2086
        exec $MPIRUN "$@"
        ;;
    slurm)
        # srun counts tasks with -n, not -np.
        [ "${1:-}" = -np ] && shift && set -- -n "$@"
        # shellcheck disable=SC2086
        exec $MPIRUN "$@"
        ;;
    *)
        # shellcheck disable=SC2086
        exec $MPIRUN "$@"
        ;;
esac
