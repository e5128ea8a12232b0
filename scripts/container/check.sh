#!/usr/bin/env bash
# CI's check of the container (no Docker daemon here): builds the Dockerfile with buildah
# (daemonless, chroot isolation) on the stand-in base images of base-images.sh, then starts the
# image as its CMD says, as its user, with a fresh volume on /data, and checks that its
# HEALTHCHECK passes and that it serves: the console, the API document, a demo login (argon2,
# SQLite) and an image upload (sharp). Also builds the Apertium APY image and checks that it
# lists its pairs, and validates compose.yaml with docker-compose.
set -euo pipefail
cd "$(dirname "$0")/../.."
export STORAGE_DRIVER="${STORAGE_DRIVER:-vfs}" BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"

need=()
command -v buildah >/dev/null || need+=(buildah)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v docker-compose >/dev/null || need+=(docker-compose)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "container check: ${need[*]} missing and not root" >&2
    exit 1
  fi
fi

echo "== compose.yaml"
PARLEY_MEDIA_SECRET=x PARLEY_PLATFORM_SECRET=x POSTGRES_PASSWORD=x docker-compose -f compose.yaml config -q
echo "compose.yaml is valid"

bash scripts/container/base-images.sh
IMAGE=localhost/parley:ci
APY_IMAGE=localhost/parley-apertium:ci
echo "== building $IMAGE"
# --layers keeps each step's result: the next run on this machine reuses the dependency stage
# (apt, the native build) while package.json and the lockfile are unchanged. vfs keeps a full
# copy of every layer, so the cache goes once it passes 20 GB.
store="$(buildah info | node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).store.GraphRoot)')"
if [ "$(du -sm "$store" 2>/dev/null | cut -f1)" -gt 20000 ]; then
  buildah rmi --prune >/dev/null 2>&1 || true
