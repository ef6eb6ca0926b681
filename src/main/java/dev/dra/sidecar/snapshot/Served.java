package dev.dra.sidecar.snapshot;

import dev.dra.sidecar.decode.FailureCode;
import java.lang.ref.SoftReference;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Supplier;

/** What a resource answers: ready bytes, or a coded failure. */
public sealed interface Served permits Served.Available, Served.Unavailable {

    /**
     * A representation to write: either encoded once and held ({@link #Available(byte[], String, String, String)}),
     * or encoded when asked for ({@link #onDemand}) from the immutable objects it was built from, so that what is
     * held follows from the decoded files and not from every representation of them. Both give the same bytes and
     * the same strong ETag for the same content.
     */
    final class Available implements Served {

        private final byte[] body;
        private final String etag;
        private final Supplier<byte[]> encoder;
        private final String sourceVersions;
        private final String staleReason;
        private final String sources;
        /** The last encoding of an on-demand body, until memory is needed: an ETag check and a write encode once. */
        private volatile SoftReference<Encoded> recent;

        private record Encoded(byte[] body, String etag) {}

        /**
         * @param body the encoded JSON
         * @param etag strong ETag of {@code body}, quoted
         * @param sourceVersions the apiVersion(s) decoded, comma-separated in file order; {@code null} for bodies
         *     that are not DeviceMetadata (indexes, attribute values)
         * @param staleReason non-null when the latest read of a settled file failed and its last good object is
         *     served instead
         */
        public Available(byte[] body, String etag, String sourceVersions, String staleReason) {
            this(body, etag, sourceVersions, staleReason, null);
        }

        /**
         * {@link #Available(byte[], String, String, String)} of metadata, with where it comes from.
         *
         * @param sources the {@link MetadataSource} labels of what it is made of, comma-separated in merge order
         */
        public Available(byte[] body, String etag, String sourceVersions, String staleReason, String sources) {
            this.body = body;
            this.etag = etag;
            this.encoder = null;
            this.sourceVersions = sourceVersions;
            this.staleReason = staleReason;
            this.sources = sources;
        }

        private Available(Supplier<byte[]> encoder, String sourceVersions, String staleReason, String sources) {
            this.body = null;
            this.etag = null;
            this.encoder = encoder;
            this.sourceVersions = sourceVersions;
            this.staleReason = staleReason;
            this.sources = sources;
        }

        /** A representation encoded by {@code encoder} each time it is asked for (it must give the same bytes). */
        public static Available onDemand(Supplier<byte[]> encoder, String sourceVersions, String staleReason) {
            return new Available(encoder, sourceVersions, staleReason, null);
        }

        /**
         * {@link #onDemand(Supplier, String, String)} of metadata, with where it comes from.
         *
         * @param sources the {@link MetadataSource} labels of what it is made of, comma-separated in merge order
         */
        public static Available onDemand(Supplier<byte[]> encoder, String sourceVersions, String staleReason,
                String sources) {
            return new Available(encoder, sourceVersions, staleReason, sources);
        }

        /** The bytes to write. */
        public byte[] body() {
            return body != null ? body : encoded().body();
        }

        /** Strong ETag of {@link #body()}, quoted. */
        public String etag() {
            return etag != null ? etag : encoded().etag();
        }

        public String sourceVersions() {
            return sourceVersions;
        }

        public String staleReason() {
            return staleReason;
        }

        /**
         * Where the metadata served comes from: the {@link MetadataSource} labels, comma-separated in merge order
         * ({@code file}, {@code resource-api}, {@code file, resource-api}); {@code null} for bodies that are not
         * metadata (indexes, reports).
         */
        public String sources() {
            return sources;
        }

        private Encoded encoded() {
            SoftReference<Encoded> ref = recent;
            Encoded encoded = ref == null ? null : ref.get();
            if (encoded == null) {
                byte[] bytes = encoder.get();
                encoded = new Encoded(bytes, etagOf(bytes));
                recent = new SoftReference<>(encoded);
            }
            return encoded;
        }

        /** A strong ETag: 128 bits of SHA-256 of the bytes served. */
        public static String etagOf(byte[] body) {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
                return '"' + HexFormat.of().formatHex(digest, 0, 16) + '"';
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is in every JDK", e);
            }
        }
    }

    /**
     * @param detail what failed, naming the file
     */
    record Unavailable(FailureCode code, String detail) implements Served {}
}
