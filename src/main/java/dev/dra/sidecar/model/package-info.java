/**
 * The wire model of KEP-5304 device metadata, as records in the upstream JSON names.
 *
 * <p>v1alpha1 and v1beta1 share one JSON shape, so one set of records serves both. Every record
 * omits {@code null} members when encoded, so a field absent from a file stays absent in what we serve,
 * and a decoded object encodes back to the JSON content the file held for every known field, as Go reads
 * it: a {@code null} list item or map value is Go's zero value ({@code 0}, {@code false}, {@code ""}, a
 * record with every member absent), and {@link dev.dra.sidecar.model.RawJson} keeps fieldsV1's tokens.
 */
package dev.dra.sidecar.model;
