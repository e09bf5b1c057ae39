#!/bin/sh
# Which capabilities the room sandbox needs (apps/server/src/rooms/sandbox), the list the room agents' pods are
# given in deploy/kubernetes/base/room-agents.yaml: as a container runtime would, it limits root to a capability
# bounding set, opens a room sandbox (room-sandbox.sh), runs a program in it as the room user
# (room-sandbox-exec.sh) that reaches the egress proxy's socket through the room's forwarder, and stops the room.
# First with the whole set, then once without each capability: every line but the first should say which step
# fails without it. Per-room cgroups are left out, as containers see /sys/fs/cgroup read-only.
#
#   sudo sh scripts/sandbox-capabilities.sh     (root, the room-sandbox user, util-linux, iproute2, socat)
set -u
SANDBOX=$(cd "$(dirname "$0")/../apps/server/src/rooms/sandbox" && pwd)
USER_NAME=${ROOM_SANDBOX_USER:-room-sandbox}
CAPS="sys_admin net_admin sys_ptrace sys_chroot setuid setgid setpcap chown dac_override fowner kill"
WORK=$(mktemp -d /tmp/sandbox-capabilities-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

bounding() {
  printf -- '-all'
  for cap in "$@"; do printf ',+%s' "$cap"; done
}

# One try with the bounding set $1; prints what happened.
try() {
  set_=$1
  mkdir -p "$WORK/egress" "$WORK/keep" "$WORK/hide"
  rm -f "$WORK/egress/sock" "$WORK/out" "$WORK/err"
  # The egress proxy stand-in: answers every connection with one line.
  socat "UNIX-LISTEN:$WORK/egress/sock,fork,mode=777" SYSTEM:'echo egress-reached' &
  proxy=$!
  tries=0
  until [ -S "$WORK/egress/sock" ] || [ "$tries" -ge 50 ]; do sleep 0.1; tries=$((tries + 1)); done
  # The room's PID 1 lives as long as its stdin, the pipe the server holds: a FIFO held open here stands in for it.
  rm -f "$WORK/stdin"
  mkfifo "$WORK/stdin"
  exec 3<>"$WORK/stdin"
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin ROOM_SANDBOX_USER="$USER_NAME" ROOM_SANDBOX_CGROUPS= \
    ROOM_SANDBOX_NOFILE=8192 ROOM_SANDBOX_TMP_MB=64 ROOM_SANDBOX_HIDE="$WORK/hide" ROOM_SANDBOX_KEEP="$WORK/keep" \
    ROOM_SANDBOX_EGRESS="$WORK/egress/sock" ROOM_SANDBOX_POLICY='{}' \
    setpriv --bounding-set "$set_" --inh-caps=-all -- /bin/sh "$SANDBOX/room-sandbox.sh" outer \
    <&3 >"$WORK/out" 2>"$WORK/err" &
  holder=$!
  tries=0
  until grep -q ready "$WORK/out" 2>/dev/null || [ "$tries" -ge 100 ] || ! kill -0 "$holder" 2>/dev/null; do
    sleep 0.1
    tries=$((tries + 1))
  done
  result=
  # The holder is unshare (exec'd by the script); its one child is the room's PID 1.
  pid=$(awk '{print $1}' "/proc/$holder/task/$holder/children" 2>/dev/null)
  if grep -q ready "$WORK/out" && [ -z "$pid" ]; then
    result="sandbox ready, then FAILED: $(tr '\n' ' ' <"$WORK/err" | cut -c1-200)"
  elif grep -q ready "$WORK/out"; then
    entered=$(env -i PATH=/usr/bin:/bin ROOM_SANDBOX_PID="$pid" ROOM_SANDBOX_USER="$USER_NAME" \
      ROOM_SANDBOX_CGROUPS= setpriv --bounding-set "$set_" --inh-caps=-all -- \
      /bin/sh "$SANDBOX/room-sandbox-exec.sh" /bin/sh -c \
      'printf "uid=%s " "$(id -u)"; grep CapBnd /proc/self/status | tr -d "\t"; socat -t2 - TCP:127.0.0.1:3128 </dev/null' \
      2>&1 | tr '\n' ' ')
    # Stopping the room: the server signals its PID 1, which runs as the room user.
    if setpriv --bounding-set "$set_" --inh-caps=-all -- kill -KILL "$pid" 2>/dev/null; then
      stopped=stopped
    else
      stopped="NOT stopped (kill refused)"
      kill -KILL "$pid" 2>/dev/null
    fi
    result="sandbox ready; in it: ${entered}; room ${stopped}"
  else
    result="sandbox FAILED: $(tr '\n' ' ' <"$WORK/err" | cut -c1-200)"
  fi
  exec 3>&-
  kill -KILL "$holder" 2>/dev/null
  kill "$proxy" 2>/dev/null
  wait "$holder" "$proxy" 2>/dev/null
  echo "$result"
}

[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 2; }
id "$USER_NAME" >/dev/null 2>&1 || { echo "no user $USER_NAME (npm install creates it as root)" >&2; exit 2; }
# shellcheck disable=SC2086
echo "all of them: $(try "$(bounding $CAPS)")"
for drop in $CAPS; do
  # shellcheck disable=SC2086
  rest=$(printf '%s\n' $CAPS | grep -vx "$drop")
  # shellcheck disable=SC2086
  echo "without $drop: $(try "$(bounding $rest)")"
done