fi
# --format docker keeps HEALTHCHECK (the OCI format has none).
# npm inside the build trusts what this machine's Node trusts (a proxy's CA, here).
ca_file="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
ca_args=()
if [ -f "$ca_file" ]; then
  ca_args=(-v "$ca_file:/run/build-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/build-ca.crt)
fi
buildah build --quiet --layers --format docker --pull=never "${ca_args[@]}" \
  --build-arg NODE_IMAGE=localhost/parley-ci/node:20-slim -t "$IMAGE" -f Dockerfile . >/dev/null
echo "== building $APY_IMAGE"
buildah build --quiet --layers --format docker --pull=never \
  --build-arg DEBIAN_IMAGE=localhost/parley-ci/debian:bookworm-slim -t "$APY_IMAGE" deploy/apertium >/dev/null

# Runs an image's CMD in a working container (chroot: the host's network), as the image's user.
run_dir="$(mktemp -d)"  # logs
pids=()
containers=()
cleanup() {
  for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  for ctr in "${containers[@]}"; do buildah rm "$ctr" >/dev/null 2>&1 || true; done
  rm -rf "$run_dir"
}
trap cleanup EXIT

# A field of an image's Docker config, one line per element; Healthcheck: its command's argv
# (CMD: the exec form, CMD-SHELL: through /bin/sh).
image_config() {
  buildah inspect --type image "$1" | node -e '
    const c = JSON.parse(require("fs").readFileSync(0, "utf8")).Docker.config;
    const t = c.Healthcheck?.Test ?? [];
    const v = process.argv[1] === "Healthcheck"
      ? (t[0] === "CMD-SHELL" ? ["/bin/sh", "-c", t[1]] : t.slice(1))
      : c[process.argv[1]];
    for (const line of [v].flat()) console.log(line);' "$2"
}
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

echo "== starting $IMAGE"
port="$(free_port)"
ctr="$(buildah from --pull=never "$IMAGE")"
containers+=("$ctr")
user="$(image_config "$IMAGE" User)"
workdir="$(image_config "$IMAGE" WorkingDir)"
mapfile -t argv < <(image_config "$IMAGE" Cmd)
mapfile -t check < <(image_config "$IMAGE" Healthcheck)
echo "user=$user workdir=$workdir cmd=${argv[*]}"
setsid buildah run --user "$user" --workingdir "$workdir" --env "PORT=$port" --env HOST=127.0.0.1 \
  "$ctr" -- "${argv[@]}" >"$run_dir/server.log" 2>&1 &
pids+=("$!")

# The HEALTHCHECK's own command, run in the container.
[ "${#check[@]}" -gt 0 ] || { echo "the image has no HEALTHCHECK" >&2; exit 1; }
healthy=0
for _ in $(seq 1 60); do
  if buildah run --user "$user" --workingdir "$workdir" --env "PORT=$port" "$ctr" -- "${check[@]}" >/dev/null 2>&1; then
    healthy=1
    break
  fi
  sleep 1
done
if [ "$healthy" != 1 ]; then
  echo "the image's HEALTHCHECK never passed; its log:" >&2
  cat "$run_dir/server.log" >&2
  exit 1
fi
echo "HEALTHCHECK passes"

base="http://127.0.0.1:$port"
node --input-type=module - "$base" <<'JS'
import { readFileSync } from 'node:fs';
const base = process.argv[2];
const fail = (what) => { console.error(`container check: ${what}`); process.exit(1); };
const page = await fetch(`${base}/`);
if (!(await page.text()).includes('<div id="root">')) fail('the console is not served');
const doc = await (await fetch(`${base}/v1/openapi.json`)).json();
if (doc.openapi !== '3.1.0') fail('no OpenAPI document');
const login = await (await fetch(`${base}/v1/seat/chat/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ account: 'demo', password: 'parley-demo' }),
})).json();
if (login.code !== '000000') fail(`demo login: ${JSON.stringify(login)}`);
const form = new FormData();
form.append('kind', 'image');
form.append('file', new Blob([readFileSync('e2e/fixtures/media/photo.jpg')]), 'photo.jpg');
const up = await (await fetch(`${base}/v1/seat/chat/upload`, {
  method: 'POST', headers: { authorization: login.data.token }, body: form,
})).json();
if (up.code !== '000000' || !up.data.thumb_url) fail(`upload: ${JSON.stringify(up)}`);
const thumb = await fetch(`${base}${up.data.thumb_url}`);
if (thumb.headers.get('content-type') !== 'image/webp') fail('no thumbnail');
console.log('the image serves the console, the API document, a demo login and an upload');
JS
# The container's /data (the image's VOLUME), seen through the running server's root: the
# SQLite file and the uploaded media, written by the image's user.
server_pid="$(ps -o pid=,comm= -s "${pids[0]}" | awk '$2 == "node" { print $1; exit }')"
[ -n "$server_pid" ] || { echo "the server's process is gone" >&2; exit 1; }
data="/proc/$server_pid/root/data"
[ -f "$data/parley.db" ] || { echo "no SQLite file in /data" >&2; exit 1; }
[ "$(stat -c %U "$data/parley.db")" = "$(stat -c %U "$data/media")" ] && [ "$(stat -c %u "$data/parley.db")" != 0 ] \
  || { echo "/data/parley.db is not the image user's" >&2; exit 1; }
[ -n "$(ls "$data/media")" ] || { echo "the upload is not in /data/media" >&2; exit 1; }
echo "the data lives in /data (parley.db, media/), owned by the image's user"

echo "== starting $APY_IMAGE"
apy_ctr="$(buildah from --pull=never "$APY_IMAGE")"
containers+=("$apy_ctr")
apy_port="$(free_port)"
apy_user="$(image_config "$APY_IMAGE" User)"
mapfile -t apy_argv < <(image_config "$APY_IMAGE" Cmd)
# The image's CMD with the port replaced (the host's network is shared in a chroot).
apy_argv=("${apy_argv[@]/2737/$apy_port}")
setsid buildah run --user "$apy_user" "$apy_ctr" -- "${apy_argv[@]}" >"$run_dir/apy.log" 2>&1 &
pids+=("$!")
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$apy_port/listPairs" 2>/dev/null | grep -q '"sourceLanguage": *"spa"'; then
    echo "Apertium APY lists its pairs"
    exit 0
  fi
  sleep 1
done
echo "Apertium APY never answered; its log:" >&2
cat "$run_dir/apy.log" >&2
exit 1
