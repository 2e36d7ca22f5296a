package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.restore.cli.RunbookBlocks.Block;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every ```bash block of the docs is either run by RunbookIT or says in one line why it cannot run there, so a new
 * runbook command is run by default instead of forgotten.
 */
class RunbookMarksTest {
    @Test
    void everyBashBlockIsRunOrSaysWhyNot() {
        List<Block> blocks = RunbookBlocks.all();
        assertThat(blocks).as("```bash blocks found").hasSizeGreaterThan(10);
        assertThat(blocks.stream().filter(b -> !b.marked()).toList())
                .as("```bash blocks without '<!-- runbook: run <scenario> -->' or '<!-- runbook: not run: <why> -->' on the"
                        + " line before the fence (RunbookIT runs the marked ones)")
                .isEmpty();
        assertThat(blocks.stream().filter(b -> b.scenario() != null && !RunbookBlocks.SCENARIOS.contains(b.scenario())).toList())
                .as("blocks marked with a scenario RunbookIT does not know " + RunbookBlocks.SCENARIOS)
                .isEmpty();
    }

    @Test
    void everyScenarioOfRunbookItHasItsBlocks() {
        for (String scenario : RunbookBlocks.SCENARIOS) {
            assertThat(RunbookBlocks.scenario(scenario)).as("blocks marked 'run " + scenario + "'").isNotEmpty();
        }
    }
}
