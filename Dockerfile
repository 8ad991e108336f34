# One image for the API and the worker (docker-compose.yml picks the command).
# GPU hosts build with --build-arg ONNXRUNTIME_NODE_INSTALL=cuda12 to get onnxruntime's CUDA provider.
FROM node:20-bookworm-slim
ARG ONNXRUNTIME_NODE_INSTALL=skip
ENV ONNXRUNTIME_NODE_INSTALL=${ONNXRUNTIME_NODE_INSTALL}
WORKDIR /app
COPY . .
RUN npm install --no-audit --no-fund && npm run build -w client && npm run models
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
CMD ["npm", "run", "server"]
