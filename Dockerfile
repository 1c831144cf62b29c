# Build stage: compile TypeScript with the dev toolchain.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json

# Runtime stage: production dependencies and the compiled CLI only, as a non-root user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY rules ./rules
USER node
WORKDIR /home/node
# `guardwire serve` listens here; in a container, listen on 0.0.0.0 with agent keys (see docs/serve.md).
EXPOSE 7070
ENTRYPOINT ["node", "/app/dist/cli/main.js"]
CMD ["--help"]
