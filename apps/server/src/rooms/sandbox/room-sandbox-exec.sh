#!/bin/sh
# Runs one program of a room inside the room's sandbox (room-sandbox.sh) as the room's unprivileged user, with no
# capabilities and the environment the server gave it. Playwright starts Chromium through this file (it needs an
# executable path), the media helpers are started through it too, so every process of a room enters the same way.
#
#   ROOM_SANDBOX_PID   the sandbox's PID 1, as the server sees it
#   ROOM_SANDBOX_USER  the user to run as
#   ROOM_SANDBOX_EXEC     the program; when unset, the first argument is the program
#   ROOM_SANDBOX_CGROUPS  the room's cgroups (entering the namespaces does not enter them)
# These are removed before the program starts.
set -eu
target=$ROOM_SANDBOX_PID
user=$ROOM_SANDBOX_USER
program=${ROOM_SANDBOX_EXEC:-}
for cgroup in $(printf '%s\n' "${ROOM_SANDBOX_CGROUPS:-}"); do
  echo $$ >"$cgroup/cgroup.procs"
done
unset ROOM_SANDBOX_PID ROOM_SANDBOX_USER ROOM_SANDBOX_EXEC ROOM_SANDBOX_CGROUPS
if [ -z "$program" ]; then
  program=$1
  shift
fi
# nsenter forks into the PID namespace and waits; the program stays in this process group, so signals the server
# sends to the group (Playwright's kill, a helper's stop) reach it. nsenter outlives a server killed hard only as
# long as its program, which the namespace's end (room-sandbox.sh) takes at once: it collects the program, which
# would otherwise be handed to the machine's init, and the namespace's PID 1 would wait in its exit until that init
# collected it. Its parent-death signal continues an nsenter that had stopped itself over a checkpoint's freeze
# (profile-archive.ts), which would otherwise never collect anything.
# --root: the room's own root, which PID 1 made the namespace's (room-sandbox.sh); the host's tree is not there.
exec setpriv --pdeathsig CONT -- nsenter --target "$target" --net --mount --pid --ipc --uts --root --wd -- \
  setpriv --reuid "$user" --regid "$user" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- "$program" "$@"
