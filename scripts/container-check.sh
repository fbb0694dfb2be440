#!/usr/bin/env bash
# Builds the container image, starts it on a named volume, waits for its health check, registers
# a runner and adds a run through the API, stops and starts the container, and finds the run again.
# Prints the time of each step and removes what it made (the image stays, for the next run).
#
#   scripts/container-check.sh
#
# Settings (environment):
#   ENGINE      podman or docker (default: podman when installed, else docker)
#   NODE_IMAGE  the base image (default: the Dockerfile's, the official Node.js image)
#   LOCAL_BASE  1: build the base image here instead of pulling it: Debian bookworm (debootstrap,
#               needs root) with this machine's node, npm and Node.js headers, and a `node` user
#               (uid 1000), like the official image. Kept as $LOCAL_BASE_IMAGE for the next run.
#   CA_BUNDLE   the CA bundle the build needs to reach the npm registry, passed as a build secret
#               and used as npm's `cafile`, so a complete one such as the system's (default:
#               $NODE_EXTRA_CA_CERTS, else npm's `cafile`, when set; never put in the image)
#   CHECK_PORT  the host port the container is published on (default 4800, on 127.0.0.1)
#   COMPOSE     1: then check compose.yaml the same way with the image just built: PostgreSQL and
#               the app up, register, add a run, `down`, `up`, find the run, `down --volumes`.
#               COMPOSE_CMD (default `podman-compose` or `docker compose`), POSTGRES_IMAGE (default
#               compose.yaml's) and COMPOSE_PORT (default 4801) adjust it.
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE=${ENGINE:-$(command -v podman >/dev/null 2>&1 && echo podman || echo docker)}
IMAGE=${IMAGE:-localhost/running-times:check}
LOCAL_BASE_IMAGE=${LOCAL_BASE_IMAGE:-localhost/running-times-node-base:bookworm}
NAME=running-times-check
VOLUME=running-times-check-data
CHECK_PORT=${CHECK_PORT:-4800}
BASE_URL="http://127.0.0.1:${CHECK_PORT}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/running-times-container.XXXXXX")

started=$(date +%s)
step_started=$started
step() {
  local now
  now=$(date +%s)
  printf '  %-44s %4ss\n' "$1" "$((now - step_started))"
  step_started=$now
}

remove_container() {
  "$ENGINE" rm -f "$NAME" >/dev/null 2>&1 || true
  "$ENGINE" volume rm -f "$VOLUME" >/dev/null 2>&1 || true
}
trap 'remove_container; rm -rf "$WORK"' EXIT
remove_container # left over from an interrupted check

fail() {
  echo "FAILED: $*" >&2
  [ -s "$WORK/engine.log" ] && tail -20 "$WORK/engine.log" >&2
  if "$ENGINE" container inspect "$NAME" >/dev/null 2>&1; then
    echo "--- container log ---" >&2
    "$ENGINE" logs --tail 40 "$NAME" >&2 2>&1 || true
  fi
  exit 1
}

build_local_base() {
  if "$ENGINE" image exists "$LOCAL_BASE_IMAGE" 2>/dev/null || "$ENGINE" image inspect "$LOCAL_BASE_IMAGE" >/dev/null 2>&1; then
    return
  fi
  local root="$WORK/rootfs" node prefix
  node=$(command -v node)
  prefix=$(dirname "$(dirname "$(readlink -f "$node")")")
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$WORK/debootstrap.log" 2>&1 ||
    { tail -20 "$WORK/debootstrap.log" >&2; fail "debootstrap"; }
  mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/node_modules" "$root/usr/local/include"
  cp "$(readlink -f "$node")" "$root/usr/local/bin/node"
  cp -a "$prefix/lib/node_modules/npm" "$root/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  cp -a "$prefix/include/node" "$root/usr/local/include/node"
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | "$ENGINE" import --change 'CMD ["node"]' - "$LOCAL_BASE_IMAGE" >/dev/null 2>>"$WORK/engine.log"
  rm -rf "$root"
  step "base image (debootstrap + node $(node --version))"
}

