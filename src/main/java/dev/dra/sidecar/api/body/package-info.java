/**
 * The answers the API derives from a snapshot rather than serving a file's object as it is: one attribute across
 * devices ({@link dev.dra.sidecar.api.body.AttributeColumn}), the device list
 * ({@link dev.dra.sidecar.api.body.DeviceList}), the environment file ({@link dev.dra.sidecar.api.body.EnvFile}),
 * the devices each covers ({@link dev.dra.sidecar.api.body.DeviceSelection},
 * {@link dev.dra.sidecar.api.body.DeviceFilter}), and their encoding ({@link dev.dra.sidecar.api.body.DerivedBodies}).
 */
package dev.dra.sidecar.api.body;
