"""The real node of the tests (src/test/kube-node) as the pod_start and soak parts use it: started and stopped, the sidecar
image built from the worktree and imported into its containerd, and kubectl against it."""
import json
import os
import subprocess
import time

from . import container

NODE_NOT_BUILT = 4  # build.sh --cached: the binaries are not in the cache yet


def scripts(repo):
    return os.path.join(repo, "src/test/kube-node")


def why_no_node(repo):
    """Why the node cannot run here, or None. Builds nothing: the *OnNodeIT tests build the node's binaries."""
    if os.geteuid() != 0:
        return "the real node runs kubelet and containerd, which need root"
    why = container.why_podman_cannot_run(repo)
    if why:
        return f"the sidecar image cannot be built: {why}"
    r = subprocess.run(["bash", os.path.join(repo, "src/test/kube-node/build.sh"), "--cached"], capture_output=True,
                       text=True, timeout=60)
    if r.returncode == NODE_NOT_BUILT:
        return f"{r.stderr.strip()[-300:]}: run the *OnNodeIT tests first, they build them"
    if r.returncode != 0:
        raise RuntimeError(f"build.sh --cached failed: {r.stderr.strip()[-800:]}")
    return None


def run_on_node(ctx, measure, *args):
    """The result of measure(ctx, node, repo, *args) on a node started for it and stopped after it, or a skip that says
    why the node cannot run here."""
    repo = ctx.args.repo
    why = why_no_node(repo)
    if why:
        return {"skipped": why}
    node = Node(ctx, repo)
    try:
        return measure(ctx, node, repo, *args)
    finally:
        node.stop()


