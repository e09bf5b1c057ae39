# The room gateway (ROOM_ROLE=gateway): participants' room sockets end here and are forwarded to the agent that
# runs the room. Stateless; needs DATABASE_URL (to find a room's run and spend tickets) and APP_SECRET. Build from
# the repository root:
#   docker build -f deploy/docker/gateway.Dockerfile -t cloud-browser-rooms/gateway .

# The base of both stages: Node 24 on Debian bookworm. `npm run images:check` builds one locally (debootstrap and
# the repository's own Node) where no registry can be reached, and passes it here.
ARG BASE=node:24-bookworm-slim

FROM ${BASE} AS build
WORKDIR /app
# See control-plane.Dockerfile: no system packages from the postinstall step in an image build.
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
# The gateway serves no web app: nothing to build, only the development dependencies to drop.
RUN npx turbo run build --filter=@rooms/server && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin rooms \
  && install -d -o rooms -g rooms -m 0700 /var/lib/rooms
WORKDIR /app
ENV NODE_ENV=production ROOM_ROLE=gateway PORT=3000 DATA_DIR=/var/lib/rooms
COPY --from=build /app/package.json /app/tsconfig.base.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/api ./packages/api
COPY --from=build /app/packages/db ./packages/db
COPY --from=build /app/apps/server ./apps/server
USER 10001:10001
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "apps/server/dist/server.mjs"]
