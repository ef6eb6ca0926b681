package dev.dra.sidecar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.NodeClaims;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.assembly.ClaimScopes;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.testsupport.CdiSpecs;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.MetadataFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node mode's store on real files: CDI specs written as the upstream kubeletplugin helper writes them
 * ({@code <driver>_metadata_<claim uid>_<request>.json}, one {@code ro,bind} mount) naming host files in a plugin
 * data directory, read the way the agent reads them. Claims of two namespaces with one name stay apart; a file whose
 * content disagrees with its container path, and a mount outside the metadata tree, belong to no claim.
 */
class CdiSpecStoreTest {

    private static final String TREE = CdiSpecs.TREE;
    private static final Duration WITHIN = Duration.ofSeconds(10);

    @TempDir
    Path work;

    @Test
    void claimsOfTwoNamespacesWithOneNameStayApartAndShowTheirContainerPaths() throws Exception {
        Path cdi = Files.createDirectories(work.resolve("cdi"));
        Path hostA = prepared(cdi, "a", "gpu", "resourceclaims/gpu", "A");
        prepared(cdi, "b", "gpu", "resourceclaims/gpu", "B");
        prepared(cdi, "a", "app-gpu-x7k2p", "resourceclaimtemplates/gpu", "T");
        Path mismatch = MetadataFiles.create(work.resolve("plugin/elsewhere/metadata.json"), json("a", "gpu", "M"));
        spec(cdi, "mismatch_r", mismatch.toString(), TREE + "/resourceclaims/not-gpu/r/gpu.example.com-metadata.json");
        spec(cdi, "outside", "/etc/hostname", "/etc/hostname");
        try (MetadataStore store = node(cdi, true)) {
            assertTrue(store.current().claims(ClaimKind.CLAIM).claims().isEmpty(),
                    "the node-wide snapshot holds no claim: only per-claim scopes do");
            NodeClaims claims = store.nodeClaims();
            assertEquals(3, claims.scopes().size(), claims.scopes().keySet().toString());
            ClaimEntry a = claims.claim(new NodeClaims.Scope(ClaimKind.CLAIM, "a", "gpu"), "gpu").orElseThrow();
            ClaimEntry b = claims.claim(new NodeClaims.Scope(ClaimKind.CLAIM, "b", "gpu"), "gpu").orElseThrow();
            assertTrue(body(a.requests().get("r").merged()).contains("\"model\":{\"string\":\"A\"}"));
            assertTrue(body(b.requests().get("r").merged()).contains("\"model\":{\"string\":\"B\"}"));
            assertEquals(TREE + "/resourceclaims/gpu/r/gpu.example.com-metadata.json",
                    a.requests().get("r").drivers().get("gpu.example.com").path(), "the path the container sees");
            ClaimEntry template = claims.claim(new NodeClaims.Scope(ClaimKind.TEMPLATE_CLAIM, "a", "app-gpu-x7k2p"),
                    "gpu").orElseThrow();
            assertTrue(body(template.served()).startsWith("{\"name\":\"gpu\","), body(template.served()));
            assertFalse(claims.claim(new NodeClaims.Scope(ClaimKind.CLAIM, "a", "not-gpu"), "not-gpu").isPresent());

            SortedMap<String, ClaimEntry> own = new TreeMap<>(Map.of("gpu", a));
            MetadataSnapshot view = ClaimScopes.view(claims.sequence(), Map.of(ClaimKind.CLAIM, own));
            assertEquals("{\"claims\":[{\"name\":\"gpu\",\"requests\":[\"r\"]}],\"devices\":\"/devices\"}\n",
                    new String(view.claims(ClaimKind.CLAIM).index().body(), StandardCharsets.UTF_8));
            assertEquals("{\"claims\":[],\"devices\":\"/devices\"}\n",
                    new String(view.claims(ClaimKind.TEMPLATE_CLAIM).index().body(), StandardCharsets.UTF_8));

            // The v0.37 helper replaces a file by rename: on the host that is simply the new file.
            MetadataFiles.replaceByRename(hostA, json("a", "gpu", "A2"));
            Eventually.awaitTrue(WITHIN, "the renamed file is served", () -> store.nodeClaims()
                    .claim(new NodeClaims.Scope(ClaimKind.CLAIM, "a", "gpu"), "gpu").map(entry -> body(entry
                            .requests().get("r").merged()).contains("\"A2\"")).orElse(false));
        }
    }

