package dev.dra.sidecar.decode;

import com.fasterxml.jackson.databind.JsonMappingException;
import dev.dra.sidecar.decode.gojson.GoText;

/** Words for a parser or binding failure that has no Go wording: no Java class names, a few hundred characters. */
final class ParseErrorText {

    private ParseErrorText() {}

    /** One line a user can act on: the field path (for binding errors) and what was wrong, with no Java class names. */
    static String describe(Exception e) {
        String message;
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            message = fieldPath(mapping) + ": " + firstLine(mapping.getOriginalMessage());
        } else if (e instanceof com.fasterxml.jackson.core.JsonProcessingException processing) {
            var location = processing.getLocation();
            message = firstLine(processing.getOriginalMessage())
                    + (location == null ? "" : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")");
        } else {
            message = firstLine(e.getMessage());
        }
        message = GoText.clip(message, 4 * MetadataDecodeException.MAX_MESSAGE);
        message = message.replaceAll("`[a-zA-Z0-9_.$]+\\.([A-Za-z0-9_$]+)`", "$1");
        // a message may quote a value of a megabyte; a detail line needs a few hundred characters
        return GoText.clip(message, MetadataDecodeException.MAX_MESSAGE);
    }

    private static String fieldPath(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
