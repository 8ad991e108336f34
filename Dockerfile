# One image for the migrations, the API and the worker (docker-compose.yml and deploy/k8s pick the command). It
# runs compiled JavaScript (`npm run build:server` -> dist/) with plain node on Node 24, the major of .nvmrc and of
# the `node` devDependency that runs every npm script, as the unprivileged `node` user.
# GPU hosts build with --build-arg ONNXRUNTIME_NODE_INSTALL=cuda12 to get onnxruntime's CUDA provider.

# Build stage: every dependency, the client bundle, the compiled processes and migrations, the models.
FROM node:24-bookworm-slim AS build
ARG ONNXRUNTIME_NODE_INSTALL=skip
ENV ONNXRUNTIME_NODE_INSTALL=${ONNXRUNTIME_NODE_INSTALL}
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build && npm run build:server && npm run models

# Runtime stage: production dependencies only, plus what the build stage produced.
FROM node:24-bookworm-slim
ARG ONNXRUNTIME_NODE_INSTALL=skip
ENV ONNXRUNTIME_NODE_INSTALL=${ONNXRUNTIME_NODE_INSTALL} NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contracts/package.json contracts/
COPY runtime/package.json runtime/
COPY server/package.json server/
COPY worker/package.json worker/
COPY client/package.json client/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
COPY --from=build /app/client/dist client/dist
COPY --from=build /app/models/.cache models/.cache
# data/ holds the mail outbox when SMTP_URL is unset (docker-compose.yml mounts a volume there).
RUN mkdir -p data && chown node:node data
USER node
EXPOSE 3000
# The API's liveness; the worker's service in docker-compose.yml replaces it (the worker serves no HTTP).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]
