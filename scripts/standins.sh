#!/bin/sh
# Stand-in GPU jobs: long-running, harmless processes with job-like command lines, whose pids a
# scenario file can name ("pid": "${NVT_STANDIN_3:-4424242}") so that everything the host side
# reads about them (user, command line, CPU, memory, start time) is real.
#
#   eval "$(scripts/standins.sh start [N])"   start N stand-ins (default 20), print
#                                              `export NVT_STANDIN_<i>=<pid>` lines
#   scripts/standins.sh stop                   stop exactly those processes (idempotent)
#   scripts/standins.sh list                   print "<i> <pid> <start-time>" of the live ones
#
# State lives in $NVT_STANDIN_STATE (a directory) or, by default, in a directory of the user's
# own, so that two users' stand-ins never meet: $XDG_RUNTIME_DIR/nvitop-standins, or else
# ${TMPDIR:-/tmp}/nvitop-standins-<uid> (mode 0700; refused if it is a symbolic link or belongs to
# someone else).  `stop` checks each pid's start time (field 22 of /proc/<pid>/stat) against the
# recorded one, so a recycled pid is never killed.
#
# Stand-in i always has a lower pid than stand-in i+1 (tests expect that order, as the monitor
# lists processes by pid): if the kernel's pid counter wraps around pid_max during `start`, the
# stand-ins are started again (see start()).
#
# More than $many (64) stand-ins, for the many-process scenarios of sim/scenarios/
# (h100-8gpu-1000.json, h100-16gpu-4000.json), are all small `perl -e sleep` workers (about
# 0.5 MiB of their own memory each, where a Python one takes 3.5 MiB) and their pids need not
# increase (a thousand starts may well wrap the pid counter).  Where $NVT_STANDIN_LAUNCHER names
# the build's nvt-standins (tests/support/standin_launcher.c; the tests set it), that program
# starts them: the same command line and name, a fifth of a perl start's CPU each.
set -eu

if [ -n "${NVT_STANDIN_STATE:-}" ]; then
    state=$NVT_STANDIN_STATE
    private=0
elif [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -d "$XDG_RUNTIME_DIR" ]; then
    state=$XDG_RUNTIME_DIR/nvitop-standins
    private=1
else
    state=${TMPDIR:-/tmp}/nvitop-standins-$(id -u)
    private=1
fi
record="$state/standins"
many=64

# The default directory sits in a shared place: only ever use one that is ours and private.
check_private() {
    [ "$private" -eq 1 ] && [ -e "$state" ] || return 0
    if [ -L "$state" ] || [ ! -d "$state" ] || [ ! -O "$state" ]; then
        echo "standins: $state is not a directory of your own; remove it or set" \
            "NVT_STANDIN_STATE to one" >&2
        exit 1
    fi
    chmod 700 "$state"
}

usage() {
    echo "usage: $0 start [N] | stop | list" >&2
    exit 2
}

# Prints the start time of a process (clock ticks since boot), or nothing if it is gone.  The
# command name in /proc/<pid>/stat may contain spaces and parentheses, so fields are counted
# after the last ')'.
start_time() {
    # Shell built-ins only: `start` calls this once or more per stand-in.
    [ -r "/proc/$1/stat" ] || return 0
    line=
    read -r line <"/proc/$1/stat" 2>/dev/null || true
    [ -n "$line" ] || return 0
    set -f
    # shellcheck disable=SC2086
    set -- ${line##*) }
    set +f
    [ "$#" -ge 20 ] && shift 19 && echo "$1"
}

# The system interpreter, not a version manager's shim, so that the recorded pid is the job's.
# (Golden outputs of other components show these command lines: keep them stable.)
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3

# Starts one stand-in for slot $1 in the background, detached from our output.
spawn() {
    i=$1
    lr="$((i % 9 + 1))e-4"
    pause='import signal; signal.pause()'
    if [ "$2" -gt "$many" ]; then
        set -- perl -e 'sleep' worker.pl --pool "gpu$((i % 16))" --slot "$i"
    else
        case $((i % 6)) in
        0) set -- "$python" -c "$pause" train.py --epochs 100 --lr "$lr" \
            --batch-size $((i * 16)) ;;
        1) set -- perl -e 'sleep' finetune.pl --model llama-7b --run-name "lora r=$i baseline" ;;
        2) set -- "$python" -c "$pause" eval.py --ckpt "runs/exp $i/best.pt" \
            --split val ;;
        3) set -- perl -e 'sleep' serve.pl --port $((8000 + i)) --workers 4 ;;
        4) set -- "$python" -c "$pause" -m torch.distributed.run \
            --nproc_per_node 8 pretrain.py --config "configs/gpt 1.3b.yaml" ;;
        *) set -- "$python" -c "$pause" infer.py --prompt "it's a test" \
            --max-tokens 512 ;;
        esac
    fi
    if [ "$1" = "$python" ] && ! command -v "$python" >/dev/null 2>&1; then
        set -- perl -e 'sleep' job.pl --slot "$i"
    fi
    if ! command -v "$1" >/dev/null 2>&1; then
        set -- sleep 2147483647
    fi
    "$@" </dev/null >/dev/null 2>&1 &
    echo $!
}

stop() {
    check_private
    [ -f "$record" ] || return 0
    while read -r i pid started; do
        [ -n "$pid" ] || continue
        if [ "$(start_time "$pid")" = "$started" ]; then
            kill "$pid" 2>/dev/null || true
        fi
    done <"$record"
    rm -f "$record"
}

