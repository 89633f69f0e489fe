# Sourced by scripts that run the CLI against the local dev server: when no dev server was
# running before the script, the one the CLI starts (detached, .thoughtline/temporal-server.pid)
# is stopped again on exit, so a script leaves the machine as it found it.
pidfile=.thoughtline/temporal-server.pid
dev_server_running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }
started_here=1
if dev_server_running; then started_here=0; fi
stop_own_dev_server() { if [ "$started_here" = 1 ] && dev_server_running; then kill "$(cat "$pidfile")"; fi; }
trap stop_own_dev_server EXIT
