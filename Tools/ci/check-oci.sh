#!/usr/bin/env bash
# Reads an OCI archive made by Tools/packaging/oci-image.sh back and checks it as a container engine
# would use it, without one (none can start here: crun cannot set rlimits on this machine):
# every blob's digest, the config (user, entrypoint, arguments, volume, port, version), then
# the layers unpacked by umoci into a root file system where, chrooted as the image's user
# with its entrypoint and arguments, sextantd starts and answers `sextantctl status`.
#   Tools/ci/check-oci.sh IMAGE.tar VERSION    (as root: chroot)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 IMAGE.tar VERSION" >&2; exit 64; }
archive="$1" version="$2"
export PATH="$PATH:/usr/sbin:/sbin"
fail() { echo "check-oci: $*" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/var/tmp}/sextant-oci-check.XXXXXX")"
daemon=""
cleanup() {
    [ -z "$daemon" ] || kill -KILL "$daemon" 2> /dev/null || true
    mountpoint -q "$work/bundle/rootfs/proc" && umount "$work/bundle/rootfs/proc"
    rm -rf --one-file-system "$work"
}
trap cleanup EXIT
mkdir "$work/layout"
tar -C "$work/layout" -xf "$archive"

# The layout, the manifest and the config, as a reader of the image sees them; prints the
# config's user, then its entrypoint and arguments as one line.
python3 - "$work/layout" "$version" > "$work/config.txt" << 'EOF'
import hashlib, json, os, sys
layout, version = sys.argv[1], sys.argv[2]
def blob(digest):
    algorithm, hexdigest = digest.split(":")
    data = open(os.path.join(layout, "blobs", algorithm, hexdigest), "rb").read()
    if hashlib.sha256(data).hexdigest() != hexdigest:
        sys.exit(f"blob {digest} does not match its digest")
    return data
if json.load(open(os.path.join(layout, "oci-layout")))["imageLayoutVersion"] != "1.0.0":
    sys.exit("not an OCI image layout 1.0.0")
index = json.load(open(os.path.join(layout, "index.json")))
tagged = [m for m in index["manifests"] if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == version]
if len(tagged) != 1:
    sys.exit(f"index.json has {len(tagged)} manifests tagged {version}")
manifest = json.loads(blob(tagged[0]["digest"]))
config = json.loads(blob(manifest["config"]["digest"]))
layers = manifest["layers"]
for layer in layers:
    blob(layer["digest"])
if len(layers) != len(config["rootfs"]["diff_ids"]) or not layers:
    sys.exit(f"{len(layers)} layers, {len(config['rootfs']['diff_ids'])} diff_ids")
c = config["config"]
problems = []
if config["architecture"] != "amd64" or config["os"] != "linux":
    problems.append(f"platform {config['os']}/{config['architecture']}")
if c.get("User") != "10001:10001":
    problems.append(f"user {c.get('User')!r}, not 10001:10001 (runAsNonRoot needs a number)")
if c.get("Entrypoint") != ["/usr/sbin/sextantd"]:
    problems.append(f"entrypoint {c.get('Entrypoint')}")
for argument in ["--runtime-dir", "/run/sextant", "--state-dir", "/var/lib/sextant", "--no-iio"]:
    if argument not in c.get("Cmd", []):
        problems.append(f"arguments {c.get('Cmd')} lack {argument}")
if "/var/lib/sextant" not in c.get("Volumes", {}):
    problems.append("no volume /var/lib/sextant")
if "2947/tcp" not in c.get("ExposedPorts", {}):
    problems.append("port 2947/tcp not declared")
if c.get("Labels", {}).get("org.opencontainers.image.version") != version:
    problems.append(f"version label {c.get('Labels')}")
if problems:
    sys.exit("config: " + "; ".join(problems))
print(c["User"])
print(" ".join(c["Entrypoint"] + c["Cmd"]))
print(f"check-oci: {len(layers)} layer(s), {sum(l['size'] for l in layers) // 1048576} MiB compressed, every digest matches", file=sys.stderr)
EOF
user="$(sed -n 1p "$work/config.txt")" command="$(sed -n 2p "$work/config.txt")"
echo "check-oci: config: user $user, runs: $command"

umoci unpack --image "$work/layout:$version" "$work/bundle" > /dev/null
rootfs="$work/bundle/rootfs"
# Swift's static runtime reads its arguments from /proc/self/cmdline, as a container has it.
mount -t proc proc "$rootfs/proc"
in_image() { chroot --userspec="$user" "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/var/lib/sextant LANG=C.UTF-8 "$@"; }
for binary in /usr/sbin/sextantd /usr/bin/sextantctl /usr/bin/sextant-sample-app; do
    libraries="$(in_image ldd "$binary")"
    ! grep -q 'not found' <<< "$libraries" || fail "$binary lacks libraries in the image:"$'\n'"$libraries"
done
[ "$(in_image sextantd --version)" = "$version" ] || fail "sextantd --version in the image is not $version"
[ "$(stat -c '%u %a' "$rootfs/run/sextant")" = "${user%%:*} 700" ] || fail "/run/sextant is not the image user's, mode 0700"

# The image's own entrypoint and arguments, as its user: the daemon starts, says READY=1
# (signals trapped, both sockets served) and answers; SIGTERM then stops it cleanly.
python3 - "$rootfs/tmp/notify" << 'EOF' &
import os, socket, sys
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
listener.settimeout(120)
while "READY=1" not in listener.recv(4096).decode().split("\n"):
    pass
EOF
notify=$!
for _ in $(seq 1 200); do [ -S "$rootfs/tmp/notify" ] && break; sleep 0.05; done
# shellcheck disable=SC2086  # the config's arguments, split as the engine splits Cmd
# Not through in_image: $! must be the daemon's pid (chroot and env exec it), not a subshell's.
chroot --userspec="$user" "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/var/lib/sextant LANG=C.UTF-8 \
    NOTIFY_SOCKET=/tmp/notify $command > "$work/daemon.log" 2>&1 &
daemon=$!
wait "$notify" || fail "sextantd did not say READY=1 within 120 s:"$'\n'"$(cat "$work/daemon.log")"
status="$(in_image sextantctl --runtime-dir /run/sextant status 2>&1)" || fail "sextantctl status in the image failed:"$'\n'"$status"$'\n'"$(cat "$work/daemon.log")"
kill -TERM "$daemon"
code=0
wait "$daemon" || code=$?
[ "$code" -eq 0 ] || fail "sextantd in the image exited with $code on SIGTERM:"$'\n'"$(cat "$work/daemon.log")"
daemon=""
echo "check-oci: sextantd ran in the image's root as $user with the image's arguments, and answered status"
