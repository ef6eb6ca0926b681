/**
 * What tests of every package share, written once: polling until a deadline ({@link
 * dev.dra.sidecar.testsupport.Eventually}), metadata files written the ways drivers and the kubelet write them
 * ({@link dev.dra.sidecar.testsupport.MetadataFiles}), metadata objects ({@link
 * dev.dra.sidecar.testsupport.DeviceMetadataJson}), temporary trees ({@link dev.dra.sidecar.testsupport.FileTrees})
 * and free loopback ports ({@link dev.dra.sidecar.testsupport.LocalPorts}).
 *
 * <p>Every helper fails loudly: I/O errors surface as {@link java.io.UncheckedIOException}, a condition that is not
 * reached as an assertion failure naming what was awaited. Nothing here mocks a part of the sidecar.
 */
package dev.dra.sidecar.testsupport;
