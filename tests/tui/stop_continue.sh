#!/bin/sh
# ^Z and fg from a shell with job control: the monitor leaves the alternate screen and stops; fg
# brings it back with the whole screen drawn again (not only what changed since), and keys work.
# Then, run without job control (the pane's own command), where the kernel discards the stop: the
# monitor takes its screen back at once, drawn whole.
. "$(dirname "$0")/tmux_lib.sh"

# process_state PID: the state letter in /proc/PID/stat (T when stopped).
process_state() {
    sed -e 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1
}

# wait_state PID LETTER: poll until the process is in that state (10 s at most).
wait_state() {
    deadline=$(($(date +%s) + 10))
    while [ "$(process_state "$1")" != "$2" ]; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            fail "process $1 is in state '$(process_state "$1")', not $2"
            return 1
        fi
        sleep 0.05
    done
}

alternate_screen() {
    tmux_cmd display-message -p -t main '#{alternate_on}'
}

start_standins 2
use_scenario workstation-2gpu.json

start_shell 120 40
wait_for 'nvt$'
keys "'$NVITOP'" Enter
wait_for " $NVT_STANDIN_2 "
wait_for "Driver Version:"
shell=$(tmux_cmd display-message -p -t main '#{pane_pid}')
monitor=$(child_of "$shell") || fail "no monitor process under the pane's shell"

keys C-z
wait_state "$monitor" T
wait_for "Stopped"
[ "$(alternate_screen)" = 0 ] || fail "the alternate screen is still on after ^Z"
capture | grep -qF "Driver Version:" && fail "the monitor's screen is still shown after ^Z"

keys fg Enter
# The header never changes: it is back only if the whole screen was drawn again.
wait_for "Driver Version:"
wait_for " $NVT_STANDIN_2 "
[ "$(alternate_screen)" = 1 ] || fail "the alternate screen is off after fg"
press_until "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)" Down
keys q
deadline=$(($(date +%s) + 10))
while [ -e "/proc/$monitor" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || {
        fail "the monitor did not exit"
        break
    }
    sleep 0.05
done
keys 'echo "exit=$?"' Enter
wait_for "exit=0"

# Without job control the stop does not happen: the monitor leaves the alternate screen, enters it
# again at once and draws everything.
start_monitor 120 40
wait_for " $NVT_STANDIN_2 "
wait_for "Driver Version:"
record_pane
shell=$(tmux_cmd display-message -p -t main '#{pane_pid}')
monitor=$(child_of "$shell") || fail "no monitor process under the pane's shell"
kill -TSTP "$monitor"
wait_smcup 1
wait_for "Driver Version:"
[ "$(process_state "$monitor")" != T ] || fail "stopped in a process group the kernel orphans"
press_until "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)" Down
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after a stop that did not happen"
finish
