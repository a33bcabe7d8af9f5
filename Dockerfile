# Node 24 LTS on Debian bookworm (slim), pinned by digest so that a rebuild starts from the same image. To take a
# newer Node 24 patch, set the digest `docker buildx imagetools inspect node:24-bookworm-slim` prints (or pass
# --build-arg NODE_IMAGE_DIGEST=sha256:…).
ARG NODE_IMAGE_DIGEST=sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

# Build stage: every dependency from the lockfile (npm ci, which fails rather than resolve anything anew), then the
# service (`nest build`, which runs the Swagger CLI plugin) and the dashboard.
FROM node:24-bookworm-slim@${NODE_IMAGE_DIGEST} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only, from the same lockfile: no development tools (TypeScript, ts-node and swc are kept by
# `npm prune --omit=dev` as optional peers of production packages, so they are left out with the optional ones), and
# no optional packages, among them the Express adapter: the image runs on Fastify, the default HTTP_ADAPTER.
# `--build-arg OMIT_OPTIONAL=` keeps the optional packages (and with them the Express adapter).
FROM node:24-bookworm-slim@${NODE_IMAGE_DIGEST} AS production-dependencies
ARG OMIT_OPTIONAL=--omit=optional
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev ${OMIT_OPTIONAL} --ignore-scripts --no-audit --no-fund

# Runtime stage: the compiled service, the dashboard and the production dependencies, run by the unprivileged `node`
# user under tini (PID 1 forwards SIGTERM to the service, whose drain then runs, and reaps what exits). The embedded
# database lives in the /data volume (used when DATABASE_URL is unset).
FROM node:24-bookworm-slim@${NODE_IMAGE_DIGEST} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
ENV DATA_DIR=/data
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/dist ./dist
COPY --from=build /app/dashboard/dist ./dashboard/dist
COPY --from=build /app/scripts ./scripts
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/main.js"]
