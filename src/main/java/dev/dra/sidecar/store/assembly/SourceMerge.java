package dev.dra.sidecar.store.assembly;

import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DerivedClaims;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where the sources meet: a driver's file, when there is one for a (claim, request, driver), and otherwise what the
 * resource API derives for it. A file wins whatever it serves (its object, its last good one, or its failure).
 */
public final class SourceMerge {

    private SourceMerge() {}

    /**
     * {@code files}, and beside them the derived object of each (claim, request, driver) of {@code derived} that they
     * do not serve; claims are matched by kind and the name readers see them by, whatever their namespace (the
     * sidecar's tree holds one pod's claims).
     */
    public static List<DriverInput> merge(Collection<DriverInput> files, DerivedClaims derived) {
        List<DriverInput> out = new ArrayList<>(files);
        Set<Key> filed = new HashSet<>();
        files.forEach(file -> filed.add(new Key(file.kind(), file.claim(), file.request(), file.driver())));
        derived.claims().forEach((scope, claim) -> claim.requests().forEach((request, drivers) ->
                drivers.forEach((driver, object) -> {
                    if (!filed.contains(new Key(scope.kind(), claim.directory(), request, driver))) {
                        out.add(DriverInput.derived(scope.kind(), claim.directory(), request, driver, object));
                    }
                })));
        return out;
    }

    private record Key(ClaimKind kind, String claim, String request, String driver) {}
}
