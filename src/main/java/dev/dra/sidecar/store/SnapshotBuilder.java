package dev.dra.sidecar.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.dra.sidecar.decode.GoCompatibleJson;
import dev.dra.sidecar.decode.MetadataValidator;
import dev.dra.sidecar.decode.RequestMerger;
import dev.dra.sidecar.model.ClaimIndex;
import dev.dra.sidecar.model.ClaimView;
import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.ClaimSet;
import dev.dra.sidecar.snapshot.DeviceEntry;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.RequestValidation;
import dev.dra.sidecar.snapshot.Served;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Builds an immutable snapshot from the tracked files, encoding every representation once so that serving
 * is a lookup. All bodies are compact JSON with map keys sorted (as Go writes them) and a trailing newline.
 */
final class SnapshotBuilder {

    private static final ObjectWriter WRITER = GoCompatibleJson.mapper().writer();

    private SnapshotBuilder() {}

    static MetadataSnapshot build(long sequence, Collection<TrackedFile> files) {
        Map<ClaimKind, SortedMap<String, SortedMap<String, List<TrackedFile>>>> tree = new EnumMap<>(ClaimKind.class);
        for (ClaimKind kind : ClaimKind.values()) {
            tree.put(kind, new TreeMap<>());
        }
        for (TrackedFile file : files) {
            if (!file.wasRead()) {
                // Found by the walk a vanished file triggered, after this cycle's reads: served from its first read.
                continue;
            }
            MetadataFileRef ref = file.ref;
            tree.get(ref.kind()).computeIfAbsent(ref.claim(), c -> new TreeMap<>())
                    .computeIfAbsent(ref.request(), r -> new ArrayList<>()).add(file);
        }
        Map<ClaimKind, ClaimSet> sets = new EnumMap<>(ClaimKind.class);
        tree.forEach((kind, claims) -> sets.put(kind, claimSet(claims)));
        return new MetadataSnapshot(sequence, Collections.unmodifiableMap(sets));
    }

    private static ClaimSet claimSet(SortedMap<String, SortedMap<String, List<TrackedFile>>> claims) {
        SortedMap<String, ClaimEntry> entries = new TreeMap<>();
        claims.forEach((claim, requests) -> {
            SortedMap<String, RequestEntry> requestEntries = new TreeMap<>();
            List<BuiltRequest> built = new ArrayList<>();
            requests.forEach((request, files) -> {
                BuiltRequest b = request(request, files);
                built.add(b);
                requestEntries.put(request, b.entry());
            });
            entries.put(claim, new ClaimEntry(claim, Collections.unmodifiableSortedMap(requestEntries),
                    claimView(claim, built)));
        });
        return indexed(Collections.unmodifiableSortedMap(entries));
    }

    /** The claims of one kind with their list, {@code {"claims":[{"name":...,"requests":[...]}]}}. */
    static ClaimSet indexed(SortedMap<String, ClaimEntry> entries) {
        List<ClaimIndex.Entry> index = new ArrayList<>(entries.size());
        entries.forEach((claim, entry) -> index.add(new ClaimIndex.Entry(claim, List.copyOf(entry.requests().keySet()))));
        return new ClaimSet(entries, available(new ClaimIndex(index), null, null));
    }

    /** A request's entry and the merged object it was encoded from (absent when a file failed). */
    private record BuiltRequest(RequestEntry entry, DeviceMetadata merged) {}

    private static BuiltRequest request(String name, List<TrackedFile> files) {
        files.sort((a, b) -> RequestMerger.BYTE_ORDER.compare(a.ref.fileName(), b.ref.fileName()));
        SortedMap<String, DriverEntry> drivers = new TreeMap<>(RequestMerger.BYTE_ORDER);
        Map<String, DeviceMetadata> decoded = new LinkedHashMap<>();
        List<String> versions = new ArrayList<>();
        List<String> staleReasons = new ArrayList<>();
        Served.Unavailable firstFailure = null;
        for (TrackedFile file : files) {
            String path = file.ref.shown();
            if (file.served() instanceof TrackedFile.Failed failed) {
                Served.Unavailable failure = new Served.Unavailable(failed.code(), failed.reason());
                drivers.put(file.ref.driver(), new DriverEntry(file.ref.driver(), path, file.state(), failure, null));
                if (firstFailure == null) {
                    firstFailure = failure;
                }
                continue;
            }
            TrackedFile.Good good = file.good();
            String staleReason = file.staleReason();
            drivers.put(file.ref.driver(), new DriverEntry(file.ref.driver(), path, file.state(),
                    available(good.object().withApiVersion(DeviceMetadata.V1BETA1), good.sourceVersion(), staleReason),
                    MetadataValidator.validate(good.object())));
            decoded.put(file.ref.fileName(), good.object());
            versions.add(good.sourceVersion());
            if (staleReason != null) {
                staleReasons.add(staleReason);
            }
        }
        Served.Available validation = available(validation(name, files, drivers), null, null);
        if (firstFailure != null) {
            return new BuiltRequest(new RequestEntry(name, Collections.unmodifiableSortedMap(drivers), firstFailure,
                    List.of(), validation), null);
        }
        DeviceMetadata merged = RequestMerger.merge(decoded);
        Served.Available served = available(merged, String.join(", ", versions),
                staleReasons.isEmpty() ? null : String.join("; ", staleReasons));
        return new BuiltRequest(new RequestEntry(name, Collections.unmodifiableSortedMap(drivers), served,
                devices(merged, served), validation), merged);
    }

