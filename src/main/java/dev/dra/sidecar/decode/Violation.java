package dev.dra.sidecar.decode;

/**
 * One broken validation rule.
 *
 * @param field the field path, as Kubernetes writes it ({@code requests[0].devices[0].pool})
 * @param type the kind of violation: {@code Required}, {@code Invalid}, {@code TooLong}, {@code TooMany},
 *     {@code Duplicate}, {@code NotSupported} (Kubernetes' {@code field.ErrorType} names)
 * @param message what is wrong, in words
 */
public record Violation(String field, String type, String message) {}
