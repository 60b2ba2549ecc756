# shellcheck shell=sh
# The setup the shell benchmarks of bench/ share, sourced after they set source_dir (the
# checkout) and build (the build directory):
#   bench_built PROGRAM HINT       exit 2 with "missing PROGRAM: HINT" unless it is executable
#   bench_need TOOL [WHY]          exit 2 with a message unless TOOL is on the PATH
#   bench_workspace NAME SOCKET... make $work (removed on exit, with the tmux servers SOCKET...
#                                  and any stand-ins), export the locale, TERM and the simulated
#                                  driver's LD_LIBRARY_PATH, and write $work/tmux.conf; SOCKET is
#                                  expanded at exit, so '$socket' (quoted) names the server the
#                                  variable names then
#   bench_standins COUNT           start COUNT stand-ins (scripts/standins.sh) and export their
#                                  NVT_STANDIN_<i>
#   bench_scenario                 export NVML_SIM_SCENARIO for $NVT_BENCH_PROCESSES (20, the
#                                  default: h100-8gpu.json; 1000: h100-8gpu-1000.json; 4000:
#                                  h100-16gpu-4000.json) and start as many stand-ins; sets
#                                  $bench_processes, $bench_scenario_name and $bench_idle_scenario
#                                  (the same GPUs with no process, h100-8gpu-idle.json or
#                                  h100-16gpu-idle.json: a refresh's fixed cost)
#   bench_cpu_s PID                CPU seconds of all of PID's threads so far: the scheduler's
#                                  run time (/proc/PID/task/*/sched) where the kernel has it, else
#                                  utime + stime in clock ticks

bench_cpu_s() {
    if [ -r "/proc/$1/sched" ]; then
        cat /proc/"$1"/task/*/sched 2>/dev/null |
            awk '/^se\.sum_exec_runtime/ { ms += $3 } END { printf "%.6f\n", ms / 1000 }'
    else
        sed -e 's/^.*) //' "/proc/$1/stat" |
            awk -v hz="$(getconf CLK_TCK)" '{ printf "%.6f\n", ($12 + $13) / hz }'
    fi
}

bench_built() {
    [ -x "$1" ] || {
        echo "missing $1: $2" >&2
        exit 2
    }
}

bench_need() {
    command -v "$1" >/dev/null 2>&1 || {
        echo "$1 is needed${2:+ ($2)}" >&2
        exit 2
    }
}

# source_dir and build are set by the script that sources this file.
# shellcheck disable=SC2154
bench_cleanup() {
    for bench_server in $(eval echo "$bench_sockets"); do
        tmux -L "$bench_server" kill-server >/dev/null 2>&1 || true
    done
    NVT_STANDIN_STATE="$work/standins" sh "$source_dir/scripts/standins.sh" stop >/dev/null 2>&1 ||
        true
    rm -rf "$work"
}

# shellcheck disable=SC2154
bench_workspace() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    shift
    bench_sockets="$*"
    trap bench_cleanup EXIT INT TERM
    export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color
    export LD_LIBRARY_PATH="$build/sim-driver"
    echo "set -g status off" >"$work/tmux.conf"
}

bench_scenario() {
    bench_gpus=8
    case ${NVT_BENCH_PROCESSES:-20} in
    1000) bench_processes=1000 bench_scenario_name=h100-8gpu-1000.json ;;
    4000) bench_processes=4000 bench_scenario_name=h100-16gpu-4000.json bench_gpus=16 ;;
    *) bench_processes=20 bench_scenario_name=h100-8gpu.json ;;
    esac
    export NVML_SIM_SCENARIO="$source_dir/sim/scenarios/$bench_scenario_name"
    # shellcheck disable=SC2034 # read by the scripts that source this file
    bench_idle_scenario="$source_dir/sim/scenarios/h100-${bench_gpus}gpu-idle.json"
    bench_standins "$bench_processes"
}

bench_standins() {
    eval "$(NVT_STANDIN_STATE="$work/standins" sh "$source_dir/scripts/standins.sh" start "$1")"
}
