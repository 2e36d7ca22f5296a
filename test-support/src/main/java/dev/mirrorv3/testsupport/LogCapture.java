package dev.mirrorv3.testsupport;

import java.io.Writer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * The log lines of every logger of this JVM while attached: each event's formatted message, followed by its exception
 * when it has one. The test kit's REST client ({@code org.apache.kafka.connect.util.clusters}) is left out: it logs the
 * connector configs a test sends, as curl would print them, which is not a log of the worker.
 */
public final class LogCapture extends AbstractAppender implements AutoCloseable {
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());

    private LogCapture() {
        super("mirror-v3-test-log-capture", null, null, true, Property.EMPTY_ARRAY);
    }

    /** Starts capturing; {@link #close()} stops. */
    public static LogCapture attach() {
        LogCapture appender = new LogCapture();
        appender.start();
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        ctx.getConfiguration().getRootLogger().addAppender(appender, null, null);
        ctx.updateLoggers();
        return appender;
    }

    /**
     * Appends every log event of this JVM to {@code target}, laid out by a log4j {@code pattern}, from now until the
     * JVM ends (for a test class that greps the worker's whole log text); {@code name} names the appender.
     */
    public static void appendTo(Writer target, String name, String pattern) {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        WriterAppender appender = WriterAppender.newBuilder().setName(name).setTarget(target)
                .setLayout(PatternLayout.newBuilder().withPattern(pattern).build()).build();
        appender.start();
        ctx.getConfiguration().getRootLogger().addAppender(appender, null, null);
        ctx.updateLoggers();
    }

    /** The lines captured so far, in order. */
    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void append(LogEvent event) {
        if (event.getLoggerName() != null && event.getLoggerName().startsWith("org.apache.kafka.connect.util.clusters")) {
            return;
        }
        String line = event.getMessage().getFormattedMessage();
        lines.add(event.getThrown() == null ? line : line + " " + event.getThrown());
    }

    @Override
    public void close() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        ctx.getConfiguration().getRootLogger().removeAppender(getName());
        ctx.updateLoggers();
        stop();
    }
}
