package dev.dra.sidecar.decode;

import dev.dra.sidecar.decode.gojson.GoUnicode;
import dev.dra.sidecar.model.DeviceMetadata;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Streams for the differential test aimed at the characters where Go and the JDK disagree: object keys and
 * names with code points that case-fold with ASCII letters (or look as if they do), kinds quoted by {@code %q}
 * with code points whose printability differs between Go's Unicode tables and this JDK's, quotes and lists
 * of versions whose 500-character cut falls on a surrogate pair, and pool names of many slashes.
 */
final class UnicodeCases {

    /** Fold with an ASCII letter in Go (the Kelvin sign, the long s), or look like one and fold with none. */
    private static final String[] LOOKALIKES = {"\u212A", "\u017F", "\u0131", "\u0130", "\u0456", "\uFF49", "\u212B",
        "\u1E9E", "\u00DF", "\u0399", "\u03B9", "\u1FBE", "\u0345"};
    private static final String[] KEYS = {"apiVersion", "kind"};
    private static final String KNOWN = DeviceMetadata.V1BETA1;

    private final Random random;
    /** Code points printable to exactly one of Go's tables and this JDK's {@link Character#getType}. */
    private final int[] disputed;

    UnicodeCases(Random random) {
        this.random = random;
        List<Integer> differ = new ArrayList<>();
        for (int c = 0x80; c <= Character.MAX_CODE_POINT; c++) {
            if (!Character.isSurrogate((char) c) && GoUnicode.isPrint(c) != jdkPrintable(c)) {
                differ.add(c);
            }
        }
        this.disputed = differ.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean jdkPrintable(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.SURROGATE, Character.UNASSIGNED,
                    Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }

    byte[] next() {
        String stream = switch (random.nextInt(6)) {
            case 0 -> foldedKeys();
            case 1 -> names();
            case 2 -> quotedKind();
            case 3 -> cutQuote();
            case 4 -> versionList();
            default -> slashes();
        };
        return stream.getBytes(StandardCharsets.UTF_8);
    }

    /** apiVersion and kind with letters replaced by look-alikes, escaped or not, sometimes also written plainly. */
    private String foldedKeys() {
        StringBuilder out = new StringBuilder("{");
        int members = 1 + random.nextInt(4);
        for (int m = 0; m < members; m++) {
            String key = KEYS[random.nextInt(2)];
            String value = key.equals("kind") ? pick("DeviceMetadata", "DeviceMetadata", "X")
                    : pick(KNOWN, DeviceMetadata.V1ALPHA1, "metadata.resource.k8s.io/v9");
            out.append(m == 0 ? "" : ",").append('"').append(random.nextBoolean() ? key : lookalike(key)).append("\":\"")
                    .append(value).append('"');
        }
        if (random.nextBoolean()) {
            out.append(",\"requests\":[{\"name\":\"r\",\"devices\":[{\"driver\":\"d\",\"pool\":\"p\",\"name\":\"n\"}]}]");
        }
        return out.append('}').toString() + (random.nextBoolean() ? "\n{\"apiVersion\":\"" + KNOWN + "\",\"kind\":\"DeviceMetadata\"}" : "");
    }

    private String lookalike(String key) {
        StringBuilder out = new StringBuilder();
        for (char c : key.toCharArray()) {
            String swapped = random.nextInt(3) == 0 ? LOOKALIKES[random.nextInt(LOOKALIKES.length)]
                    : random.nextInt(4) == 0 ? String.valueOf(Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c))
                    : String.valueOf(c);
            out.append(random.nextInt(4) == 0 ? escape(swapped) : swapped);
        }
        return out.toString();
    }

    /** A device whose driver, pool and name have look-alike letters. */
    private String names() {
        return "{\"apiVersion\":\"" + KNOWN + "\",\"kind\":\"DeviceMetadata\",\"requests\":[{\"name\":\"r\",\"devices\":[{"
                + "\"driver\":\"" + name("gpu.example.com") + "\",\"pool\":\"" + name("pool-0/sub") + "\",\"name\":\""
                + name("gpu-0") + "\"}]}]}";
    }

    private String name(String base) {
        StringBuilder out = new StringBuilder();
        for (char c : base.toCharArray()) {
            out.append(random.nextInt(4) == 0 && Character.isLetter(c) ? pick("\u212A", "\u017F", "\u0131", "\u0130",
                    String.valueOf(Character.toUpperCase(c)), "\u0456") : String.valueOf(c));
        }
        return out.toString();
    }

    /** A kind of a known version, unregistered, quoted by %q: code points Go and this JDK see differently. */
    private String quotedKind() {
        StringBuilder kind = new StringBuilder();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            int c = disputed.length > 0 && random.nextBoolean() ? disputed[random.nextInt(disputed.length)]
                    : random.nextInt(Character.MAX_CODE_POINT + 1);
            if (Character.isSurrogate((char) c) && c <= 0xFFFF) {
                c = 0x1F6DC;
            }
            kind.appendCodePoint(c);
        }
        return "{\"apiVersion\":\"" + KNOWN + "\",\"kind\":\"" + escape(kind.toString()) + "\"}";
    }

    /** A quote from the file cut at 500 characters, with supplementary characters around the cut. */
    private String cutQuote() {
        String pad = "x".repeat(380 + random.nextInt(60));
        String tail = "\uD83D\uDE00".repeat(1 + random.nextInt(80));
        return switch (random.nextInt(3)) {
            case 0 -> "{\"apiVersion\":\"" + KNOWN + "\",\"kind\":\"" + pad + tail + "\"}";
            case 1 -> "{\"apiVersion\":\"g/v1\",\"x\":\"" + pad + tail + "\"}";
            default -> "{\"apiVersion\":\"a/b/" + pad + tail + "\",\"kind\":\"K\"}";
        };
    }

    /** Unknown versions, sometimes with supplementary characters, as many as take the list around the cut. */
    private String versionList() {
        StringBuilder out = new StringBuilder();
        int n = 20 + random.nextInt(80);
        for (int i = 0; i < n; i++) {
            out.append("{\"apiVersion\":\"g/v").append(i).append(random.nextInt(3) == 0 ? "\uD83D\uDE00" : "")
                    .append("\",\"kind\":\"K\"}\n");
        }
        return out.toString();
    }

    /** A pool of hundreds to a few thousand segments, empty or not. */
    private String slashes() {
        String segment = pick("", "", "a", "A", "-");
        StringBuilder pool = new StringBuilder();
        int n = 100 + random.nextInt(2000);
        for (int i = 0; i < n; i++) {
            pool.append(i == 0 ? "" : "/").append(segment);
        }
        return "{\"apiVersion\":\"" + KNOWN + "\",\"kind\":\"DeviceMetadata\",\"requests\":[{\"name\":\"r\",\"devices\":[{"
                + "\"driver\":\"d\",\"pool\":\"" + pool + "\",\"name\":\"n\"}]}]}";
    }

    /** Some code points as JSON escapes, the rest as they are (quotes and backslashes always escaped). */
    private String escape(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints().forEach(c -> {
            if (c == '"' || c == '\\' || c < 0x20 || random.nextInt(3) == 0) {
                for (char unit : Character.toChars(c)) {
                    out.append(String.format("\\u%04x", (int) unit));
                }
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }
}
