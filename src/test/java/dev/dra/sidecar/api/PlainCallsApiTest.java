package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.testsupport.MetadataFiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The plain calls through the real server: an attribute across devices, the pod's device list, the environment route. */
@QuarkusTest
@TestProfile(PlainCallsTree.class)
class PlainCallsApiTest {

    private static final String PROBLEM = "application/problem+json";
    private static final String UUIDS = "/claims/gpu-claim/gpu/attributes/uuid";

    @Test
    void listsTheAttributeOfEveryDeviceInServingOrderWithAGapForADeviceWithoutIt() {
        given().get(UUIDS).then().statusCode(200).contentType("application/json")
                .header("ETag", startsWith("\""))
                .header("Metadata-Source-Version", containsString("v1beta1"))
                .body("attribute", equalTo("uuid"))
                .body("devices.name", contains("gpu-0", "gpu-1", "rdma-0"))
                .body("devices.driver", contains("gpu.example.com", "gpu.example.com", "nic.example.com"))
                .body("devices.pool", contains("p", "p", "p"))
                .body("devices[0].value.string", equalTo("GPU-aaaa"))
                .body("devices[1].value.string", equalTo("GPU-bbbb"))
                .body("devices[2]", not(hasKey("value")));
        given().accept("text/plain").get(UUIDS).then().statusCode(200).contentType("text/plain;charset=UTF-8")
                .body(equalTo("GPU-aaaa\nGPU-bbbb\n\n"));
        given().accept("text/plain").queryParam("driver", "gpu.example.com").get(UUIDS).then().statusCode(200)
                .body(equalTo("GPU-aaaa\nGPU-bbbb\n"));
        given().accept("text/plain").get("/claims/gpu-claim/gpu/attributes/resource.kubernetes.io/pciBusID").then()
                .statusCode(200).body(equalTo("0000:3b:00.0\n0000:86:00.0\n\n"));
        given().accept("text/plain").get("/claims/gpu-claim/gpu/attributes/cores").then().statusCode(200)
                .body(equalTo("1\n2\n3\n\n"));
        given().accept("text/plain").get("/template-claims/my-gpu/gpu/attributes/uuid").then().statusCode(200)
                .body(equalTo("GPU-cccc\n"));
        given().accept("text/plain").get("/claims/gpu-claim/gpu/attributes/nothing").then().statusCode(200)
                .body(equalTo("\n\n\n"));
    }

    @Test
    void newRoutesAnswerHeadNotModifiedTheHostCheckAndNames() {
        for (String path : List.of(UUIDS, "/claims/gpu-claim/gpu/env", "/devices", "/devices/attributes/uuid",
                "/template-claims/my-gpu/gpu/env", "/template-claims/my-gpu/gpu/attributes/uuid")) {
            String etag = given().get(path).then().statusCode(200).extract().header("ETag");
            assertEquals(etag, given().get(path).header("ETag"), "the same bytes, the same ETag: " + path);
            given().header("If-None-Match", etag).get(path).then().statusCode(304).header("ETag", etag);
            given().head(path).then().statusCode(200).header("ETag", etag);
            given().header("Host", "attacker.example").get(path).then().statusCode(400).contentType(PROBLEM)
                    .body("code", equalTo("invalid-host"));
            given().post(path).then().statusCode(405).body("code", equalTo("method-not-allowed"));
            given().queryParam("waitForChange", "maybe").get(path).then().statusCode(400)
                    .body("code", equalTo("invalid-parameter"));
        }
        given().get("/claims/no-such/gpu/attributes/uuid").then().statusCode(404).body("code", equalTo("not-found"));
        given().get("/claims/gpu-claim/nope/env").then().statusCode(404).body("code", equalTo("not-found"));
        given().get("/claims/Bad_Name/gpu/env").then().statusCode(400).body("code", equalTo("invalid-name"));
        given().urlEncodingEnabled(false).get("/claims/gpu-claim/gpu/attributes/a%01b").then().statusCode(400).body("code", equalTo("invalid-name"));
        given().accept("application/json").get("/claims/gpu-claim/gpu/env").then().statusCode(406)
                .body("code", equalTo("not-acceptable"));
    }

