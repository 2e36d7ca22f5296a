package dev.mirrorv3.connect.source;

/** The plugin version reported to Connect (from the jar manifest, set by the build). */
final class Version {
    private Version() {
    }

    static String get() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