# Starts stand-ins 1..$1, recording "<i> <pid> <start-time>" lines in $record.
launch() {
    : >"$record"
    i=1
    while [ "$i" -le "$1" ]; do
        pid=$(spawn "$i" "$1")
        started=""
        tries=0
        # The child's /proc entry appears at once, but be patient on a loaded machine.
        while [ -z "$started" ] && [ "$tries" -lt 50 ]; do
            started=$(start_time "$pid")
            tries=$((tries + 1))
        done
        echo "$i $pid $started" >>"$record"
        i=$((i + 1))
    done
}

# launch_many N: as launch, for more than $many stand-ins, all of them `perl -e sleep worker.pl`
# jobs, started by one perl process: a fork and a command substitution of this shell cost some
# milliseconds each (see the performance document, "The test suite's own cost").  Each job is
# forked, its output sent to /dev/null, and exec'd (this perl, named perl); the launcher learns of
# the exec when the job's end of a close-on-exec pipe closes, then records its start time, so
# start() need not wait for the execs afterwards.
launch_many() {
    perl -e '
        use strict;
        use warnings;
        use POSIX ();
        my ($count, $record) = @ARGV;
        open(my $out, ">", $record) or die "standins: $record: $!\n";
        for my $i (1 .. $count) {
            # Descriptors above 2 are close-on-exec in perl: the read end sees its end at the exec.
            pipe(my $exec_r, my $exec_w) or die "standins: pipe: $!\n";
            my $pid = fork();
            die "standins: fork: $!\n" unless defined $pid;
            if ($pid == 0) {
                close($exec_r);
                open(STDIN, "<", "/dev/null");
                open(STDOUT, ">", "/dev/null");
                open(STDERR, ">", "/dev/null");
                # Not exit() on failure: that would write the launcher'"'"'s buffered lines again.
                exec { $^X } "perl", "-e", "sleep", "worker.pl", "--pool", "gpu" . ($i % 16),
                    "--slot", $i or POSIX::_exit(127);
            }
            close($exec_w);
            my $ignored = <$exec_r>;
            close($exec_r);
            my $started = "";
            if (open(my $stat, "<", "/proc/$pid/stat")) {
                my $line = <$stat> // "";
                my @fields = split(" ", substr($line, rindex($line, ")") + 1));
                $started = $fields[19] // "";
            }
            print $out "$i $pid $started\n";
        }
        close($out) or die "standins: $record: $!\n";
    ' "$1" "$record"
}

# Succeeds when the recorded pids increase with the slot number.
increasing() {
    previous=0
    while read -r i pid started; do
        [ "$pid" -gt "$previous" ] || return 1
        previous=$pid
    done <"$record"
}

start() {
    count=${1:-20}
    case $count in
    '' | *[!0-9]*) usage ;;
    esac
    check_private
    if [ "$private" -eq 1 ]; then
        (umask 077 && mkdir -p "$state")
        check_private
    else
        mkdir -p "$state"
    fi
    stop
    # Tests expect stand-in i to sort before stand-in i+1 (processes are listed by pid).  When the
    # kernel's pid counter wraps past pid_max in the middle of a start, the later stand-ins get
    # lower pids: start them all again, from the low pids the counter now hands out.  A second
    # wrap needs pid_max more forks in between, so three attempts are plenty.
    attempt=1
    execed=0
    if [ "$count" -gt "$many" ] && [ -x "${NVT_STANDIN_LAUNCHER:-}" ]; then
        "$NVT_STANDIN_LAUNCHER" "$count" "$record" || { stop; exit 1; }
        execed=1
    elif [ "$count" -gt "$many" ] && command -v perl >/dev/null 2>&1; then
        launch_many "$count"
        execed=1
    else
        launch "$count"
    fi
    while [ "$count" -le "$many" ] && ! increasing; do
        if [ "$attempt" -ge 3 ]; then
            echo "$0: stand-in pids are not increasing after $attempt attempts" >&2
            stop
            exit 1
        fi
        echo "$0: the pid counter wrapped around pid_max; starting the stand-ins again" >&2
        stop
        attempt=$((attempt + 1))
        launch "$count"
    done
    while read -r i pid started; do
        echo "export NVT_STANDIN_$i=$pid"
    done <"$record"
    # A job is forked as a copy of this shell and only then becomes its program: wait for every
    # exec, or a reader right after us may see the shell's command line instead of the job's
    # (launch_many has waited for its execs already).
    [ "$execed" -eq 0 ] || return 0
    shell=$(readlink "/proc/$$/exe" 2>/dev/null || true)
    while read -r i pid started; do
        tries=0
        while [ "$tries" -lt 100 ] && [ -e "/proc/$pid" ] &&
            [ "$(readlink "/proc/$pid/exe" 2>/dev/null || true)" = "$shell" ]; do
            sleep 0.05
            tries=$((tries + 1))
        done
    done <"$record"
}

list() {
    check_private
    [ -f "$record" ] || return 0
    while read -r i pid started; do
        if [ -n "$pid" ] && [ "$(start_time "$pid")" = "$started" ]; then
            echo "$i $pid $started"
        fi
    done <"$record"
}

case ${1:-} in
start)
    shift
    start "$@"
    ;;
stop) stop ;;
list) list ;;
*) usage ;;
esac
