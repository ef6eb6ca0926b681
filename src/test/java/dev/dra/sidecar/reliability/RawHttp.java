package dev.dra.sidecar.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests that HTTP clients refuse or normalise ({@code ..}, {@code %2e},
 * overlong UTF-8, bad request lines, odd methods). Sends bytes exactly as given and reads until the server closes.
 */
final class RawHttp {

    /** A parsed answer; {@code status} is -1 when the server closed without answering. */
    record Answer(int status, Map<String, String> headers, String body, byte[] raw) {

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String contentType() {
            String type = header("content-type");
            return type == null ? "" : type.split(";")[0].trim();
        }
    }

    private RawHttp() {}

    static Answer exchange(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(15_000);
            // Read while writing: a server that refuses a large body (413) answers before reading it all and then
            // resets the connection, which would discard an answer read only after the write.
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            java.util.concurrent.CompletableFuture<IOException> reading = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                byte[] buffer = new byte[8192];
                try {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        synchronized (received) {
                            received.write(buffer, 0, n);
                        }
                        if (received.size() > 4 * 1024 * 1024) {
                            break;
                        }
                    }
                    return null;
                } catch (SocketTimeoutException e) {
                    return e;
                } catch (IOException e) {
                    return null; // reset after a complete answer: keep what arrived
                }
            });
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
                socket.shutdownOutput();
            } catch (IOException e) {
                // The server answered and closed before it read everything; what it said is being read.
            }
            IOException timeout = reading.join();
            if (timeout != null) {
                throw new IOException("no end of answer within 15 s; received: " + received.toString(StandardCharsets.ISO_8859_1), timeout);
            }
            return parse(received.toByteArray());
        }
    }

    static Answer exchange(int port, String request) throws IOException {
        return exchange(port, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Answer parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || end < 0) {
            return new Answer(-1, Map.of(), text, raw);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.putIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        String body = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        } else if (headers.containsKey("content-length")) {
            int length = Integer.parseInt(headers.get("content-length"));
            body = body.substring(0, Math.min(length, body.length()));
        }
        return new Answer(status, headers, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8), raw);
    }

    private static String dechunk(String body) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < body.length()) {
            int lineEnd = body.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(body.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.append(body, lineEnd + 2, Math.min(body.length(), lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
        }
        return out.toString();
    }
}
