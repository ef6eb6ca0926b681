package dev.dra.sidecar.api.path;

import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** The names in the path of one device of a request, {@code .../{request}/devices/{device}}: see {@link ClaimPath}. */
public class DevicePath extends RequestPath {

    @PathParam("device")
    @Parameter(description = "Device name")
    String device;

    @Override
    public DevicePath checked() {
        super.checked();
        PathNames.lookupKey("device name", device);
        return this;
    }

    /** The device name. */
    public String device() {
        return device;
    }
}