    @Test
    void listsEveryDeviceOfThePodAndFiltersThem() {
        given().get("/claims").then().statusCode(200).body("devices", equalTo("/devices"));
        given().get("/template-claims").then().statusCode(200).body("devices", equalTo("/devices"));
        given().get("/devices").then().statusCode(200).contentType("application/json")
                .body("devices.name", contains("gpu-0", "gpu-0", "gpu-1", "rdma-0", "evil-0", "gpu-0", "gpu-0", "gpu-0", "gpu-0"))
                .body("devices.claim", contains("changing", "gpu-claim", "gpu-claim", "gpu-claim", "hostile", "nul",
                        "twins", "twins", "my-gpu"))
                .body("devices.kind", contains("claims", "claims", "claims", "claims", "claims", "claims", "claims",
                        "claims", "template-claims"))
                .body("devices.request", contains("gpu", "gpu", "gpu", "gpu", "gpu", "gpu", "gpu", "gpu", "gpu"))
                .body("devices[1].attributes.uuid.string", equalTo("GPU-aaaa"))
                .body("devices[1].attributes.cores.ints", contains(1, 2))
                .body("devices[3].networkData.interfaceName", equalTo("eth1"))
                .body("devices[3].networkData.ips", contains("192.0.2.10/24", "2001:db8::a/64"));
        given().queryParam("attribute", "numaNode=0").get("/devices").then().statusCode(200)
                .body("devices.name", contains("gpu-0", "rdma-0", "gpu-0"))
                .body("devices.claim", contains("gpu-claim", "gpu-claim", "my-gpu"));
        given().queryParam("attribute", "numaNode=0").queryParam("driver", "gpu.example.com").get("/devices").then()
                .statusCode(200).body("devices.claim", contains("gpu-claim", "my-gpu"));
        given().queryParam("attribute", "cores=2").queryParam("attribute", "numaNode=0").get("/devices").then()
                .statusCode(200).body("devices.name", contains("gpu-0")).body("devices.claim", contains("gpu-claim"));
        given().queryParam("kind", "template-claims").get("/devices").then().statusCode(200)
                .body("devices.claim", contains("my-gpu"));
        given().queryParam("claim", "twins").queryParam("pool", "p").get("/devices").then().statusCode(200)
                .body("devices.driver", contains("a.example.com", "b.example.com"));
        given().queryParam("claim", "gpu-claim").queryParam("request", "other").get("/devices").then().statusCode(200)
                .body("devices", equalTo(List.of()));
        given().accept("text/plain").queryParam("attribute", "numaNode=0").get("/devices/attributes/uuid").then()
                .statusCode(200).body(equalTo("GPU-aaaa\n\nGPU-cccc\n"));
        given().queryParam("claim", "gpu-claim").get("/devices/attributes/uuid").then().statusCode(200)
                .body("devices.kind", contains("claims", "claims", "claims"))
                .body("devices.claim", contains("gpu-claim", "gpu-claim", "gpu-claim"))
                .body("devices.request", contains("gpu", "gpu", "gpu"))
                .body("devices[0].value.string", equalTo("GPU-aaaa"))
                .body("devices[2]", not(hasKey("value")));
    }

    @Test
    void refusesBadFiltersWithAProblem() {
        for (Map<String, String> query : List.of(Map.of("kind", "pods"), Map.of("attribute", "numaNode"),
                Map.of("attribute", "=0"), Map.of("attribute", "a\u0001=0"))) {
            given().queryParams(query).get("/devices").then().statusCode(400).contentType(PROBLEM)
                    .body("code", equalTo("invalid-parameter"));
        }
        given().queryParam("claim", "a").queryParam("claim", "b").get("/devices").then().statusCode(400)
                .body("code", equalTo("invalid-parameter")).body("detail", containsString("claim is given 2 times"));
    }

