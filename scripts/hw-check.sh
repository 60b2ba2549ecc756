#!/bin/sh
# hw-check.sh OUTDIR: everything a short loan of a real NVIDIA GPU should bring back, in one run of
# a few minutes (docs/hardware.md).  Runs against whatever libnvidia-ml.so.1 the dynamic linker
# finds: NVIDIA's driver on a GPU machine, the simulator in tests (LD_LIBRARY_PATH=build/sim-driver
# and NVML_SIM_SCENARIO set).
#
# Collects: nvidia-smi -q and --query-compute-apps (when nvidia-smi exists), the entry points the
# driver library exports (nm -D), every answer nvml-walk reads, nvitop -1, --json and -q, the
# list-devices example, nvisel, CUDA's view of CUDA_VISIBLE_DEVICES (the probe helper), the wall
# time of nvitop -1, one scrape of the exporter and a monitor capture (20 s; HW_CHECK_MONITOR_S
# overrides), all while a small CUDA job runs (when PyTorch is importable), and writes what it
# read as a scenario file (OUTDIR/scenario.json).  Nothing is installed: the build directory (BUILD, default ./build)
# is used as it is, and build/hw-libs/ (made by `hw-check.sh --pack`: the shared libraries our
# programs need, found with ldd) is put on the library path when present, build/hw-tools/ (tmux
# and nm) on the end of PATH and build/hw-terminfo/ on TERMINFO_DIRS.
set -u

usage() {
    echo "usage: hw-check.sh OUTDIR | hw-check.sh --pack" >&2
    exit 2
}

root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
build=${BUILD:-$root/build}
programs="$build/bin/nvitop $build/tests/nvml-walk $build/examples/example-list-devices"

