package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;

/**
 * A commit cut behind another one was given up before anything of it reached the store: the commit before it failed
 * (its records stay buffered and are cut again after that one is re-issued), or its thread was interrupted while it
 * waited. Not a failure of its own: whoever runs commits ignores it, the failure before it is the one to act on.
 */
public final class CommitAbandonedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param object where the abandoned object would have been
     * @param before the commit it was cut behind
     * @param why what happened, read before the commit's name
     */
    CommitAbandonedException(String object, ObjectName before, String why) {
        super("the commit of " + object + " " + why + " commit of " + before + "; nothing of it was written, its records stay"
                + " buffered");
    }
}
