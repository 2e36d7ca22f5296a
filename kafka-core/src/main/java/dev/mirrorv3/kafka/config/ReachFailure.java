package dev.mirrorv3.kafka.config;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLException;

/**
 * Why a store or cluster could not be reached, in a few words of ours ("unknown host h", "connection refused", "no answer
 * in time") found in the cause chain, instead of a client library's paragraph: a config check prints it on one line.
 */
public final class ReachFailure {
    private ReachFailure() {
    }

    public static String describe(Throwable t) {
        Throwable deepest = t;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof UnknownHostException) {
                return "unknown host " + host(c.getMessage());
            }
            if (c instanceof ConnectException || c instanceof NoRouteToHostException) {
                return "connection refused or no route (" + firstLine(c.getMessage()) + ")";
            }
            if (c instanceof SSLException) {
                return "TLS handshake failed (" + firstLine(c.getMessage()) + ")";
            }
            if (c.getClass().getSimpleName().contains("Timeout")) {
                return "no answer in time";
            }
            deepest = c;
        }
        return firstLine(deepest.getMessage() == null ? deepest.getClass().getSimpleName() : deepest.getMessage());
    }

    /** UnknownHostException's message is the host, sometimes followed by ": Name or service not known". */
    private static String host(String message) {
        if (message == null) {
            return "(no name given)";
        }
        int colon = message.indexOf(": ");
        return colon < 0 ? message : message.substring(0, colon);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int end = s.indexOf('\n');
        String line = end < 0 ? s : s.substring(0, end);
        int sentence = line.indexOf(". ");
        return (sentence < 0 ? line : line.substring(0, sentence)).trim();
    }
}
