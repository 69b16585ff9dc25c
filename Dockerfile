# syntax=docker/dockerfile:1

# node:24.21.0-bookworm-slim, pinned by the digest of its multi-platform index (amd64, arm64), so a
# rebuild gets the same base until someone moves the pin on purpose. Keep .nvmrc at the same major.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:0e0ff40c39bc087845bfb27465a0df4ea419520094bc35842ff83dd8cbe6f9b6

# Build: full dependencies, compile to dist/, then drop the dev dependencies.
FROM ${NODE_IMAGE} AS build
# No install script runs (none is needed), and scarf (pulled in by swagger-ui-dist) would not report anyway.
ENV SCARF_ANALYTICS=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
# The build copies each feature's SQL function files (src/*/sql/*.sql, nest-cli.json assets) beside its code:
# the migrations that create the functions read them, so an image without them must not build.
RUN npm run build && ls dist/*/sql/*.sql > /dev/null && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# Run: production dependencies and the build only. They stay owned by root, so the unprivileged
# node user can read them but not change them; it writes only to /data (the embedded database).
FROM ${NODE_IMAGE}
# The release, as package.json and CHANGELOG.md name it (test/e2e/release.e2e-spec.ts holds the three together).
LABEL org.opencontainers.image.title="skills-service" \
      org.opencontainers.image.version="5.0.0"
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# 9464: Prometheus /metrics when METRICS_PORT=9464 (compose and the Kubernetes manifests set it).
EXPOSE 3000 9464
# bash's /dev/tcp instead of a second Node process every 15 s: one request to /health/ready.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-3000} && printf 'GET /health/ready HTTP/1.0\\r\\n\\r\\n' >&3 && read -r status <&3 && [[ $status == 'HTTP/1.1 200 '* ]]"]
# Pending migrations are applied at start. As `npm start`: Node.js 24 lets V8's young generation grow to twice
# Node.js 20's, 60 MB more resident memory under load for no CPU it saves; the flag holds it at Node.js 20's size.
CMD ["node", "--max-semi-space-size=16", "dist/main.js"]
