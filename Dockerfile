# syntax=docker/dockerfile:1
# Parley's image: the seat service with the built web console, on Node.js 20.
#
#   docker build -t parley .
#   docker run -p 8080:8080 -v parley-data:/data parley     # http://localhost:8080 (demo: demo / parley-demo)
#
# The environment is the README's (Configuration); compose.yaml runs two instances on
# PostgreSQL and Redis. CI builds this file with buildah and starts the image
# (scripts/container/check.sh); apps/server/test/container-start.test.ts runs its start
# command and health check on the host.

# The base of every stage (CI passes a stand-in made from Debian packages; no registry here).
ARG NODE_IMAGE=node:20-slim

# Production dependencies, native modules compiled here (better-sqlite3 from source against
# the image's own Node headers; sharp and argon2 come prebuilt in their npm packages).
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# Behind a TLS-intercepting proxy, npm needs its CA: mount the file into the build and name it
# here (CI: buildah build -v <ca.crt>:/run/build-ca.crt --build-arg NODE_EXTRA_CA_CERTS=...).
# A build argument, so it stays out of the image.
ARG NODE_EXTRA_CA_CERTS=
ENV npm_config_nodedir=/usr/local \
  npm_config_update_notifier=false \
  npm_config_fund=false \
  npm_config_audit=false
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
COPY packages/protocol/package.json packages/protocol/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
# Only what the server runs: its and the protocol's dependencies, no dev tools, no web libraries.
# npm keeps a package that is both a dev dependency and another one's optional peer
# (TypeScript): runtime-modules.mjs removes what no runtime dependency reaches.
COPY scripts/container/runtime-modules.mjs scripts/container/
RUN npm ci --omit=dev --workspace @parley/server --workspace @parley/protocol \
  && mkdir -p apps/server/node_modules packages/protocol/node_modules \
  && node scripts/container/runtime-modules.mjs .

# Everything built: the protocol, the server (TypeScript) and the web console (Vite). The build
# runs no native module, so its install skips install scripts.
FROM deps AS build
ARG NODE_EXTRA_CA_CERTS=
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build

# The runtime: Node.js, the production dependencies and the built files, as an unprivileged user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  PARLEY_DATA_DIR=/data \
  LOG_FORMAT=json
WORKDIR /app
COPY --from=deps /src/package.json ./
COPY --from=deps /src/node_modules node_modules
COPY --from=deps /src/packages/protocol/package.json packages/protocol/
COPY --from=deps /src/packages/protocol/node_modules packages/protocol/node_modules
COPY --from=build /src/packages/protocol/dist packages/protocol/dist
COPY --from=deps /src/apps/server/package.json apps/server/
COPY --from=deps /src/apps/server/node_modules apps/server/node_modules
COPY --from=build /src/apps/server/dist apps/server/dist
COPY --from=build /src/apps/web/dist apps/web/dist
# The SQLite file and uploaded media live in /data (mount a volume there); /data/media may be
# a volume of its own, shared by several instances (compose.yaml).
RUN mkdir -p /data/media && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The admin CLI: docker exec <container> node apps/server/dist/cli/main.js seat:list
CMD ["node", "apps/server/dist/main.js"]
