#!/usr/bin/env bash
# The Kubernetes manifests in deploy/kubernetes/, checked offline: against Kubernetes' own
# schemas with kubernetes-validate (PyPI, in a venv under .build/), then for what the
# schemas cannot know (Tools/ci/check-k8s-manifests.py): the image tag is this version, only
# the gpsd face leaves a pod, every pod runs as a non-root uid, and each sextantd's
# arguments start the real daemon (built by `swift build`) and answer `sextantctl status`.
#   bash Tools/ci/test-k8s.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/k8s-venv
validator_version=1.37.0
if ! "$venv/bin/kubernetes-validate" --version 2> /dev/null | grep -q "$validator_version"; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$validator_version"
fi
# The oldest Kubernetes with native sidecars on by default (sidecar-job.yaml), and the newest
# the validator knows.
for version in 1.29.0 "$validator_version"; do
    "$venv/bin/kubernetes-validate" --strict --kubernetes-version "$version" deploy/kubernetes/*.yaml
done
bin="$(swift build --show-bin-path)"
"$venv/bin/python" Tools/ci/check-k8s-manifests.py "$bin" deploy/kubernetes/*.yaml