class Node:
    """start.sh running with its state in `state`; `env` holds its facts (ctr, containerd socket, app image)."""

    def __init__(self, ctx, repo):
        self.repo = repo
        self.state = os.path.join(ctx.work, "kube-node")
        os.makedirs(self.state, exist_ok=True)
        if os.path.exists(os.path.join(self.state, "ready")):
            os.remove(os.path.join(self.state, "ready"))  # a killed run's: start.sh removes it too, once it runs
        self.procs = ctx.procs
        self.proc = ctx.procs.start(["bash", os.path.join(scripts(repo), "start.sh"), self.state],
                                    os.path.join(ctx.work, "kube-node-start.log"))
        t0 = time.monotonic()
        while not os.path.exists(os.path.join(self.state, "ready")):
            if self.proc.poll() is not None or time.monotonic() - t0 > 240:
                self.stop()
                raise RuntimeError("the node did not become usable: " + open(self.proc.logpath, errors="replace").read()[-1500:])
            time.sleep(0.05)
        self.start_to_usable_s = round(time.monotonic() - t0, 2)
        self.kubeconfig = os.path.join(self.state, "kubeconfig")
        self.env = dict(line.split("=", 1) for line in open(os.path.join(self.state, "env")).read().split("\n") if "=" in line)

    def stop(self):
        """SIGTERM to start.sh alone (its trap deletes the pods, removes everything and checks that nothing is
        left), then the whole group. Raises when start.sh did not exit 0: it left something (its log names each
        leftover), a component had exited, or it did not stop within 120 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(120)
            except subprocess.TimeoutExpired:
                pass
        status = self.proc.poll()
        self.procs.stop(self.proc, grace=5.0)
        if status != 0:
            log = open(self.proc.logpath, errors="replace").read()[-2000:]
            raise RuntimeError(f"the node's start.sh ended with exit status {status}: {log}")

    def kubectl_run(self, *args, stdin=None, timeout=60):
        """kubectl against the node: the CompletedProcess (text), whatever its exit status."""
        return subprocess.run(["kubectl", "--kubeconfig", self.kubeconfig, *args], input=stdin, capture_output=True,
                              text=True, timeout=timeout)

    def kubectl(self, *args, stdin=None, check=True, timeout=60):
        r = self.kubectl_run(*args, stdin=stdin, timeout=timeout)
        if check and r.returncode != 0:
            raise RuntimeError(f"kubectl {' '.join(args[:3])} failed: {r.stderr.strip()[-500:]}")
        return r.stdout

    def apply(self, obj):
        self.kubectl("apply", "-f", "-", stdin=json.dumps(obj))

    def ctr(self, *args):
        r = subprocess.run([self.env["ctr"], "--address", self.env["containerd_socket"], "-n", "k8s.io", *args],
                           capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise RuntimeError(f"ctr {' '.join(args[:2])} failed: {r.stderr.strip()[-500:]}")
        return r.stdout

    def import_sidecar_image(self):
        """Builds the image with the README's commands, imports it under a name made from its ID; returns the name."""
        container.ensure_base_images(self.repo)
        iid = os.path.join(self.state, "sidecar.iid")
        built = container.run_readme_build(self.repo, build_options=f"--iidfile {iid}")
        if built.returncode != 0:
            raise RuntimeError(f"the README's image build failed: {(built.stdout + built.stderr).strip()[-800:]}")
        image_id = open(iid).read().strip().removeprefix("sha256:")
        name = f"localhost/dra-test-node/sidecar:{image_id[:12]}"
        archive = os.path.join(self.state, "sidecar-image.tar")
        if os.path.exists(archive):
            os.remove(archive)
        container.podman(self.repo, "tag", image_id, name)
        try:
            container.podman(self.repo, "save", "--quiet", "--format", "oci-archive", "-o", archive, name, timeout=300)
        finally:
            container.podman(self.repo, "untag", image_id, name, check=False)
        self.ctr("images", "import", archive)
        os.remove(archive)
        return name

    def apply_injection(self, image):
        """deploy/kubernetes/injection as shipped, its parameters (the policy's first variable) naming `image`; pods
        made before admission has the patched policy may get the shipped image."""
        self.kubectl("apply", "-k", os.path.join(self.repo, "deploy/kubernetes/injection"))
        policy = json.loads(self.kubectl("get", "mutatingadmissionpolicy", "dra-metadata-sidecar", "-o", "json"))
        parameters = json.loads(policy["spec"]["variables"][0]["expression"])
        parameters["image"] = image
        self.kubectl("patch", "mutatingadmissionpolicy", "dra-metadata-sidecar", "--type", "json", "-p", json.dumps([
            {"op": "test", "path": "/spec/variables/0/name", "value": "parameters"},
            {"op": "replace", "path": "/spec/variables/0/expression",
             "value": json.dumps(parameters, indent=2, sort_keys=True)}]))

    def host_pid(self, container_id):
        """The host PID of a container's process (containerd's task list)."""
        container_id = container_id.removeprefix("containerd://")
        for line in self.ctr("tasks", "ls").splitlines():
            columns = line.split()
            if len(columns) >= 2 and columns[0] == container_id:
                return int(columns[1])
        raise RuntimeError(f"no task for container {container_id}")

    def container_id(self, ns, pod_name, name):
        """The containerd ID of container `name` of a pod (an init container too)."""
        status = json.loads(self.kubectl("get", "pod", "-n", ns, pod_name, "-o", "json"))["status"]
        entry = next(s for s in status.get("initContainerStatuses", []) + status["containerStatuses"] if s["name"] == name)
        return entry["containerID"].removeprefix("containerd://")

    def cgroup_value(self, container_id, controller, file):
        """An integer file of a container's cgroup of `controller` (e.g. cpuacct.usage, memory.usage_in_bytes)."""
        with open(os.path.join(container.cgroup_dir(self.host_pid(container_id), controller), file)) as value:
            return int(value.read())

    def cgroup_rss_bytes(self, container_id):
        """memory.stat rss of a container's memory cgroup (anonymous memory; the AOT cache's clean pages are cache)."""
        return container.cgroup_rss_kib(container.memory_cgroup(self.host_pid(container_id))) * 1024


def wait(condition, seconds, what="the condition"):
    """Polls `condition` every 0.1 s until it returns something true, which is returned; raises after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise RuntimeError(f"{what}: not reached within {seconds} s")
