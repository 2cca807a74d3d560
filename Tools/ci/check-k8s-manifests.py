"""What Kubernetes' schemas cannot say about deploy/kubernetes/*.yaml (Tools/ci/test-k8s.sh).

Each manifest's pods: the image is this version's, they run as a non-root uid with no
service account token, every container's root filesystem is read-only, nothing but the
gpsd face (2947) is a port, and a Service exposes nothing else. Pods a Service exposes are
under a default-deny NetworkPolicy (ingress and egress) and admit the gpsd face only from
pods labelled sextant.dev/gpsd-client: "true" (docs/farm.md). Each sextantd
container's arguments start the real daemon (paths moved into a temporary directory, the
gpsd face onto a free loopback port) and it answers `sextantctl status`.

    python3 Tools/ci/check-k8s-manifests.py BIN_DIR MANIFEST...
"""

import os
import re
import subprocess
import sys
import tempfile
import time

import yaml  # kubernetes-validate's dependency, in the venv Tools/ci/test-k8s.sh makes

GPSD_PORT = 2947
CLIENT_LABEL = {"sextant.dev/gpsd-client": "true"}


def version():
    text = open("Sources/SextantProtocol/Version.swift").read()
    return re.search(r'sextantVersion = "([^"]+)"', text).group(1)


def pod_spec(document):
    kind = document["kind"]
    if kind in ("StatefulSet", "Deployment", "Job"):
        return document["spec"]["template"]["spec"]
    return None


def check_pod(name, spec, problems):
    context = spec.get("securityContext", {})
    if not context.get("runAsNonRoot") or not context.get("runAsUser"):
        problems.append(f"{name}: the pod must run as a numbered non-root uid")
    if spec.get("automountServiceAccountToken") is not False:
        problems.append(f"{name}: automountServiceAccountToken must be false (no pod talks to the API)")
    for container in spec.get("initContainers", []) + spec["containers"]:
        where = f"{name}/{container['name']}"
        if container["image"] != f"sextant:{version()}":
            problems.append(f"{where}: image {container['image']}, not sextant:{version()}")
        for port in container.get("ports", []):
            if port["containerPort"] != GPSD_PORT:
                problems.append(f"{where}: port {port['containerPort']}: only the gpsd face may leave a pod")
        if container.get("securityContext", {}).get("allowPrivilegeEscalation") is not False:
            problems.append(f"{where}: allowPrivilegeEscalation must be false")
        if container.get("securityContext", {}).get("readOnlyRootFilesystem") is not True:
            problems.append(f"{where}: readOnlyRootFilesystem must be true (an emptyDir for what is written)")
        if not container.get("resources", {}).get("limits", {}).get("memory"):
            problems.append(f"{where}: a memory limit is needed")


def selects(selector, labels):
    wanted = selector.get("matchLabels", {})
    return not selector.get("matchExpressions") and all(labels.get(k) == v for k, v in wanted.items())


def check_network_policies(name, labels, policies, problems):
    """The pods `labels` name (a Service's): denied by default both ways, the gpsd face
    admitted from the farm's labelled clients only."""
    mine = [p["spec"] for p in policies if selects(p["spec"].get("podSelector", {}), labels)]
    if not any(set(p.get("policyTypes", [])) >= {"Ingress", "Egress"} and not p.get("ingress") and not p.get("egress") for p in mine):
        problems.append(f"{name}: its pods need a default-deny NetworkPolicy (policyTypes Ingress and Egress, no rule)")
    for policy in mine:
        if policy.get("egress"):
            problems.append(f"{name}: a NetworkPolicy lets its pods reach out (egress): a device needs nothing outside")
        for rule in policy.get("ingress", []):
            ports = [(port.get("port"), port.get("protocol", "TCP")) for port in rule.get("ports", [])]
            if ports != [(GPSD_PORT, "TCP")]:
                problems.append(f"{name}: an ingress rule opens {ports or 'every port'}, not only the gpsd face")
            peers = rule.get("from", [])
            if not peers or any(set(peer) != {"podSelector"} or peer["podSelector"].get("matchLabels") != CLIENT_LABEL for peer in peers):
                problems.append(f"{name}: an ingress rule admits {peers or 'everyone'}, not only pods labelled {CLIENT_LABEL}")


def daemon_arguments(spec):
    for container in spec.get("initContainers", []) + spec["containers"]:
        if container.get("args") and not container.get("command"):
            yield container["name"], container["args"]


def moved(arguments, scratch):
    """The arguments with the pod's paths under `scratch` and the gpsd face on a free port."""
    result = []
    for argument in arguments:
        name, _, value = argument.partition("=")
        if name in ("--runtime-dir", "--state-dir"):
            argument = f"{name}={scratch}{value}"
        elif name == "--gpsd-listen":
            argument = "--gpsd-listen=127.0.0.1:0"
        elif name == "--replay" and value.startswith("/usr/share/sextant/"):
            argument = f"--replay=Traces/{os.path.basename(value)}"
        result.append(argument)
    return result, f"{scratch}/run/sextant"


def run_daemon(where, binaries, arguments, problems):
    with tempfile.TemporaryDirectory() as scratch:
        os.chmod(scratch, 0o755)
        arguments, runtime = moved(arguments, scratch)
        os.makedirs(os.path.dirname(runtime), mode=0o755, exist_ok=True)
        daemon = subprocess.Popen([f"{binaries}/sextantd", *arguments], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while not os.path.exists(f"{runtime}/control.sock"):
                if daemon.poll() is not None:
                    problems.append(f"{where}: sextantd {' '.join(arguments)} exited: {daemon.stdout.read().decode()}")
                    return
                if time.monotonic() > deadline:
                    problems.append(f"{where}: sextantd made no control socket within 30 s")
                    return
                time.sleep(0.05)
            status = subprocess.run([f"{binaries}/sextantctl", "--runtime-dir", runtime, "status"], capture_output=True, text=True, timeout=30)
            if status.returncode != 0:
                problems.append(f"{where}: sextantctl status failed: {status.stderr}")
        finally:
            daemon.terminate()
            daemon.wait(timeout=30)


def main():
    binaries, paths = sys.argv[1], sys.argv[2:]
    problems = []
    checked = 0
    for path in paths:
        documents = list(yaml.safe_load_all(open(path)))
        policies = [d for d in documents if d["kind"] == "NetworkPolicy"]
        for document in documents:
            name = f"{os.path.basename(path)}: {document['kind']} {document['metadata']['name']}"
            if document["kind"] == "Service":
                ports = [port["port"] for port in document["spec"]["ports"]]
                if ports != [GPSD_PORT]:
                    problems.append(f"{name}: ports {ports}: only the gpsd face may leave a pod")
                check_network_policies(name, document["spec"].get("selector", {}), policies, problems)
            spec = pod_spec(document)
            if spec is None:
                continue
            check_pod(name, spec, problems)
            for container, arguments in daemon_arguments(spec):
                run_daemon(f"{name}/{container}", binaries, arguments, problems)
                checked += 1
    if checked == 0:
        problems.append("no sextantd container found in the manifests")
    for problem in problems:
        print(f"check-k8s: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-k8s: {len(paths)} manifests; {checked} sextantd argument lists started the real daemon")


if __name__ == "__main__":
    main()
