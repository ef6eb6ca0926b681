"""Metadata files as the Go driver framework writes them, and trees of them."""
import hashlib
import json
import os

DRIVER = "gpu.example.com"


def device_metadata(claim, request, driver, generation, index=0, api="v1beta1"):
    """A realistic file object: a GPU as the example driver of the Kubernetes docs writes it."""
    h = hashlib.sha1(f"{claim}/{request}/{driver}/{index}".encode()).hexdigest()
    return {
        "kind": "DeviceMetadata",
        "apiVersion": f"metadata.resource.k8s.io/{api}",
        "metadata": {"name": claim, "namespace": "bench", "uid": f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}",
                     "generation": generation},
        "requests": [{
            "name": request,
            "devices": [{
                "driver": driver,
                "pool": "worker-0",
                "name": f"gpu-{index}",
                "attributes": {
                    "driverVersion": {"version": "1.0.0"},
                    "index": {"int": index},
                    "model": {"string": "LATEST-GPU-MODEL"},
                    "resource.kubernetes.io/pciBusID": {"string": f"0000:{index + 1:02x}:00.0"},
                    "uuid": {"string": f"gpu-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"},
                },
            }],
        }],
    }


def stream_bytes(claim, request, driver, generation, index=0):
    """A file's bytes as written for a driver configured with v1beta1 then v1alpha1: the same object once per
    version, newest first, each pretty-printed and followed by a newline."""
    parts = [json.dumps(device_metadata(claim, request, driver, generation, index, api), indent=2)
             for api in ("v1beta1", "v1alpha1")]
    return ("\n".join(parts) + "\n").encode()


def write_in_place(path, data):
    """Like Go's os.WriteFile: open with O_TRUNC (same inode), write, close. Not atomic."""
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def make_tree(root, claims, requests, driver=DRIVER):
    """`<root>/resourceclaims/<claim>/<request>/<driver>-metadata.json` for every claim and request, generation 1."""
    base = os.path.join(root, "resourceclaims")
    os.makedirs(base, exist_ok=True)
    for c in claims:
        for i, r in enumerate(requests):
            d = os.path.join(base, c, r)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, f"{driver}-metadata.json"), "wb") as f:
                f.write(stream_bytes(c, r, driver, 1, i))


ONE_CLAIM_PATH = "/claims/gpu-claim/gpu"
"""The resource the one-claim tree serves, and the one that throughput and footprint load."""


def one_claim_tree(work):
    """The one-claim tree (claim gpu-claim, request gpu) under `work`, written on first use and shared by parts."""
    root = os.path.join(work, "tree-throughput")
    if not os.path.isdir(root):
        make_tree(root, ["gpu-claim"], ["gpu"])
    return root
