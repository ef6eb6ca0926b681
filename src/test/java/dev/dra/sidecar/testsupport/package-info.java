/**
 * What tests of every package share, written once: polling until a deadline ({@link
 * dev.dra.sidecar.testsupport.Eventually}), metadata files written the ways drivers and the kubelet write them
 * ({@link dev.dra.sidecar.testsupport.MetadataFiles}), metadata objects ({@link
 * dev.dra.sidecar.testsupport.DeviceMetadataJson}), temporary trees ({@link dev.dra.sidecar.testsupport.FileTrees}),
 * free loopback ports ({@link dev.dra.sidecar.testsupport.LocalPorts}), the project's version ({@link
 * dev.dra.sidecar.testsupport.ProjectVersion}), the packaged jar as a child process
 * for {@code *IT} tests ({@link dev.dra.sidecar.testsupport.PackagedSidecar}), and a real component run by its
 * folder's build.sh and start.sh ({@link dev.dra.sidecar.testsupport.ScriptedComponent}) and shared by the whole
 * test run ({@link dev.dra.sidecar.testsupport.RunWide}). RestAssured in every
 * {@code @QuarkusTest} closes each connection after its response ({@link
 * dev.dra.sidecar.testsupport.WellBehavedHttpClients}), so tests never hold the server's connection limit.
 *
 * <p>The helpers fail loudly: a condition that is not reached is an assertion failure naming what was awaited; I/O
 * errors of the file helpers surface as {@link java.io.UncheckedIOException}. Nothing here mocks a part of the
 * sidecar.
 */
package dev.dra.sidecar.testsupport;
