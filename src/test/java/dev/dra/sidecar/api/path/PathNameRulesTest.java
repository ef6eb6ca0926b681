package dev.dra.sidecar.api.path;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dra.sidecar.api.problem.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The rules the OpenAPI document states for path names ({@link PathNames.Parameter}: pattern and length) accept
 * exactly the names the checks accept, so that a client generated from the document, or a fuzzer, never sends a
 * name the document allows and the API refuses.
 */
class PathNameRulesTest {

    private static final List<String> EDGES = List.of("a", "A", "0", "-", "a-", "-a", "a.b", "a..b", ".a", "a.", "A.b",
            "gpu.example.com", "GPU.Example.COM", "a_b", "a/b", "a b", "\u00e9", "\u212a", "\u0130", "\u0000", "\u001f",
            "\u007f", "\u0085", "\u009f", "\u00a0", "\ud83d\ude00", "", "x".repeat(63), "x".repeat(64), "x".repeat(253),
            "x".repeat(254), "\ud83d\ude00".repeat(300), "y".repeat(512), "y".repeat(513));

    @Test
    void theStatedRulesAreTheChecks() {
        List<String> names = new ArrayList<>(EDGES);
        Random random = new Random(42);
        String alphabet = "aZ09-._/ \u00e9\u0000\u0085";
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = random.nextInt(8); n > 0; n--) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            names.add(sb.toString());
        }
        for (String name : names) {
            assertSame(PathNames.Parameter.CLAIM, PathNames::isClaim, name);
            assertSame(PathNames.Parameter.REQUEST, PathNames::isRequest, name);
            assertSame(PathNames.Parameter.DRIVER, PathNames::isDriver, name);
            assertSame(PathNames.Parameter.DEVICE, n -> accepts(() -> PathNames.lookupKey("device", n)), name);
            assertSame(PathNames.Parameter.ATTRIBUTE, n -> accepts(() -> PathNames.lookupKey("attribute", n)), name);
        }
    }

    private static void assertSame(PathNames.Parameter rule, Predicate<String> check, String name) {
        boolean stated = name.codePointCount(0, name.length()) >= 1 && name.codePointCount(0, name.length()) <= rule.maxLength
                && Pattern.compile(rule.pattern.replaceAll("\\$$", "\\\\z")).matcher(name).find(); // ECMA's $ is Java's \z
        assertEquals(stated, check.test(name), () -> rule + " on " + name.codePoints().mapToObj(Integer::toHexString).toList());
    }

    private static boolean accepts(Runnable check) {
        try {
            check.run();
            return true;
        } catch (ApiException e) {
            return false;
        }
    }
}
