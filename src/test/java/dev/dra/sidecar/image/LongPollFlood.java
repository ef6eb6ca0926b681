package dev.dra.sidecar.image;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Many long polls on loopback from one thread (NIO, one selector): each is its own HTTP/1.1 connection that sends
 * one long poll and reads its answer. Bounded in count (the constructor) and in time (every call takes a
 * deadline). Not thread-safe: one caller drives it.
 */
final class LongPollFlood implements AutoCloseable {

    /** Where one long poll is. */
    enum Outcome {
        /** Connecting, sending, or waiting for its answer. */
        PENDING,
        /** Answered 200 (a change, the timeout, or the stop). */
        ANSWERED,
        /** Answered 503 with the problem code {@code too-many-long-polls}. */
        REFUSED_503,
        /** Answered with anything else: a failure of the test. */
        OTHER_ANSWER,
        /** The connection was refused or closed before an answer (the server's connection limit). */
        CONNECTION_REFUSED
    }

    private static final class Poll {
        final SocketChannel channel;
        final ByteBuffer request;
        final StringBuilder received = new StringBuilder();
        Outcome outcome = Outcome.PENDING;
        String etag;

        Poll(SocketChannel channel, ByteBuffer request) {
            this.channel = channel;
            this.request = request;
        }
    }

    private final Selector selector;
    private final List<Poll> polls = new ArrayList<>();
    private final List<String> otherAnswers = new ArrayList<>();
    private final ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);

    /** Opens {@code count} connections to {@code 127.0.0.1:port}, each to send a long poll on {@code path}. */
    LongPollFlood(int port, String path, String lastEtag, int timeoutSeconds, int count) throws IOException {
        selector = Selector.open();
        String target = path + "?waitForChange=true&timeoutSeconds=" + timeoutSeconds + "&lastEtag="
                + URLEncoder.encode(lastEtag, StandardCharsets.UTF_8);
        byte[] request = ("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        for (int i = 0; i < count; i++) {
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_LINGER, 0); // no TIME_WAIT pile-up on close
            Poll poll = new Poll(channel, ByteBuffer.wrap(request));
            polls.add(poll);
            try {
                if (channel.connect(address)) {
                    channel.register(selector, SelectionKey.OP_WRITE, poll);
                } else {
                    channel.register(selector, SelectionKey.OP_CONNECT, poll);
                }
            } catch (IOException e) {
                finish(poll, Outcome.CONNECTION_REFUSED);
            }
        }
    }

    /** Drives connections, requests and answers until {@code done} holds or {@code millis} pass. */
    void runUntil(long millis, java.util.function.BooleanSupplier done) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            selector.select(50);
            for (SelectionKey key : selector.selectedKeys()) {
                Poll poll = (Poll) key.attachment();
                try {
                    step(key, poll);
                } catch (IOException e) {
                    finish(poll, Outcome.CONNECTION_REFUSED);
                }
            }
            selector.selectedKeys().clear();
        }
    }

    private void step(SelectionKey key, Poll poll) throws IOException {
        if (key.isConnectable()) {
            poll.channel.finishConnect();
            key.interestOps(SelectionKey.OP_WRITE);
        }
        if (key.isValid() && key.isWritable()) {
            poll.channel.write(poll.request);
            if (!poll.request.hasRemaining()) {
                key.interestOps(SelectionKey.OP_READ);
            }
        }
        if (key.isValid() && key.isReadable()) {
            buffer.clear();
            int read = poll.channel.read(buffer);
            if (read > 0) {
                poll.received.append(new String(buffer.array(), 0, read, StandardCharsets.ISO_8859_1));
                classify(poll);
            } else if (read < 0) {
                finish(poll, poll.received.isEmpty() ? Outcome.CONNECTION_REFUSED : Outcome.OTHER_ANSWER);
            }
        }
    }

    /** Classifies a complete answer (headers plus a body of Content-Length bytes). */
    private void classify(Poll poll) {
        String text = poll.received.toString();
        int headersEnd = text.indexOf("\r\n\r\n");
        if (headersEnd < 0) {
            return;
        }
        String headers = text.substring(0, headersEnd);
        int length = 0;
        for (String line : headers.split("\r\n")) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            } else if (lower.startsWith("etag:")) {
                poll.etag = line.substring(5).trim();
            }
        }
        if (text.length() - headersEnd - 4 < length) {
            return;
        }
        if (text.startsWith("HTTP/1.1 200")) {
            finish(poll, Outcome.ANSWERED);
        } else if (text.startsWith("HTTP/1.1 503") && text.contains("\"code\":\"too-many-long-polls\"")
                && headers.toLowerCase(java.util.Locale.ROOT).contains("\r\nretry-after:")) {
            finish(poll, Outcome.REFUSED_503);
        } else {
            if (otherAnswers.size() < 5) {
                otherAnswers.add(text);
            }
            finish(poll, Outcome.OTHER_ANSWER);
        }
    }

    private void finish(Poll poll, Outcome outcome) {
        poll.outcome = outcome;
        try {
            poll.channel.close();
        } catch (IOException e) {
            // closed either way
        }
    }

    Map<Outcome, Integer> counts() {
        Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            counts.put(outcome, 0);
        }
        for (Poll poll : polls) {
            counts.merge(poll.outcome, 1, Integer::sum);
        }
        return counts;
    }

    int count(Outcome outcome) {
        return counts().get(outcome);
    }

    /** How many answered long polls carry {@code etag}. */
    long answeredWith(String etag) {
        return polls.stream().filter(p -> p.outcome == Outcome.ANSWERED && etag.equals(p.etag)).count();
    }

    /** Up to five answers that were neither 200 nor the refusal, for a failure message. */
    List<String> otherAnswers() {
        return otherAnswers;
    }

    @Override
    public void close() throws IOException {
        for (Poll poll : polls) {
            poll.channel.close();
        }
        selector.close();
    }
}
