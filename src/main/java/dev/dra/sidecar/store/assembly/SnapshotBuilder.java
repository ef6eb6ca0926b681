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
import dev.dra.sidecar.snapshot.MetadataSource;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        entries.forEach((claim, entry) -> index.add(new ClaimIndex.Entry(claim, List.copyOf(entry.requests().keySet()),
                derivedRequests(entry))));
        List<ClaimIndex.Entry> indexEntries = List.copyOf(index);
        return new ClaimSet(entries, BodyEncoding.onDemand(() -> new ClaimIndex(indexEntries), null, null));
    }

    /** The requests of {@code claim} with a driver whose metadata comes from the resource API, sorted. */
    private static List<String> derivedRequests(ClaimEntry claim) {
        List<String> out = new ArrayList<>();
        claim.requests().forEach((name, request) -> {
            if (request.drivers().values().stream().anyMatch(d -> d.source() == MetadataSource.RESOURCE_API)) {
                out.add(name);
            }
        });
        return List.copyOf(out);
    }

    private static RequestEntry request(String name, List<DriverInput> files) {
        files.sort((a, b) -> RequestMerger.BYTE_ORDER.compare(a.fileName(), b.fileName()));
        SortedMap<String, DriverEntry> drivers = new TreeMap<>(RequestMerger.BYTE_ORDER);
        Map<String, DeviceMetadata> decoded = new LinkedHashMap<>();
        Map<String, String> sourceOfDriver = new HashMap<>();
        List<String> versions = new ArrayList<>();
        List<String> staleReasons = new ArrayList<>();
        List<MetadataSource> sources = new ArrayList<>();
        Served.Unavailable firstFailure = null;
        for (DriverInput file : files) {
            String path = file.path();
            if (file.failure() != null) {
                Served.Unavailable failure = file.failure();
                drivers.put(file.driver(), new DriverEntry(file.driver(), path, file.state(), failure, null,
                        file.source()));
                if (firstFailure == null) {
                    firstFailure = failure;
                }
                continue;
            }
            DeviceMetadata object = file.object();
            String staleReason = file.staleReason();
            boolean derived = file.source() == MetadataSource.RESOURCE_API;
            drivers.put(file.driver(), new DriverEntry(file.driver(), path, file.state(),
                    BodyEncoding.onDemand(() -> object.withApiVersion(DeviceMetadata.V1BETA1), file.sourceVersion(),
                            staleReason, file.source().label()),
                    derived ? null : MetadataValidator.validate(object), file.source()));
            decoded.put(file.fileName(), object);
            sourceOfDriver.put(file.driver(), file.source().label());
            sources.add(file.source());
            if (file.sourceVersion() != null) {
                versions.add(file.sourceVersion());
            }
            if (staleReason != null) {
                staleReasons.add(staleReason);
            }
        }
        List<DriverEntry> inFileOrder = new ArrayList<>(files.size());
        files.forEach(file -> inFileOrder.add(drivers.get(file.driver())));
        List<DriverEntry> driverList = List.copyOf(inFileOrder);
        Served.Available validation = BodyEncoding.onDemand(() -> RequestValidations.of(name, driverList), null, null);
        if (firstFailure != null) {
            return new RequestEntry(name, Collections.unmodifiableSortedMap(drivers), firstFailure, List.of(),
                    validation);
        }
        // The merged object is made again for each encoding rather than held: it repeats what the files hold.
        Map<String, DeviceMetadata> inputs = Map.copyOf(decoded);
        DeviceMetadata merged = RequestMerger.merge(inputs);
        Served.Available served = BodyEncoding.onDemand(() -> RequestMerger.merge(inputs),
                versions.isEmpty() ? null : String.join(", ", versions),
                staleReasons.isEmpty() ? null : String.join("; ", staleReasons), MetadataSource.labels(sources));
        return new RequestEntry(name, Collections.unmodifiableSortedMap(drivers), served,
                devices(merged, served, sourceOfDriver), validation);
    }

    private static List<DeviceEntry> devices(DeviceMetadata merged, Served.Available request,
            Map<String, String> sourceOfDriver) {
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
                        : new AttributeValues(device.attributes(), request.staleReason(),
                                sourceOfDriver.get(device.driver()));
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
    /**
     * {@code claim} with only those of its requests named in {@code requests}, its claim body made of them; {@code null}
     * when it has none of them.
     */
    static ClaimEntry restricted(ClaimEntry claim, Set<String> requests) {
        SortedMap<String, RequestEntry> kept = new TreeMap<>(claim.requests());
        kept.keySet().retainAll(requests);
        if (kept.isEmpty()) {
            return null;
        }
        return new ClaimEntry(claim.name(), Collections.unmodifiableSortedMap(kept),
                claimView(claim.name(), List.copyOf(kept.values())));
    }

    private static Served claimView(String claim, List<RequestEntry> requests) {
        List<Served.Available> merged = new ArrayList<>();
        List<String> staleReasons = new ArrayList<>();
        List<MetadataSource> sources = new ArrayList<>();
        for (RequestEntry request : requests) {
            if (request.merged() instanceof Served.Unavailable failure) {
                return failure;
            }
            Served.Available available = (Served.Available) request.merged();
            merged.add(available);
            if (available.staleReason() != null) {
                staleReasons.add(available.staleReason());
            }
            request.drivers().values().forEach(driver -> sources.add(driver.source()));
        }
        List<Served.Available> bodies = List.copyOf(merged);
        return Served.Available.onDemand(() -> spliced(claim, bodies), null,
                staleReasons.isEmpty() ? null : String.join("; ", staleReasons), MetadataSource.labels(sources));
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
