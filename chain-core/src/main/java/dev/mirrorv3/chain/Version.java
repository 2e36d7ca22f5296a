package dev.mirrorv3.chain;

/**
 * mirror-v3's version, as every plugin's {@code version()} and the CLI's {@code --version} report it: the jar manifest's
 * Implementation-Version, set by the build for every module alike; "dev" when run from classes (an IDE, a test).
 */
public final class Version {
    private Version() {
    }

    public static String get() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
