package dev.dra.sidecar.api.resource;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;

/**
 * The {@code text/plain} answer that the attribute reads offer beside JSON: its media type, and whether a request asks
 * for it rather than for JSON.
 */
final class PlainText {

    /** The media type of a plain-text answer. */
    static final String MEDIA_TYPE = MediaType.TEXT_PLAIN + ";charset=UTF-8";

    private PlainText() {}

    /** Whether the request's {@code Accept} ranks {@code text/plain} above JSON; JSON is the answer otherwise. */
    static boolean preferredBy(HttpHeaders headers) {
        for (MediaType type : headers.getAcceptableMediaTypes()) {
            if (type.isCompatible(MediaType.APPLICATION_JSON_TYPE) && !type.isWildcardType()) {
                return false;
            }
            if (type.isCompatible(MediaType.TEXT_PLAIN_TYPE) && !type.isWildcardType()) {
                return true;
            }
            if (type.isWildcardType()) {
                return false;
            }
        }
        return false;
    }
}
