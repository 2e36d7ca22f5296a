package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * This module's integration tests add a JVM option of their own (a hosts file for the notify tests' name lookups):
 * they must keep the project's test JVM options too (the parent pom's {@code test.argLine}), not replace them. (Its name
 * must not start with "Test": surefire would run it too, without this module's failsafe options.)
 */
class IntegrationTestJvmOptionsIT {

    @Test
    void theModulesOwnOptionAndTheProjectsTestOptionsAreBothSet() {
        assertThat(System.getProperty("jdk.net.hosts.file")).as("this module's hosts file").endsWith("test-hosts");
        assertThat(System.getProperty("http.keepAlive")).as("the parent pom's test.argLine").isEqualTo("false");
    }
}
