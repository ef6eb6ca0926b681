package dev.dra.sidecar.api.path;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A JAX-RS path template below a prefix, such as {@code {claim}/{request}/attributes/{attribute: .+}}, as data: its
 * URI template as OpenAPI and the metrics write it, and the parameters it takes from a request path. A parameter with
 * a regular expression takes the rest of the path.
 *
 * @param segments the template's segments, split at '/'; none for the prefix itself
 */
record PathTemplate(List<String> segments) {

    /** The template of {@code jaxRsPath}, as a {@code @Path} below the prefix writes it; {@code ""} is the prefix. */
    static PathTemplate of(String jaxRsPath) {
        return new PathTemplate(jaxRsPath.isEmpty() ? List.of() : List.of(jaxRsPath.split("/")));
    }

    /** The URI template below {@code prefix}: {@code /claims/{claim}/{request}/attributes/{attribute}}. */
    String below(String prefix) {
        StringBuilder template = new StringBuilder(prefix);
        for (String segment : segments) {
            template.append('/').append(isParameter(segment) ? "{" + parameter(segment) + "}" : segment);
        }
        return template.toString();
    }

    /**
     * The parameters a request path, split at '/', gives this template from its segment {@code from} on, in path
     * order and as they are (not decoded); empty when the path does not match.
     */
    Optional<List<String>> parameters(String[] path, int from) {
        List<String> values = new ArrayList<>();
        int i = from;
        for (String segment : segments) {
            if (i >= path.length || path[i].isEmpty()) {
                return Optional.empty();
            }
            if (!isParameter(segment)) {
                if (!segment.equals(path[i])) {
                    return Optional.empty();
                }
            } else if (segment.contains(":")) { // takes the rest of the path
                values.add(String.join("/", Arrays.copyOfRange(path, i, path.length)));
                return Optional.of(values);
            } else {
                values.add(path[i]);
            }
            i++;
        }
        return i == path.length ? Optional.of(values) : Optional.empty();
    }

    private static boolean isParameter(String segment) {
        return segment.startsWith("{");
    }

    private static String parameter(String segment) {
        int end = segment.indexOf(':');
        return segment.substring(1, end < 0 ? segment.length() - 1 : end).trim();
    }
}
