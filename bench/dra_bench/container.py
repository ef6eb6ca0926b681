"""The container as the image part runs it: podman through src/test/image/podman.sh, the memory cgroup of a
container's process (cgroup v1), a process's anonymous memory and age."""
import os
import re
import subprocess


def script(repo, name):
    return os.path.join(repo, "src/test/image", name)


def podman(repo, *args, timeout=120, check=True):
    r = subprocess.run(["bash", script(repo, "podman.sh"), *args], capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f"podman {' '.join(args[:2])} failed: {(r.stdout + r.stderr).strip()[-500:]}")
    return r


def why_podman_cannot_run(repo):
    try:
        r = subprocess.run(["podman", "--version"], capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        return "podman is not installed"
    if r.returncode != 0:
        return f"podman --version failed: {r.stderr.strip()}"
    r = podman(repo, "info", "--format", "{{.Host.OCIRuntime.Name}}", timeout=60, check=False)
    return None if r.returncode == 0 else f"podman cannot run here: {(r.stdout + r.stderr).strip()[-300:]}"


def manifest_memory_limit(repo):
    text = open(os.path.join(repo, "deploy/kubernetes/components/sidecar/sidecar.yaml")).read()
    m = re.search(r"limits:\s*\n\s*memory:\s*(\d+)Mi", text)
    return int(m.group(1))


def cgroup_dir(pid, controller):
    """The directory of `pid`'s cgroup of the (cgroup v1) `controller`, e.g. memory or cpuacct."""
    with open(f"/proc/{pid}/cgroup") as lines:
        for line in lines:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            if controller in controllers.split(","):
                return f"/sys/fs/cgroup/{controller}{path}"
    raise RuntimeError(f"no {controller} cgroup for pid {pid}")


def memory_cgroup(pid):
    return cgroup_dir(pid, "memory")


def cgroup_rss_kib(cgroup):
    for line in open(os.path.join(cgroup, "memory.stat")):
        if line.startswith("rss "):
            return int(line.split()[1]) // 1024
    return None


def rss_anon_kib(pid):
    """Anonymous resident memory of a process: what a memory cgroup charges as `rss` (VmRSS also counts the
    AOT cache's clean file pages, which the cgroup charges as page cache)."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    except FileNotFoundError:
        pass
    return None


def seconds_since_process_start(pid, clk_tck):
    start = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[19]) / clk_tck
    return float(open("/proc/uptime").read().split()[0]) - start


def project_version(repo):
    """pom.xml's own <version>: the image tag and its version label follow it."""
    import xml.etree.ElementTree as ET
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    return ET.parse(os.path.join(repo, "pom.xml")).getroot().find("m:version", ns).text.strip()


def readme_build_script(repo):
    """The README's image build after `./mvnw package -DskipTests`: `version=...` then `podman build ...`."""
    readme = open(os.path.join(repo, "README.md")).read()
    m = re.search(r"```shell\n\./mvnw package -DskipTests\n(version=.*?\npodman build .*?)\n```", readme, re.S)
    if not m:
        raise RuntimeError("README.md shows no image build (./mvnw package, version=..., podman build ...)")
    return m.group(1)


def ensure_base_images(repo):
    """The base images of Dockerfile.jvm in podman's store (real or the labelled stand-ins); what each script said."""
    said = []
    for standin in ("distroless-standin.sh", "temurin-standin.sh"):
        base = subprocess.run(["bash", script(repo, standin)], capture_output=True, text=True, timeout=900)
        if base.returncode != 0:
            raise RuntimeError(f"no base image: {base.stderr.strip()}")
        said.append(base.stdout.strip())
    return said


def run_readme_build(repo, timeout=900, build_options=""):
    """Runs the README's image build from the repository root, with podman as src/test/image/podman.sh;
    build_options go right after its `podman build`."""
    build = readme_build_script(repo).replace("podman build ", f"podman build {build_options} ", 1)
    commands = f'set -euo pipefail\npodman() {{ bash {script(repo, "podman.sh")} "$@"; }}\n' + build
    return subprocess.run(["bash", "-c", commands], cwd=repo, capture_output=True, text=True, timeout=timeout)


# Which part of the image a layer is, by what made it (Dockerfile.jvm: one COPY per part on top of the base).
PARTS = (("AOT cache", "app.aot"), ("runtime", "/opt/jre"), ("application", "/deployments/"), ("users", "/etc/"))


def image_parts(repo, image):
    """Uncompressed bytes of the image by part (base, runtime, users, application, AOT cache), from its layers:
    every layer below the final stage's first COPY is the base's."""
    import json
    layers = json.loads(podman(repo, "history", "--no-trunc", "--format", "json", image).stdout)
    parts = {}
    for layer in reversed(layers):  # oldest first
        created = layer.get("CreatedBy", "")
        part = next((name for name, key in PARTS if key in created and "COPY" in created), None)
        if part is None:
            part = "base" if set(parts) <= {"base"} else "other"
            if part == "other" and not layer.get("size"):
                continue  # ENV, LABEL, USER ...: configuration, no files
        parts[part] = parts.get(part, 0) + layer.get("size", 0)
    return parts
