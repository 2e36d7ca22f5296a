package dev.mirrorv3.restore.cli;

import java.net.SocketPermission;
import java.security.Permission;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * This JVM without network while armed: every DNS lookup and every connection (any thread) is refused with a
 * {@link SecurityException} and recorded, so a test can assert that a command contacted nothing. Uses the JDK 17
 * {@link SecurityManager} (its checkConnect guards {@code InetAddress} lookups and socket connects); everything else
 * stays allowed, and {@link #close} removes it.
 */
@SuppressWarnings("removal")
public final class NoNetwork extends SecurityManager implements AutoCloseable {
    private final List<String> attempts = new CopyOnWriteArrayList<>();
    private final SecurityManager before;

    private NoNetwork(SecurityManager before) {
        this.before = before;
    }

    public static NoNetwork arm() {
        // The logging backend starts once per JVM, before any command, and resolves this machine's own name (log4j's
        // hostName, from /etc/hosts as a rule): not a contact of the command's, so it happens before arming.
        org.slf4j.LoggerFactory.getLogger(NoNetwork.class).debug("no network from here on");
        NoNetwork guard = new NoNetwork(System.getSecurityManager());
        System.setSecurityManager(guard);
        return guard;
    }

    /** Each refused lookup or connection: {@code resolve host from [callers]} or {@code connect host:port from [callers]}. */
    public List<String> attempts() {
        return List.copyOf(attempts);
    }

    @Override
    public void checkPermission(Permission perm) {
        if (perm instanceof SocketPermission && (perm.getActions().contains("connect") || perm.getActions().contains("resolve"))) {
            attempts.add(perm.getActions() + " " + perm.getName() + " from " + caller());
            throw new SecurityException("no network in this test: " + perm.getActions() + " " + perm.getName());
        }
    }

    /** The first frames outside the JDK: who asked, for the failure message. */
    private static String caller() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> !f.getClassName().startsWith("java.") && !f.getClassName().startsWith("sun.")
                        && !f.getClassName().equals(NoNetwork.class.getName()))
                .limit(4).map(f -> f.getClassName() + "." + f.getMethodName()).toList()).toString();
    }

    @Override
    public void checkPermission(Permission perm, Object context) {
        checkPermission(perm);
    }

    @Override
    public void close() {
        System.setSecurityManager(before);
    }
}
