#!/bin/sh
# A room's sandbox: the namespaces every process of one room lives in (see room-sandbox.ts, which starts this as
# root and reads "ready" on stdout). Two stages in one file so the whole set-up reads top to bottom:
#
# outer  (the server's namespaces, root): joins the room's cgroups and limits, then re-runs this file as
#        `inner` in new network, mount, PID, IPC and UTS namespaces. --kill-child ties the namespace to this
#        process. unshare waits for the namespace to end and collects its PID 1, so nothing of the room is left for
#        the machine's init to collect (an init that collects late kept a dead room's PID 1 in sight for minutes).
# inner  (PID 1 of the new namespaces, root in them): the loopback interface as the only network, the host name
#        "room", and a root of the room's own, built on a tmpfs and swapped in with pivot_root: the system's
#        programs, libraries and fonts read-only (/usr and the /bin, /lib… links), a few /etc files the room's
#        programs read (most of them written here, nothing of the host's users, name or machine id), a /dev of
#        the harmless devices and the room's own terminals, its own /proc, and its own /tmp, /var/tmp, /run and
#        /dev/shm. Of the host's files nothing else is there: not its home directories, checkouts, /tmp or the
#        server's data and code (should one live under /usr, it is covered). Only the room's own directories
#        are put at their paths, the Chromium policy is written, and the one way out starts: a forwarder from
#        127.0.0.1:3128 to the egress proxy's unix socket. Then it waits; stopping the room kills it and with it
#        the whole namespace.
#
# Input, from the server (newline-separated lists; set by room-sandbox.ts, nothing else is read):
#   ROOM_SANDBOX_USER     the unprivileged user every room process runs as
#   ROOM_SANDBOX_CGROUPS  cgroup directories to join (created and limited by the server)
#   ROOM_SANDBOX_NOFILE   the open-files limit
#   ROOM_SANDBOX_TMP_MB   the size of the private /tmp
#   ROOM_SANDBOX_HIDE     directories covered with an empty tmpfs where the room's root shows them (parents first)
#   ROOM_SANDBOX_KEEP     directories of this room shown at their paths, as they are on the host
#   ROOM_SANDBOX_SCRATCH  directories of this room shown at their paths as a copy on a tmpfs: what the room
#                         writes there lives in its memory, bounded, and never reaches the host's disk
#   ROOM_SANDBOX_SCRATCH_MB  the size of each of those
#   ROOM_SANDBOX_EGRESS   the egress proxy's unix socket
#   ROOM_SANDBOX_POLICY   the Chromium enterprise policy (JSON)
set -eu
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

# The room's root while it is built, on a tmpfs of the namespace's own /run (nothing of it touches the host).
ROOT=/run/room-root
# The host name the room's processes see (uname, /etc/hostname): nothing of the machine's.
ROOM_HOSTNAME=room
# Inside the namespace the egress proxy is this loopback port: Chromium's --proxy-server points here.
PROXY_PORT=3128

outer() {
  for cgroup in $(printf '%s\n' "${ROOM_SANDBOX_CGROUPS:-}"); do
    echo $$ >"$cgroup/cgroup.procs"
  done
  ulimit -n "$ROOM_SANDBOX_NOFILE"
  ulimit -c 0
  exec unshare --net --mount --pid --ipc --uts --fork --kill-child --mount-proc -- /bin/sh "$0" inner
}

each_line() {
  printf '%s\n' "$1" | while IFS= read -r line; do
    # An if, not &&: an empty list is one empty line, and a false test would end the loop (and set -e the script).
    if [ -n "$line" ]; then "$2" "$line"; fi
  done
}

# Shows the host's directory $1 at the same path in the room's root, read-only; absent, nothing.
expose() {
  [ -d "$1" ] || return 0
  mkdir -p "$ROOT$1"
  mount --rbind "$1" "$ROOT$1"
  mount -o remount,bind,ro,nosuid,nodev "$ROOT$1"
}

# /bin, /lib… are links into /usr on a merged system, directories of their own on an older one.
expose_top() {
  if [ -L "/$1" ]; then
    ln -s "$(readlink "/$1")" "$ROOT/$1"
  else
    expose "/$1"
  fi
}

# The /etc the room's programs read, and no more: the dynamic linker's cache, fonts, CA certificates, Debian's
# Chromium launcher flags and alternatives links, PulseAudio's and GTK's defaults, MIME types, the time zone.
# Users, groups, name service and hosts are written for the room: root and the room user, no host name.
build_etc() {
  mkdir -m 755 "$ROOT/etc"
  entries=
  for entry in ld.so.cache ld.so.conf ld.so.conf.d fonts ssl/certs ca-certificates.conf chromium chromium.d \
    alternatives pulse gtk-3.0 mime.types localtime timezone; do
    if [ -e "/etc/$entry" ] || [ -L "/etc/$entry" ]; then entries="$entries $entry"; fi
  done
  # One copy for all of them (links kept as links): every program started here is a room's start-up time.
  # shellcheck disable=SC2086
  (cd /etc && cp -a --parents $entries "$ROOT/etc/")
  getent passwd root "$ROOM_SANDBOX_USER" >"$ROOT/etc/passwd"
  getent group root "$(id -g "$ROOM_SANDBOX_USER")" >"$ROOT/etc/group"
  printf 'passwd: files\ngroup: files\nshadow: files\nhosts: files dns\n' >"$ROOT/etc/nsswitch.conf"
  printf '127.0.0.1 localhost %s\n::1 localhost ip6-localhost ip6-loopback\n' "$ROOM_HOSTNAME" >"$ROOT/etc/hosts"
  printf '%s\n' "$ROOM_HOSTNAME" >"$ROOT/etc/hostname"
  # No name server is reachable from the room: the egress proxy resolves every name.
  : >"$ROOT/etc/resolv.conf"
  # A machine id of the room's own (D-Bus and PulseAudio read one), not the host's.
  tr -d '-' </proc/sys/kernel/random/uuid >"$ROOT/etc/machine-id"
  # Debian's Chromium reads its enterprise policies here.
  if [ -d "$ROOT/etc/chromium" ]; then
    mkdir -p "$ROOT/etc/chromium/policies/managed"
    printf '%s\n' "$ROOM_SANDBOX_POLICY" >"$ROOT/etc/chromium/policies/managed/room.json"
  else
    echo "no /etc/chromium: the room browser runs without its enterprise policy" >&2
  fi
}

