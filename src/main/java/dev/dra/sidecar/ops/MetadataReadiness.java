package dev.dra.sidecar.ops;

import dev.dra.sidecar.store.config.ExpectedClaim;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.FileState;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.store.file.HeldBudget;
import dev.dra.sidecar.store.refresh.StoreStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether the app's metadata is here: the answer of the startup and readiness checks.
 *
 * <p>Contract: up when the store completed its first full scan and every expected claim's request is present
 * and its merged view decodes (a stale view, serving the last good object, counts as present); an expected claim
 * without a request is up when at least one of its requests has metadata and every request that has decodes. With no
 * expected claims, up as soon as the first scan is done. {@link Result#data()} says, per expected claim, what
 * is there or what is missing and what the user can do about it; how file changes are noticed
 * ({@code watch-mode}); and which files are detached (pinned to a file the host replaced: still served, so
 * still up, but frozen until the pod restarts).
 */
final class MetadataReadiness {

    /**
     * Why a container sees no metadata for a claim: the two causes it cannot tell apart, and how to tell. A claim's
     * files are mounted when the container is made; without one then, none comes later.
     */
    static String twoCauses(String what, String claimName) {
        return "either the sidecar container does not list " + what + " in its own resources.claims (kubelet mounts "
                + "only the claims a container lists), or its driver writes no metadata file (most drivers write none "
                + "by default). To tell which: kubectl get pod <pod> -o jsonpath='{.spec.initContainers[?(@.name==\"dra-"
                + "metadata-sidecar\")].resources.claims}' lists what the sidecar lists, and kubectl get resourceclaim "
                + claimName + " -o jsonpath='{.status.allocation.devices.results[*].driver}' names the claim's drivers "
                + "(is their device metadata feature on?). With dra.metadata.resource-api.enabled=true the sidecar "
                + "serves what the cluster knows of the claim's devices instead";
    }

    /** A state that lets the start go on although the metadata is not here: it cannot come. */
    static final String ABSENT = "absent";

    /** @param data key → human-readable state; insertion order is the order shown */
    record Result(boolean up, Map<String, String> data) {}

    private MetadataReadiness() {}

    /**
     * @param derivationPending the resource-API source may still bring metadata a claim has no file for (it has not
     *     listed what it needs yet); what is absent is then waited for rather than given up
     */
    static Result evaluate(StoreStatus status, HeldBudget.View held, Path root, MetadataSnapshot snapshot,
            List<ExpectedClaim> expected, boolean derivationPending) {
        Map<String, String> data = new LinkedHashMap<>();
        boolean up = status.cycles() > 0;
        data.put("metadata-root", root.toString());
        if (!up) {
            data.put("first-scan", "not done yet");
        }
        if (!status.rootExists()) {
            data.put("problem", "metadata root " + root + " does not exist: no metadata file is mounted into this "
                    + "container");
        }
        data.put("watch-mode", status.watchMode().label()
                + (status.pollingReason() == null ? "" : ": " + status.pollingReason()));
        data.put("memory-bound", memoryBound(held));
        List<String> detached = detached(snapshot);
        if (!detached.isEmpty()) {
            data.put("detached", detached.size() + " file(s) replaced on the host by a rename, still serving their "
                    + "last object, frozen: restart the pod to see updates (the driver should rewrite files in "
                    + "place): " + String.join(", ", detached));
        }
        for (ExpectedClaim claim : expected) {
            String state = state(claim, status, root, snapshot, derivationPending);
            data.put(claim.toString(), state);
            up &= state.startsWith("ok") || state.startsWith(ABSENT);
        }
        return new Result(up, data);
    }

    /** What is held against the bound and, when files are refused, how many and what to raise. */
    private static String memoryBound(HeldBudget.View held) {
        String holding = held.files() + " file(s) held, " + HeldBudget.mib(held.heldBytes()) + " estimated of "
                + HeldBudget.mib(held.bound()) + " (" + held.boundSource() + ")";
        if (held.refused() == 0 && held.untracked() == 0) {
            return holding;
        }
        return "reached: " + holding + "; " + held.refused() + " file(s) not held answer memory-bound-reached, "
                + held.untracked() + " more not even tracked: raise the sidecar container's memory limit or "
                + "dra.metadata.max-held";
    }

    private static List<String> detached(MetadataSnapshot snapshot) {
        List<String> paths = new ArrayList<>();
        for (ClaimKind kind : ClaimKind.values()) {
            for (ClaimEntry claim : snapshot.claims(kind).claims().values()) {
                for (RequestEntry request : claim.requests().values()) {
                    for (DriverEntry driver : request.drivers().values()) {
                        if (driver.state() == FileState.DETACHED) {
                            paths.add(driver.path());
                        }
                    }
                }
            }
        }
        return paths;
    }

    /**
     * "ok..." when present and decoding; "absent: ..." when it cannot come (nothing mounted for it, and no source
     * that may still bring it); else why not yet, in words that point at the fix.
     */
    private static String state(ExpectedClaim expected, StoreStatus status, Path root, MetadataSnapshot snapshot,
            boolean derivationPending) {
        ClaimEntry claim = snapshot.claims(expected.kind()).claims().get(expected.claim());
        String what = expected.kind() == ClaimKind.CLAIM ? "claim " + expected.claim()
                : "pod claim " + expected.claim() + " (spec.resourceClaims[].name of a template claim)";
        String claimName = expected.kind() == ClaimKind.CLAIM ? expected.claim() : "<the pod's claim for "
                + expected.claim() + ">";
        if (claim == null && derivationPending) {
            return "waiting: no file is mounted for " + what + ", and the resource-API source has not listed the "
                    + "claim and its driver's ResourceSlices yet";
        }
        if (claim == null) {
            Path claimDir = root.resolve(expected.kind().directory()).resolve(expected.claim());
            if (status.rootExists() && Files.isDirectory(claimDir)) {
                return "missing: claim directory " + claimDir + " holds no metadata file yet: the DRA driver has not "
                        + "written <driver>-metadata.json for "
                        + (expected.request() == null ? "any request" : "request " + expected.request())
                        + " (is the driver's device metadata feature on?)";
            }
            return ABSENT + ": no metadata for " + what + " (no file is mounted for it at " + claimDir + "): "
                    + twoCauses(what, claimName);
        }
        if (expected.request() == null) {
            return wholeClaimState(claim);
        }
        RequestEntry request = claim.requests().get(expected.request());
        if (request == null) {
            if (derivationPending) {
                return "waiting: claim " + expected.claim() + " has no file for request " + expected.request()
                        + ", and the resource-API source has not listed it yet";
            }
            return ABSENT + ": claim " + expected.claim() + " has no metadata for request " + expected.request()
                    + " (requests with metadata: " + String.join(", ", claim.requests().keySet())
                    + "): check the request name; else " + twoCauses(what, claimName);
        }
        return requestState(request);
    }

    /** The first request that fails, else the first that is stale, else "ok". */
    private static String wholeClaimState(ClaimEntry claim) {
        String state = "ok";
        for (RequestEntry request : claim.requests().values()) {
            String requestState = requestState(request);
            if (requestState.startsWith("failing")) {
                return requestState;
            }
            if (state.equals("ok")) {
                state = requestState;
            }
        }
        return state;
    }

    private static String requestState(RequestEntry request) {
        if (request.merged() instanceof Served.Unavailable failure) {
            return "failing: " + failure.code().code() + ": " + failure.detail();
        }
        String stale = ((Served.Available) request.merged()).staleReason();
        return stale == null ? "ok" : "ok, stale (serving the last good object): " + stale;
    }
}
