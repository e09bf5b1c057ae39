# A room agent (ROOM_ROLE=agent): the room engine, media pipeline and room hubs, beside the browsers they drive.
# Build from the repository root:
#   docker build -f deploy/docker/agent.Dockerfile -t cloud-browser-rooms/agent .
# Needs DATABASE_URL, APP_SECRET, AGENT_ADDRESS (host:port where the control plane and gateways reach it) and
# AGENT_REGIONS; ROOM_SANDBOX=on in production.
#
# Unlike the other roles, the agent's server process runs as root in its container: the room sandbox
# (apps/server/src/rooms/sandbox) creates each room's network, mount, PID and IPC namespaces and then runs every
# room process (Chromium, Xvfb, PulseAudio, ffmpeg) as the unprivileged user room-sandbox made below, with no
# capabilities and no_new_privs. Give the container only the capabilities that needs (deploy/kubernetes lists them
# and the README says why each); run as a non-root user, rooms would share the agent's network and user.

# The base of both stages: Node 24 on Debian bookworm. `npm run images:check` builds one locally (debootstrap and
# the repository's own Node) where no registry can be reached, and passes it here.
ARG BASE=node:24-bookworm-slim

FROM ${BASE} AS build
WORKDIR /app
# See control-plane.Dockerfile: the runtime stage installs the system packages, not the postinstall step.
ENV ROOMS_SKIP_SETUP=1 TURBO_TELEMETRY_DISABLED=1
COPY package.json package-lock.json .npmrc ./
COPY scripts/setup.mjs scripts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/api/package.json packages/api/
COPY packages/db/package.json packages/db/
COPY packages/i18n/package.json packages/i18n/
COPY packages/ui/package.json packages/ui/
# `npm install` on the committed lock file, as CI does (.ci/run): the registry the lock file was written against
# lacks kustomize's binaries for other platforms, so `npm ci` refuses the lock file as incomplete.
RUN npm install --no-audit --no-fund
COPY . .
RUN npx turbo run build --filter=@rooms/server && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE} AS runtime
# Debian's Chromium (Playwright's own download is not used), fonts for Chinese and Japanese pages, the media
# pipeline (Xvfb, PulseAudio, ffmpeg for H.264 and Opus), and what the sandbox runs besides util-linux's
# unshare/nsenter/setpriv: iproute2 and socat. tini reaps the orphans that browsers leave behind.
RUN apt-get update \
  && apt-get install -y --no-install-recommends \
    chromium fonts-noto-cjk xvfb pulseaudio ffmpeg \
    iproute2 socat util-linux tini ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10002 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin room-sandbox \
  && install -d -m 0755 /var/lib/rooms
WORKDIR /app
ENV NODE_ENV=production ROOM_ROLE=agent PORT=3000 DATA_DIR=/var/lib/rooms ROOMS_DATA_DIR=/var/lib/rooms/rooms \
  CHROMIUM_PATH=/usr/bin/chromium ROOM_SANDBOX=on ROOM_SANDBOX_USER=room-sandbox
COPY --from=build /app/package.json /app/tsconfig.base.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/api ./packages/api
COPY --from=build /app/packages/db ./packages/db
COPY --from=build /app/apps/server ./apps/server
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "apps/server/dist/server.mjs"]
