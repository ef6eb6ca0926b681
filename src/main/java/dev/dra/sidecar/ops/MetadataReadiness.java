package dev.dra.sidecar.ops;

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

    private static final String RESOURCES_CLAIMS_HINT =
            "the sidecar container probably does not list the claim in its own resources.claims "
                    + "(kubelet mounts only the claims a container lists)";

    /** @param data key → human-readable state; insertion order is the order shown */
    record Result(boolean up, Map<String, String> data) {}

    private MetadataReadiness() {}

    static Result evaluate(StoreStatus status, HeldBudget.View held, Path root, MetadataSnapshot snapshot,
            List<ExpectedClaim> expected) {
        Map<String, String> data = new LinkedHashMap<>();
        boolean up = status.cycles() > 0;
        data.put("metadata-root", root.toString());
        if (!up) {
            data.put("first-scan", "not done yet");
        }
        if (!status.rootExists()) {
            data.put("problem", "metadata root " + root + " does not exist: " + RESOURCES_CLAIMS_HINT);
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
            String state = state(claim, status, root, snapshot);
            data.put(claim.toString(), state);
            up &= state.startsWith("ok");
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

    /** "ok..." when present and decoding, else why not, in words that point at the fix. */
    private static String state(ExpectedClaim expected, StoreStatus status, Path root,
            MetadataSnapshot snapshot) {
        if (!status.rootExists()) {
            return "missing: metadata root " + root + " does not exist: " + RESOURCES_CLAIMS_HINT;
        }
        ClaimEntry claim = snapshot.claims(expected.kind()).claims().get(expected.claim());
        Path claimDir = root.resolve(expected.kind().directory()).resolve(expected.claim());
        if (claim == null) {
            if (!Files.isDirectory(claimDir)) {
                String what = expected.kind() == ClaimKind.CLAIM
                        ? "claim " + expected.claim()
                        : "pod claim " + expected.claim() + " (spec.resourceClaims[].name of a template claim)";
                return "missing: claim directory " + claimDir + " does not exist: the sidecar container probably "
                        + "does not list " + what + " in its own resources.claims (kubelet mounts only the claims "
                        + "a container lists)";
            }
            return "missing: claim directory " + claimDir + " holds no metadata file yet: the DRA driver has not "
                    + "written <driver>-metadata.json for "
                    + (expected.request() == null ? "any request" : "request " + expected.request())
                    + " (is the driver's device metadata feature on?)";
        }
        if (expected.request() == null) {
            return wholeClaimState(claim);
        }
        RequestEntry request = claim.requests().get(expected.request());
        if (request == null) {
            return "missing: claim " + expected.claim() + " has no metadata for request " + expected.request()
                    + " (requests with metadata: " + String.join(", ", claim.requests().keySet())
                    + "): check the request name, or wait for the driver to write "
                    + claimDir.resolve(expected.request()) + "/<driver>-metadata.json";
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
