package dev.dra.sidecar.ops;

import io.quarkus.vertx.VertxOptionsCustomizer;
import io.vertx.core.VertxOptions;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;

/**
 * Spaces out Vert.x's blocked-thread checker, which Quarkus runs at {@code quarkus.vertx.warning-exception-time}
 * (every 2 s by default), to every {@link #CHECK_INTERVAL_SECONDS} seconds: each check wakes the JVM at rest and runs
 * interpreted, and a sidecar at rest does nothing else that often. What it reports is unchanged: an event loop
 * blocked past {@code quarkus.vertx.max-event-loop-execute-time}, or a worker past
 * {@code quarkus.vertx.max-worker-execute-time}, is logged with the time it has been blocked, its stack trace once
 * past the warning-exception time. A block that starts and ends between two checks goes unreported: a thread stuck
 * for good is reported within {@link #CHECK_INTERVAL_SECONDS} seconds, a block of a few seconds only by chance.
 */
@Singleton
class BlockedThreadChecks implements VertxOptionsCustomizer {

    static final long CHECK_INTERVAL_SECONDS = 300;

    @Override
    public void accept(VertxOptions options) {
        options.setBlockedThreadCheckInterval(CHECK_INTERVAL_SECONDS);
        options.setBlockedThreadCheckIntervalUnit(TimeUnit.SECONDS);
    }
}
