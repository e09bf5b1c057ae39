#!/bin/sh
# A room's sandbox: the namespaces every process of one room lives in (see room-sandbox.ts, which starts this as
# root and reads "ready" on stdout). Two stages in one file so the whole set-up reads top to bottom:
#
# outer  (the server's namespaces, root): joins the room's cgroups and limits, then re-runs this file as
#        `inner` in new network, mount, PID and IPC namespaces. --kill-child ties the namespace to this process.
#        unshare waits for the namespace to end and collects its PID 1, so nothing of the room is left for the
#        machine's init to collect (an init that collects late kept a dead room's PID 1 in sight for minutes).
# inner  (PID 1 of the new namespaces, root in them): the loopback interface as the only network, a private /tmp,
#        /var/tmp, /run, /dev/shm and terminals, the server's data and code directories covered (only this room's own directories are
#        put back), the Chromium policy, and the one way out: a forwarder from 127.0.0.1:3128 to the egress
#        proxy's unix socket. Then it waits; stopping the room kills it and with it the whole namespace.
#
# Input, from the server (newline-separated lists; set by room-sandbox.ts, nothing else is read):
#   ROOM_SANDBOX_USER     the unprivileged user every room process runs as
#   ROOM_SANDBOX_CGROUPS  cgroup directories to join (created and limited by the server)
#   ROOM_SANDBOX_NOFILE   the open-files limit
#   ROOM_SANDBOX_TMP_MB   the size of the private /tmp
#   ROOM_SANDBOX_HIDE     directories covered with an empty tmpfs (parents before children)
#   ROOM_SANDBOX_KEEP     directories of this room put back inside what is hidden
#   ROOM_SANDBOX_SCRATCH  directories of this room put back as a copy on a tmpfs: what the room writes there
#                         lives in its memory, bounded, and never reaches the host's disk
#   ROOM_SANDBOX_SCRATCH_MB  the size of each of those
#   ROOM_SANDBOX_EGRESS   the egress proxy's unix socket
#   ROOM_SANDBOX_POLICY   the Chromium enterprise policy (JSON)
set -eu
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

# Where kept directories wait while their parents are covered: in the namespace's own /run, before /tmp is
# replaced (the server's data directory may well be under /tmp).
STAGE=/run/.room-sandbox-stage
# Inside the namespace the egress proxy is this loopback port: Chromium's --proxy-server points here.
PROXY_PORT=3128

outer() {
  for cgroup in $(printf '%s\n' "${ROOM_SANDBOX_CGROUPS:-}"); do
    echo $$ >"$cgroup/cgroup.procs"
  done
  ulimit -n "$ROOM_SANDBOX_NOFILE"
  ulimit -c 0
  exec unshare --net --mount --pid --ipc --fork --kill-child --mount-proc -- /bin/sh "$0" inner
}

each_line() {
  printf '%s\n' "$1" | while IFS= read -r line; do
    # An if, not &&: an empty list is one empty line, and a false test would end the loop (and set -e the script).
    if [ -n "$line" ]; then "$2" "$line"; fi
  done
}

stage_keep() {
  index=$(ls "$STAGE" | wc -l)
  mkdir "$STAGE/$index"
  mount --bind "$1" "$STAGE/$index"
  printf '%s\n' "$1" >"$STAGE/$index.path"
}

stage_scratch() {
  index=$(ls "$STAGE/scratch" | wc -l)
  mkdir "$STAGE/scratch/$index"
  mount --bind "$1" "$STAGE/scratch/$index"
  printf '%s\n' "$1" >"$STAGE/scratch/$index.path"
}

hide() {
  # A child of a directory hidden before it is already gone from view.
  [ -d "$1" ] || return 0
  mount -t tmpfs -o mode=755,size=1m,nosuid,nodev tmpfs "$1"
}

