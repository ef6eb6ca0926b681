package dev.dra.sidecar.image;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Connections to a loopback port that never send a byte, and how many of them the server has closed. Not
 * thread-safe: one caller drives it.
 */
final class SilentConnections implements AutoCloseable {

    private final Selector selector;
    private final List<SocketChannel> channels = new ArrayList<>();
    private int closedByServer;

    private SilentConnections(Selector selector) {
        this.selector = selector;
    }

    /** Opens {@code count} connections, each accepted by the kernel before the next is opened. */
    static SilentConnections open(int port, int count) throws IOException {
        SilentConnections connections = new SilentConnections(Selector.open());
        try {
            for (int i = 0; i < count; i++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                connections.channels.add(channel);
                channel.configureBlocking(false);
                channel.register(connections.selector, SelectionKey.OP_READ);
            }
        } catch (IOException e) {
            connections.close();
            throw e;
        }
        return connections;
    }

    /**
     * Waits until the server has closed {@code expected} of the connections or {@code timeout} has passed.
     *
     * @return how many the server has closed (an end of stream or a reset; nothing is ever sent to them)
     */
    int awaitClosedByServer(int expected, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteBuffer buffer = ByteBuffer.allocate(1);
        while (closedByServer < expected && System.nanoTime() < deadline) {
            selector.select(100);
            for (SelectionKey key : selector.selectedKeys()) {
                SocketChannel channel = (SocketChannel) key.channel();
                int read;
                try {
                    read = channel.read(buffer.clear());
                } catch (IOException reset) {
                    read = -1;
                }
                if (read < 0) {
                    key.cancel();
                    closedByServer++;
                }
            }
            selector.selectedKeys().clear();
        }
        return closedByServer;
    }

    @Override
    public void close() throws IOException {
        for (SocketChannel channel : channels) {
            channel.close();
        }
        selector.close();
    }
}
