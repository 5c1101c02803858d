package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Span;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mlnx_qos lines in scripts bind as the fabric the hosts' NICs are set to, each setting where it is written. */
class MlnxQosTest {

    private static Adapters.Bound bind(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
    }

    private static Specs.Fabric fabric(String name, String text) {
        Adapters.Bound b = bind(name, text);
        assertEquals(1, b.clusters().size(), "one fabric for the script");
        return b.clusters().get(0).fabric();
    }

    @Test
    void everySpellingOfTheOptionsBinds() {
        String[] lines = {
            "mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0",
            "mlnx_qos -i eth0 --trust=dscp --pfc=0,0,0,1,0,0,0,0",
            "mlnx_qos --interface eth0 --trust dscp -f 0,0,0,1,0,0,0,0",
            "mlnx_qos --interface=eth0 --trust dscp -f0,0,0,1,0,0,0,0",
        };
        int[] columns = {37, 37, 43, 42};
        for (int k = 0; k < lines.length; k++) {
            Specs.Fabric f = fabric("qos.sh", "#!/bin/bash\n" + lines[k] + "\n");
            assertEquals("roce", f.type().value());
            assertEquals(new Span("qos.sh", 2, 1, 2, 9), f.type().span(), "RoCE where mlnx_qos is written: " + lines[k]);
            assertEquals(true, f.pfcEnabled().value());
            assertEquals(3L, f.pfcPriority().value());
            assertEquals(2, f.pfcPriority().span().startLine());
            assertEquals(columns[k], f.pfcPriority().span().startColumn(), "at the flags: " + lines[k]);
            assertEquals("dscp", f.qos().trust().value());
            assertTrue(f.qos().partial());
            assertNull(f.ecnEnabled(), "mlnx_qos sets no ECN");
            assertNull(f.qos().dscpPriority(), "the default map");
        }
    }

    @Test
    void aLoopOverTheRailNicsIsOnePortOfUnknownName() {
        Specs.Fabric f = fabric("setup.sh", """
                #!/bin/bash
                for dev in ens1f0np0 ens2f0np0; do
                    sudo mlnx_qos -i "$dev" --trust dscp
                    sudo mlnx_qos -i "$dev" --pfc 0,0,0,0,1,0,0,0
                done
                """);
        assertEquals(4L, f.pfcPriority().value());
        assertEquals(new Span("setup.sh", 4, 35, 4, 50), f.pfcPriority().span());
        assertEquals(new Span("setup.sh", 3, 37, 3, 41), f.qos().trust().span());
    }

    @Test
    void portsThatDisagreeLeaveTheSettingUnknown() {
        Specs.Fabric f = fabric("qos.sh", """
                mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0
                mlnx_qos -i eth1 --trust dscp --pfc 0,0,0,0,1,0,0,0
                """);
        assertNull(f.pfcEnabled());
        assertEquals("dscp", f.qos().trust().value(), "the trust state agrees");
        Specs.Fabric later = fabric("qos.sh", """
                mlnx_qos -i eth0 --pfc 0,0,0,0,1,0,0,0
                mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0
                """);
        assertEquals(3L, later.pfcPriority().value(), "a later line for the same port overrides, as the tool does");
        assertEquals(2, later.pfcPriority().span().startLine());
    }

    @Test
    void flagsThatAreNotEightZerosAndOnesAreUnknown() {
        assertEquals(0, bind("qos.sh", "mlnx_qos -i eth0 --pfc 0,0,0,1\n").clusters().size());
        assertEquals(0, bind("qos.sh", "mlnx_qos -i eth0 --pfc $PFC\n").clusters().size());
        Specs.Fabric off = fabric("qos.sh", "mlnx_qos -i eth0 --pfc 0,0,0,0,0,0,0,0\n");
        assertEquals(false, off.pfcEnabled().value());
        assertNull(off.pfcPriority());
    }

    @Test
    void dscp2prioChangesTheMapAndDelOrFlushMakeItUnknown() {
        Specs.Fabric f = fabric("qos.sh", """
                mlnx_qos -i eth0 --pfc 0,0,0,0,0,1,0,0
                mlnx_qos -i eth0 --dscp2prio set,40,5 --dscp2prio=set,26,5
                """);
        List<Integer> map = f.qos().dscpPriority();
        assertEquals(64, map.size());
        assertEquals(5, map.get(26));
        assertEquals(5, map.get(40));
        assertEquals(3, map.get(27), "the rest keeps DSCP >> 3");
        assertTrue(f.qos().losslessDscpChosen());
        assertEquals(new Span("qos.sh", 2, 30, 2, 38), f.qos().dscpMapSpan());
        Specs.Fabric del = fabric("qos.sh", "mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 --dscp2prio del,26,3\n");
        assertEquals(-1, del.qos().dscpPriority().get(26));
        assertFalse(del.qos().losslessDscpChosen(), "a del chooses nothing");
        Specs.Fabric flush = fabric("qos.sh", "mlnx_qos -i eth0 --dscp2prio flush\n");
        assertEquals(-1, flush.qos().dscpPriority().get(0));
    }

    @Test
    void aSetupScriptIsReadAndAQueryIsNot() {
        Adapters.Bound setup = bind("roce.sh", "#!/bin/bash\nmlnx_qos -i eth0 --trust dscp\n");
        assertEquals(0, setup.jobs().size(), "no training launch: no job");
        assertEquals(List.of("roce.sh"), List.copyOf(setup.files()), "but the file is read");
        assertEquals("roce.sh", setup.clusters().get(0).name().value());
        assertEquals("mlnx_qos lines", setup.clusters().get(0).origin());
        Adapters.Bound query = bind("show.sh", "#!/bin/bash\nmlnx_qos -i eth0\nmlnx_qos -i eth0 -a\n");
        assertEquals(0, query.clusters().size());
        assertTrue(query.files().isEmpty(), "a script that only shows the settings is skipped quietly");
    }

    @Test
    void theScriptsOwnJobRunsOnItsFabric() {
        Adapters.Bound b = bind("train.sh", """
                #!/bin/bash
                mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0
                torchrun --nnodes 2 --nproc_per_node 8 train.py
                """);
        assertEquals(1, b.jobs().size());
        assertEquals("train.sh", b.jobs().get(0).cluster().value());
        assertNull(b.jobs().get(0).nodeGroup());
        Adapters.Bound plain = bind("train.sh", "#!/bin/bash\ntorchrun --nnodes 2 --nproc_per_node 8 train.py\n");
        assertNull(plain.jobs().get(0).cluster(), "no mlnx_qos, no cluster");
    }
}
