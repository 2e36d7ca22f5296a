package dev.mirrorv3.restore.cli;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.envelope.ValueTypeException;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.restore.RestoreCheckException;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * The one place that maps a failure to an exit code and a one-line message on stderr (kcctl's pattern). Anything
 * unknown is rethrown, so a bug shows its stack trace.
 */
public final class ExecutionExceptionHandler implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) throws Exception {
        int code = exitCode(ex);
        if (code < 0) {
            throw ex;
        }
        commandLine.getErr().println("error: " + Failures.describe(ex));
        commandLine.getErr().flush();
        return code;
    }

    public static int exitCode(Throwable ex) {
        if (ex instanceof UsageException) {
            return ExitCodes.USAGE;
        }
        for (Throwable c = ex; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof RestoreCheckException || c instanceof ChainException || c instanceof ValueTypeException
                    || c instanceof StoreException || c instanceof KafkaException) {
                return ExitCodes.CHECK_FAILED;
            }
        }
        return -1;
    }
}
