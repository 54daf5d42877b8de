# Asset Map production image (docs/deploy.md).
#   docker build -t asset-map:0.1.0 .
#   docker run -p 3000:3000 -e JWT_SECRET=... -e DATABASE_URL=postgres://... asset-map:0.1.0

# Node.js line of every stage: the Active LTS. The code also runs on Node.js 20.19+ ("engines" in
# package.json); the image follows the LTS. The native addons (argon2, better-sqlite3) are built
# for this Node.js ABI and for glibc, so all stages share one Debian 13 (trixie) based image; an
# Alpine (musl) runtime could not load them. Pin a digest (node:26-trixie-slim@sha256:...) for
# builds that must be reproducible.
ARG NODE_IMAGE=node:26-trixie-slim

# ---------------------------------------------------------------------------------------------
# Build: every dependency, no install script (compiling the TypeScript needs no native addon).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY web ./web
RUN npm run build

# ---------------------------------------------------------------------------------------------
# Production dependencies only, with the native addons built, and nothing the running service
# does not load.
FROM ${NODE_IMAGE} AS production-deps

# Toolchain for node-gyp: better-sqlite3 compiles its bundled SQLite (argon2 carries prebuilt
# binaries in its package). It stays in this stage.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./

# --omit=optional as well as --omit=dev: typescript and ts-node are optional peer dependencies of
# @nestjs/swagger and typeorm (for their compile-time plugin and CLI), which npm keeps with
# --omit=dev alone because our devDependencies provide them. The only other optional runtime
# package, pg-cloudflare, is loaded by pg on Cloudflare Workers only.
# Install scripts run only for the packages that "allowScripts" in package.json approves
# (argon2, better-sqlite3), whatever npm version the base image carries: install with every
# script off, then rebuild exactly the approved packages. better-sqlite3 is compiled against the
# headers that come with the base image's Node.js (/usr/local/include/node) instead of fetching a
# prebuilt binary from GitHub or headers from nodejs.org: the build needs only the npm registry
# and Debian's packages, and the addon matches the very Node.js it runs on.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
    && approved="$(node -p "Object.entries(require('./package.json').allowScripts ?? {}).filter(([, allowed]) => allowed === true).map(([name]) => name).join(' ')")" \
    && test -n "$approved" \
    && npm_config_nodedir=/usr/local npm_config_build_from_source=better-sqlite3 npm rebuild $approved

# better-sqlite3 loads build/Release/better_sqlite3.node only: its SQLite sources (deps/), C++
# sources (src/) and the compiler's intermediate files (build/) are about 26 MB the service never
# reads. Both addons are loaded once here, so that a broken build fails the image build.
RUN cd node_modules/better-sqlite3 \
    && mv build/Release/better_sqlite3.node /tmp/better_sqlite3.node \
    && rm -rf build deps src \
    && mkdir -p build/Release \
    && mv /tmp/better_sqlite3.node build/Release/better_sqlite3.node \
    && cd /app \
    && node -e "new (require('better-sqlite3'))(':memory:').close(); require('argon2');"

# ---------------------------------------------------------------------------------------------
# Runtime. node:<line>-trixie-slim rather than a distroless Node.js image:
# - it is the other stages' base, so the native addons run on the very Node.js binary and glibc
#   they were built against (distroless ships its own Node.js build on its own schedule);
# - `node` is on the PATH, so the same image runs `node dist/migrate.js` (the migration Job)
#   and `node dist/backup.js` (kubectl exec), and a shell is there for diagnostics.
FROM ${NODE_IMAGE} AS runtime

ENV NODE_ENV=production
WORKDIR /app

# Nothing here needs a package manager at run time: fewer files to patch and scan (the base
# layers keep them, so this does not shrink the image).
# /app/data is where the default SQLite database goes (`docker run -v asset-map-data:/app/data`);
# on PostgreSQL the process writes nothing to disk.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
        /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
        /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
    && mkdir /app/data \
    && chown 1000:1000 /app/data

# Owned by root and read-only for the service user: the process cannot change its own code.
# package.json is read at start-up for the version.
COPY --from=production-deps /app/package.json ./package.json
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist

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