# --pack: copy the shared libraries our programs need (but not the C library or the driver,
# which the GPU machine has) next to the build, for carrying to a machine that lacks them; with
# them tmux and nm (which a GPU machine's image may lack) and the terminal descriptions the
# monitor capture uses.
if [ "${1:-}" = "--pack" ]; then
    mkdir -p "$build/hw-libs" "$build/hw-tools" "$build/hw-terminfo" || exit 1
    tools=
    for t in tmux nm; do
        if command -v "$t" >/dev/null 2>&1; then
            cp -L "$(command -v "$t")" "$build/hw-tools/" || exit 1
            tools="$tools $build/hw-tools/$t"
        fi
    done
    # nvtop, when NVTOP names one, for the side-by-side step (monitor-vs-nvtop.txt).
    if [ -n "${NVTOP:-}" ] && [ -x "$NVTOP" ]; then
        cp -L "$NVTOP" "$build/hw-tools/nvtop" || exit 1
        tools="$tools $build/hw-tools/nvtop"
    fi
    for p in $programs "$build"/bin/* $tools; do
        ldd "$p" 2>/dev/null | awk '$3 ~ /^\// {print $3}'
    done | sort -u | while read -r lib; do
        case $(basename "$lib") in
        libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | libresolv.so* | \
            libutil.so* | libanl.so* | libnss_* | ld-linux* | libnvidia-ml*) ;;
        *) cp -L "$lib" "$build/hw-libs/" ;;
        esac
    done
    for t in s/screen s/screen-256color t/tmux t/tmux-256color x/xterm x/xterm-256color; do
        for dir in /etc/terminfo /lib/terminfo /usr/share/terminfo; do
            if [ -e "$dir/$t" ]; then
                mkdir -p "$build/hw-terminfo/${t%/*}" && cp -L "$dir/$t" "$build/hw-terminfo/$t"
                break
            fi
        done
    done
    echo "hw-check: $(ls "$build/hw-libs" | wc -l) libraries in $build/hw-libs," \
        "$(ls "$build/hw-tools" | wc -l) tools in $build/hw-tools"
    exit 0
fi

[ $# -eq 1 ] || usage
out=$1
mkdir -p "$out" || exit 1
# Python (the CUDA job, the scrape) keeps the machine's own library path: the carried libraries
# are Debian's and may be older than the ones its modules need.
host_ld=${LD_LIBRARY_PATH:-}
[ -d "$build/hw-libs" ] && LD_LIBRARY_PATH="$build/hw-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -d "$build/hw-tools" ] && PATH="$PATH:$build/hw-tools"
[ -d "$build/hw-terminfo" ] && export TERMINFO_DIRS="$build/hw-terminfo:"
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}"
monitor_s=${HW_CHECK_MONITOR_S:-20}
log="$out/hw-check.log"
: >"$log"

# Runs a step with a time limit, recording its exit status; a failing step never stops the run.
step() {
    name=$1
    limit=$2
    shift 2
    timeout "$limit" "$@" >"$out/$name" 2>"$out/$name.err"
    echo "$name: exit $?" >>"$log"
}

# The driver library: the one the dynamic linker resolves for our programs.
driver=$(ldconfig -p 2>/dev/null | awk '/libnvidia-ml.so.1 / {print $NF; exit}')
for dir in $(echo "$LD_LIBRARY_PATH" | tr ':' ' '); do
    if [ -e "$dir/libnvidia-ml.so.1" ]; then
        driver=$dir/libnvidia-ml.so.1
        break
    fi
done
echo "driver: ${driver:-not found}" >>"$log"

# A small CUDA job, so that the process lists have something real in them.
job=
if env LD_LIBRARY_PATH="$host_ld" python3 -c \
    'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    env LD_LIBRARY_PATH="$host_ld" python3 -c '
import time, torch
x = torch.randn(4096, 4096, device="cuda")
end = time.time() + 240
while time.time() < end:
    x = (x @ x).clamp_(-1, 1)
    torch.cuda.synchronize()
' >"$out/cuda-job.log" 2>&1 &
    job=$!
    sleep 10
fi
echo "cuda job: ${job:-none (no PyTorch with CUDA)}" >>"$log"

if command -v nvidia-smi >/dev/null 2>&1; then
    step nvidia-smi-q.txt 60 nvidia-smi -q
    step nvidia-smi-apps.csv 30 nvidia-smi \
        --query-compute-apps=pid,process_name,used_gpu_memory,gpu_uuid --format=csv
fi
[ -n "$driver" ] && step exports.txt 30 sh -c "nm -D --defined-only '$driver' | awk '{print \$3}' | sort"
step walk.tsv 120 "$build/tests/nvml-walk" --times "$out/walk-times.tsv"
step nvitop-once.txt 60 "$build/bin/nvitop" -1
step nvitop.json 60 "$build/bin/nvitop" --json
step nvitop-query.txt 60 "$build/bin/nvitop" -q
step list-devices.txt 60 "$build/examples/example-list-devices"
step nvisel.txt 60 sh -c "'$build/bin/nvisel' --newline; '$build/bin/nvisel' -O uuid -f 1GiB"
# CUDA's own view of CUDA_VISIBLE_DEVICES, through the probe helper and the real libcuda.
step cuda-visible.txt 60 env CUDA_VISIBLE_DEVICES=0 NVITOP_CUDA_PROBE="$build/bin/nvitop-cuda-probe" \
    "$build/bin/nvitop" -1 --only-visible
# Wall time of nvitop -1, five times, beside two floors: the list-devices example (NVML's
# initialisation and a few queries) and nvidia-smi -L.
# shellcheck disable=SC2016
step timing.txt 120 sh -c 'for what in "$1/bin/nvitop -1" "$1/examples/example-list-devices" \
    "nvidia-smi -L"; do for i in 1 2 3 4 5; do s=$(date +%s%N); $what >/dev/null 2>&1
    e=$(date +%s%N); echo "$what run $i: $(((e - s) / 1000000)) ms"; done; done' sh "$build"
# The exporter for a few seconds, and one scrape of /metrics.
port=${HW_CHECK_PORT:-19473}
"$build/bin/nvitop-exporter" --bind-address 127.0.0.1 --port "$port" \
    >"$out/exporter.log" 2>&1 &
exporter=$!
sleep 3
step exporter-metrics.txt 30 env LD_LIBRARY_PATH="$host_ld" python3 -c "import sys, urllib.request
sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:$port/metrics', timeout=10).read().decode())"
kill "$exporter" 2>/dev/null
wait "$exporter" 2>/dev/null
# The monitor in a private tmux server (so that it inherits this environment), 160x50, a screen
# captured every 5 s.
# The machine's own tmux runs with its own libraries (the carried ones can be older than it
# needs); the carried tmux, with them.
tmux_ld=$LD_LIBRARY_PATH
if env LD_LIBRARY_PATH="$host_ld" tmux -V >/dev/null 2>&1; then
    tmux_ld=$host_ld
fi
if env LD_LIBRARY_PATH="$tmux_ld" tmux -V >/dev/null 2>&1; then
    sock=hw-check-$$
    env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$sock" new-session -d -x 160 -y 50 -s monitor \
        "env LD_LIBRARY_PATH='$LD_LIBRARY_PATH' '$build/bin/nvitop'"
    waited=0
    : >"$out/monitor.txt"
    while [ "$waited" -lt "$monitor_s" ]; do
        sleep 1
        waited=$((waited + 1))
        if [ $((waited % 5)) -eq 0 ] || [ "$waited" -eq "$monitor_s" ]; then
            echo "--- ${waited}s" >>"$out/monitor.txt"
            env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$sock" capture-pane -p -t monitor \
                >>"$out/monitor.txt" 2>&1
        fi
    done
    # The monitor's processor time over the capture (utime + stime of /proc/PID/stat).
    pid=$(pgrep -n -x nvitop 2>/dev/null)
    ticks=$(awk '{print $14 + $15}' "/proc/${pid:-0}/stat" 2>/dev/null)
    echo "monitor cpu: ${ticks:-?} ticks of 1/$(getconf CLK_TCK) s in ${monitor_s} s" \
        >>"$out/monitor.txt"
    env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$sock" kill-server 2>/dev/null
    echo "monitor.txt: $(grep -c '^--- ' "$out/monitor.txt") screens" >>"$log"
fi

# Our monitor and nvtop side by side on the real driver, while the job runs: each in its own tmux
# server at 200x60 with a 1 s interval, measured over the same window (HW_CHECK_VS_S, default
# 30 s) after a 5 s start: the scheduler's run time of all threads (utime + stime where the kernel
# has no sched file) and the resident set at the end, as bench/monitor/monitor_bench.sh does on the
# simulator.  nvtop is build/hw-tools/nvtop (--pack copies the one NVTOP names) or HW_CHECK_NVTOP.
vs_nvtop=${HW_CHECK_NVTOP:-$build/hw-tools/nvtop}
vs_s=${HW_CHECK_VS_S:-30}
# shellcheck source=bench/bench_lib.sh
. "$root/bench/bench_lib.sh"
if [ -x "$vs_nvtop" ] && env LD_LIBRARY_PATH="$tmux_ld" tmux -V >/dev/null 2>&1; then
    vs=hw-vs-$$
    env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$vs-m" new-session -d -x 200 -y 60 -s vs \
        "exec env LD_LIBRARY_PATH='$LD_LIBRARY_PATH' '$build/bin/nvitop' --interval 1"
    env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$vs-n" new-session -d -x 200 -y 60 -s vs \
        "exec env LD_LIBRARY_PATH='$LD_LIBRARY_PATH' '$vs_nvtop' -d 10"
    sleep 5
    mpid=$(env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$vs-m" display -p -t vs '#{pane_pid}')
    npid=$(env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$vs-n" display -p -t vs '#{pane_pid}')
    m0=$(bench_cpu_s "$mpid") n0=$(bench_cpu_s "$npid")
    sleep "$vs_s"
    m1=$(bench_cpu_s "$mpid") n1=$(bench_cpu_s "$npid")
    mrss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$mpid/status" 2>/dev/null)
    nrss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$npid/status" 2>/dev/null)
    {
        echo "--- nvitop"
        env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$vs-m" capture-pane -p -t vs
        echo "--- nvtop"
        env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$vs-n" capture-pane -p -t vs
        echo "---"
        awk -v m0="$m0" -v m1="$m1" -v n0="$n0" -v n1="$n1" -v mr="${mrss:-0}" \
            -v nr="${nrss:-0}" -v s="$vs_s" 'BEGIN {
            mc = 100 * (m1 - m0) / s; nc = 100 * (n1 - n0) / s
            printf "%d s, 200x60, 1 s interval, at once\n", s
            printf "nvitop CPU %.3f %% of a core, RSS %.1f MiB\n", mc, mr / 1024
            printf "nvtop  CPU %.3f %% of a core, RSS %.1f MiB\n", nc, nr / 1024
            if (nc > 0 && nr > 0)
                printf "nvitop / nvtop: CPU %.2f, RSS %.2f\n", mc / nc, mr / nr
        }'
    } >"$out/monitor-vs-nvtop.txt" 2>&1
    # Where each one's resident memory lies: the resident kilobytes of each mapped file, the
    # heap, the stacks and the anonymous mappings (the driver makes large ones), largest first.
    for p in "nvitop $mpid" "nvtop $npid"; do
        echo "--- ${p% *}: resident KiB by mapping"
        awk '/^[0-9a-f]+-[0-9a-f]+ / { name = $6 == "" ? "[anonymous]" : $6 }
            /^Rss:/ { rss[name] += $2 }
            END { for (n in rss) if (rss[n] > 0) printf "%8d %s\n", rss[n], n }' \
            "/proc/${p#* }/smaps" 2>/dev/null | sort -rn
    done >"$out/monitor-vs-nvtop-smaps.txt" 2>&1
    env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$vs-m" kill-server 2>/dev/null
    env LD_LIBRARY_PATH="$tmux_ld" tmux -L "$vs-n" kill-server 2>/dev/null
    echo "monitor-vs-nvtop.txt: $(tail -1 "$out/monitor-vs-nvtop.txt")" >>"$log"
fi

if [ -n "$job" ]; then
    kill "$job" 2>/dev/null
    wait "$job" 2>/dev/null
fi

# What nvml-walk read, as a scenario file the simulator loads.
if command -v python3 >/dev/null 2>&1 && [ -s "$out/walk.tsv" ]; then
    LD_LIBRARY_PATH="$host_ld" python3 "$root/scripts/hw-scenario.py" "$out/walk.tsv" \
        "$out/nvitop.json" --times "$out/walk-times.tsv" >"$out/scenario.json" \
        2>"$out/scenario.err"
    echo "scenario.json: exit $?" >>"$log"
fi
cat "$log"
