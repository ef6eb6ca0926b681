package dev.dra.sidecar.ops;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The sidecar container's postStart hook, {@code java @/deployments/await-started <seconds>}: returns once the
 * sidecar in the same container answers its startup check, {@code GET /q/health/started} on the management port,
 * with 200 (the first scan is done and every expected claim is there). Kubelet starts a pod's next container only
 * after a native sidecar's postStart hook has returned, so the app starts as soon as its metadata is served.
 *
 * <p>When the sidecar has not started within the given seconds, prints why (the check's last answer) and writes it
 * to the container's termination message file, {@value #TERMINATION_LOG}, where {@code kubectl describe pod} shows
 * it under the sidecar's last state; then exits 1, and kubelet kills the sidecar and restarts it: the app does not
 * start. Exits 2 on a bad argument. Uses {@code java.base} alone, so that its JVM starts in a fraction of the
 * sidecar's time. The port is {@code QUARKUS_MANAGEMENT_PORT} when the container sets it, else {@value #DEFAULT_PORT}.
 */
public final class AwaitStarted {

    /** {@code quarkus.management.port} of application.properties (AwaitStartedTest holds the two together). */
    static final int DEFAULT_PORT = 9000;
    static final String PATH = "/q/health/started";
    static final String TERMINATION_LOG = "/dev/termination-log";
    private static final Duration PAUSE = Duration.ofMillis(20);
    private static final int CONNECT_TIMEOUT_MILLIS = 1_000;
    private static final int READ_TIMEOUT_MILLIS = 5_000;
    private static final int MAX_ANSWER_BYTES = 4_096;

    private AwaitStarted() {
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds;
        int port;
        try {
            seconds = Long.parseLong(args.length == 1 ? args[0] : "");
            String portSetting = System.getenv("QUARKUS_MANAGEMENT_PORT");
            port = portSetting == null ? DEFAULT_PORT : Integer.parseInt(portSetting.strip());
        } catch (NumberFormatException e) {
            System.out.println("usage: java @/deployments/await-started <seconds> (the port: QUARKUS_MANAGEMENT_PORT, else "
                    + DEFAULT_PORT + "): " + e.getMessage());
            System.exit(2);
            return;
        }
        String failure = await(port, Duration.ofSeconds(seconds));
        if (failure != null) {
            System.out.println(failure);
            writeTerminationMessage(failure);
            System.exit(1);
        }
    }

    /** Null once the check answered 200 within {@code timeout}; else what it answered last, as one line. */
    static String await(int port, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (true) {
            try {
                String answer = get(port);
                if (answer.startsWith("HTTP/1.1 200 ") || answer.startsWith("HTTP/1.0 200 ")) {
                    return null;
                }
                last = answer;
            } catch (IOException e) {
                last = e.toString();
            }
            if (System.nanoTime() - deadline >= 0) {
                return "the sidecar did not start within " + timeout.toSeconds() + " s; " + PATH + " on port " + port
                        + " answered: " + oneLine(last);
            }
            Thread.sleep(PAUSE.toMillis());
        }
    }

    /** The whole answer to one GET (status line, headers, body), at most {@value #MAX_ANSWER_BYTES} bytes. */
    static String get(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MILLIS);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + PATH + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readNBytes(MAX_ANSWER_BYTES), StandardCharsets.UTF_8);
        }
    }

    /** The status line and the body, without the headers, whitespace runs folded to one space. */
    private static String oneLine(String answer) {
        int body = answer.indexOf("\r\n\r\n");
        int statusEnd = answer.indexOf("\r\n");
        String text = body < 0 || statusEnd < 0 ? answer : answer.substring(0, statusEnd) + " " + answer.substring(body + 4);
        return text.replaceAll("\\s+", " ").strip();
    }

    private static void writeTerminationMessage(String message) {
        Path log = Path.of(TERMINATION_LOG);
        if (Files.isWritable(log)) {
            try (PrintStream out = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
                out.print(message);
            } catch (IOException e) {
                System.out.println("could not write " + log + ": " + e);
            }
        }
    }
}
