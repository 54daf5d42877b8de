# Asset Map production image.
#   docker build -t asset-map:0.1.0 .
#   docker run -p 3000:3000 -e JWT_SECRET=... -e DATABASE_URL=postgres://... asset-map:0.1.0
# See README.md, "Production".

# Node.js major version of both stages. The native addons (argon2, better-sqlite3) are built in
# the first stage for this Node.js ABI and for glibc, so both stages use the same Debian 12
# (bookworm) based image; an Alpine (musl) runtime could not load them.
ARG NODE_MAJOR=20

# ---------------------------------------------------------------------------------------------
# Build: install every dependency, compile the TypeScript, then drop the dev dependencies.
FROM node:${NODE_MAJOR}-bookworm-slim AS build

# Toolchain for node-gyp, used only when no prebuilt binary fits (better-sqlite3 then compiles
# its bundled SQLite; argon2 carries its prebuilt binaries in its package). It stays in this
# stage.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Install scripts run only for the packages that "allowScripts" in package.json approves
# (argon2, better-sqlite3), whatever npm version the base image carries: install with every
# script off, then rebuild exactly the approved packages.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund \
    && approved="$(node -p "Object.entries(require('./package.json').allowScripts ?? {}).filter(([, allowed]) => allowed === true).map(([name]) => name).join(' ')")" \
    && test -n "$approved" \
    && npm rebuild $approved

COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npm run build \
    && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
# Runtime. node:<major>-bookworm-slim rather than gcr.io/distroless/nodejs20-debian12:nonroot:
# - it is the build stage's base, so the native addons run on the very Node.js binary and glibc
#   they were built against (distroless ships its own Node.js 20 build on its own schedule);
# - `node` is on the PATH, so the same image runs `node dist/migrate.js` (the migration Job)
#   and `node dist/backup.js` (kubectl exec), and a shell is there for diagnostics.
# Distroless would be some tens of MB smaller; npm, corepack and yarn are removed below instead.
FROM node:${NODE_MAJOR}-bookworm-slim AS runtime

ENV NODE_ENV=production
WORKDIR /app

# Nothing here needs a package manager at run time: fewer files to patch and scan.
# /app/data is where the default SQLite database goes (`docker run -v asset-map-data:/app/data`);
# on PostgreSQL the process writes nothing to disk.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
        /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
        /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
    && mkdir /app/data \
    && chown 1000:1000 /app/data

# Owned by root and read-only for the service user: the process cannot change its own code.
# package.json is read at start-up for the version.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist

# The image's "node" user, by number so that Kubernetes runAsNonRoot can verify it.
USER 1000:1000

EXPOSE 3000

# For plain Docker only (Kubernetes ignores it and uses the probes of the Deployment); plain
# HTTP on the loopback, so it does not apply when TLS_CERT_FILE/TLS_KEY_FILE are set.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]

# The image's entrypoint execs this, so Node.js is PID 1 and receives SIGTERM itself: readiness
# turns 503, in-flight requests finish, then it closes and exits 0.
CMD ["node", "dist/main.js"]