# The harmless devices, the room's own terminals (an instance of its own: the host's, other rooms' among them,
# stay out of view) and shared memory.
build_dev() {
  mkdir -m 755 "$ROOT/dev"
  mount -t tmpfs -o mode=755,nosuid,noexec,size=64k tmpfs "$ROOT/dev"
  for node in null zero full random urandom tty; do
    : >"$ROOT/dev/$node"
    mount --bind "/dev/$node" "$ROOT/dev/$node"
  done
  ln -s /proc/self/fd "$ROOT/dev/fd"
  ln -s /proc/self/fd/0 "$ROOT/dev/stdin"
  ln -s /proc/self/fd/1 "$ROOT/dev/stdout"
  ln -s /proc/self/fd/2 "$ROOT/dev/stderr"
  mkdir "$ROOT/dev/pts" "$ROOT/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$ROOT/dev/pts"
  ln -s pts/ptmx "$ROOT/dev/ptmx"
  mount -t tmpfs -o mode=1777,nosuid,nodev,size=1m tmpfs "$ROOT/dev/shm"
}

build_root() {
  mkdir -m 755 "$ROOT"
  mount -t tmpfs -o mode=755,nosuid,nodev,size=8m tmpfs "$ROOT"
  expose /usr
  for top in bin sbin lib lib32 lib64 libx32; do
    if [ -e "/$top" ]; then expose_top "$top"; fi
  done
  build_etc
  build_dev
  mkdir -m 555 "$ROOT/proc"
  mount -t proc -o nosuid,nodev,noexec proc "$ROOT/proc"
  # Chromium's shared memory lives in /tmp (--disable-dev-shm-usage), so /tmp gets the room's size.
  mkdir -m 1777 "$ROOT/tmp"
  mount -t tmpfs -o "mode=1777,nosuid,nodev,size=${ROOM_SANDBOX_TMP_MB}m" tmpfs "$ROOT/tmp"
  mkdir -m 755 "$ROOT/run"
  mount -t tmpfs -o mode=755,nosuid,nodev,size=1m tmpfs "$ROOT/run"
  mkdir -m 755 "$ROOT/var"
  mount -t tmpfs -o mode=755,nosuid,nodev,size=1m tmpfs "$ROOT/var"
  # The room's own /var/tmp, small and gone with the room (the host's is on its disk, kept after the room).
  mkdir -m 1777 "$ROOT/var/tmp"
  mount -t tmpfs -o mode=1777,nosuid,nodev,size=16m tmpfs "$ROOT/var/tmp"
  ln -s /run "$ROOT/var/run"
  ln -s /run/lock "$ROOT/var/lock"
  # The system's font cache: without it every room would scan the fonts again.
  expose /var/cache/fontconfig
}

# A directory the root shows that the room must not see (the server's, under /usr say): an empty tmpfs over it.
hide() {
  [ -d "$ROOT$1" ] || return 0
  mount -t tmpfs -o mode=755,size=1m,nosuid,nodev tmpfs "$ROOT$1"
}

keep() {
  mkdir -p "$ROOT$1"
  mount --bind "$1" "$ROOT$1"
  mount -o remount,bind,nosuid,nodev "$ROOT$1"
}

scratch() {
  mkdir -p "$ROOT$1"
  mount -t tmpfs -o "mode=700,nosuid,nodev,size=${ROOM_SANDBOX_SCRATCH_MB}m" tmpfs "$ROOT$1"
  cp -a "$1/." "$ROOT$1/"
  chown "$ROOM_SANDBOX_USER:$ROOM_SANDBOX_USER" "$ROOT$1"
}

inner() {
  mount --make-rprivate /
  ip link set lo up
  printf '%s\n' "$ROOM_HOSTNAME" >/proc/sys/kernel/hostname

  # Sockets of the host's services (PostgreSQL, D-Bus) live in the host's /run; the room's root is built on a
  # tmpfs over it, so nothing of it is written to the host.
  mount -t tmpfs -o mode=755,nosuid,nodev,size=1m tmpfs /run
  build_root
  # Parents before children: a child of a covered directory is put back by KEEP, never covered again.
  each_line "${ROOM_SANDBOX_HIDE:-}" hide
  each_line "${ROOM_SANDBOX_KEEP:-}" keep
  each_line "${ROOM_SANDBOX_SCRATCH:-}" scratch
  keep "$(dirname "$ROOM_SANDBOX_EGRESS")"
  mkdir -m 1777 "$ROOT/tmp/.X11-unix"
  mkdir -m 700 "$ROOT/tmp/home"
  chown "$ROOM_SANDBOX_USER:$ROOM_SANDBOX_USER" "$ROOT/tmp/home"

  # The room's root becomes the namespace's root, and the host's tree leaves the namespace: pivot_root, not
  # chroot, so programs that enter it (nsenter) land in it too, and Chromium may still make its own user
  # namespaces (the kernel refuses them to a chrooted process).
  cd "$ROOT"
  mkdir .host
  pivot_root . .host
  cd /
  umount -l /.host
  rmdir /.host
  mount -o remount,ro,bind /

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
