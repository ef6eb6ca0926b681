/**
 * The HTTP API on {@code 127.0.0.1:8089}, as {@code docs/api.md} describes it. Resources look the answer up in the
 * current snapshot and write its pre-encoded bytes; nothing is decoded or encoded per request except problem bodies.
 * The settings are in {@link dev.dra.sidecar.api.ApiConfig}; the rest is in rooms by what it does, from where a
 * request comes in down to what everything stands on:
 *
 * <ul>
 *   <li>{@link dev.dra.sidecar.api.route route}: the Vert.x handlers every request passes first: its body screened
 *       before it is read, its Host and its caller checked, a plain read answered at once.
 *   <li>{@link dev.dra.sidecar.api.resource resource}: the JAX-RS resources, one per group of paths, and the mappers
 *       that turn their failures into problem bodies.
 *   <li>{@link dev.dra.sidecar.api.openapi openapi}: the OpenAPI document, completed at build time and served as
 *       checked in.
 *   <li>{@link dev.dra.sidecar.api.body body}: the answers derived from a snapshot's entries (an attribute across
 *       devices, the device list, the environment file) and the device selection they cover.
 *   <li>{@link dev.dra.sidecar.api.read read}: how a read is answered on either path: found in the snapshot, at once
 *       or after a long poll, with its ETag and conditional headers.
 *   <li>{@link dev.dra.sidecar.api.caller caller}: who is asking, and what that caller may read.
 *   <li>{@link dev.dra.sidecar.api.path path}: every path of the API, written once, and the checks of the names in
 *       it.
 *   <li>{@link dev.dra.sidecar.api.admission admission}: the bounds on what clients can make the API hold at once.
 *   <li>{@link dev.dra.sidecar.api.problem problem}: every problem the API answers with, and how it is sent.
 * </ul>
 */
package dev.dra.sidecar.api;