    @Test
    void aRefreshFindsASpecWrittenJustBefore() throws Exception {
        Path cdi = Files.createDirectories(work.resolve("cdi"));
        try (MetadataStore store = node(cdi, false)) {
            prepared(cdi, "a", "late", "resourceclaims/late", "L");
            store.refreshNow().get(10, TimeUnit.SECONDS);
            Optional<ClaimEntry> late = store.nodeClaims()
                    .claim(new NodeClaims.Scope(ClaimKind.CLAIM, "a", "late"), "late");
            assertTrue(late.isPresent(), "served once the refresh completed, without waiting for a poll");
        }
    }

    /**
     * A driver on the v0.36 helper writes its spec in place ({@code os.WriteFile}): a walk between the create and the
     * write reads an empty spec, and the write that follows is only a change of a file's content, which must still
     * ask for a walk.
     */
    @Test
    void aSpecWrittenInPlaceAfterAWalkReadItEmptyIsFoundAtItsWrite() throws Exception {
        Path cdi = Files.createDirectories(work.resolve("cdi"));
        try (MetadataStore store = node(cdi, true)) {
            Path host = MetadataFiles.create(work.resolve("plugin/dra-device-metadata/a_slow/r/metadata.json"),
                    json("a", "slow", "S"));
            Path spec = Files.createFile(cdi.resolve("gpu.example.com_metadata_uid-slow_r.json"));
            store.refreshNow().get(10, TimeUnit.SECONDS);
            assertTrue(store.nodeClaims().scopes().isEmpty(), "the empty spec names no file yet");
            Path written = CdiSpecs.write(cdi, "uid-slow_r", host.toString(),
                    TREE + "/resourceclaims/slow/r/gpu.example.com-metadata.json");
            assertEquals(spec, written, "the spec is rewritten in place, not created anew");
            Eventually.awaitTrue(WITHIN, "the spec's file is served once the spec is written", () -> store
                    .nodeClaims().claim(new NodeClaims.Scope(ClaimKind.CLAIM, "a", "slow"), "slow").isPresent());
        }
    }

    /**
     * The container tree is the default one. With {@code watch}, inotify as in production; without, slow polls, so
     * that only the first scan and a refresh can find a file in time.
     */
    private MetadataStore node(Path cdi, boolean watch) {
        MetadataStore store = new MetadataStore(TestStoreConfig.of(Path.of(TREE), "mode", "node", "cdi-dir",
                cdi.toString(), "watch", String.valueOf(watch), "poll-interval", "1h", "rescan-interval", "1h",
                "safety-poll-interval", "1h"), RefreshObserver.NONE);
        store.start();
        return store;
    }

    /** A host file and its CDI spec, as the helper's processPreparedClaim writes them; returns the host file. */
    private Path prepared(Path cdi, String namespace, String claim, String containerDir, String model)
            throws IOException {
        Path host = work.resolve("plugin/dra-device-metadata/" + namespace + "_" + claim + "/r/metadata.json");
        MetadataFiles.create(host, json(namespace, claim, model));
        spec(cdi, "uid-" + namespace + "-" + claim + "-" + containerDir.replace('/', '-') + "_r", host.toString(),
                TREE + "/" + containerDir + "/r/gpu.example.com-metadata.json");
        return host;
    }

    private static void spec(Path cdi, String device, String hostPath, String containerPath) {
        CdiSpecs.write(cdi, device, hostPath, containerPath);
    }

    private static String json(String namespace, String claim, String model) {
        return DeviceMetadataJson.forClaim(claim).request("r").attributes("\"model\":{\"string\":\"" + model + "\"}")
                .json(namespace);
    }

    private static String body(Served served) {
        return new String(((Served.Available) served).body(), StandardCharsets.UTF_8);
    }
}
