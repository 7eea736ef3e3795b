# One build, three runtime images: `--target api` (also the projector and the admin CLI) and
# `--target scraper` (the only one that carries Chromium). Build tools stay in the build stage.
FROM node:22-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# SQL migrations are read from the repository layout at run time (libs/<context>/migrations).
COPY --from=build /app/libs ./libs
RUN mkdir -p /data && chown node:node /data
USER node

# The api (the projector and the admin CLI use this image with another command).
FROM runtime AS api
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]

# The scraper: the runtime plus Debian's Chromium.
FROM runtime AS scraper
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation \
 && rm -rf /var/lib/apt/lists/*
USER node
ENV CHROMIUM_PATH=/usr/bin/chromium
CMD ["node", "dist/scraper/src/main.js"]
