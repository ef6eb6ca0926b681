package dev.dra.sidecar.ops;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.Eventually;
import io.quarkus.arc.Arc;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Prometheus text of {@code /q/metrics} on the management interface, for the sample tree. */
@QuarkusTest
@TestProfile(OpsTestTree.class)
class MetricsTest {

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @TestHTTPResource(value = "/health/live", management = true)
    URL live;

    private PrometheusText scrape() {
        return PrometheusText.parse(given().get(metrics).then().statusCode(200).extract().asString());
    }

    /** The store takes the one RefreshObserver bean; a second one would fail the deployment, not mute the metrics. */
    @Test
    void theStoreReportsToTheMetrics() {
        Set<? extends jakarta.enterprise.inject.spi.Bean<?>> observers =
                Arc.container().beanManager().getBeans(RefreshObserver.class);
        assertEquals(Set.of(MetadataMetrics.class), Set.copyOf(observers.stream().map(b -> b.getBeanClass()).toList()));
        assertEquals(1, observers.size());
        Double cycles = scrape().value("dra_refresh_cycles_total", Map.of());
        assertTrue(cycles != null && cycles >= 1, "the first scan is a reported refresh cycle: " + cycles);
    }

    /** Bound by JvmMetrics before the first scrape is answered: the set Quarkus' JVM binder has. */
    @Test
    void theJvmIsReported() {
        List<String> names = List.of("jvm_info_total", "jvm_memory_used_bytes", "jvm_memory_max_bytes",
                "jvm_threads_live_threads", "jvm_classes_loaded_classes", "jvm_gc_memory_allocated_bytes_total",
                "jvm_gc_live_data_size_bytes", "jvm_gc_overhead", "jvm_memory_usage_after_gc");
        PrometheusText text = scrape();
        for (String name : names) {
            assertTrue(!text.find(name, Map.of()).isEmpty(), name + " is reported");
        }
        assertTrue(!text.find("jvm_memory_used_bytes", Map.of("area", "heap")).isEmpty(), "heap pools reported");
    }

    @Test
    void deviceInfoHasOneSeriesPerSampleDeviceWithTheAllowListedAttributes() {
        PrometheusText text = scrape();
        assertEquals(1.0, text.value("dra_device_info", Map.of("claim_kind", "claims", "claim", "gpu-claim",
                "request", "gpu", "driver", "gpu.example.com", "pool", "worker-0", "device", "gpu-0",
                "attr_uuid", "gpu-18db0e85-99e9-c746-8531-ffeb86328b39",
                "attr_resource_kubernetes_io_pciBusID", "0000:3b:00.0")));
        assertEquals(1.0, text.value("dra_device_info", Map.of("claim_kind", "template-claims", "claim", "my-gpu",
                "request", "gpu", "device", "gpu-2", "attr_uuid", "gpu-3f9b8a7c-6d5e-4c3b-a291-0fedcba98765")));
        // A device without an allow-listed attribute keeps the label, empty: one label set per metric name.
        assertEquals(1.0, text.value("dra_device_info", Map.of("claim", "gpu-claim", "driver", "nic.example.com",
                "device", "rdma-0", "attr_uuid", "", "attr_resource_kubernetes_io_pciBusID", "0000:3c:00.0")));
        for (PrometheusText.Sample sample : text.find("dra_device_info", Map.of())) {
            assertEquals(List.of("attr_resource_kubernetes_io_pciBusID", "attr_uuid", "claim", "claim_kind", "device",
                    "driver", "pool", "request"), sample.labels().keySet().stream().sorted().toList(), sample.toString());
        }
    }

    @Test
    void deviceInfoOfAVanishedDeviceIsRemoved() {
        String file = "resourceclaims/short-lived/gpu/gpu.example.com-metadata.json";
        Map<String, String> labels = Map.of("claim", "short-lived", "device", "gpu-9", "attr_uuid", "gpu-9-uuid");
        OpsTestTree.write(file, DeviceMetadataJson.forClaim("short-lived").device("gpu-9")
                .attributes("\"uuid\":{\"string\":\"gpu-9-uuid\"}").json());
        Eventually.await(Duration.ofSeconds(20), () -> scrape().value("dra_device_info", labels), v -> v != null,
                "device series appears");
        OpsTestTree.delete(file);
        Eventually.await(Duration.ofSeconds(20), () -> scrape().find("dra_device_info", Map.of("claim", "short-lived")),
                List::isEmpty, "device series removed");
    }

