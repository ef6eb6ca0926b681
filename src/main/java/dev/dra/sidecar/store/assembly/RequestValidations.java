package dev.dra.sidecar.store.assembly;

import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.MetadataSource;
import dev.dra.sidecar.snapshot.RequestValidation;
import dev.dra.sidecar.snapshot.Served;
import java.util.ArrayList;
import java.util.List;

/**
 * A request's {@link RequestValidation}: the upstream validation of what is served for each driver's file. Metadata
 * from the resource API has no file to validate: its entry says so with the code {@value #DERIVED}, and the request
 * is then not valid (not every driver wrote a file that validates).
 */
final class RequestValidations {

    /** The code of a driver's entry whose metadata comes from the resource API. */
    static final String DERIVED = "derived-metadata";

    private RequestValidations() {}

    /** The validation of {@code drivers}, one entry each in merge order. */
    static RequestValidation of(String request, List<DriverEntry> drivers) {
        List<RequestValidation.DriverValidation> out = new ArrayList<>(drivers.size());
        boolean valid = true;
        for (DriverEntry entry : drivers) {
            if (entry.source() == MetadataSource.RESOURCE_API) {
                valid = false;
                out.add(new RequestValidation.DriverValidation(entry.driver(), entry.source().label(), null, null,
                        null, new RequestValidation.Failure(DERIVED, "driver " + entry.driver() + " wrote no metadata "
                                + "file for this request: what is served is derived from the resource API (the "
                                + "claim's allocation and status, the driver's ResourceSlices), and there is no file "
                                + "to validate"), null, null));
            } else if (entry.served() instanceof Served.Available served) {
                valid &= entry.violations().isEmpty();
                out.add(new RequestValidation.DriverValidation(entry.driver(), null, entry.path(),
                        served.sourceVersions(), served.staleReason(), null, entry.violations().isEmpty(),
                        entry.violations()));
            } else if (entry.served() instanceof Served.Unavailable failure) {
                valid = false;
                out.add(new RequestValidation.DriverValidation(entry.driver(), null, entry.path(), null, null,
                        new RequestValidation.Failure(failure.code().code(), failure.detail()), null, null));
            }
        }
        return new RequestValidation(request, valid, List.copyOf(out));
    }
}
