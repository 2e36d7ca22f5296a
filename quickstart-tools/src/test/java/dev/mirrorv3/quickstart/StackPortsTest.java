package dev.mirrorv3.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * scripts/stack.sh's port picker, run by bash as ./torture sources it: every port picked in one shell is distinct
 * (./torture picks a stack's ports before any of them is bound), inside its range, and never one something listens on.
 */
class StackPortsTest {
    private static final Path STACK = Path.of("..", "scripts", "stack.sh").toAbsolutePath().normalize(); // module dir

    @Test
    void portsPickedInOneShellAreDistinctAlsoInArrayElements() throws Exception {
        // 400 picks from 9,000 ports: if the record of picked ports were lost, about 9 would repeat
        String out = bash("declare -a W; for ((i = 0; i < 200; i++)); do stack_pick_port \"W[$i]\"; stack_pick_port one;"
                + " echo \"${W[$i]}\"; echo \"$one\"; done");

        List<Integer> ports = Arrays.stream(out.split("\n")).map(Integer::valueOf).toList();
        assertThat(ports).hasSize(400).doesNotHaveDuplicates().allSatisfy(p -> assertThat(p).isBetween(21000, 29999));
    }

    @Test
    void aPortSomethingListensOnIsNotPicked() throws Exception {
        // hold every port of the range but one: a listener's port is skipped however often it is drawn
        try (Listeners held = Listeners.onAllBut(21000, 21009, 21004)) {
            String out = bash("STACK_PICKED_PORTS=\" $(seq -s ' ' 21010 29999) \"; stack_pick_port p; echo \"$p\"");

            assertThat(out).isEqualTo(held.free() + "\n");
        }
    }

    private static String bash(String script) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", "set -euo pipefail; source '" + STACK + "'; " + script)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("bash finished").isTrue();
        assertThat(p.exitValue()).as("bash's exit status; it printed: %s", out).isZero();
        return out;
    }

    /** Loopback listeners on every port of [from, to] but one. */
    private record Listeners(List<ServerSocket> sockets, int free) implements AutoCloseable {
        static Listeners onAllBut(int from, int to, int free) throws Exception {
            List<ServerSocket> sockets = new java.util.ArrayList<>();
            for (int port = from; port <= to; port++) {
                if (port != free) sockets.add(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
            }
            return new Listeners(sockets, free);
        }

        @Override
        public void close() throws Exception {
            for (ServerSocket s : sockets) s.close();
        }
    }
}
