# scopegate container image (docs/deployment.md).
#
#   docker build -t scopegate .
#   docker run --rm -p 8080:8080 -e SCOPEGATE_DEV_KEYS=/var/lib/scopegate/dev-keys.json scopegate
#
# Base: Node.js 22, an LTS release in support (maintenance until April 2027). `.ci/run` runs the
# whole test suite on the same Node.js version as well as on Node.js 20. Not Node.js 24:
# better-sqlite3 12 (the last major that runs on Node.js 20) aborts the process there when a
# statement is garbage-collected (`Assertion failed: (env) != nullptr`).
#
# Build stage: all dependencies (better-sqlite3 is compiled here when no prebuilt binary can be
# fetched, hence python3, make and g++), the TypeScript build, then the dev dependencies pruned
# and better-sqlite3's build leftovers (sources, objects, the static library) removed: only
# its addon is loaded.
FROM node:22-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev \
 && cd node_modules/better-sqlite3 \
 && rm -rf deps src build/deps build/Release/obj build/Release/obj.target \
      build/Release/sqlite3.a build/Release/test_extension.node

# Runtime stage: the same base (so the native module built above runs here), production
# dependencies only, no compiler, a non-root user.
FROM node:22-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY policies ./policies
# The default config; mount your own over it (a ConfigMap in Kubernetes). Relative paths in it
# resolve against /etc/scopegate.
COPY deploy/docker/gateway.yaml /etc/scopegate/gateway.yaml
# State (service-account store, runtime database, development keys): the only writable path.
RUN mkdir -p /var/lib/scopegate && chown 1000:1000 /var/lib/scopegate
VOLUME ["/var/lib/scopegate"]
# `node` (uid 1000 in the official image), numeric so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
# 8080: the gateway; 9090: the admin listener (/metrics, /healthz, /readyz).
EXPOSE 8080 9090
# No curl in slim images: node's own fetch asks the admin listener.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9090/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
# SIGTERM drains: in-flight requests get listen.shutdown_grace_ms, then the process exits 0.
# Give `docker stop -t` (or terminationGracePeriodSeconds) more than that.
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/cli/main.js", "serve", "--config", "/etc/scopegate/gateway.yaml"]
