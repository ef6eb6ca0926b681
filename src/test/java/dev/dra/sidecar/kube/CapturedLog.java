package dev.dra.sidecar.kube;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records an in-process application logs under one category (and its sub-categories) from now until
 * {@link #close}, at INFO or above, each as {@code "<LEVEL> <category>: <message>"} with its parameters filled in.
 */
final class CapturedLog implements AutoCloseable {

    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                String message = record.getParameters() == null || record.getParameters().length == 0
                        ? record.getMessage() : String.format(record.getMessage(), record.getParameters());
                lines.add(record.getLevel() + " " + record.getLoggerName() + ": " + message);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    CapturedLog(String category) {
        this.logger = Logger.getLogger(category);
        logger.addHandler(handler);
    }

    /** The lines so far. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    /** The lines so far at {@code level} ({@code WARN}, {@code INFO}) whose message contains {@code text}. */
    List<String> lines(String level, String text) {
        return lines.stream().filter(line -> line.startsWith(level + " ") && line.contains(text)).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
