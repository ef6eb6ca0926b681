package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports for processes a test starts. */
public final class LocalPorts {

    private LocalPorts() {}

    /**
     * A TCP port on the loopback address that was free when asked (the kernel picked it and it was released at
     * once); another process may take it before the caller binds it, which on a test machine is rare.
     */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