# Registers a runner and adds a run on the server at $1; sets email and entry_id.
add_run() {
  local register token entry
  email="runner-$(date +%s%N)@example.com"
  register=$(curl -fsS -X POST "$1/api/v1/auth/register" -H 'Content-Type: application/json' \
    -d "{\"name\":\"Container Runner\",\"email\":\"$email\",\"password\":\"container-check-1\",\"password_confirmation\":\"container-check-1\"}") ||
    fail "register"
  token=$(node -e 'process.stdout.write(JSON.parse(process.argv[1]).access_token)' "$register")
  entry=$(curl -fsS -X POST "$1/api/v1/entry" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d '{"date":"2026-11-20","distance":10.5,"time":"00:52:30"}') ||
    fail "add a run"
  entry_id=$(node -e 'process.stdout.write(String(JSON.parse(process.argv[1]).entry.id))' "$entry")
}

# Signs in as $email on the server at $1 and reads run $entry_id back, unchanged.
find_run() {
  local login token found
  login=$(curl -fsS -X POST "$1/api/v1/auth/login" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$email\",\"password\":\"container-check-1\"}") || fail "log in after the restart"
  token=$(node -e 'process.stdout.write(JSON.parse(process.argv[1]).access_token)' "$login")
  found=$(curl -fsS "$1/api/v1/entry/$entry_id" -H "Authorization: Bearer $token") || fail "find the run"
  node -e '
    const { entry } = JSON.parse(process.argv[1]);
    if (entry.distance !== 10.5 || entry.time !== "00:52:30" || entry.date !== "2026-11-20") {
      console.error("the run came back changed:", JSON.stringify(entry));
      process.exit(1);
    }' "$found" || fail "the run after the restart"
}

echo "Container check with $ENGINE"

build_args=()
if [ "${LOCAL_BASE:-}" = 1 ]; then
  build_local_base
  NODE_IMAGE=$LOCAL_BASE_IMAGE
fi
[ -n "${NODE_IMAGE:-}" ] && build_args+=(--build-arg "NODE_IMAGE=$NODE_IMAGE")

ca=${CA_BUNDLE:-${NODE_EXTRA_CA_CERTS:-}}
if [ -z "$ca" ]; then
  ca=$(npm config get cafile 2>/dev/null || true)
  [ "$ca" = null ] || [ "$ca" = undefined ] && ca=
fi
[ -n "$ca" ] && [ -s "$ca" ] && build_args+=(--secret "id=npm_ca,src=$ca")
# podman writes HEALTHCHECK into the image only in the docker image format.
[ "$ENGINE" = podman ] && build_args+=(--format docker)

"$ENGINE" build --network=host "${build_args[@]}" -t "$IMAGE" . >"$WORK/build.log" 2>&1 ||
  { tail -40 "$WORK/build.log" >&2; fail "build"; }
step "build"

healthy() {
  if [ "$ENGINE" = podman ]; then
    # podman runs health checks from systemd timers; run the image's HEALTHCHECK command directly.
    "$ENGINE" healthcheck run "$NAME" >/dev/null 2>&1
  else
    [ "$("$ENGINE" inspect --format '{{.State.Health.Status}}' "$NAME" 2>/dev/null)" = healthy ]
  fi
}

wait_healthy() {
  for _ in $(seq 1 120); do
    healthy && return 0
    [ "$("$ENGINE" inspect --format '{{.State.Running}}' "$NAME" 2>/dev/null)" = true ] || fail "container stopped"
    sleep 0.5
  done
  fail "not healthy after 60 s"
}

# Docker: check health every 2 s. Podman without systemd has no timers for it: no schedule, the
# check is run by hand (healthy above). Podman 4.3 still complains that it cannot reach systemd:
# the engine's messages go to $WORK/engine.log, shown when a step fails.
health_interval=2s
[ "$ENGINE" = podman ] && [ ! -S /run/systemd/private ] && health_interval=disable