restore_scratch() {
  for file in "$STAGE"/scratch/*.path; do
    [ -e "$file" ] || continue
    path=$(cat "$file")
    mkdir -p "$path"
    mount -t tmpfs -o "mode=700,nosuid,nodev,size=${ROOM_SANDBOX_SCRATCH_MB}m" tmpfs "$path"
    cp -a "${file%.path}/." "$path/"
    chown "$ROOM_SANDBOX_USER:$ROOM_SANDBOX_USER" "$path"
    # The host's directory leaves the namespace: the room's writes go to the tmpfs alone.
    umount "${file%.path}"
  done
}

restore_keep() {
  for file in "$STAGE"/*.path; do
    [ -e "$file" ] || continue
    path=$(cat "$file")
    mkdir -p "$path"
    mount --move "${file%.path}" "$path"
  done
}

inner() {
  mount --make-rprivate /
  ip link set lo up

  # Sockets of the host's services (PostgreSQL, D-Bus) live in /run; none of them is the room's business.
  mount -t tmpfs -o mode=755,nosuid,nodev,size=1m tmpfs /run
  mkdir -m 700 "$STAGE"
  each_line "${ROOM_SANDBOX_KEEP:-}" stage_keep
  mkdir "$STAGE/scratch"
  each_line "${ROOM_SANDBOX_SCRATCH:-}" stage_scratch
  egress_dir=$(dirname "$ROOM_SANDBOX_EGRESS")
  stage_keep "$egress_dir"
  mkdir "$STAGE/etc-chromium"
  cp -a /etc/chromium/. "$STAGE/etc-chromium/" 2>/dev/null || true

  # Chromium's shared memory lives in /tmp (--disable-dev-shm-usage), so /tmp gets the room's size; the host's
  # /tmp holds the X sockets of other displays.
  mount -t tmpfs -o "mode=1777,nosuid,nodev,size=${ROOM_SANDBOX_TMP_MB}m" tmpfs /tmp
  mount -t tmpfs -o mode=1777,nosuid,nodev,size=1m tmpfs /dev/shm
  # The host's /var/tmp is on its disk, shared by every room (one user) and kept after them: the room gets its
  # own, small, gone with the room.
  [ ! -d /var/tmp ] || mount -t tmpfs -o mode=1777,nosuid,nodev,size=16m tmpfs /var/tmp
  # Pseudo-terminals from an instance of the room's own: the host's, other rooms' among them, stay out of view.
  mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts /dev/pts
  mount --bind /dev/pts/ptmx /dev/ptmx
  each_line "${ROOM_SANDBOX_HIDE:-}" hide

  # Debian's Chromium reads its enterprise policies here; the room's own copy of the directory holds them.
  if [ -d /etc/chromium ]; then
    mount -t tmpfs -o mode=755,size=1m tmpfs /etc/chromium
    cp -a "$STAGE/etc-chromium/." /etc/chromium/
    mkdir -p /etc/chromium/policies/managed
    printf '%s\n' "$ROOM_SANDBOX_POLICY" >/etc/chromium/policies/managed/room.json
  else
    echo "no /etc/chromium: the room browser runs without its enterprise policy" >&2
  fi
  restore_keep
  restore_scratch
  rm -rf "$STAGE"

  mkdir -m 1777 /tmp/.X11-unix
  mkdir -m 700 /tmp/home
  chown "$ROOM_SANDBOX_USER:$ROOM_SANDBOX_USER" /tmp/home

  setpriv --reuid "$ROOM_SANDBOX_USER" --regid "$ROOM_SANDBOX_USER" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- \
    socat -lf /dev/null "TCP-LISTEN:$PROXY_PORT,bind=127.0.0.1,fork,reuseaddr" \
    "UNIX-CONNECT:$ROOM_SANDBOX_EGRESS" &
  # Ready once the forwarder listens (state 0A in /proc/net/tcp, the port in hex).
  port_hex=$(printf '%04X' "$PROXY_PORT")
  tries=0
  until grep -q ":$port_hex 00000000:0000 0A" /proc/net/tcp; do
    tries=$((tries + 1))
    [ "$tries" -lt 500 ] || { echo "the egress forwarder did not start" >&2; exit 1; }
    sleep 0.01
  done
  echo ready
  # Programs entering the sandbox start here (nsenter --wd takes PID 1's directory).
  cd /tmp/home
  # PID 1 of the namespace: when it ends, the kernel ends every process of the room. It reads the pipe only the
  # server holds open (stdin), so it ends when the server does, however the server ends (kill -9 included).
  # Changing user clears the parent-death signal unshare --kill-child set, so it is set again after the change.
  exec setpriv --reuid "$ROOM_SANDBOX_USER" --regid "$ROOM_SANDBOX_USER" --clear-groups --inh-caps=-all \
    --bounding-set=-all --no-new-privs --pdeathsig KILL -- cat >/dev/null
}

case "${1:-}" in
  outer) outer ;;
  inner) inner ;;
  *) echo "usage: room-sandbox.sh outer" >&2; exit 2 ;;
esac
