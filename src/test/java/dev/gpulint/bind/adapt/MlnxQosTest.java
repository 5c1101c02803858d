package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Model;
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

    private static Model bind(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
    }

    private static Specs.Fabric fabric(String name, String text) {
        Model b = bind(name, text);
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
        Specs.Fabric same = fabric("qos.sh", """
                mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0
                mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0
                """);
        assertEquals(3L, same.pfcPriority().value(), "two lines that agree");
    }

    @Test
    void twoLinesThatGiveOnePortDifferentValuesLeaveItUnknown() {
        // the scan follows no control flow: which line runs last is not known
        for (String script : List.of("""
                if [ "$1" = "--undo" ]; then
                  mlnx_qos -i ens1f0np0 --trust dscp --pfc 0,0,0,1,0,0,0,0
                else
                  mlnx_qos -i ens1f0np0 --trust pcp --pfc 0,0,0,0,0,0,0,0
                fi
                """, """
                case "$MODE" in
                  lossless) mlnx_qos -i ens1f0np0 --trust dscp --pfc 0,0,0,1,0,0,0,0 ;;
                  lossy)    mlnx_qos -i ens1f0np0 --trust pcp --pfc 0,0,0,0,0,0,0,0 ;;
                esac
                """)) {
            Model b = bind("toggle.sh", script);
            assertTrue(b.clusters().isEmpty() || b.clusters().get(0).fabric().pfcEnabled() == null
                    && b.clusters().get(0).fabric().qos().trust() == null, script);
        }
    }

    @Test
    void unknownInterfacesOfTwoLoopsAreNotOnePort() {
        Model b = bind("two.sh", """
                for dev in ens1f0np0 ens2f0np0; do
                  mlnx_qos -i $dev --trust dscp --pfc 0,0,0,1,0,0,0,0
                done
                for dev in ens5f0np0 ens6f0np0; do
                  mlnx_qos -i $dev --trust dscp --pfc 0,0,0,0,1,0,0,0
                done
                """);
        assertNull(b.clusters().get(0).fabric().pfcEnabled(), "compute and storage NICs differ: PFC unknown, not the later one");
        assertEquals("dscp", b.clusters().get(0).fabric().qos().trust().value());
    }

    @Test
    void onlyARunMlnxQosIsRead() {
        for (String text : List.of("echo mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,0,0,1,0,0\n",
                "printf '%s\\n' mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,0,0,1,0,0\n",
                "cat <<USAGE\n  mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,0,1,0,0,0\nUSAGE\n",
                "grep mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,0,1,0,0,0\n")) {
            assertTrue(bind("dry.sh", text).clusters().isEmpty(), text);
        }
        for (String text : List.of("sudo mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0\n",
                "srun --ntasks-per-node=1 mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0\n",
                "pdsh -w node[1-4] mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0\n",
                "timeout 10 /usr/bin/mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0\n")) {
            assertEquals(3L, fabric("run.sh", text).pfcPriority().value(), text);
        }
    }

    @Test
    void aLineTheToolRejectsIsIgnoredAndAFlushLeavesTrustUnknown() {
        Specs.Fabric combo = fabric("combo.sh", """
                mlnx_qos -i eth0 --trust dscp --dscp2prio set,26,4
                mlnx_qos -i eth0 --pfc 0,0,0,0,1,0,0,0
                """);
        assertNull(combo.qos().trust(), "--trust with --dscp2prio: \"cannot be used at the same time\"");
        assertNull(combo.qos().dscpPriority());
        Specs.Fabric flush = fabric("flush.sh", """
                mlnx_qos -i eth0 --trust=dscp --pfc 0,0,0,1,0,0,0,0
                mlnx_qos -i eth0 --dscp2prio flush
                """);
        assertNull(flush.qos().trust(), "after a flush the trust state is unknown");
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
        Model setup = bind("roce.sh", "#!/bin/bash\nmlnx_qos -i eth0 --trust dscp\n");
        assertEquals(0, setup.jobs().size(), "no training launch: no job");
        assertEquals(List.of("roce.sh"), List.copyOf(setup.files()), "but the file is read");
        assertEquals("roce.sh", setup.clusters().get(0).name().value());
        assertEquals("mlnx_qos lines", setup.clusters().get(0).origin());
        Model query = bind("show.sh", "#!/bin/bash\nmlnx_qos -i eth0\nmlnx_qos -i eth0 -a\n");
        assertEquals(0, query.clusters().size());
        assertTrue(query.files().isEmpty(), "a script that only shows the settings is skipped quietly");
    }

    @Test
    void theScriptsOwnJobRunsOnItsFabric() {
        Model b = bind("train.sh", """
                #!/bin/bash
                mlnx_qos -i eth0 --trust dscp --pfc 0,0,0,1,0,0,0,0
                torchrun --nnodes 2 --nproc_per_node 8 train.py
                """);
        assertEquals(1, b.jobs().size());
        assertEquals("train.sh", b.jobs().get(0).cluster().value());
        assertNull(b.jobs().get(0).nodeGroup());
        Model plain = bind("train.sh", "#!/bin/bash\ntorchrun --nnodes 2 --nproc_per_node 8 train.py\n");
        assertNull(plain.jobs().get(0).cluster(), "no mlnx_qos, no cluster");
    }
}
