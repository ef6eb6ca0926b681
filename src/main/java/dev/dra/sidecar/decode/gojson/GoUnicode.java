package dev.dra.sidecar.decode.gojson;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The Unicode tables of the Go toolchain the upstream reader is built with (Unicode 15.0 for Go 1.26), used
 * wherever the sidecar must see characters as Go does rather than as the JDK it runs on (whose Unicode
 * version differs, in either direction):
 *
 * <ul>
 *   <li>{@link #isPrint}: {@code strconv.IsPrint}, what {@code %q} leaves unescaped ({@link #quote});
 *   <li>{@link #foldRune}: {@code encoding/json}'s folding of object keys (the smallest code point of each
 *       {@code unicode.SimpleFold} orbit), by which {@code json.Unmarshal} matches a key to a field: the
 *       Kelvin sign folds to {@code K} and the long s to {@code S}, while the dotted and dotless I fold to
 *       nothing but themselves.
 * </ul>
 *
 * The tables are the resource {@value #TABLES}, printed by {@code src/test/go/oracle/cmd/unicodetables};
 * a test regenerates it with the pinned Go toolchain and compares.
 */
public final class GoUnicode {

    static final String TABLES = "go-unicode-tables.txt";

    /** Printable ranges: {@code PRINT[2i]..PRINT[2i+1]}, inclusive, ascending. */
    private static final int[] PRINT;
    /** Code points that fold to another ({@code FOLD_TO[i]}), ascending. */
    private static final int[] FOLD_FROM;
    private static final int[] FOLD_TO;

    static {
        int[] print = new int[2048];
        int[] from = new int[2048];
        int[] to = new int[2048];
        int p = 0;
        int f = 0;
        try (InputStream in = GoUnicode.class.getResourceAsStream(TABLES)) {
            if (in == null) {
                throw new IllegalStateException("resource " + TABLES + " is missing");
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line; (line = lines.readLine()) != null; ) {
                String[] w = line.split(" ");
                if (w[0].equals("print")) {
                    print = ensure(print, p + 2);
                    print[p++] = Integer.parseInt(w[1], 16);
                    print[p++] = Integer.parseInt(w[2], 16);
                } else if (w[0].equals("fold")) {
                    from = ensure(from, f + 1);
                    to = ensure(to, f + 1);
                    from[f] = Integer.parseInt(w[1], 16);
                    to[f++] = Integer.parseInt(w[2], 16);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        PRINT = Arrays.copyOf(print, p);
        FOLD_FROM = Arrays.copyOf(from, f);
        FOLD_TO = Arrays.copyOf(to, f);
    }

    private GoUnicode() {}

    private static int[] ensure(int[] a, int size) {
        return size <= a.length ? a : Arrays.copyOf(a, 2 * a.length);
    }

    /** Go's {@code strconv.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    public static boolean isPrint(int codePoint) {
        int lo = 0;
        int hi = PRINT.length / 2 - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (codePoint < PRINT[2 * mid]) {
                hi = mid - 1;
            } else if (codePoint > PRINT[2 * mid + 1]) {
                lo = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    /**
     * Go's {@code %q} of a string ({@code strconv.Quote}): escapes for quotes, backslashes and what Go's tables
     * hold unprintable ({@link #isPrint}), whatever the JDK's Unicode version.
     */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        s.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case 0x07 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 0x0B -> out.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7F) {
                        out.append(String.format("\\x%02x", c));
                    } else if (isPrint(c)) {
                        out.appendCodePoint(c);
                    } else {
                        out.append(c > 0xFFFF ? String.format("\\U%08x", c) : String.format("\\u%04x", c));
                    }
                }
            }
        });
        return out.append('"').toString();
    }

    /** {@code encoding/json}'s {@code foldRune}: the smallest code point that {@code codePoint} case-folds with. */
    public static int foldRune(int codePoint) {
        int i = Arrays.binarySearch(FOLD_FROM, codePoint);
        return i >= 0 ? FOLD_TO[i] : codePoint;
    }

    /** Whether {@code json.Unmarshal} matches the object key {@code key} to the struct field named {@code field}. */
    public static boolean keyMatches(String key, String field) {
        int i = 0;
        int j = 0;
        while (i < key.length() && j < field.length()) {
            int a = key.codePointAt(i);
            int b = field.codePointAt(j);
            if (foldRune(a) != foldRune(b)) {
                return false;
            }
            i += Character.charCount(a);
            j += Character.charCount(b);
        }
        return i == key.length() && j == field.length();
    }
}
