# One image for the three roles of docker-compose.yml (migrate, auth-server,
# resource-server); the command picks the role.
FROM node:22-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production \
    HEROES_DATA_DIR=/data

# Manifests and the Prisma schema first: `npm ci` runs `prisma generate`.
COPY package.json package-lock.json prisma.config.ts tsconfig.base.json ./
COPY prisma ./prisma
COPY packages/http-kit/package.json packages/http-kit/
COPY packages/db/package.json packages/db/
COPY packages/auth-server/package.json packages/auth-server/
COPY packages/resource-server/package.json packages/resource-server/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund

COPY scripts ./scripts
COPY packages ./packages

RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8888 8889
CMD ["node", "--import", "tsx", "packages/resource-server/src/main.ts"]
