# One image for the migrations, the API and the worker (docker-compose.yml and deploy/k8s pick the command). It
# runs compiled JavaScript (`npm run build:server` -> dist/) with plain node on Node 24, the major of .nvmrc and of
# the `node` devDependency that runs every npm script, as an unprivileged user (uid 1000).
#
# GPU hosts build it with two arguments: onnxruntime's CUDA provider and a runtime base holding the libraries that
# provider loads (onnxruntime 1.19 and later: any CUDA 12.x runtime with cuBLAS, and cuDNN 9; the NVIDIA container
# toolkit mounts only the driver):
#   --build-arg ONNXRUNTIME_NODE_INSTALL=cuda12 \
#   --build-arg RUNTIME_BASE=nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04
ARG RUNTIME_BASE=node:24-bookworm-slim

# Build stage: every dependency, the client bundle, the compiled processes and migrations, the models.
FROM node:24-bookworm-slim AS build
ARG ONNXRUNTIME_NODE_INSTALL=skip
ENV ONNXRUNTIME_NODE_INSTALL=${ONNXRUNTIME_NODE_INSTALL}
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build && npm run build:server && npm run models

# Production dependencies only (onnxruntime's CUDA provider files included when asked for), installed with the
# npm of the Node image so that the runtime base needs neither.
FROM node:24-bookworm-slim AS deps
ARG ONNXRUNTIME_NODE_INSTALL=skip
ENV ONNXRUNTIME_NODE_INSTALL=${ONNXRUNTIME_NODE_INSTALL}
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contracts/package.json contracts/
COPY runtime/package.json runtime/
COPY server/package.json server/
COPY worker/package.json worker/
COPY client/package.json client/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Runtime stage: Debian slim with Node by default, or the CUDA base named by RUNTIME_BASE. Node's binary is copied
# from the official image (it needs only glibc and libstdc++, which both bases have).
FROM ${RUNTIME_BASE}
ENV NODE_ENV=production PORT=3000
COPY --from=deps /usr/local/bin/node /usr/local/bin/node
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /app/dist dist
COPY --from=build /app/client/dist client/dist
COPY --from=build /app/models/.cache models/.cache
# data/ holds the mail outbox when SMTP_URL is unset (docker-compose.yml mounts a volume there).
RUN mkdir -p data && chown 1000:1000 data
USER 1000:1000
EXPOSE 3000
# The API's liveness; the worker's service in docker-compose.yml replaces it (the worker serves no HTTP).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]