    @Test
    void envNamesEveryAttributeAndNetworkFieldByTheDocumentedRule() {
        given().get("/claims/gpu-claim/gpu/env").then().statusCode(200).contentType("text/plain;charset=UTF-8")
                .body(equalTo("""
                        export DRA_GPU_CLAIM_GPU_GPU_0_CORES='1,2'
                        export DRA_GPU_CLAIM_GPU_GPU_0_NUMANODE='0'
                        export DRA_GPU_CLAIM_GPU_GPU_0_RESOURCE_KUBERNETES_IO_PCIBUSID='0000:3b:00.0'
                        export DRA_GPU_CLAIM_GPU_GPU_0_UUID='GPU-aaaa'
                        export DRA_GPU_CLAIM_GPU_GPU_1_CORES='3'
                        export DRA_GPU_CLAIM_GPU_GPU_1_NUMANODE='1'
                        export DRA_GPU_CLAIM_GPU_GPU_1_RESOURCE_KUBERNETES_IO_PCIBUSID='0000:86:00.0'
                        export DRA_GPU_CLAIM_GPU_GPU_1_UUID='GPU-bbbb'
                        export DRA_GPU_CLAIM_GPU_RDMA_0_NUMANODE='0'
                        export DRA_GPU_CLAIM_GPU_RDMA_0_NETWORKDATA_INTERFACENAME='eth1'
                        export DRA_GPU_CLAIM_GPU_RDMA_0_NETWORKDATA_IPS='192.0.2.10/24,2001:db8::a/64'
                        export DRA_GPU_CLAIM_GPU_RDMA_0_NETWORKDATA_HARDWAREADDRESS='02:00:00:00:00:01'
                        """));
        given().queryParam("driver", "nic.example.com").get("/claims/gpu-claim/gpu/env").then().statusCode(200)
                .body(startsWith("export DRA_GPU_CLAIM_GPU_RDMA_0_NUMANODE='0'\n"));
        given().get("/template-claims/my-gpu/gpu/env").then().statusCode(200)
                .body(equalTo("export DRA_MY_GPU_GPU_GPU_0_NUMANODE='0'\nexport DRA_MY_GPU_GPU_GPU_0_UUID='GPU-cccc'\n"));
    }

    @Test
    void envRefusesCollidingNamesAndValuesNoShellCanHold() {
        given().get("/claims/twins/gpu/env").then().statusCode(409).contentType(PROBLEM)
                .body("code", equalTo("env-name-collision"))
                .body("detail", containsString("DRA_TWINS_GPU_GPU_0_MODEL"))
                .body("detail", containsString("a.example.com"))
                .body("detail", containsString("b.example.com"));
        given().queryParam("driver", "b.example.com").get("/claims/twins/gpu/env").then().statusCode(200)
                .body(equalTo("export DRA_TWINS_GPU_GPU_0_MODEL='B'\n"));
        given().get("/claims/nul/gpu/env").then().statusCode(409).body("code", equalTo("env-value-unrepresentable"));
    }

    @Test
    void aLongPollOnTheAttributeAcrossDevicesAnswersOnTheChange() throws Exception {
        String path = "/claims/changing/gpu/attributes/uuid";
        String etag = given().accept("text/plain").get(path).then().statusCode(200).body(equalTo("GPU-0\n"))
                .extract().header("ETag");
        CompletableFuture<io.restassured.response.Response> poll = CompletableFuture.supplyAsync(() -> given()
                .accept("text/plain").queryParam("waitForChange", "true").queryParam("lastEtag", etag)
                .queryParam("timeoutSeconds", "60").get(path));
        ObjectMapper json = new ObjectMapper();
        PlainCallsTree.waitUntilWaiting();
        MetadataFiles.rewriteInPlace(PlainCallsTree.file(ClaimKind.CLAIM, "changing", "gpu.example.com"),
                json.writeValueAsBytes(PlainCallsTree.object(json, "changing",
                        PlainCallsTree.device(json, "gpu.example.com", "gpu-0", Map.of("uuid", PlainCallsTree.str("GPU-1"))))));
        io.restassured.response.Response answer = poll.get(60, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode());
        assertEquals("GPU-1\n", answer.asString());
        assertNotEquals(etag, answer.header("ETag"));
        assertTrue(answer.header("ETag").startsWith("\""));
    }
}
