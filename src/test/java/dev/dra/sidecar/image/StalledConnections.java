package dev.dra.sidecar.image;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Connections to a loopback port that send the same first bytes (or none) and then nothing more, and what the
 * server does with them: how many it closed, after which status line. Not thread-safe: one caller drives it.
 */
final class StalledConnections implements AutoCloseable {

    private final Selector selector;
    private final List<SocketChannel> channels = new ArrayList<>();
    private final Map<SocketChannel, StringBuilder> answers = new java.util.HashMap<>();
    private final Map<String, Integer> closedAfter = new TreeMap<>();
    private int closedByServer;

    private StalledConnections(Selector selector) {
        this.selector = selector;
    }

    /** Connections that never send a byte. */
    static StalledConnections silent(int port, int count) throws IOException {
        return open(port, count, new byte[0]);
    }

    /** Opens {@code count} connections, each accepted by the kernel and sent {@code sent} before the next is opened. */
    static StalledConnections open(int port, int count, byte[] sent) throws IOException {
        StalledConnections connections = new StalledConnections(Selector.open());
        try {
            for (int i = 0; i < count; i++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                connections.channels.add(channel);
                ByteBuffer out = ByteBuffer.wrap(sent);
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                channel.configureBlocking(false);
                channel.register(connections.selector, SelectionKey.OP_READ);
                connections.answers.put(channel, new StringBuilder());
            }
        } catch (IOException e) {
            connections.close();
            throw e;
        }
        return connections;
    }

    /**
     * Reads until the server has closed {@code expected} of the connections or {@code timeout} has passed.
     *
     * @return how many the server has closed (an end of stream or a reset)
     */
    int awaitClosedByServer(int expected, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        while (closedByServer < expected && System.nanoTime() < deadline) {
            selector.select(100);
            for (SelectionKey key : selector.selectedKeys()) {
                SocketChannel channel = (SocketChannel) key.channel();
                StringBuilder answer = answers.get(channel);
                int read;
                try {
                    read = channel.read(buffer.clear());
                } catch (IOException reset) {
                    read = -1;
                }
                if (read > 0 && answer.length() < 200) {
                    answer.append(new String(buffer.array(), 0, read, StandardCharsets.ISO_8859_1));
                } else if (read < 0) {
                    key.cancel();
                    closedByServer++;
                    String status = answer.toString().lines().findFirst().orElse("(no answer)");
                    closedAfter.merge(status, 1, Integer::sum);
                }
            }
            selector.selectedKeys().clear();
        }
        return closedByServer;
    }

    /** The connections the server closed, by the status line it answered first ({@code (no answer)} if none). */
    Map<String, Integer> closedAfter() {
        return closedAfter;
    }

    @Override
    public void close() throws IOException {
        for (SocketChannel channel : channels) {
            channel.close();
        }
        selector.close();
    }
}
