/**
 * The OpenAPI document: {@link dev.dra.sidecar.api.openapi.OpenApiDocument} completes the one generated at build
 * time from the route table and the problem catalogue; {@link dev.dra.sidecar.api.openapi.PublishedOpenApiDocument}
 * serves the checked-in copy on the management interface.
 */
package dev.dra.sidecar.api.openapi;
