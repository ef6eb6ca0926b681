package dev.dra.sidecar.store.assembly;

import com.fasterxml.jackson.databind.ObjectWriter;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.decode.MetadataValidator;
import dev.dra.sidecar.decode.RequestMerger;
import dev.dra.sidecar.model.ClaimIndex;
import dev.dra.sidecar.model.ClaimView;
import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.BodyEncoding;
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
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Builds an immutable snapshot from what the sources serve, one {@link DriverInput} per driver of a request. Every
 * representation, a request's merged body too, is encoded when asked for, from the immutable objects the snapshot
 * holds anyway, and its last encoding kept until memory is needed ({@link Served.Available#onDemand}): what is held
 * per file is its decoded object, not its bodies. All bodies are encoded as {@link BodyEncoding} encodes them.
 */
public final class SnapshotBuilder {

    private static final ObjectWriter WRITER = GoCompatibleJson.mapper().writer();

    private SnapshotBuilder() {}

    /** The snapshot numbered {@code sequence} that serves {@code drivers}, in any order. */
    public static MetadataSnapshot build(long sequence, Collection<DriverInput> drivers) {
        Map<ClaimKind, SortedMap<String, SortedMap<String, List<DriverInput>>>> tree = new EnumMap<>(ClaimKind.class);
        for (ClaimKind kind : ClaimKind.values()) {
            tree.put(kind, new TreeMap<>());
        }
        for (DriverInput driver : drivers) {
            tree.get(driver.kind()).computeIfAbsent(driver.claim(), c -> new TreeMap<>())
                    .computeIfAbsent(driver.request(), r -> new ArrayList<>()).add(driver);
        }
        Map<ClaimKind, ClaimSet> sets = new EnumMap<>(ClaimKind.class);
        tree.forEach((kind, claims) -> sets.put(kind, claimSet(claims)));
        return new MetadataSnapshot(sequence, Collections.unmodifiableMap(sets));
    }

    private static ClaimSet claimSet(SortedMap<String, SortedMap<String, List<DriverInput>>> claims) {
        SortedMap<String, ClaimEntry> entries = new TreeMap<>();
        claims.forEach((claim, requests) -> {
            SortedMap<String, RequestEntry> requestEntries = new TreeMap<>();
            List<RequestEntry> built = new ArrayList<>();
            requests.forEach((request, files) -> {
                RequestEntry entry = request(request, files);
                built.add(entry);
                requestEntries.put(request, entry);
            });
            entries.put(claim, new ClaimEntry(claim, Collections.unmodifiableSortedMap(requestEntries),
                    claimView(claim, built)));
        });
        return indexed(Collections.unmodifiableSortedMap(entries));
    }

    /** The claims of one kind with their list, {@code {"claims":[{"name":...,"requests":[...]}]}}, encoded when asked. */
    static ClaimSet indexed(SortedMap<String, ClaimEntry> entries) {
        List<ClaimIndex.Entry> index = new ArrayList<>(entries.size());
        entries.forEach((claim, entry) -> index.add(new ClaimIndex.Entry(claim, List.copyOf(entry.requests().keySet()))));
        List<ClaimIndex.Entry> indexEntries = List.copyOf(index);
        return new ClaimSet(entries, BodyEncoding.onDemand(() -> new ClaimIndex(indexEntries), null, null));
    }

    private static RequestEntry request(String name, List<DriverInput> files) {
        files.sort((a, b) -> RequestMerger.BYTE_ORDER.compare(a.fileName(), b.fileName()));
        SortedMap<String, DriverEntry> drivers = new TreeMap<>(RequestMerger.BYTE_ORDER);
        Map<String, DeviceMetadata> decoded = new LinkedHashMap<>();
        List<String> versions = new ArrayList<>();
        List<String> staleReasons = new ArrayList<>();
        Served.Unavailable firstFailure = null;
        for (DriverInput file : files) {
            String path = file.path();
            if (file.failure() != null) {
                Served.Unavailable failure = file.failure();
                drivers.put(file.driver(), new DriverEntry(file.driver(), path, file.state(), failure, null));
                if (firstFailure == null) {
                    firstFailure = failure;
                }
                continue;
            }
            DeviceMetadata object = file.object();
            String staleReason = file.staleReason();
            drivers.put(file.driver(), new DriverEntry(file.driver(), path, file.state(),
                    BodyEncoding.onDemand(() -> object.withApiVersion(DeviceMetadata.V1BETA1), file.sourceVersion(),
                            staleReason),
                    MetadataValidator.validate(object)));
            decoded.put(file.fileName(), object);
            versions.add(file.sourceVersion());
            if (staleReason != null) {
                staleReasons.add(staleReason);
            }
        }
        List<DriverEntry> inFileOrder = new ArrayList<>(files.size());
        files.forEach(file -> inFileOrder.add(drivers.get(file.driver())));
        List<DriverEntry> driverList = List.copyOf(inFileOrder);
        Served.Available validation = BodyEncoding.onDemand(() -> validation(name, driverList), null, null);
        if (firstFailure != null) {
            return new RequestEntry(name, Collections.unmodifiableSortedMap(drivers), firstFailure, List.of(),
                    validation);
        }
        // The merged object is made again for each encoding rather than held: it repeats what the files hold.
        Map<String, DeviceMetadata> inputs = Map.copyOf(decoded);
        DeviceMetadata merged = RequestMerger.merge(inputs);
        Served.Available served = BodyEncoding.onDemand(() -> RequestMerger.merge(inputs),
                versions.size() == 1 ? versions.get(0) : String.join(", ", versions),
                staleReasons.isEmpty() ? null : String.join("; ", staleReasons));
        return new RequestEntry(name, Collections.unmodifiableSortedMap(drivers), served, devices(merged, served),
                validation);
    }

    /** The upstream validation of what is served for each file ({@code drivers} in merge order). */
    private static RequestValidation validation(String request, List<DriverEntry> drivers) {
        List<RequestValidation.DriverValidation> out = new ArrayList<>(drivers.size());
        boolean valid = true;
        for (DriverEntry entry : drivers) {
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
                Map<String, AttributeValue> attributes = device.attributes() == null ? Map.of()
                        : new AttributeValues(device.attributes(), request.staleReason());
                out.add(new DeviceEntry(device.driver(), device.pool(), device.name(), attributes,
                        device.networkData()));
            }
        }
        return List.copyOf(out);
    }

    /**
     * The claim's {@link ClaimView}, encoded when asked for from the merged bodies its requests hold: the same bytes
     * as encoding the view, since each merged body is that request's encoding.
     */
    private static Served claimView(String claim, List<RequestEntry> requests) {
        List<Served.Available> merged = new ArrayList<>();
        List<String> staleReasons = new ArrayList<>();
        for (RequestEntry request : requests) {
            if (request.merged() instanceof Served.Unavailable failure) {
                return failure;
            }
            Served.Available available = (Served.Available) request.merged();
            merged.add(available);
            if (available.staleReason() != null) {
                staleReasons.add(available.staleReason());
            }
        }
        List<Served.Available> bodies = List.copyOf(merged);
        return Served.Available.onDemand(() -> spliced(claim, bodies), null,
                staleReasons.isEmpty() ? null : String.join("; ", staleReasons));
    }

    private static byte[] spliced(String claim, List<Served.Available> requests) {
        try {
            var out = new java.io.ByteArrayOutputStream();
            out.write("{\"name\":".getBytes(StandardCharsets.UTF_8));
            out.write(WRITER.writeValueAsBytes(claim));
            out.write(",\"requests\":[".getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < requests.size(); i++) {
                byte[] body = requests.get(i).body();
                if (i > 0) {
                    out.write(',');
                }
                out.write(body, 0, body.length - 1); // without its newline
            }
            out.write("]}\n".getBytes(StandardCharsets.UTF_8));
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("strings always encode", e);
        }
    }
}
