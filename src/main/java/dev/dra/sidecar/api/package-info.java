/**
 * The HTTP API on {@code 127.0.0.1:8089}, as {@code docs/api.md} describes it. Every path is in {@link
 * dev.dra.sidecar.api.ApiRoutes}, every problem in {@link dev.dra.sidecar.api.ProblemType}, the settings in
 * {@link dev.dra.sidecar.api.ApiConfig}. Resources look the answer up in the current snapshot and write its
 * pre-encoded bytes; nothing is decoded or encoded per request except problem bodies.
 */
package dev.dra.sidecar.api;
