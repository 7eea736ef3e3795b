# syntax=docker/dockerfile:1
#
# One build, four runtime targets (docker-compose.yml builds each):
#   api        node dist/apps/api/src/main.js        (HTTP on $PORT; /health, /ready)
#   projector  node dist/projections/src/main.js     (projections, work dispatcher, scheduler; /health, /ready, /metrics on $OPS_PORT)
#   admin      node dist/apps/admin-cli/src/main.js  (the operator CLI: `docker compose run --rm admin …`)
#   scraper    node dist/scraper/src/main.js         (the only one that carries a browser: Debian's Chromium; /health, /ready, /metrics on $OPS_PORT)
# Compilers and dev dependencies stay in the build stage; the runtime stages run as the unprivileged
# `node` user and cannot write the application files (they belong to root).
#
# Node 22 (LTS) on Debian 12 (bookworm), pinned to a release: bump it on purpose, not by accident.
ARG NODE_IMAGE=node:22.22.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
# For native add-ons (better-sqlite3) when no prebuilt binary fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install` rather than `npm ci`: see .ci/run (the lockfile still pins every version).
RUN npm install --no-audit --no-fund
COPY . .
# `npm run build` is tsc then tsc-alias (rewrites the @rank/… aliases to relative paths).
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 # The bundled Chromium is only the fallback when a machine has no browser: the scraper image has
 # Debian's, the others need none.
 && rm -rf node_modules/@sparticuz \
 # The SQL migrations are read at run time from libs/<context>/migrations, found from the directory
 # that holds package.json (libs/platform/src/repository-path.ts); only they leave the build.
 && mkdir -p /out \
 && find libs -path '*/migrations/*.sql' -exec cp --parents {} /out/ \;

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /out/libs ./libs
COPY deploy/healthcheck.js ./deploy/healthcheck.js
# DATA_DIR is only used by the embedded stores (a single-container run without the servers).
RUN mkdir -p /data && chown node:node /data
USER node

FROM runtime AS api
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]

FROM runtime AS projector
# No API: /health, /ready and /metrics only, on the container's port.
ENV OPS_PORT=3000
EXPOSE 3000
CMD ["node", "dist/projections/src/main.js"]

FROM runtime AS admin
ENTRYPOINT ["node", "dist/apps/admin-cli/src/main.js"]
CMD ["--help"]

# The scraper: the runtime plus Debian's Chromium (installed as root, run as `node`).
FROM runtime AS scraper
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation \
 && rm -rf /var/lib/apt/lists/*
USER node
# No API: /health, /ready and /metrics only, on the container's port.
ENV CHROMIUM_PATH=/usr/bin/chromium OPS_PORT=3000
EXPOSE 3000
CMD ["node", "dist/scraper/src/main.js"]
