#!/usr/bin/env bash
# Checks the checked-in OpenAPI document with the ecosystem's own tools: Redocly's linter, then a generated
# TypeScript client (openapi-typescript) that must compile under tsc --strict with a use of every schema.
set -euo pipefail
cd "$(dirname "$0")/../../.."
doc=src/main/openapi/openapi.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

npx --yes @redocly/cli@2 lint --config src/test/openapi/redocly.yaml "$doc"

npx --yes openapi-typescript@7 "$doc" --output "$work/api.d.ts"
cat > "$work/use.ts" <<'TS'
import type { components, operations, paths } from "./api";

type DeviceMetadata = components["schemas"]["DeviceMetadata"];
const metadata: DeviceMetadata = {
  kind: "DeviceMetadata",
  apiVersion: "metadata.resource.k8s.io/v1beta1",
  metadata: { name: "gpu-claim", namespace: "default", uid: "u", generation: 1 },
  requests: [{ name: "gpu", devices: [{ driver: "gpu.example.com", pool: "worker-0", name: "gpu-0",
    attributes: { model: { string: "LATEST-GPU-MODEL" }, index: { int: 0 } },
    networkData: { interfaceName: "eth1", ips: ["192.0.2.5/24"], hardwareAddress: "00:11:22:33:44:55" } }] }],
};
const problem: components["schemas"]["Problem"] = { type: "t", title: "Not found", status: 404, detail: "d", code: "not-found" };
const index: components["schemas"]["ClaimIndex"] = { claims: [{ name: "gpu-claim", requests: ["gpu"] }], devices: "/devices" };
const column: components["schemas"]["AttributeColumn"] = { attribute: "uuid", devices: [
  { driver: "gpu.example.com", pool: "worker-0", name: "gpu-0", value: { string: "GPU-0" } },
  { kind: "claims", claim: "gpu-claim", request: "gpu", driver: "nic.example.com", pool: "worker-0", name: "rdma-0" }] };
const devices: components["schemas"]["DeviceList"] = { devices: [{ kind: "template-claims", claim: "my-gpu",
  request: "gpu", driver: "gpu.example.com", pool: "worker-0", name: "gpu-0", attributes: { numaNode: { int: 0 } },
  networkData: { interfaceName: "eth1" } }] };
type Env = paths["/claims/{claim}/{request}/env"]["get"]["responses"][200]["content"]["text/plain"];
const env: Env = "DRA_GPU_CLAIM_GPU_GPU_0_UUID='GPU-0'\n";
const report: components["schemas"]["ValidationReport"] = { decoded: true, valid: true, violations: [] };
const validation: components["schemas"]["RequestValidation"] = { request: "gpu", valid: false, drivers: [
  { driver: "a.example.com", file: "/f/a.example.com-metadata.json", apiVersion: "metadata.resource.k8s.io/v1beta1",
    valid: false, violations: [{ field: "requests[0].devices[0].pool", type: "Required", message: "m" }] },
  { driver: "b.example.com", file: "/f/b.example.com-metadata.json", error: { code: "malformed-stream", detail: "d" } }] };
type Request = operations["getClaimRequest"]["parameters"]["path"];
const path: Request = { claim: "gpu-claim", request: "gpu" };
type Ok = paths["/claims/{claim}/{request}"]["get"]["responses"][200]["content"]["application/json"];
const ok: Ok = metadata;
type Validation = paths["/template-claims/{claim}/{request}/validation"]["get"]["responses"][200]["content"]["application/json"];
const served: Validation = validation;
export { metadata, problem, index, column, devices, env, report, validation, served, path, ok };
TS
npx --yes -p typescript@5 tsc --strict --noEmit --skipLibCheck false --target es2022 --module es2022 \
  --moduleResolution bundler "$work/use.ts"
echo "OpenAPI document: lint clean, generated TypeScript client compiles"
