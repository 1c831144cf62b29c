# Build stage: compile TypeScript (the CLI and the admin console) with the dev toolchain.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
# The build also parses the shipped packs (rules/) and bundles the command line (scripts/).
COPY rules ./rules
COPY scripts ./scripts
RUN npm run build

# Runtime stage: production dependencies and the compiled CLI only, as a non-root user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY rules ./rules
# Where serve's decision logs (a volume: one file per replica) and its own state (pins, admin file) go, owned by the
# user guardwire runs as, so a volume mounted there starts writable.
RUN mkdir -p /var/log/guardwire /home/node/.guardwire && chown node:node /var/log/guardwire /home/node/.guardwire
USER node
WORKDIR /home/node
# `guardwire serve` listens here; in a container, listen on 0.0.0.0 with agent keys (see docs/serve.md).
EXPOSE 7070
ENTRYPOINT ["node", "/app/dist/cli/main.js"]
CMD ["--help"]
