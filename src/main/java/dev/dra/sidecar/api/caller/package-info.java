/**
 * Who is asking: {@link dev.dra.sidecar.api.caller.Caller} is what a request may read (the sidecar's own container,
 * or in node mode the calling pod), and {@link dev.dra.sidecar.api.caller.CallerResolver} finds it for each request.
 */
package dev.dra.sidecar.api.caller;
