# Build stage: install from the lockfile and compile (the Swagger CLI plugin runs in `nest build`).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The lockfile lists every platform's optional native packages (@swc/core-*, @unrs/resolver-binding-*); a registry
# mirror that lacks the other platforms' ones makes `npm ci` refuse the lockfile. Then the same locked versions are
# installed with `npm install --no-save`, which leaves package.json and the lockfile untouched (CI does the same).
RUN if ! npm ci --no-audit --no-fund; then \
      echo "npm ci refused the lockfile on this registry; installing the locked versions with npm install --no-save"; \
      npm install --no-audit --no-fund --no-save; \
    fi
COPY . .
RUN npm run build && npm prune --omit=dev

# Runtime stage: the compiled service and its production dependencies only.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/dashboard/dist ./dashboard/dist
COPY --from=build /app/scripts ./scripts
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/src/main.js"]
