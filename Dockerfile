# syntax=docker/dockerfile:1
# Running Times in a container: one Node.js process serving the API and the web app.
#   docker build -t running-times .
#   docker run -d -p 127.0.0.1:3000:3000 -v running-times-data:/data running-times
# NODE_IMAGE is the official Node.js image on Debian; any image with the same layout (node and
# npm on PATH, a `node` user) will do. See README "Run it in a container".
ARG NODE_IMAGE=node:22-bookworm-slim

# ---- Stage 1: install every dependency, build the server and the web app ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV CI=1 npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
# better-sqlite3 downloads a prebuilt binary for the image's Node.js; only when none can be had
# (an unknown Node.js version, no access to its download site) is it compiled, and then the build
# tools are installed into this stage alone. A registry behind a private certificate authority:
# pass a complete CA bundle holding it as the build secret `npm_ca` (npm's cafile; never copied
# into the image).
RUN --mount=type=secret,id=npm_ca,required=false \
    set -eu; \
    if [ -s /run/secrets/npm_ca ]; then export npm_config_cafile=/run/secrets/npm_ca; fi; \
    if ! npm ci --no-audit; then \
      echo "No prebuilt native module could be used: installing build tools to compile it." >&2; \
      apt-get update; \
      apt-get install -y --no-install-recommends python3 make g++; \
      npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")" npm ci --no-audit; \
    fi
COPY . .
RUN npm run build && npm prune --omit=dev && npm cache clean --force

# ---- Stage 2: the built app and its production dependencies, run by a non-root user ----
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/running-times.db \
    INBOX_DIR=/data/inbox
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
# /data holds the SQLite database and the inbox folder; a fresh named volume takes its owner.
RUN mkdir -p /data/inbox && chown -R node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-old-space-size=1024", "--no-allocation-site-pretenuring", "dist/server/main.js"]
