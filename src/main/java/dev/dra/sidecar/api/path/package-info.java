/**
 * Every path of the API, written once ({@link dev.dra.sidecar.api.path.ApiRoutes}), and the names in a path: their
 * rules and checks ({@link dev.dra.sidecar.api.path.PathNames}).
 */
package dev.dra.sidecar.api.path;
