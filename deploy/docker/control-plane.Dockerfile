# The control plane (ROOM_ROLE=control): API, tRPC and REST, the built web app, tickets, placement and the lost
# sweep, billing jobs. Build from the repository root:
#   docker build -f deploy/docker/control-plane.Dockerfile -t cloud-browser-rooms/control-plane .
# Needs DATABASE_URL and APP_SECRET (shared by every role); REDIS_URL with more than one replica; PUBLIC_URL.

# The base of both stages: Node 24 on Debian bookworm. `npm run images:check` builds one locally (debootstrap and
# the repository's own Node) where no registry can be reached, and passes it here.
ARG BASE=node:24-bookworm-slim

FROM ${BASE} AS build
WORKDIR /app
# The postinstall step (scripts/setup.mjs) installs Chromium and the media tools and creates the room user on a
# developer's machine; an image installs what its role needs itself, in its runtime stage.
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
RUN npx turbo run build --filter=@rooms/web --filter=@rooms/server && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE} AS runtime
# tini reaps orphaned children and forwards SIGTERM, so the server closes with grace when the pod stops.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin rooms \
  && install -d -o rooms -g rooms -m 0700 /var/lib/rooms
WORKDIR /app
ENV NODE_ENV=production ROOM_ROLE=control PORT=3000 DATA_DIR=/var/lib/rooms
# The server runs as its bundle (apps/server/dist/server.mjs); the database package brings its migrations, which
# Node loads as TypeScript itself (type stripping). The sources stay for the operator's CLI (through tsx).
COPY --from=build /app/package.json /app/tsconfig.base.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/api ./packages/api
COPY --from=build /app/packages/db ./packages/db
COPY --from=build /app/apps/server ./apps/server
COPY --from=build /app/apps/web/dist ./apps/web/dist
USER 10001:10001
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "apps/server/dist/server.mjs"]
