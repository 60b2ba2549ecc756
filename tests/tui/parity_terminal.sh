#!/bin/sh
# The monitor and the terminal around it (issue 13, item 5): after `q` the closing report starts
# right under the shell prompt (no screenful of blank lines pushed into the scrollback); Ctrl-L
# and `r` repaint the whole screen; what is written to stderr while the monitor runs (here the
# simulated driver's complaint about a malformed scenario rewrite) goes to the log file named in
# the man page, not over the screen.
. "$(dirname "$0")/tmux_lib.sh"

start_standins 3
use_scenario workstation-2gpu.json

# 1. The report under the prompt: a shell in the pane, the monitor started from it.
tmux_cmd kill-server >/dev/null 2>&1 || true
RUNS=$((RUNS + 1))
SOCKET="nvt-tui-$$-$RUNS"
cat >"$WORK/shell.sh" <<SHELL
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color NCURSES_GPM_TERMS=
export NVML_SIM_SCENARIO='$SCENARIO' NVML_SIM_TIME=100 LD_LIBRARY_PATH='${LD_LIBRARY_PATH:-}'
export PS1='prompt\$ ' ENV= XDG_STATE_HOME='$WORK/state'
exec sh -i
SHELL
printf 'set -g status off\nset -g history-limit 1000\n' >"$WORK/tmux.conf"
tmux_cmd -f "$WORK/tmux.conf" new-session -d -s main -x 100 -y 30 sh "$WORK/shell.sh"
wait_for "prompt\$"
keys "echo before the monitor" Enter
wait_for "before the monitor"
keys "$NVITOP" Enter
wait_for " $NVT_STANDIN_3 X "
keys q
# Done when the shell prompts again after the report: the prompt line that ran the monitor is back
# on screen at once, before the report is printed.
deadline=$(($(date +%s) + 10))
until capture | grep -v '^ *$' | tail -n 1 | grep -qx 'prompt\$ *' &&
    capture | grep -qF "│ Processes:"; do
    [ "$(date +%s)" -lt "$deadline" ] || {
        fail "no prompt after the report"
        break
    }
    sleep 0.05
done
# The whole pane with its scrollback: the report's first line (the time) follows the command.
tmux_cmd capture-pane -p -t main -S - >"$WORK/pane.txt"
after=$(grep -A 1 -F "prompt\$ $NVITOP" "$WORK/pane.txt" | sed -n 2p)
case $after in
[A-Z][a-z][a-z]" "[A-Z][a-z][a-z]" "*) ;;
*)
    fail "the report does not start under the prompt (next line: '$after')"
    cat "$WORK/pane.txt" >&2
    ;;
esac
grep -qF "│ Processes:" "$WORK/pane.txt" || fail "no report after q"

# 2. Ctrl-L and r repaint: text another program wrote over the screen goes.
start_monitor 100 30
wait_for " $NVT_STANDIN_3 X "
tty=$(tmux_cmd display-message -p -t main '#{pane_tty}')
for key in C-l r; do
    printf '\033[3;10HSCRIBBLED-OVER' >"$tty"
    wait_for "SCRIBBLED-OVER"
    keys "$key"
    wait_gone "SCRIBBLED-OVER" 5
done
wait_for " $NVT_STANDIN_3 X "
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after the repaints"

# 3. Standard error into the log ($XDG_STATE_HOME/nvitop/nvitop.log), and a note after quitting.
export XDG_STATE_HOME="$WORK/state"
LOG="$XDG_STATE_HOME/nvitop/nvitop.log"
start_monitor 120 40
wait_for " $NVT_STANDIN_3 X "
cp "$SCENARIO" "$WORK/good.json"
printf '{ "gpus": [ oops\n' >"$WORK/bad.json"
mv "$WORK/bad.json" "$SCENARIO"
deadline=$(($(date +%s) + 10))
while ! grep -qF "scenario.json" "$LOG" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "the driver's message did not reach $LOG"
        break
    fi
    sleep 0.05
done
capture | grep -qF "scenario.json" && fail "the driver's message is on the screen"
mv "$WORK/good.json" "$SCENARIO"
wait_for " $NVT_STANDIN_3 X "
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status after the driver's message"
wait_for "nvitop: messages written to stderr while the monitor ran are in $LOG"
finish
