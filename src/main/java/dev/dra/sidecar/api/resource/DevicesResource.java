package dev.dra.sidecar.api.resource;

import dev.dra.sidecar.api.body.AttributeColumn;
import dev.dra.sidecar.api.body.DeviceFilter;
import dev.dra.sidecar.api.body.DeviceList;
import dev.dra.sidecar.api.body.DeviceSelection;
import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.api.path.AttributeName;
import dev.dra.sidecar.api.read.Conditions;
import dev.dra.sidecar.api.read.ReadResponder;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Every device this container sees, whatever the claim kind, claim and request ({@link DeviceSelection#ofPod}),
 * selected by {@link DeviceFilter}; the claim indexes link here.
 */
@Path(ApiRoutes.DEVICES)
@Tag(name = "devices", description = "Every device of the pod, whatever the claim")
public class DevicesResource {

    @Inject
    ReadResponder reads;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "List every device", description = "Every device of every claim and request this container "
            + "sees, that the filters keep: claims before template claims, claims and requests sorted by name, each "
            + "request's devices in serving order, each with its claim kind, claim, request, driver, pool, name, "
            + "attributes and networkData.")
    @APIResponse(responseCode = "200", description = "The devices",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeviceList.class)))
    public Uni<Response> list(@BeanParam DeviceFilter filter, @BeanParam Conditions conditions) {
        DeviceFilter checked = filter.checked();
        return reads.answer(s -> DeviceList.json(DeviceSelection.ofPod(s, checked)), conditions,
                MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.DEVICES_ATTRIBUTE)
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN})
    @Operation(summary = "Get one attribute of every device", description = "The devices GET /devices lists with the "
            + "same filters, each with its claim kind, claim, request, driver, pool, name and typed value; a device "
            + "without the attribute is listed without value. With Accept: text/plain, the bare values, one line per "
            + "device (a list value: one line per item), and an empty line for a device without the attribute.")
    @APIResponse(responseCode = "200", description = "The attribute of each device", content = {
        @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = AttributeColumn.class)),
        @Content(mediaType = MediaType.TEXT_PLAIN, schema = @Schema(type = SchemaType.STRING), example = "0\n1\n")})
    public Uni<Response> attribute(@BeanParam AttributeName attribute, @BeanParam DeviceFilter filter,
            @BeanParam Conditions conditions, HttpHeaders headers) {
        String name = attribute.checked();
        DeviceFilter checked = filter.checked();
        boolean text = PlainText.preferredBy(headers);
        return reads.answer(s -> {
            DeviceSelection devices = DeviceSelection.ofPod(s, checked);
            return text ? AttributeColumn.text(devices, name) : AttributeColumn.json(devices, name, true);
        }, conditions, text ? PlainText.MEDIA_TYPE : MediaType.APPLICATION_JSON);
    }
}