"$ENGINE" volume create "$VOLUME" >/dev/null
"$ENGINE" run -d --name "$NAME" -p "127.0.0.1:${CHECK_PORT}:3000" -v "$VOLUME:/data" \
  -e ADMIN_EMAIL=admin@example.com -e ADMIN_PASSWORD=container-check-admin \
  --health-interval "$health_interval" "$IMAGE" >/dev/null 2>>"$WORK/engine.log" || fail "run"
wait_healthy
step "start on an empty volume, healthy"

user=$("$ENGINE" exec "$NAME" id -un)
[ "$user" != root ] || fail "the server runs as root"
"$ENGINE" exec "$NAME" test -f /data/running-times.db || fail "no SQLite database in /data"

add_run "$BASE_URL"
step "register, add a run (#$entry_id)"

"$ENGINE" stop -t 20 "$NAME" >/dev/null 2>>"$WORK/engine.log"
step "stop"
"$ENGINE" start "$NAME" >/dev/null 2>>"$WORK/engine.log"
wait_healthy
step "start again, healthy"

find_run "$BASE_URL"
step "log in, find the run"

echo "OK: the run survived a restart ($(($(date +%s) - started)) s in all)"

[ "${COMPOSE:-}" = 1 ] || exit 0
remove_container

# ---- compose.yaml: the app on PostgreSQL, data kept across `down` and `up` ----
if [ -n "${COMPOSE_CMD:-}" ]; then read -r -a compose <<<"$COMPOSE_CMD"
elif [ "$ENGINE" = podman ]; then compose=(podman-compose)
else compose=(docker compose); fi
export COMPOSE_PROJECT_NAME=running-times-check APP_IMAGE="$IMAGE" APP_PORT=${COMPOSE_PORT:-4801}
export POSTGRES_PASSWORD=container-check-db ADMIN_EMAIL=admin@example.com ADMIN_PASSWORD=container-check-admin
COMPOSE_URL="http://127.0.0.1:${APP_PORT}"
compose_down() { "${compose[@]}" -p "$COMPOSE_PROJECT_NAME" down "$@" >>"$WORK/compose.log" 2>&1 || true; }
# podman-compose 1.0 leaves the project's network behind.
trap 'compose_down --volumes; "$ENGINE" network rm "${COMPOSE_PROJECT_NAME}_default" >/dev/null 2>&1; rm -rf "$WORK"' EXIT
step_started=$(date +%s)

wait_up() {
  for _ in $(seq 1 240); do
    curl -fsS "$COMPOSE_URL/api/health" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  tail -40 "$WORK/compose.log" >&2
  "${compose[@]}" -p "$COMPOSE_PROJECT_NAME" logs app 2>&1 | tail -20 >&2
  fail "compose: the app did not answer /api/health within 120 s"
}

"${compose[@]}" -p "$COMPOSE_PROJECT_NAME" up -d >>"$WORK/compose.log" 2>&1 || { tail -40 "$WORK/compose.log" >&2; fail "compose up"; }
wait_up
step "compose up (PostgreSQL and the app), healthy"
add_run "$COMPOSE_URL"
# The run is in PostgreSQL (not in a SQLite file in the app's volume). podman-compose writes its own
# lines on standard output too: the count is the line of digits.
in_db=$("${compose[@]}" -p "$COMPOSE_PROJECT_NAME" exec -T db \
  psql -U running -d running_times -tAc "select count(*) from entries where id = $entry_id" 2>>"$WORK/compose.log" | grep -E '^[0-9]+$' | tail -1 || true)
[ "$in_db" = 1 ] || fail "compose: run $entry_id is not in PostgreSQL (psql said \"$in_db\")"
step "register, add a run (#$entry_id, in PostgreSQL)"
compose_down
step "compose down"
"${compose[@]}" -p "$COMPOSE_PROJECT_NAME" up -d >>"$WORK/compose.log" 2>&1 || { tail -40 "$WORK/compose.log" >&2; fail "compose up again"; }
wait_up
step "compose up again, healthy"
find_run "$COMPOSE_URL"
step "log in, find the run"
echo "OK: compose kept the run across down and up ($(($(date +%s) - started)) s in all)"
