package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Numbers a script takes from a variable's default are said to be defaults the environment can override. */
class ShellDefaultsTest {

    @Test
    void aVariableAssignedItsOwnDefaultIsFoundQuotedOrNot() {
        Map<String, String> d = ShellDefaults.of("NGPU=${NGPU:-\"8\"}\nexport LOG_RANK=${LOG_RANK:-0}\nX=${Y:-3}\nNN=${NN-2}\n");
        assertEquals(Map.of("NGPU", "8", "LOG_RANK", "0", "NN", "2"), d, "X=${Y:-3} is Y's default, not X's own");
    }

    @Test
    void aValueWrittenThroughADefaultIsMarkedAndOthersAreNot() {
        Map<String, String> d = Map.of("NGPU", "8");
        assertTrue(ShellDefaults.note("--nproc_per_node=${NGPU}", d).contains("the default of NGPU, ${NGPU:-8}"));
        assertTrue(ShellDefaults.note("${NNODES:-2}", Map.of()).contains("the default of NNODES, ${NNODES:-2}"));
        assertNull(ShellDefaults.note("${SLURM_NNODES:-1}", Map.of()), "a variable the launcher sets is no default");
        assertNull(ShellDefaults.note("$GPUS", d));
        assertNull(ShellDefaults.note("8", d));
    }

    @Test
    void theDefaultsKeptAreBounded() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < ShellDefaults.MAX_DEFAULTS + 50; i++) s.append("V").append(i).append("=${V").append(i).append(":-1}\n");
        assertEquals(ShellDefaults.MAX_DEFAULTS, ShellDefaults.of(s.toString()).size());
    }
}
