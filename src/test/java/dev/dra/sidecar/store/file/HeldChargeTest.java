package dev.dra.sidecar.store.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What holding a decoded object is charged: by its values and the bytes of its encoding, not by the file's size. */
class HeldChargeTest {

    private static final DeviceMetadataJson OBJECT = DeviceMetadataJson.forClaim("c");

    @Test
    void aFileOfManySmallValuesIsChargedSeveralTimesAFileOfTheSameSizeWithOneString() throws Exception {
        String dense = OBJECT.attributes(IntStream.range(0, 1000).mapToObj(i -> "\"a" + i + "\":{\"int\":" + i + "}")
                .collect(Collectors.joining(","))).json();
        String oneString = OBJECT.attributes("\"s\":{\"string\":\"" + "x".repeat(dense.length() - 200) + "\"}").json();
        assertEquals(dense.length(), oneString.length(), 100);
        long denseCharge = charge(dense);
        long stringCharge = charge(oneString);
        assertTrue(denseCharge > 3 * stringCharge, denseCharge + " vs " + stringCharge);
        // The one string: about its two copies (decoded and served), plus the fixed part and a few dozen tokens.
        assertEquals(HeldCharge.PER_BODY_BYTE * oneString.length(), stringCharge, HeldCharge.PER_FILE + 60 * HeldCharge.PER_TOKEN);
    }

    @Test
    void whitespaceAndFurtherVersionsInTheFileAreNotCharged() throws Exception {
        String compact = OBJECT.json();
        String pretty = compact.replace(",", ",\n    ").replace(":", ": ");
        String twoVersions = compact + OBJECT.apiVersion(DeviceMetadataJson.V1ALPHA1).json();
        assertEquals(charge(compact), charge(pretty));
        assertEquals(charge(compact), charge(twoVersions));
    }

    @Test
    void anObjectJacksonCannotReadBackIsChargedByItsLengthInsteadOfFailing() throws Exception {
        // Go keeps a key of fieldsV1 with a lone surrogate escape; encoded again, Jackson's parser refuses that key.
        String file = OBJECT.json().replace("\"metadata\":{", "\"metadata\":{\"managedFields\":[{\"fieldsV1\":"
                + "{\"f:la\\ud800bels\":{}}}],");
        assertTrue(file.contains("ud800"), file);
        long charge = charge(file);
        assertTrue(charge >= HeldCharge.PER_FILE + (HeldCharge.PER_BODY_BYTE + HeldCharge.PER_TOKEN) * 100, "" + charge);
    }

    private static long charge(String file) throws Exception {
        return HeldCharge.of(MetadataStreamDecoder.decode(file.getBytes(StandardCharsets.UTF_8), "test").object());
    }
}
