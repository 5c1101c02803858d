package dev.gpulint.derive.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** Of the lines EnvLines writes out for a setting, the text holds exactly the one it is written as, or none. */
class EnvLinesTest {

    /** The edits that the text holds (TextEdit.resolve), as the linter keeps them. */
    private static List<TextEdit> placed(String text, String name, String value, int line, int col, int len, boolean others) {
        List<TextEdit> all = EnvLines.removals(name, value, new Span("f", line, col, line, col + len), others);
        return all.stream().map(e -> e.resolve(text)).filter(Objects::nonNull).toList();
    }

    private static String apply(String text, TextEdit e) {
        int a = text.offsetByCodePoints(0, e.startOffset()), b = text.offsetByCodePoints(0, e.endOffset());
        return text.substring(0, a) + e.replacement() + text.substring(b);
    }

    @Test
    void aYamlEntryAmongOthersLosesItsLine() {
        String t = "env:\n  A: x\n  NCCL_IB_DISABLE: \"1\"\n  B: y\n";
        List<TextEdit> p = placed(t, "NCCL_IB_DISABLE", "1", 3, 20, 3, true);
        assertEquals(1, p.size());
        assertEquals("env:\n  A: x\n  B: y\n", apply(t, p.get(0)));
    }

    @Test
    void theOnlyYamlEntryTakesItsMappingAlong() {
        String t = "nodes: 2\nenv:\n  NCCL_IB_DISABLE: '1'\n";
        List<TextEdit> p = placed(t, "NCCL_IB_DISABLE", "1", 3, 20, 3, false);
        assertEquals(1, p.size());
        assertEquals("nodes: 2\n", apply(t, p.get(0)));
    }

    @Test
    void kubernetesItemsOnOneLineOrTwo() {
        String one = "env:\n  - { name: X, value: \"0\" }\n  - { name: NCCL_NET_GDR_LEVEL, value: LOC }\n";
        List<TextEdit> p = placed(one, "NCCL_NET_GDR_LEVEL", "LOC", 3, 40, 3, true);
        assertEquals(1, p.size());
        assertEquals("env:\n  - { name: X, value: \"0\" }\n", apply(one, p.get(0)));
        String two = "env:\n  - name: NCCL_P2P_DISABLE\n    value: \"1\"\n  - name: X\n    value: y\n";
        p = placed(two, "NCCL_P2P_DISABLE", "1", 3, 12, 3, true);
        assertEquals(1, p.size());
        assertEquals("env:\n  - name: X\n    value: y\n", apply(two, p.get(0)));
    }

    @Test
    void exportAndDslLines() {
        String sh = "#!/bin/bash\nexport NCCL_IB_DISABLE=1\ntorchrun train.py\n";
        List<TextEdit> p = placed(sh, "NCCL_IB_DISABLE", "1", 2, 24, 1, false);
        assertEquals(1, p.size());
        assertEquals("#!/bin/bash\ntorchrun train.py\n", apply(sh, p.get(0)));
        String dsl = "training_job \"j\" {\n  env { NCCL_IB_DISABLE = \"true\" }\n}\n";
        p = placed(dsl, "NCCL_IB_DISABLE", "true", 2, 27, 6, false);
        assertEquals(1, p.size());
        assertEquals("training_job \"j\" {\n}\n", apply(dsl, p.get(0)));
    }

    @Test
    void aLineHoldingMoreGetsNone() {
        // a comment, a second variable on the line, a launch command, the file's last line without a newline
        assertEquals(0, placed("env:\n  A: x\n  NCCL_IB_DISABLE: \"1\"  # test\n", "NCCL_IB_DISABLE", "1", 3, 20, 3, true).size());
        assertEquals(0, placed("env: { A: x, NCCL_IB_DISABLE: \"1\" }\n", "NCCL_IB_DISABLE", "1", 1, 31, 3, true).size());
        assertEquals(0, placed("mpirun -x NCCL_IB_DISABLE=1 ./a\n", "NCCL_IB_DISABLE", "1", 1, 27, 1, false).size());
        assertEquals(0, placed("#!/bin/sh\nexport NCCL_IB_DISABLE=1", "NCCL_IB_DISABLE", "1", 2, 24, 1, false).size());
    }
}
