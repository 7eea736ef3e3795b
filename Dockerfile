# One image for every role of the distributed stack (ROLES picks what a container runs).
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data CHROMIUM_PATH=/usr/bin/chromium
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