    @Test
    void refreshAndFileMetrics() {
        PrometheusText text = scrape();
        assertTrue(text.value("dra_refresh_cycles_total", Map.of()) >= 1);
        assertTrue(text.value("dra_refresh_cycle_duration_seconds_count", Map.of()) >= 1);
        assertNotNull(text.value("dra_refresh_cycle_duration_seconds_sum", Map.of()));
        // The sample tree has four files; other tests of this profile may have added theirs.
        assertTrue(text.value("dra_files", Map.of("state", "ok")) >= 4, "the sample tree's four files");
        assertNotNull(text.value("dra_files", Map.of("state", "stale")));
        assertNotNull(text.value("dra_files", Map.of("state", "failed")));
        assertNotNull(text.value("dra_files", Map.of("state", "detached")));
        for (String code : List.of("no-metadata-objects", "malformed-stream", "invalid-object", "no-compatible-version",
                "file-too-large", "unreadable")) {
            assertNotNull(text.value("dra_decode_failures_total", Map.of("code", code)), code);
        }
        double lastChange = text.value("dra_last_change_timestamp_seconds", Map.of());
        double now = System.currentTimeMillis() / 1000.0;
        assertTrue(lastChange > now - 3600 && lastChange <= now + 1, "a Unix time in seconds: " + lastChange);
        assertEquals(1.0, text.value("dra_watch_mode", Map.of("mode", "inotify")), "a watch on each file, on Linux");
        assertEquals(0.0, text.value("dra_watch_mode", Map.of("mode", "polling")));
        assertTrue(text.value("dra_inotify_watches", Map.of("kind", "file")) >= 4, "the sample tree's four files");
        assertTrue(text.value("dra_inotify_watches", Map.of("kind", "directory")) >= 4);
        assertEquals(0.0, text.value("dra_validation_violations", Map.of("driver", "gpu.example.com")),
                "the sample objects are valid");
        assertEquals(1.0, text.value("dra_metadata_root_exists", Map.of()));
        assertNotNull(text.value("dra_long_poll_waiters", Map.of()));
    }

    @Test
    void aFileThatCannotDecodeIsCountedByCodeAndState() {
        String file = "resourceclaims/broken/gpu/gpu.example.com-metadata.json";
        double before = scrape().value("dra_decode_failures_total", Map.of("code", "no-compatible-version"));
        OpsTestTree.write(file, "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/v9\"}\n");
        Eventually.await(Duration.ofSeconds(20), MetricsTest.this::scrape,
                t -> t.value("dra_decode_failures_total", Map.of("code", "no-compatible-version")) > before
                        && t.value("dra_files", Map.of("state", "failed")) >= 1, "failure counted");
        OpsTestTree.delete(file);
        Eventually.await(Duration.ofSeconds(20), () -> scrape().value("dra_files", Map.of("state", "failed")),
                v -> v == 0.0, "failed file gone");
    }

    @Test
    void violationsOfServedObjectsAreCountedPerDriver() {
        String file = "resourceclaims/invalid/gpu/bad.example.com-metadata.json";
        // Decodes, but breaks the upstream rules: a device name that is not a DNS label.
        OpsTestTree.write(file, DeviceMetadataJson.forClaim("invalid").driver("bad.example.com").device("Not_A_Label").json());
        Eventually.await(Duration.ofSeconds(20),
                () -> scrape().value("dra_validation_violations", Map.of("driver", "bad.example.com")),
                v -> v != null && v >= 1, "violation counted");
        OpsTestTree.delete(file);
        Eventually.await(Duration.ofSeconds(20),
                () -> scrape().value("dra_validation_violations", Map.of("driver", "bad.example.com")),
                v -> v == null, "series of a vanished driver removed");
    }

    @Test
    void httpServerMetricsUseTheUriTemplateAndLeaveManagementPathsOut() {
        given().get("/claims/gpu-claim/gpu").then().statusCode(200);
        given().get("/claims/net-claim/nic").then().statusCode(200);
        given().get(live).then().statusCode(200);
        PrometheusText text = scrape();
        List<PrometheusText.Sample> requests = text.find("http_server_requests_seconds_count", Map.of());
        assertTrue(requests.stream().anyMatch(s -> "/claims/{claim}/{request}".equals(s.labels().get("uri"))
                && s.value() >= 2), "templated: " + requests);
        assertTrue(requests.stream().noneMatch(s -> s.labels().get("uri").contains("gpu-claim")),
                "no raw paths: " + requests);
        assertTrue(requests.stream().noneMatch(s -> s.labels().get("uri").startsWith("/q")),
                "probes and scrapes are not counted: " + requests);
    }
}