    /** The upstream validation of what is served for each file ({@code files} in merge order). */
    private static RequestValidation validation(String request, List<TrackedFile> files,
            Map<String, DriverEntry> drivers) {
        List<RequestValidation.DriverValidation> out = new ArrayList<>(files.size());
        boolean valid = true;
        for (TrackedFile file : files) {
            DriverEntry entry = drivers.get(file.ref.driver());
            if (entry.served() instanceof Served.Available served) {
                valid &= entry.violations().isEmpty();
                out.add(new RequestValidation.DriverValidation(entry.driver(), entry.path(), served.sourceVersions(),
                        served.staleReason(), null, entry.violations().isEmpty(), entry.violations()));
            } else if (entry.served() instanceof Served.Unavailable failure) {
                valid = false;
                out.add(new RequestValidation.DriverValidation(entry.driver(), entry.path(), null, null,
                        new RequestValidation.Failure(failure.code().code(), failure.detail()), null, null));
            }
        }
        return new RequestValidation(request, valid, List.copyOf(out));
    }

    private static List<DeviceEntry> devices(DeviceMetadata merged, Served.Available request) {
        List<DeviceEntry> out = new ArrayList<>();
        if (merged.requests() == null) {
            return out;
        }
        for (DeviceMetadataRequest entry : merged.requests()) {
            if (entry.devices() == null) {
                continue;
            }
            for (Device device : entry.devices()) {
                Map<String, AttributeValue> attributes = new LinkedHashMap<>();
                if (device.attributes() != null) {
                    device.attributes().forEach((key, value) -> attributes.put(key, attribute(value, request)));
                }
                out.add(new DeviceEntry(device.driver(), device.pool(), device.name(),
                        Collections.unmodifiableMap(attributes)));
            }
        }
        return List.copyOf(out);
    }

    private static AttributeValue attribute(DeviceAttribute value, Served.Available request) {
        DeviceAttribute present = value == null ? new DeviceAttribute(null, null, null, null, null, null, null, null) : value;
        String text = present.textLines().stream().map(line -> line + "\n").collect(Collectors.joining());
        return new AttributeValue(available(present, null, request.staleReason()),
                withEtag(text.getBytes(StandardCharsets.UTF_8), null, request.staleReason()));
    }

    private static Served claimView(String claim, List<BuiltRequest> requests) {
        List<DeviceMetadata> merged = new ArrayList<>();
        List<String> staleReasons = new ArrayList<>();
        for (BuiltRequest request : requests) {
            if (request.entry().merged() instanceof Served.Unavailable failure) {
                return failure;
            }
            merged.add(request.merged());
            String staleReason = ((Served.Available) request.entry().merged()).staleReason();
            if (staleReason != null) {
                staleReasons.add(staleReason);
            }
        }
        return available(new ClaimView(claim, merged), null,
                staleReasons.isEmpty() ? null : String.join("; ", staleReasons));
    }

    static Served.Available available(Object body, String sourceVersions, String staleReason) {
        try {
            byte[] json = WRITER.writeValueAsBytes(body);
            byte[] withNewline = new byte[json.length + 1];
            System.arraycopy(json, 0, withNewline, 0, json.length);
            withNewline[json.length] = '\n';
            return withEtag(withNewline, sourceVersions, staleReason);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("records always encode", e);
        }
    }

    private static Served.Available withEtag(byte[] body, String sourceVersions, String staleReason) {
        return new Served.Available(body, etag(body), sourceVersions, staleReason);
    }

    /** A strong ETag: 128 bits of SHA-256 of the bytes served. */
    static String etag(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            return '"' + HexFormat.of().formatHex(digest, 0, 16) + '"';
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }
}
