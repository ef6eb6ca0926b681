package dev.dra.sidecar.kube;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.jboss.logging.Logger;

/**
 * Episodes in which the API server cannot be reached, told once each, in one place for every call of a
 * {@link KubeApi} (its GETs, POSTs, and the lists and watches of every {@link ListWatch}): an episode starts with the
 * first call that gets no answer at all (no connection, a timeout, a connection cut before the answer) and is logged
 * then as one WARN; it ends with the first call that gets any answer (also an HTTP error status: the API server is
 * reached) and is logged then as one INFO that says how long it lasted. Calls that fail in between log nothing here.
 * Safe for use by many threads at once.
 */
final class Reachability {

    private static final Logger LOG = Logger.getLogger(Reachability.class);

    private final String server;
    private final Clock clock;
    private final Logger log;
    private Instant since;
    private long failed;

    Reachability(String server) {
        this(server, Clock.systemUTC(), LOG);
    }

    Reachability(String server, Clock clock, Logger log) {
        this.server = server;
        this.clock = clock;
        this.log = log;
    }

    /** A call that got an answer, whatever its status: ends an episode, if one is going on. */
    void answered() {
        Instant started;
        long failures;
        synchronized (this) {
            if (since == null) {
                return;
            }
            started = since;
            failures = failed;
            since = null;
            failed = 0;
        }
        Duration lasted = Duration.between(started, clock.instant());
        log.infof("The API server %s answers again, after %s in which it could not be reached (since %s; %d calls "
                + "got no answer)", server, seconds(lasted), started, failures);
    }

    /** A call ({@code what}, such as {@code GET /api/v1/pods}) that got no answer: starts an episode, if none is. */
    void unanswered(String what, Throwable failure) {
        Instant started;
        synchronized (this) {
            failed++;
            if (since != null) {
                return;
            }
            since = clock.instant();
            started = since;
        }
        log.warnf("The API server %s cannot be reached (since %s; %s: %s); going on with what is held until it "
                + "answers again", server, started, what, describe(failure));
    }

    /** Whether no episode is going on. */
    synchronized boolean reachable() {
        return since == null;
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName()
                : failure.getClass().getSimpleName() + " " + message;
    }

    /** {@code 62.3 s}. */
    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
