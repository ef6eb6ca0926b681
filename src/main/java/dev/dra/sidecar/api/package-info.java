/**
 * The HTTP API on {@code 127.0.0.1:8089}, as {@code ../shared/spec/http-api.md} describes it. Resources look
 * the answer up in the current snapshot and write its pre-encoded bytes; nothing is decoded or encoded per
 * request except problem bodies.
 */
package dev.dra.sidecar.api;
